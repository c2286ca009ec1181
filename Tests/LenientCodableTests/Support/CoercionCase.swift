// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A one-property model: `{"value": …}`. Its only coding key is `value`, so a forgiven value is reported at `value`
/// (or `value[1]`, `value.key` inside a collection).
///
/// When `Value` is an optional, it decodes as a property declared `var value: Wrapped?` does — through
/// `decodeIfPresent`, so a missing key is `nil` — where synthesized `Codable` on a generic `Value` would call `decode`.
struct Box<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value

    enum CodingKeys: String, CodingKey {
        case value
    }

    init(value: Value) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let optional = Value.self as? any DecodableOptional.Type else {
            value = try container.decode(Value.self, forKey: .value)
            return
        }
        guard let value = try optional.decodeIfPresent(from: container, forKey: .value) as? Value else {
            throw DecodingError.typeMismatch(
                Value.self, .init(codingPath: container.codingPath, debugDescription: "Not an optional."))
        }
        self.value = value
    }
}

/// An optional whose wrapped type is decodable: decoded through `decodeIfPresent`, as an optional property is.
protocol DecodableOptional {
    static func decodeIfPresent<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> Self
}

extension Optional: DecodableOptional where Wrapped: Decodable {
    static func decodeIfPresent<Key: CodingKey>(
        from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> Wrapped? {
        try container.decodeIfPresent(Wrapped.self, forKey: key)
    }
}

extension Box: Sendable where Value: Sendable {}

/// What `.lenient` must make of one input.
enum LenientExpectation<Value> {
    /// The value, and nothing reported: the input is in a form the type normally takes.
    case clean(Value)
    /// The value, and exactly one issue of this kind at ``CoercionCase/path``.
    case forgiven(Value, DecodingIssue.Kind)
    /// The value, and exactly one issue whose kind is one of these (for rows DESIGN.md leaves open).
    case forgivenAsOneOf(Value, [DecodingIssue.Kind])
    /// A `DecodingError` is thrown: the type has no default.
    case fails
}

/// One input decoded as `Box<T>` by `LenientJSONDecoder(.lenient)` with a report, and by Foundation's `JSONDecoder` and
/// `LenientJSONDecoder(.strict)`, compared live. In `.strict` the outcome must be Foundation's; when `.lenient`
/// forgives the input (or fails on it), Foundation must reject it, so the row really is a leniency.
struct CoercionCase: Sendable, CustomTestStringConvertible {
    let name: String
    /// The document: `{"value": fragment}`, or `{}` for a missing value.
    let json: String
    /// Where the issue is expected.
    let path: String
    let run: @Sendable (CoercionCase, SourceLocation) -> Void

    var testDescription: String { name }

    /// A case for `{"value": fragment}` (or `{}` when `fragment` is `nil`) decoded as `Box<Value>`.
    ///
    /// - Parameters:
    ///   - fragment: The JSON text of the value, or `nil` for a missing key.
    ///   - expectation: What `.lenient` must do.
    ///   - path: Where the issue is reported; `value` unless the issue is inside a collection.
    ///   - messageContains: Texts the issue's message must contain (what was found, what it became).
    ///   - configuration: Decoder settings applied to all three decoders.
    ///   - note: Added to the name.
    ///   - foundationTakesTheFallbackCase: Whether Foundation decodes the input too, as the type's `CaseFallback`
    ///     case: the type's own declaration applies under every decoder, so `.lenient` gives that case too.
    ///   - isEqual: How decoded values compare (`==` unless given, for `NaN`).
    init<Value: Codable & Equatable & Sendable>(
        _ type: Value.Type, _ fragment: String?, _ expectation: LenientExpectation<Value>, path: String = "value",
        messageContains: [String] = [], configuration: DecoderConfiguration = DecoderConfiguration(),
        note: String? = nil, foundationTakesTheFallbackCase: Bool = false,
        isEqual: @escaping @Sendable (Value, Value) -> Bool = { $0 == $1 }
    ) {
        let json = fragment.map { #"{"value":\#($0)}"# } ?? "{}"
        var name = "\(Value.self) from \(fragment ?? "(missing)")"
        if let note { name += " (\(note))" }
        self.name = name
        self.json = json
        self.path = path
        let messageContains = messageContains
        let (value, kinds, isFailure): (Value?, [DecodingIssue.Kind]?, Bool) =
            switch expectation {
            case .clean(let value): (value, [], false)
            case .forgiven(let value, let kind): (value, [kind], false)
            case .forgivenAsOneOf(let value, let kinds): (value, kinds, false)
            case .fails: (nil, nil, true)
            }
        run = { testCase, sourceLocation in
            let data = Data(testCase.json.utf8)
            checkLenient(
                Value.self, data, expected: value, kinds: kinds, path: testCase.path, messageContains: messageContains,
                configuration: configuration, isEqual: isEqual, sourceLocation: sourceLocation)
            let outcome = DifferentialOutcome(Box<Value>.self, from: data, configuration: configuration)
            if foundationTakesTheFallbackCase {
                #expect(
                    outcome.foundation.error == nil,
                    "Foundation's JSONDecoder must take the declared fallback case; it gave \(outcome.foundation)",
                    sourceLocation: sourceLocation)
            } else if isFailure || kinds?.isEmpty == false {
                #expect(
                    outcome.foundation.error != nil,
                    "Foundation's JSONDecoder must reject what .lenient forgives; it decoded \(outcome.foundation)",
                    sourceLocation: sourceLocation)
            }
            expectSameOutcome(outcome, ".strict vs Foundation", sourceLocation: sourceLocation)
        }
    }

    /// Runs the case: `.lenient` with its report, then `.strict` against Foundation.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        run(self, sourceLocation)
    }
}

/// Decodes `data` as `Box<Value>` in `.lenient` with a report and checks the value and the report; `expected == nil`
/// means the decode must throw a `DecodingError`; `kinds` lists the kinds the single issue may have (empty: no issue).
private func checkLenient<Value: Codable & Equatable>(
    _ type: Value.Type, _ data: Data, expected: Value?, kinds: [DecodingIssue.Kind]?, path: String,
    messageContains: [String], configuration: DecoderConfiguration, isEqual: (Value, Value) -> Bool,
    sourceLocation: SourceLocation
) {
    let decoder = configuration.lenientDecoder(.lenient)
    let result = DecodingOutcome { try decoder.decodeWithReport(Box<Value>.self, from: data) }
    guard let expected, let kinds else {
        switch result {
        case .value(let decoded):
            Issue.record(
                ".lenient must throw, but decoded \(decoded.value.value) with report: \(decoded.report)",
                sourceLocation: sourceLocation)
        case .failure(let error):
            #expect(error is DecodingError, "A DecodingError, not \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    guard case .value(let decoded) = result else {
        Issue.record(".lenient threw \(result.error.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        return
    }
    #expect(
        isEqual(decoded.value.value, expected), ".lenient decoded \(decoded.value.value), expected \(expected)",
        sourceLocation: sourceLocation)
    expectReport(decoded.report, hasOneIssueAt: path, ofKindIn: kinds, sourceLocation: sourceLocation)
    for text in messageContains {
        #expect(
            decoded.report.issues.first?.message.contains(text) == true,
            "The message names \(text.debugDescription): \(decoded.report.issues.first?.message ?? "(no issue)")",
            sourceLocation: sourceLocation)
    }
}

/// Expects an empty report when `kinds` is empty, else exactly one issue at `path` whose kind is in `kinds`.
func expectReport(
    _ report: DecodingReport, hasOneIssueAt path: String, ofKindIn kinds: [DecodingIssue.Kind],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard !kinds.isEmpty else {
        #expect(
            report.isEmpty, "Nothing is forgiven, so nothing is reported: \(report)", sourceLocation: sourceLocation)
        return
    }
    #expect(report.issues.count == 1, "Exactly one issue: \(report)", sourceLocation: sourceLocation)
    guard let issue = report.issues.first else { return }
    #expect(kinds.contains(issue.kind), "Kind \(issue.kind), expected one of \(kinds)", sourceLocation: sourceLocation)
    #expect(
        issue.path == path, "Path \(issue.path.debugDescription), expected \(path.debugDescription)",
        sourceLocation: sourceLocation)
}

/// The `(kind, path)` pairs of a report, for comparing whole reports.
struct IssueSummary: Hashable, Sendable, Comparable, CustomStringConvertible {
    let kind: DecodingIssue.Kind
    let path: String

    init(_ kind: DecodingIssue.Kind, _ path: String) {
        self.kind = kind
        self.path = path
    }

    init(_ issue: DecodingIssue) {
        self.init(issue.kind, issue.path)
    }

    static func < (lhs: IssueSummary, rhs: IssueSummary) -> Bool {
        (lhs.path, lhs.kind.rawValue) < (rhs.path, rhs.kind.rawValue)
    }

    var description: String { "\(kind) \(path)" }
}

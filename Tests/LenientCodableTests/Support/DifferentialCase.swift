// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// One input decoded as one type by Foundation's `JSONDecoder` and by `LenientJSONDecoder(.strict)`, for tables of
/// parameterized tests. The expected result is Foundation's, computed live, except where ``Expectation`` names one of
/// the two deliberate improvements of `.strict` (DESIGN.md).
struct DifferentialCase: Sendable, CustomTestStringConvertible {
    enum Expectation: Sendable {
        /// Both decoders produce equal values.
        case sameValue
        /// Foundation throws a `DecodingError`; ours throws the same case, coding path and missing key.
        case sameError
        /// A syntax error: Foundation throws `dataCorrupted` without a position; ours throws `dataCorrupted` with a
        /// ``JSONParseError`` of this code at this line and one of these columns.
        case syntaxError(JSONParseError.Code, line: Int, columns: ClosedRange<Int>)
        /// Input outside RFC 8259 that Foundation accepts (a trailing comma, or an invalid value it never decodes);
        /// `.strict` rejects it with a ``JSONParseError`` of this code at this line and one of these columns.
        case strictParsingRejects(JSONParseError.Code, line: Int, columns: ClosedRange<Int>)
    }

    /// The two outcomes, with values reduced to a description and whether they are equal.
    struct Outcome {
        let foundation: DecodingOutcome<String>
        let strict: DecodingOutcome<String>
        let valuesAreEqual: Bool
    }

    let name: String
    let input: Data
    let expectation: Expectation
    let run: @Sendable (Data) -> Outcome

    var testDescription: String { name }

    /// A case that decodes `json` as `type` with the given decoder settings.
    init<Value: Decodable & Equatable & SendableMetatype>(
        _ name: String, _ type: Value.Type, _ json: String, _ expectation: Expectation,
        configuration: DecoderConfiguration = DecoderConfiguration()
    ) {
        self.init(name, type, Data(json.utf8), expectation, configuration: configuration)
    }

    /// A case that decodes `input` as `type` with the given decoder settings.
    init<Value: Decodable & Equatable & SendableMetatype>(
        _ name: String, _ type: Value.Type, _ input: Data, _ expectation: Expectation,
        configuration: DecoderConfiguration = DecoderConfiguration()
    ) {
        self.name = name
        self.input = input
        self.expectation = expectation
        run = { data in
            let outcome = DifferentialOutcome(Value.self, from: data, configuration: configuration)
            return Outcome(
                foundation: outcome.foundation.described, strict: outcome.lenient.described,
                valuesAreEqual: outcome.foundation.value != nil && outcome.foundation.value == outcome.lenient.value)
        }
    }

    /// Decodes the input with both decoders and checks the outcome against the expectation.
    func check(sourceLocation: SourceLocation = #_sourceLocation) {
        let outcome = run(input)
        switch expectation {
        case .sameValue:
            #expect(outcome.foundation.value != nil, "Foundation decodes the input.", sourceLocation: sourceLocation)
            #expect(
                outcome.valuesAreEqual, "Foundation: \(outcome.foundation); ours: \(outcome.strict)",
                sourceLocation: sourceLocation)
        case .sameError:
            guard let expected = outcome.foundation.error else {
                Issue.record(
                    "Foundation was expected to throw but decoded \(outcome.foundation).",
                    sourceLocation: sourceLocation)
                return
            }
            #expect(
                outcome.strict.errorSummary?.agrees(withFoundation: DecodingErrorSummary(expected)) == true,
                "Foundation: \(DecodingErrorSummary(expected)); ours: \(outcome.strict)", sourceLocation: sourceLocation
            )
        case .syntaxError(let code, let line, let columns):
            #expect(
                outcome.foundation.errorSummary == DecodingErrorSummary(kind: .dataCorrupted, codingPath: []),
                "Foundation reports a syntax error as dataCorrupted at the top: \(outcome.foundation)",
                sourceLocation: sourceLocation)
            expectPositionedSyntaxError(
                outcome.strict.error, code, line: line, columns: columns, sourceLocation: sourceLocation)
        case .strictParsingRejects(let code, let line, let columns):
            #expect(
                outcome.foundation.value != nil, "Foundation accepts this input: \(outcome.foundation)",
                sourceLocation: sourceLocation)
            expectPositionedSyntaxError(
                outcome.strict.error, code, line: line, columns: columns, sourceLocation: sourceLocation)
        }
    }

    private func expectPositionedSyntaxError(
        _ error: (any Error)?, _ code: JSONParseError.Code, line: Int, columns: ClosedRange<Int>,
        sourceLocation: SourceLocation
    ) {
        guard let parseError = expectSyntaxError(error, sourceLocation: sourceLocation) else { return }
        #expect(parseError.code == code, "\(parseError.debugDescription)", sourceLocation: sourceLocation)
        #expect(parseError.line == line, "\(parseError.debugDescription)", sourceLocation: sourceLocation)
        #expect(columns.contains(parseError.column), "\(parseError.debugDescription)", sourceLocation: sourceLocation)
    }
}

extension DecodingOutcome {
    /// The same outcome with the value replaced by its description.
    fileprivate var described: DecodingOutcome<String> {
        switch self {
        case .value(let value): .value(String(describing: value))
        case .failure(let error): .failure(error)
        }
    }
}

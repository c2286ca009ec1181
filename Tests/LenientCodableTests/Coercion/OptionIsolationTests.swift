// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Each option switches its row of the table on or off alone: from `.strict`, turning on exactly one flag forgives that
/// flag's sample input and no other sample (the defaulting flags may turn another sample into a default, reported as
/// such, but never into the value its own flag gives).
@Suite struct OptionIsolationTests {
    typealias Options = LenientJSONDecoder.Options

    enum Mood: String, Codable, Sendable {
        case happy, sad
    }

    struct Profile: Codable, Equatable, Sendable {
        var userName: String
    }

    /// What one decode of a sample gave: `nil` when it threw.
    struct SampleOutcome {
        let isForgivenValue: Bool
        let report: DecodingReport
    }

    struct FlagRow: Sendable, CustomTestStringConvertible {
        let name: String
        let keyPath: WritableKeyPath<Options, Bool> & Sendable
        let json: String
        /// The kinds the single issue of the forgiven sample may have; empty when nothing is reported.
        let kinds: [DecodingIssue.Kind]
        /// Whether a default (under another flag) is a different value from the forgiven one.
        let isDistinguishableFromDefault: Bool
        let decode: @Sendable (Options) -> SampleOutcome?

        var testDescription: String { name }

        var isDefaultingFlag: Bool {
            [\Options.defaultsMissingValues, \Options.defaultsNullValues, \Options.defaultsInvalidValues].contains(
                keyPath)
        }

        init<Value: Decodable & Equatable & Sendable>(
            _ name: String, _ keyPath: WritableKeyPath<Options, Bool> & Sendable, _ type: Value.Type, _ json: String,
            _ forgiven: Value, _ kinds: [DecodingIssue.Kind], isDistinguishableFromDefault: Bool = true
        ) {
            self.name = name
            self.keyPath = keyPath
            self.json = json
            self.kinds = kinds
            self.isDistinguishableFromDefault = isDistinguishableFromDefault
            decode = { options in
                let decoder = LenientJSONDecoder(options: options)
                guard let result = try? decoder.decodeWithReport(Value.self, from: json) else { return nil }
                return SampleOutcome(isForgivenValue: result.value == forgiven, report: result.report)
            }
        }

        func options() -> Options {
            var options = Options.strict
            options[keyPath: keyPath] = true
            return options
        }
    }

    static let rows: [FlagRow] = [
        FlagRow("allowsTrailingCommas", \.allowsTrailingCommas, [Int].self, "[1,2,]", [1, 2], []),
        FlagRow(
            "allowsLooseKeyMatching", \.allowsLooseKeyMatching, Profile.self, #"{"user_name":"ada"}"#,
            Profile(userName: "ada"), [.keyFallback]),
        FlagRow(
            "coercesNumbersFromStrings", \.coercesNumbersFromStrings, Box<Int>.self, #"{"value":"42"}"#, Box(value: 42),
            [.coerced]),
        FlagRow(
            "coercesNumbersFromBooleans", \.coercesNumbersFromBooleans, Box<Int>.self, #"{"value":true}"#,
            Box(value: 1), [.coerced]),
        FlagRow(
            "truncatesFractionsToIntegers", \.truncatesFractionsToIntegers, Box<Int>.self, #"{"value":2.9}"#,
            Box(value: 2), [.coerced]),
        FlagRow(
            "coercesBooleans", \.coercesBooleans, Box<Bool>.self, #"{"value":"yes"}"#, Box(value: true), [.coerced]),
        FlagRow("coercesStrings", \.coercesStrings, Box<String>.self, #"{"value":12}"#, Box(value: "12"), [.coerced]),
        FlagRow(
            "decodesDatesWithFormatList", \.decodesDatesWithFormatList, Box<Date>.self,
            #"{"value":"2026-11-20T09:30:00Z"}"#, Box(value: Date(timeIntervalSince1970: 1_795_167_000)), []),
        FlagRow("coercesEnums", \.coercesEnums, Box<Mood>.self, #"{"value":"HAPPY"}"#, Box(value: .happy), [.coerced]),
        FlagRow(
            "wrapsSingleValuesInArrays", \.wrapsSingleValuesInArrays, Box<[Int]>.self, #"{"value":3}"#, Box(value: [3]),
            [.coerced]),
        FlagRow(
            "parsesJSONInStrings", \.parsesJSONInStrings, Box<[Int]>.self, #"{"value":"[1,2]"}"#, Box(value: [1, 2]),
            [.coerced]),
        FlagRow(
            "treatsNullLikeStringsAsNull", \.treatsNullLikeStringsAsNull, Box<Int?>.self, #"{"value":"<null>"}"#,
            Box(value: nil), [.coerced, .defaulted], isDistinguishableFromDefault: false),
        FlagRow("defaultsMissingValues", \.defaultsMissingValues, Box<Int>.self, "{}", Box(value: 0), [.defaulted]),
        FlagRow(
            "defaultsNullValues", \.defaultsNullValues, Box<Int>.self, #"{"value":null}"#, Box(value: 0), [.defaulted]),
        FlagRow(
            "defaultsInvalidValues", \.defaultsInvalidValues, Box<Int>.self, #"{"value":"abc"}"#, Box(value: 0),
            [.defaulted]),
        FlagRow(
            "dropsInvalidElements", \.dropsInvalidElements, Box<[Int]>.self, #"{"value":[1,"x",3]}"#,
            Box(value: [1, 3]), [.droppedElement]),
    ]

    @Test(arguments: rows)
    func flagForgivesItsRow(_ row: FlagRow) throws {
        #expect(row.decode(.strict) == nil, ".strict rejects the sample")
        let lenient = try #require(row.decode(.lenient), ".lenient forgives the sample")
        #expect(lenient.isForgivenValue)
        let outcome = try #require(row.decode(row.options()), ".strict plus \(row.name) forgives the sample")
        #expect(outcome.isForgivenValue, "\(outcome.report)")
        if row.kinds.isEmpty {
            #expect(outcome.report.isEmpty, "\(outcome.report)")
        } else {
            #expect(outcome.report.issues.count == 1, "\(outcome.report)")
            #expect(outcome.report.issues.allSatisfy { row.kinds.contains($0.kind) }, "\(outcome.report)")
        }
    }

    @Test(arguments: rows)
    func flagForgivesNoOtherRow(_ row: FlagRow) {
        let options = row.options()
        for other in Self.rows where other.name != row.name {
            guard let outcome = other.decode(options) else { continue }
            #expect(
                row.isDefaultingFlag,
                "\(row.name) alone must not accept the sample of \(other.name); report: \(outcome.report)")
            #expect(
                !outcome.report.isEmpty && outcome.report.issues.allSatisfy { $0.kind == .defaulted },
                "\(row.name) alone may only default the sample of \(other.name): \(outcome.report)")
            if other.isDistinguishableFromDefault {
                #expect(
                    !outcome.isForgivenValue, "\(row.name) alone gave the sample of \(other.name) its forgiven value")
            }
        }
    }

    @Test func presets() {
        let lenient = Options.lenient
        let strict = Options.strict
        // `Options()` is the decoder's own default, so a forgotten preset never turns every leniency off.
        #expect(Options() == lenient)
        #expect(Options() != strict)
        #expect(LenientJSONDecoder().options == lenient, "lenient is the default")
        #expect(LenientJSONDecoder(options: Options()).options == LenientJSONDecoder().options)
        for row in Self.rows {
            #expect(lenient[keyPath: row.keyPath], "\(row.name) is on in .lenient")
            #expect(!strict[keyPath: row.keyPath], "\(row.name) is off in .strict")
        }
        #expect(!lenient.reportsUnknownKeys && !strict.reportsUnknownKeys)
        #expect(lenient.dateFormats == DateFormat.standardList)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A `null` under a key of a fallback list, or under a key matched loosely, is no value: the first
/// present non-null value wins, and a null found anywhere is reported once, as the null it is,
/// never as a fallback hit.
@Suite struct FallbackNullTests {
    struct Fallbacks: Codable, Equatable, KeyMapping {
        var y: [Int]
        var n: Int
        var s: String?

        static var keyMapping: [String: KeySource] { ["y": ["b", "c"], "n": ["n1", "n2"], "s": ["s1", "s2"]] }
    }

    /// One line per issue, in the report's own words.
    static func summary(_ report: DecodingReport) -> [String] {
        report.issues.map { "\($0.path) (\($0.jsonPath)) \($0.kind): \($0.message)" }
    }

    @Test func nullUnderALaterCandidateIsOneDefaultNotAFallback() throws {
        let json = #"{"c":null,"n2":null,"s2":null}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Fallbacks.self, from: json)
        #expect(value == Fallbacks(y: [], n: 0, s: nil))
        #expect(
            Self.summary(report) == [
                "y (c) defaulted: Found null; used the default [].",
                "n (n2) defaulted: Found null; used the default 0.",
            ])
    }

    @Test func aNullPassedOverIsNoUnknownKey() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let json = #"{"b":null,"c":[1],"n1":null,"n2":3,"s1":"x","s2":"y","z":1}"#
        let (_, report) = try LenientJSONDecoder(options: options).decodeWithReport(Fallbacks.self, from: json)
        // `b` and `n1` were looked at and passed over; `s2` was never needed, and `z` is no candidate of anything.
        #expect(report.issues(ofKind: .unknownKey).map(\.path) == ["s2", "z"])
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func laterValueWinsOverAnEarlierNullWithOneFallbackEntry(options: LenientJSONDecoder.Options) throws {
        let json = #"{"b":null,"c":[1],"n1":null,"n2":3,"s1":null,"s2":"x"}"#
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(Fallbacks.self, from: json)
        #expect(value == Fallbacks(y: [1], n: 3, s: "x"))
        #expect(
            Self.summary(report) == [
                #"y (c) keyFallback: Found y under "c" instead of "b"."#,
                #"n (n2) keyFallback: Found n under "n2" instead of "n1"."#,
                #"s (s2) keyFallback: Found s under "s2" instead of "s1"."#,
            ])
    }

    @Test func strictReadsANullUnderALaterCandidateAsFoundationReadsNull() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Fallbacks.self, from: #"{"c":null,"n1":1}"#)
        }
        guard case .valueNotFound(_, let context) = error else {
            Issue.record("expected valueNotFound, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["y"])
        // An optional property stays nil, with nothing to report.
        let (value, report) = try LenientJSONDecoder(options: .strict).decodeWithReport(
            Fallbacks.self, from: #"{"b":[],"n1":1,"s2":null}"#)
        #expect(value == Fallbacks(y: [], n: 1, s: nil))
        #expect(report.isEmpty)
    }

    @Test func nullsEverywhereTakeTheFirstNull() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            Fallbacks.self, from: #"{"b":null,"c":null,"n1":1}"#)
        #expect(value == Fallbacks(y: [], n: 1, s: nil))
        #expect(Self.summary(report) == ["y (b) defaulted: Found null; used the default []."])
    }

    @Test func roundTripsThroughTheEncoderUnderTheFirstKeys() throws {
        let value = Fallbacks(y: [1, 2], n: 3, s: "x")
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        #expect(String(decoding: data, as: UTF8.self) == #"{"b":[1,2],"n1":3,"s1":"x"}"#)
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let (decoded, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                Fallbacks.self, from: data)
            #expect(decoded == value)
            #expect(report.isEmpty)
        }
    }

    /// A `null` under another spelling is no value found: the key is missing, as Foundation's
    /// decoder sees it.
    @Test func looselyMatchedNullIsNotAFallbackEither() throws {
        // Candidates matched ignoring case: the first non-null one wins.
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            Fallbacks.self, from: #"{"B":null,"C":[2],"N1":null,"S2":null}"#)
        #expect(value == Fallbacks(y: [2], n: 0, s: nil))
        #expect(
            Self.summary(report) == [
                #"y (C) keyFallback: Found y under "C" instead of "b"."#,
                "n (n1) defaulted: Missing value; used the default 0.",
            ])
        // A property without a mapping, matched loosely.
        struct Account: Decodable, Equatable {
            var userName: String
            var nickName: String?
        }
        let (account, accountReport) = try LenientJSONDecoder().decodeWithReport(
            Account.self, from: #"{"user_name":null,"nick_name":null}"#)
        #expect(account == Account(userName: "", nickName: nil))
        #expect(Self.summary(accountReport) == ["userName (userName) defaulted: Missing value; used the default \"\"."])
    }
}

// MARK: - A null under another spelling, against Foundation

extension FallbackNullTests {
    struct AsksWhetherNull: Decodable, Equatable {
        var wasNull: Bool
        enum CodingKeys: String, CodingKey { case w }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            wasNull = container.contains(.w) ? try container.decodeNil(forKey: .w) : false
        }
    }

    struct OptionalThroughDecode: Decodable, Equatable {
        var userID: Int?
        enum CodingKeys: String, CodingKey { case userID }
        init(from decoder: any Decoder) throws {
            userID = try decoder.container(keyedBy: CodingKeys.self).decode(Int?.self, forKey: .userID)
        }
    }

    struct Kept: Codable, Equatable {
        var userName: String?
        var extras = UnknownKeys()
    }

    /// `contains` and `decodeNil` answer as Foundation's decoder does for a `null` under another
    /// spelling; a `decode(Int?.self, …)` that Foundation fails on for the missing key is
    /// forgiven and reported; and a bag keeps the member, round trip included.
    @Test(arguments: [#"{"W":null}"#, #"{"_w":null}"#])
    func aNullUnderAnotherSpellingIsAMissingKey(_ text: String) throws {
        let json = Data(text.utf8)
        let foundation = try JSONDecoder().decode(AsksWhetherNull.self, from: json)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(AsksWhetherNull.self, from: json)
        #expect(foundation.wasNull == false && lenient == foundation && report.isEmpty)

        let spelled = Data(#"{"user_id":null}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OptionalThroughDecode.self, from: spelled) }
        let (optional, optionalReport) = try LenientJSONDecoder().decodeWithReport(
            OptionalThroughDecode.self, from: spelled)
        #expect(optional.userID == nil)
        #expect(optionalReport.issues.map(\.kind) == [.defaulted])

        // A later spelling that holds a value is read, whatever the order of the members.
        for text in [#"{"user_name":null,"UserName":"bob"}"#, #"{"UserName":"bob","user_name":null}"#] {
            let (read, readReport) = try LenientJSONDecoder().decodeWithReport(Kept.self, from: text)
            #expect(read.userName == "bob" && read.extras == ["user_name": nil])
            #expect(readReport.issues.map(\.kind) == [.keyFallback])
            let again = try LenientJSONDecoder().decodeWithReport(Kept.self, from: LenientJSONEncoder().encode(read))
            #expect(again.value == read && again.report.isEmpty)
        }
        let (kept, keptReport) = try LenientJSONDecoder().decodeWithReport(Kept.self, from: #"{"UserName":null}"#)
        #expect(kept.userName == nil && kept.extras == ["UserName": nil] && keptReport.isEmpty)
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(
            Kept.self, from: LenientJSONEncoder().encode(kept))
        #expect(again == kept && againReport.isEmpty)
    }
}

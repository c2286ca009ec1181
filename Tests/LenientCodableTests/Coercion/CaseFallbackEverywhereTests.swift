// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `CaseFallback` is the enum's own declaration: it applies under Foundation's decoder and in `.strict` as in
/// `.lenient`, and every fallback taken by a LenientCodable decoder is reported once.
@Suite struct CaseFallbackEverywhereTests {
    enum Status: String, Codable, CaseFallback, Equatable {
        case active, suspended, unknown
        static let fallbackCase = Status.unknown
    }

    enum Level: Int, Codable, CaseFallback, Equatable {
        case low = 1
        case high = 2
        case other = 0
        static let fallbackCase = Level.other
    }

    struct Account: Codable, Equatable {
        var status: Status
        var level: Level
    }

    static let known = #"{"status":"suspended","level":2}"#
    static let unknown = #"{"status":"archived","level":7}"#

    @Test func foundationsDecoderTakesTheFallbackCase() throws {
        let decoder = JSONDecoder()
        #expect(
            try decoder.decode(Account.self, from: Data(Self.known.utf8)) == Account(status: .suspended, level: .high))
        #expect(
            try decoder.decode(Account.self, from: Data(Self.unknown.utf8)) == Account(status: .unknown, level: .other))
        // A value of another JSON type is not an unknown case: it fails as without a fallback.
        #expect(throws: DecodingError.self) {
            try decoder.decode(Account.self, from: Data(#"{"status":3,"level":1}"#.utf8))
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func lenientCodableDecodersTakeTheFallbackAndReportItOnce(_ options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        let (account, report) = try decoder.decodeWithReport(Account.self, from: Self.unknown)
        #expect(account == Account(status: .unknown, level: .other))
        #expect(report.issues.map(\.path) == ["status", "level"])
        #expect(report.issues.allSatisfy { $0.kind == .defaulted && $0.message.contains("fallback") })
        let (clean, cleanReport) = try decoder.decodeWithReport(Account.self, from: Self.known)
        #expect(clean == Account(status: .suspended, level: .high))
        #expect(cleanReport.isEmpty)
        // Encoding writes the fallback's own raw value, which decodes back to it.
        let encoded = try LenientJSONEncoder().encode(account)
        #expect(try decoder.decode(Account.self, from: encoded) == account)
    }

    @Test func strictRefusesAnotherJSONTypeAsFoundationDoes() throws {
        let document = #"{"status":3,"level":1}"#
        let ours = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Account.self, from: document)
        }
        let foundations = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Account.self, from: Data(document.utf8))
        }
        guard case .typeMismatch(_, let context) = ours, case .typeMismatch(_, let reference) = foundations else {
            Issue.record("expected type mismatches, got \(ours) and \(foundations)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == reference.codingPath.map(\.stringValue))
    }

    @Test func lenientCoercesTheRawValueBeforeFallingBack() throws {
        let (account, report) = try LenientJSONDecoder().decodeWithReport(
            Account.self, from: #"{"status":"ACTIVE","level":"2"}"#)
        #expect(account == Account(status: .active, level: .high))
        #expect(report.issues.map(\.kind) == [.coerced, .coerced])
    }
}

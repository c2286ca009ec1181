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

    struct Board: Codable, Equatable {
        @LossyArray var statuses: [Status]
    }

    /// `null` in a list or dictionary is no element: it is left out and reported, as a `null` element of `Int` is,
    /// not made the fallback case (which is for a raw value the enum does not know) — as `@LossyArray` leaves it out
    /// under Foundation's decoder. A property that is `null` still takes the fallback, and an optional element is
    /// `nil`.
    @Test func nullIsNoElementOfAnEnumWithAFallback() throws {
        let list = #"["active",null,"archived"]"#
        let (statuses, report) = try LenientJSONDecoder().decodeWithReport([Status].self, from: list)
        #expect(statuses == [.active, .unknown])
        #expect(report.issues.map(\.path) == ["[1]", "[2]"])
        #expect(report.issues.map(\.kind) == [.droppedElement, .defaulted])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Status].self, from: Data(list.utf8)) }
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode([Status].self, from: list) }
        let (byName, byNameReport) = try LenientJSONDecoder().decodeWithReport(
            [String: Level].self, from: #"{"a":null,"b":2}"#)
        #expect(byName == ["b": .high])
        #expect(byNameReport.issues.map(\.kind) == [.droppedElement])
        let board = #"{"statuses":["active",null,"archived"]}"#
        let foundation = try JSONDecoder().decode(Board.self, from: Data(board.utf8))
        #expect(foundation.statuses == [.active, .unknown])
        #expect(try LenientJSONDecoder().decode(Board.self, from: board) == foundation)
        #expect(try LenientJSONDecoder().decode([Status?].self, from: #"[null,"active"]"#) == [nil, .active])
        let (account, accountReport) = try LenientJSONDecoder().decodeWithReport(
            Account.self, from: #"{"status":null,"level":null}"#)
        #expect(account == Account(status: .unknown, level: .other))
        #expect(accountReport.issues.map(\.kind) == [.defaulted, .defaulted])
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(
            [Status].self, from: LenientJSONEncoder().encode(statuses))
        #expect(again == statuses)
        #expect(againReport.isEmpty)
    }

    /// An enum with a fallback whose own `init(from:)` reads `null` decodes a `null` element as Foundation does; a
    /// probe for a list of such enums fails on a `null` element as under Foundation, and the type takes its other
    /// branch.
    enum Tri: String, Codable, CaseFallback, Equatable {
        case yes, no, unset, unknown
        static let fallbackCase = Tri.unknown
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .unset
            } else {
                self = Tri(rawValue: try container.decode(String.self)) ?? .unknown
            }
        }
    }

    enum ListOrText: Decodable, Equatable {
        case list([Status])
        case other
        init(from decoder: any Decoder) throws {
            if let list = try? decoder.singleValueContainer().decode([Status].self) {
                self = .list(list)
            } else {
                self = .other
            }
        }
    }

    @Test func aNullElementIsTheTypesOwnWhereItReadsNull() throws {
        let list = #"[null,"yes","maybe"]"#
        let foundation = try JSONDecoder().decode([Tri].self, from: Data(list.utf8))
        #expect(foundation == [.unset, .yes, .unknown])
        for options in [LenientJSONDecoder.Options.lenient, .strict] {
            #expect(try LenientJSONDecoder(options: options).decode([Tri].self, from: list) == foundation)
            #expect(
                try LenientJSONDecoder(options: options).decode([String: Tri].self, from: #"{"a":null}"#) == [
                    "a": .unset
                ])
        }
        #expect(try JSONDecoder().decode(ListOrText.self, from: Data("[null]".utf8)) == .other)
        let (probed, report) = try LenientJSONDecoder().decodeWithReport(ListOrText.self, from: "[null]")
        #expect(probed == .other)
        #expect(report.isEmpty)
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

    /// `"ACTIVE"` is a raw string the enum does not know: Foundation gives the fallback case, so
    /// `.lenient` does too. A raw value of another JSON type (`"2"` for an `Int` enum), which
    /// Foundation refuses, is coerced first.
    @Test func lenientGivesFoundationsFallbackAndCoercesOnlyWhatFoundationRefuses() throws {
        let document = #"{"status":"ACTIVE","level":"2"}"#
        let (account, report) = try LenientJSONDecoder().decodeWithReport(Account.self, from: document)
        #expect(account == Account(status: .unknown, level: .high))
        #expect(report.issues.map(\.kind) == [.defaulted, .coerced])
        #expect(report.issues.map(\.path) == ["status", "level"])
        let foundations = try JSONDecoder().decode(Account.self, from: Data(#"{"status":"ACTIVE","level":2}"#.utf8))
        #expect(foundations.status == account.status)
        // Round trip: the fallback case encodes as its own raw value and decodes to itself.
        let encoded = try LenientJSONEncoder().encode(account)
        #expect(try LenientJSONDecoder().decode(Account.self, from: encoded) == account)
    }

    // MARK: Every raw type

    enum Tiny: Int8, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Tiny.other
    }
    enum Short: Int16, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Short.other
    }
    enum Medium: Int32, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Medium.other
    }
    enum Byte: UInt8, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Byte.other
    }
    enum Word: UInt16, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Word.other
    }
    enum Long: UInt32, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Long.other
    }
    enum Huge: UInt64, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Huge.other
    }
    enum Ratio: Float, Codable, CaseFallback {
        case one = 1
        case other = 0
        static let fallbackCase = Ratio.other
    }

    struct Box<Value: Codable & Equatable>: Codable, Equatable { var v: Value }

    /// The fallback for a number the enum does not know, and the case for one it knows, under
    /// Foundation's decoder, `.strict` and `.lenient`, whatever the raw type; and the round trip.
    func expectFallback<Value: Codable & Equatable & CaseFallback>(_ type: Value.Type, known: Value) throws {
        let unknown = Data(#"{"v":7}"#.utf8)
        let knownDocument = Data(#"{"v":1}"#.utf8)
        #expect(try JSONDecoder().decode(Box<Value>.self, from: unknown).v == Value.fallbackCase, "\(Value.self)")
        #expect(try JSONDecoder().decode(Box<Value>.self, from: knownDocument).v == known, "\(Value.self)")
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let decoder = LenientJSONDecoder(options: options)
            let (box, report) = try decoder.decodeWithReport(Box<Value>.self, from: unknown)
            #expect(box.v == Value.fallbackCase, "\(Value.self)")
            #expect(report.issues.map(\.kind) == [.defaulted], "\(Value.self)")
            #expect(try decoder.decode(Box<Value>.self, from: knownDocument).v == known, "\(Value.self)")
            #expect(try decoder.decode(Box<Value>.self, from: LenientJSONEncoder().encode(box)) == box, "\(Value.self)")
        }
    }

    @Test func everyRawTypeTakesTheFallbackUnderEveryDecoder() throws {
        try expectFallback(Tiny.self, known: .one)
        try expectFallback(Short.self, known: .one)
        try expectFallback(Medium.self, known: .one)
        try expectFallback(Byte.self, known: .one)
        try expectFallback(Word.self, known: .one)
        try expectFallback(Long.self, known: .one)
        try expectFallback(Huge.self, known: .one)
        try expectFallback(Ratio.self, known: .one)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Enums with associated values chosen by a tag field, under every decoder and encoder.
@Suite struct TaggedCodableTests {
    struct Card: Codable, Equatable, Sendable {
        var number: String
    }

    struct Cash: Codable, Equatable, Sendable {
        var currency: String
    }

    enum Payment: TaggedCodable, Equatable {
        case card(Card)
        case giftCard(Card)
        case cash(Cash)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Payment>] = [
            .init("card", Card.self, Payment.card),
            .init("gift_card", Card.self, Payment.giftCard),
            .init("cash", Cash.self, Payment.cash),
        ]
    }

    /// The same, with the payload under its own key.
    enum Wrapped: TaggedCodable, Equatable {
        case card(Card)
        case count(Int)

        static let tagKey = "kind"
        static let contentKey: String? = "data"
        static let variants: [TaggedVariant<Wrapped>] = [
            .init("card", Card.self, Wrapped.card),
            .init("count", Int.self, Wrapped.count),
        ]
    }

    static let payments =
        #"[{"type":"card","number":"4242"},{"type":"gift_card","number":"77"},{"type":"cash","currency":"EUR"}]"#
    static let expected: [Payment] = [
        .card(Card(number: "4242")), .giftCard(Card(number: "77")), .cash(Cash(currency: "EUR")),
    ]

    enum Coder: String, CaseIterable, Sendable { case foundation, strict, lenient }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String, with coder: Coder) throws -> T {
        switch coder {
        case .foundation: try JSONDecoder().decode(type, from: Data(text.utf8))
        case .strict: try LenientJSONDecoder(options: .strict).decode(type, from: text)
        case .lenient: try LenientJSONDecoder().decode(type, from: text)
        }
    }

    static func encode<T: Encodable>(_ value: T, with coder: Coder) throws -> String {
        let data: Data
        if coder == .foundation {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(value)
        } else {
            let encoder = LenientJSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(value)
        }
        return String(decoding: data, as: UTF8.self)
    }

    @Test(arguments: Coder.allCases)
    func internallyTaggedEnumDecodesAndRoundTrips(_ coder: Coder) throws {
        let payments = try Self.decode([Payment].self, Self.payments, with: coder)
        #expect(payments == Self.expected)
        let encoded = try Self.encode(payments, with: coder)
        #expect(
            encoded
                == #"[{"number":"4242","type":"card"},{"number":"77","type":"gift_card"},{"currency":"EUR","type":"cash"}]"#
        )
        for decoder in Coder.allCases { #expect(try Self.decode([Payment].self, encoded, with: decoder) == payments) }
    }

    @Test(arguments: Coder.allCases)
    func adjacentlyTaggedEnumDecodesAndRoundTrips(_ coder: Coder) throws {
        let text = #"[{"kind":"card","data":{"number":"1"}},{"kind":"count","data":3}]"#
        let values = try Self.decode([Wrapped].self, text, with: coder)
        #expect(values == [.card(Card(number: "1")), .count(3)])
        let encoded = try Self.encode(values, with: coder)
        #expect(encoded == #"[{"data":{"number":"1"},"kind":"card"},{"data":3,"kind":"count"}]"#)
        #expect(try Self.decode([Wrapped].self, encoded, with: coder) == values)
    }

    @Test(arguments: Coder.allCases)
    func unknownTagThrowsNamingTheTagAndTheKnownOnes(_ coder: Coder) throws {
        let error = try #require(throws: DecodingError.self) {
            try Self.decode(Payment.self, #"{"type":"crypto","coin":"x"}"#, with: coder)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["type"])
        #expect(context.debugDescription.contains("\"crypto\""))
        #expect(context.debugDescription.contains("\"gift_card\""))
    }

    @Test func unknownTagInALossyListIsDroppedAndReported() throws {
        let text = #"[{"type":"card","number":"1"},{"type":"crypto"},{"type":"cash","currency":"USD"}]"#
        let (payments, report) = try LenientJSONDecoder().decodeWithReport([Payment].self, from: text)
        #expect(payments == [.card(Card(number: "1")), .cash(Cash(currency: "USD"))])
        #expect(report.issues.count == 1)
        #expect(report.issues.first?.kind == .droppedElement)
        #expect(report.issues.first?.path == "[1]")
    }

    /// A known tag with none of its payload's properties drops the element, and the report says
    /// that the payload is what is missing.
    @Test func aKnownTagWithAnEmptyPayloadInALossyListNamesThePayload() throws {
        let text = #"[{"type":"card"},{"type":"cash","currency":"USD"}]"#
        let (payments, report) = try LenientJSONDecoder().decodeWithReport([Payment].self, from: text)
        #expect(payments == [.cash(Cash(currency: "USD"))])
        #expect(report.issues.map(\.kind) == [.droppedElement])
        #expect(
            report.issues.first?.message.contains("the payload of the variant of Payment that the tag names") == true)
        #expect(
            try LenientJSONDecoder().decode([Payment].self, from: LenientJSONEncoder().encode(payments)) == payments)
    }

    struct Kept: Codable, Equatable {
        var number: String
        var extras = UnknownKeys()
    }

    enum SharedPayload: TaggedCodable, Equatable {
        case card(Kept)
        case giftCard(Kept)

        static let tagKey = "type"
        static let variants: [TaggedVariant<SharedPayload>] = [
            .init("card", Kept.self, SharedPayload.card), .init("gift_card", Kept.self, SharedPayload.giftCard),
        ]

        var payload: Kept {
            switch self {
            case .card(let kept), .giftCard(let kept): kept
            }
        }
    }

    /// The tag's member is the enum's: a payload's `UnknownKeys` keeps the members beside it but
    /// not the tag, so that decoding what the encoder wrote gives the same value, for a value
    /// decoded or built in code, whichever case shares the payload type.
    @Test(arguments: [LenientJSONDecoder.Options.lenient, .strict])
    func aPayloadsBagKeepsTheMembersBesideTheTagButNotTheTag(_ options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        let read = try decoder.decode(SharedPayload.self, from: #"{"type":"card","number":"1","extra":true}"#)
        #expect(read == .card(Kept(number: "1", extras: ["extra": true])))
        let cases = [
            read, .giftCard(Kept(number: "1", extras: ["extra": true])), .card(Kept(number: "2")),
            .giftCard(Kept(number: "3", extras: ["Type": "kept", "note": [1, 2]])),
        ]
        for value in cases {
            let (again, report) = try decoder.decodeWithReport(
                SharedPayload.self, from: LenientJSONEncoder().encode(value))
            #expect(again == value)
            #expect(report.isEmpty)
        }
        #expect(
            String(decoding: try LenientJSONEncoder().encode(SharedPayload.giftCard(read.payload)), as: UTF8.self)
                == #"{"type":"gift_card","number":"1","extra":true}"#)
        // A tag put in the bag by hand is left out: the case's own tag wins, whatever its kind.
        for kept: JSONValue in ["card", 5] {
            let numbered = Kept(number: "2", extras: UnknownKeys(["type": kept]))
            #expect(
                String(decoding: try LenientJSONEncoder().encode(SharedPayload.card(numbered)), as: UTF8.self)
                    == #"{"type":"card","number":"2"}"#)
        }
    }

    /// A tag found under another spelling is the enum's too, reported once as a key fallback;
    /// the round trip writes it under the tag key and gives the same value back.
    @Test func aTagFoundLooselyIsNotKeptInThePayloadsBag() throws {
        let (read, report) = try LenientJSONDecoder().decodeWithReport(
            SharedPayload.self, from: #"{"TYPE":"gift_card","number":"1","Extra":null}"#)
        #expect(read == .giftCard(Kept(number: "1", extras: ["Extra": nil])))
        #expect(report.issues.map(\.kind) == [.keyFallback])
        #expect(report.issues.map(\.jsonPath) == ["TYPE"])
        let written = try LenientJSONEncoder().encode(read)
        #expect(String(decoding: written, as: UTF8.self) == #"{"type":"gift_card","number":"1","Extra":null}"#)
        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(SharedPayload.self, from: written)
        #expect(again == read)
        #expect(reportAgain.isEmpty)
    }

    enum Outer: TaggedCodable, Equatable {
        case shared(SharedPayload)
        static let tagKey = "kind"
        static let variants: [TaggedVariant<Outer>] = [.init("shared", SharedPayload.self, Outer.shared)]
    }

    /// A tagged payload that is itself a tagged enum, in the same object: neither tag is kept,
    /// and a bag in a nested object keeps its own `type` member.
    @Test func nestedTagsInOneObjectAreNeitherKept() throws {
        let text = #"{"kind":"shared","type":"card","number":"1","inner":{"type":"x"}}"#
        let read = try LenientJSONDecoder().decode(Outer.self, from: text)
        #expect(read == .shared(.card(Kept(number: "1", extras: ["inner": ["type": "x"]]))))
        let written = try LenientJSONEncoder().encode(read)
        #expect(String(decoding: written, as: UTF8.self) == text)
        let (again, report) = try LenientJSONDecoder().decodeWithReport(Outer.self, from: written)
        #expect(again == read)
        #expect(report.isEmpty)
    }

    @Test(arguments: [Coder.foundation, .strict])
    func tagOfTheWrongJSONTypeIsATypeMismatch(_ coder: Coder) throws {
        let error = try #require(throws: DecodingError.self) {
            try Self.decode(Payment.self, #"{"type":1}"#, with: coder)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["type"])
    }

    @Test func missingTagFailsAsAMissingKey() throws {
        for coder in Coder.allCases {
            #expect(throws: DecodingError.self) { try Self.decode(Payment.self, #"{"number":"1"}"#, with: coder) }
        }
    }

    /// A tagged enum with a fallback case, which needs no raw value.
    enum Method: TaggedCodable, CaseFallback, Equatable {
        case card(Card)
        case unknown

        static let tagKey = "type"
        static let variants: [TaggedVariant<Method>] = [.init("card", Card.self, Method.card)]
        static let fallbackCase = Method.unknown
    }

    @Test(arguments: Coder.allCases)
    func unknownTagTakesTheFallbackCaseAndKnownTagsStillDecode(_ coder: Coder) throws {
        let methods = try Self.decode(
            [Method].self, #"[{"type":"card","number":"2"},{"type":"crypto","coin":"x"}]"#, with: coder)
        #expect(methods == [.card(Card(number: "2")), .unknown])
        // A known case still round-trips.
        #expect(
            try Self.decode(Method.self, Self.encode(Method.card(Card(number: "9")), with: coder), with: coder)
                == .card(Card(number: "9")))
    }

    @Test func fallbackForAnUnknownTagIsReported() throws {
        let (method, report) = try LenientJSONDecoder().decodeWithReport(
            Envelope.self, from: #"{"method":{"type":"crypto"}}"#)
        #expect(method.method == .unknown)
        #expect(report.issues.count == 1)
        #expect(report.issues.first?.kind == .defaulted)
        #expect(report.issues.first?.path == "method")
        #expect(report.issues.first?.message.contains(#"Unknown tag "crypto""#) == true)
    }

    struct Envelope: Decodable {
        var method: Method
    }

    /// A tag that names no case, and the one entry its fallback makes.
    struct UnusableTag: CustomTestStringConvertible, Sendable {
        let json: String
        let message: String
        var testDescription: String { json }
    }

    @Test(arguments: [
        UnusableTag(
            json: #"{"method":{"number":"1"}}"#,
            message: #"Missing tag "type" for Method; used the fallback case unknown."#),
        UnusableTag(
            json: #"{"method":{"type":null}}"#,
            message: #"Found null for the tag "type" of Method; used the fallback case unknown."#),
        UnusableTag(
            json: #"{"method":{"type":{"a":1}}}"#,
            message: #"Found an object for the tag "type" of Method; used the fallback case unknown."#),
        UnusableTag(
            json: #"{"method":{"type":[]}}"#,
            message: #"Found an array for the tag "type" of Method; used the fallback case unknown."#),
        UnusableTag(
            json: #"{"method":{"type":7}}"#,
            message: #"Unknown tag number 7 for Method; used the fallback case unknown."#),
        UnusableTag(
            json: #"{"method":{"type":true}}"#,
            message: #"Unknown tag bool true for Method; used the fallback case unknown."#),
        UnusableTag(
            json: #"{"method":{"type":"crypto"}}"#,
            message: #"Unknown tag "crypto" for Method; used the fallback case unknown."#),
    ])
    func lenientFallbackForATagThatNamesNoCaseIsOneEntry(_ tag: UnusableTag) throws {
        let (envelope, report) = try LenientJSONDecoder().decodeWithReport(Envelope.self, from: tag.json)
        #expect(envelope.method == .unknown)
        #expect(report.issues.map(\.kind) == [.defaulted])
        #expect(report.issues.map(\.path) == ["method"])
        #expect(report.issues.map(\.message) == [tag.message])
    }

    @Test(arguments: [Coder.foundation, .strict])
    func foundationAndStrictRefuseATagThatIsNoString(_ coder: Coder) throws {
        // Not an unknown tag but no tag at all: Foundation's errors, fallback case or not.
        for json in [#"{"type":null}"#, #"{"type":7}"#, #"{"number":"1"}"#] {
            #expect(throws: DecodingError.self) { try Self.decode(Method.self, json, with: coder) }
        }
    }

    @Test(arguments: Coder.allCases)
    func missingTagIsKeyNotFoundInEveryMode(_ coder: Coder) throws {
        let error = try #require(throws: DecodingError.self) {
            try Self.decode(Payment.self, #"{"number":"1"}"#, with: coder)
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "type")
        #expect(context.codingPath.isEmpty)
    }

    @Test func lenientNullOrObjectTagFailsAsFoundationDoesWithoutAFallback() throws {
        let null = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Payment.self, from: #"{"type":null}"#)
        }
        guard case .valueNotFound(_, let nullContext) = null else {
            Issue.record("expected valueNotFound, got \(null)")
            return
        }
        #expect(nullContext.codingPath.map(\.stringValue) == ["type"])
        let object = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Payment.self, from: #"{"type":{}}"#)
        }
        guard case .typeMismatch(_, let objectContext) = object else {
            Issue.record("expected typeMismatch, got \(object)")
            return
        }
        #expect(objectContext.codingPath.map(\.stringValue) == ["type"])
    }

    /// A case whose tag a server may send as a number.
    enum Level: TaggedCodable, Equatable {
        case one(Card)

        static let tagKey = "level"
        static let variants: [TaggedVariant<Level>] = [.init("1", Card.self, Level.one)]
    }

    @Test func lenientNumberTagIsCoercedOnceAndRoundTrips() throws {
        let (level, report) = try LenientJSONDecoder().decodeWithReport(Level.self, from: #"{"level":1,"number":"5"}"#)
        #expect(level == .one(Card(number: "5")))
        #expect(report.issues.map(\.kind) == [.coerced])
        let encoded = try Self.encode(level, with: .lenient)
        #expect(encoded == #"{"level":"1","number":"5"}"#)
        let (again, cleanReport) = try LenientJSONDecoder().decodeWithReport(Level.self, from: encoded)
        #expect(again == level)
        #expect(cleanReport.isEmpty)
    }

    @Test func fallbackCaseInAListIsOneEntryPerElement() throws {
        // An element without its tag has no property present: it is left out, as any such element
        // is, rather than made up of the fallback case.
        let text = #"[{"type":"card","number":"1"},{"number":"2"},{"type":null},{"type":"crypto"}]"#
        let (methods, report) = try LenientJSONDecoder().decodeWithReport([Method].self, from: text)
        #expect(methods == [.card(Card(number: "1")), .unknown, .unknown])
        #expect(report.issues.map(\.path) == ["[1]", "[2]", "[3]"])
        #expect(report.issues.map(\.kind) == [.droppedElement, .defaulted, .defaulted])
    }
}

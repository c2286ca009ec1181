// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// An internally tagged variant (no `contentKey`) writes its payload's members beside the tag.
/// A payload that is not an object, or that writes the tag key itself, would replace the tag or
/// lose itself: both encoders refuse it with an error — Foundation's too, which would otherwise
/// trap when the payload asks for a single value container after the tag's keyed one.
@Suite struct TaggedPayloadTests {
    enum Scalar: TaggedCodable, Equatable {
        case number(Int)
        case list([Int])

        static let tagKey = "type"
        static let variants: [TaggedVariant<Scalar>] = [
            .init("number", Int.self, Scalar.number), .init("list", [Int].self, Scalar.list),
        ]
    }

    /// A payload with a member of its own named as the tag.
    struct Labelled: Codable, Equatable {
        var type: String
        var amount: Int
    }

    enum Clashing: TaggedCodable, Equatable {
        case labelled(Labelled)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Clashing>] = [.init("labelled", Labelled.self, Clashing.labelled)]
    }

    /// The same payloads, each under a key of its own, which they need.
    enum Adjacent: TaggedCodable, Equatable {
        case number(Int)
        case labelled(Labelled)

        static let tagKey = "type"
        static let contentKey: String? = "data"
        static let variants: [TaggedVariant<Adjacent>] = [
            .init("number", Int.self, Adjacent.number), .init("labelled", Labelled.self, Adjacent.labelled),
        ]
    }

    static func expectRefused<T: Encodable>(_ value: T, saying text: String) {
        for (name, encode) in [
            ("LenientJSONEncoder", { try LenientJSONEncoder().encode(value) }),
            ("JSONEncoder", { try JSONEncoder().encode(value) }),
        ] as [(String, () throws -> Data)] {
            do {
                let data = try encode()
                Issue.record("\(name) wrote \(String(decoding: data, as: UTF8.self)) for \(value)")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.debugDescription.contains(text), "\(name): \(context.debugDescription)")
            } catch {
                Issue.record("\(name) threw \(error)")
            }
        }
    }

    @Test func aPayloadThatIsNotAnObjectIsRefusedByBothEncoders() {
        Self.expectRefused(Scalar.number(5), saying: "does not encode as an object")
        Self.expectRefused(Scalar.list([1, 2]), saying: "set contentKey")
        // Inside arrays, where Foundation's encoder trapped.
        Self.expectRefused([Scalar.number(1), Scalar.number(2)], saying: "does not encode as an object")
    }

    @Test func aPayloadThatWritesTheTagKeyIsRefusedByBothEncoders() {
        Self.expectRefused(Clashing.labelled(Labelled(type: "gold", amount: 3)), saying: #"writes the key "type""#)
    }

    /// A payload whose optional property is named as the tag.
    struct MaybeLabelled: Codable, Equatable {
        var number: String
        var type: String?
    }

    /// A payload whose optional property's key differs from the tag's only in case.
    struct Shouting: Codable, Equatable {
        var number: String
        var TYPE: String?
    }

    enum Optionals: TaggedCodable, Equatable {
        case maybe(MaybeLabelled)
        case shouting(Shouting)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Optionals>] = [
            .init("maybe", MaybeLabelled.self, Optionals.maybe), .init("shouting", Shouting.self, Optionals.shouting),
        ]
    }

    @Test func aNilOptionalAtTheTagKeyIsRefusedByBothEncodersUnderEitherNilStrategy() throws {
        let value = Optionals.maybe(MaybeLabelled(number: "4242", type: nil))
        // Left out, the decoder would read the tag in its place; written `null`, it would
        // replace the tag.
        Self.expectRefused(value, saying: #"has a nil optional at the key "type""#)
        let writingNull = LenientJSONEncoder()
        writingNull.nilEncodingStrategy = .writeNull
        #expect(throws: EncodingError.self) { try writingNull.encode(value) }
        // Holding the tag itself, the property writes nothing new and reads back.
        let labelled = Optionals.maybe(MaybeLabelled(number: "4242", type: "maybe"))
        for data in [try LenientJSONEncoder().encode(labelled), try JSONEncoder().encode(labelled)] {
            #expect(try LenientJSONDecoder().decode(Optionals.self, from: data) == labelled)
            #expect(try JSONDecoder().decode(Optionals.self, from: data) == labelled)
        }
    }

    /// Payloads whose property at the tag's key is mapped elsewhere, ignored, or whose other
    /// property is mapped onto the tag key.
    struct MappedAway: Codable, Equatable, KeyMapping {
        var type: String?
        var n: Int
        static let keyMapping: [String: KeySource] = ["type": "kind"]
    }

    struct Ignored: Codable, Equatable, KeyMapping {
        var type: String?
        var n: Int
        static let keyMapping: [String: KeySource] = ["type": .ignored]
        enum CodingKeys: String, CodingKey { case type, n }
        init(type: String?, n: Int) {
            self.type = type
            self.n = n
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decodeIfPresent(String.self, forKey: .type)
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    struct MappedOnto: Codable, Equatable, KeyMapping {
        var kind: String?
        var n: Int
        static let keyMapping: [String: KeySource] = ["kind": "type"]
    }

    enum Mapped: TaggedCodable, Equatable {
        case away(MappedAway)
        case ignored(Ignored)
        case onto(MappedOnto)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Mapped>] = [
            .init("away", MappedAway.self, Mapped.away), .init("ignored", Ignored.self, Mapped.ignored),
            .init("onto", MappedOnto.self, Mapped.onto),
        ]
    }

    @Test(arguments: [LenientJSONEncoder.NilEncodingStrategy.omitKey, .writeNull])
    func theKeyANilIsLookedUpUnderIsTheOneItsMappingNames(strategy: LenientJSONEncoder.NilEncodingStrategy) throws {
        let encoder = LenientJSONEncoder()
        encoder.nilEncodingStrategy = strategy
        for value in [Mapped.away(MappedAway(type: nil, n: 1)), .ignored(Ignored(type: nil, n: 2))] {
            let (back, report) = try LenientJSONDecoder().decodeWithReport(Mapped.self, from: encoder.encode(value))
            #expect(back == value)
            #expect(report.issues.isEmpty)
        }
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode(Mapped.onto(MappedOnto(kind: nil, n: 3)))
        }
        #expect("\(error)".contains(#"has a nil optional at the key "type""#))
    }

    /// A payload whose own key strategy spells a property as the tag key.
    struct Spelled: Codable, Equatable, KeyMapping {
        var number: String
        var typeId: String?
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    enum BySpelling: TaggedCodable, Equatable {
        case spelled(Spelled)
        static let tagKey = "type_id"
        static let variants: [TaggedVariant<BySpelling>] = [.init("spelled", Spelled.self, BySpelling.spelled)]
    }

    @Test func aNilThePayloadsOwnStrategySpellsAsTheTagKeyIsRefused() throws {
        let error = try #require(throws: EncodingError.self) {
            try LenientJSONEncoder().encode(BySpelling.spelled(Spelled(number: "1", typeId: nil)))
        }
        #expect("\(error)".contains(#"has a nil optional at the key "type_id""#))
        let value = BySpelling.spelled(Spelled(number: "1", typeId: "spelled"))
        #expect(try LenientJSONDecoder().decode(BySpelling.self, from: LenientJSONEncoder().encode(value)) == value)
    }

    /// A payload whose enum is itself a payload: its members go beside both tags.
    struct Leaf: Codable, Equatable {
        var type: String?
        var m: Int
    }

    enum Inner: TaggedCodable, Equatable {
        case leaf(Leaf)
        static let tagKey = "kind"
        static let variants: [TaggedVariant<Inner>] = [.init("leaf", Leaf.self, Inner.leaf)]
    }

    enum Outer: TaggedCodable, Equatable {
        case inner(Inner)
        static let tagKey = "type"
        static let variants: [TaggedVariant<Outer>] = [.init("inner", Inner.self, Outer.inner)]
    }

    @Test func aNilBesideAnEnclosingEnumsTagIsRefusedToo() throws {
        Self.expectRefused(Outer.inner(.leaf(Leaf(type: nil, m: 1))), saying: #"has a nil optional at the key "type""#)
        let value = Outer.inner(.leaf(Leaf(type: "inner", m: 1)))
        for data in [try LenientJSONEncoder().encode(value), try JSONEncoder().encode(value)] {
            #expect(try LenientJSONDecoder().decode(Outer.self, from: data) == value)
            #expect(try JSONDecoder().decode(Outer.self, from: data) == value)
        }
    }

    @Test func looseMatchingLeavesTheTagToTheEnum() throws {
        let value = Optionals.shouting(Shouting(number: "1", TYPE: nil))
        let data = try LenientJSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(Optionals.self, from: data) == value)
        let (decoded, report) = try LenientJSONDecoder().decodeWithReport(Optionals.self, from: data)
        #expect(decoded == value)
        #expect(report.issues.isEmpty)
        // A member of the payload's own, spelled another way, is still read loosely.
        let (spelled, spelledReport) = try LenientJSONDecoder().decodeWithReport(
            Optionals.self, from: Data(#"{"type":"shouting","number":"1","Type":"x"}"#.utf8))
        #expect(spelled == .shouting(Shouting(number: "1", TYPE: "x")))
        #expect(spelledReport.issues.map(\.kind) == [.keyFallback])
    }

    @Test func underAContentKeyTheSamePayloadsRoundTrip() throws {
        let values: [Adjacent] = [.number(5), .labelled(Labelled(type: "gold", amount: 3))]
        for data in [try LenientJSONEncoder().encode(values), try JSONEncoder().encode(values)] {
            #expect(try LenientJSONDecoder(options: .strict).decode([Adjacent].self, from: data) == values)
            #expect(try JSONDecoder().decode([Adjacent].self, from: data) == values)
        }
    }

    /// A payload that reaches the tag key through a nested container or a super encoder.
    struct Nesting: Codable, Equatable {
        var n: Int
        var through: Int

        enum CodingKeys: String, CodingKey {
            case type
            case n
        }

        init(n: Int, through: Int) {
            self.n = n
            self.through = through
        }

        init(from decoder: any Decoder) throws {
            n = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .n)
            through = 0
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(n, forKey: .n)
            switch through {
            case 0:
                var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .type)
                try nested.encode(1, forKey: .n)
            case 1:
                var nested = container.nestedUnkeyedContainer(forKey: .type)
                try nested.encode(1)
            default:
                var single = container.superEncoder(forKey: .type).singleValueContainer()
                try single.encode("hijack")
            }
        }
    }

    enum Nested: TaggedCodable, Equatable {
        case nesting(Nesting)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Nested>] = [.init("nesting", Nesting.self, Nested.nesting)]
    }

    /// Foundation's encoders trapped when a payload asked for a container under the tag key,
    /// which holds the tag; a super encoder for it replaced the tag without a word.
    @Test(arguments: 0...2)
    func aPayloadReachingTheTagKeyThroughContainersIsRefused(through: Int) {
        let value = [Nested.nesting(Nesting(n: 1, through: through))]
        Self.expectRefused(value, saying: #"writes the key "type""#)
        do {
            let data = try PropertyListEncoder().encode(value)
            Issue.record("PropertyListEncoder wrote \(data.count) bytes")
        } catch {
            #expect(error is EncodingError)
        }
    }

    /// A payload that writes the tag key with the tag's own value changes nothing: every encoder
    /// writes it, and it decodes back.
    struct SameTag: Codable, Equatable {
        var type = "same"
        var n: Int
    }

    enum Same: TaggedCodable, Equatable {
        case same(SameTag)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Same>] = [.init("same", SameTag.self, Same.same)]
    }

    struct User: Codable, Equatable {
        var name: String
    }

    /// A wrapper that forwards to the value it wraps through a single value container.
    struct Boxed<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value
        init(_ value: Value) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    enum Forwarded: TaggedCodable, Equatable {
        case user(Boxed<User>)
        case boxedNumber(Boxed<Int>)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Forwarded>] = [
            .init("user", Boxed<User>.self, Forwarded.user),
            .init("boxedNumber", Boxed<Int>.self, Forwarded.boxedNumber),
        ]
    }

    /// A payload that hands an object over through a single value container writes the object's
    /// members beside the tag under every encoder, as it decodes under every decoder; one that
    /// hands over a scalar is refused by every encoder.
    @Test func aPayloadForwardingAnObjectThroughASingleValueIsWrittenByEveryEncoder() throws {
        let value = [Forwarded.user(Boxed(User(name: "u")))]
        let lenient = try LenientJSONEncoder().encode(value)
        #expect(String(decoding: lenient, as: UTF8.self) == #"[{"type":"user","name":"u"}]"#)
        let foundation = try JSONEncoder().encode(value)
        #expect(
            try JSONSerialization.jsonObject(with: foundation) as? [[String: String]] == [
                ["type": "user", "name": "u"]
            ])
        for data in [lenient, foundation] {
            #expect(try JSONDecoder().decode([Forwarded].self, from: data) == value)
            #expect(try LenientJSONDecoder(options: .strict).decode([Forwarded].self, from: data) == value)
        }
        let plist = try PropertyListEncoder().encode(value)
        #expect(try PropertyListDecoder().decode([Forwarded].self, from: plist) == value)

        Self.expectRefused(Forwarded.boxedNumber(Boxed(3)), saying: "does not encode as an object")
    }

    enum ForwardedScalars: TaggedCodable, Equatable {
        case url(Boxed<URL>)
        case decimal(Boxed<Decimal>)

        static let tagKey = "type"
        static let variants: [TaggedVariant<ForwardedScalars>] = [
            .init("url", Boxed<URL>.self, ForwardedScalars.url),
            .init("decimal", Boxed<Decimal>.self, ForwardedScalars.decimal),
        ]
    }

    /// A URL or a Decimal handed over whole is a single value to Foundation's encoders, whose own
    /// `encode(to:)` writes an object no decoder reads back as one: refused by every encoder.
    @Test func aPayloadForwardingAURLOrADecimalIsRefusedByBothEncoders() throws {
        Self.expectRefused(
            ForwardedScalars.url(Boxed(URL(string: "https://e.com/a")!)), saying: "does not encode as an object")
        Self.expectRefused(
            ForwardedScalars.decimal(Boxed(Decimal(string: "1.5")!)), saying: "does not encode as an object")
    }

    enum DictionaryPayload: TaggedCodable, Equatable {
        case counts([String: Int])
        static let tagKey = "type"
        static let variants: [TaggedVariant<DictionaryPayload>] = [
            .init("counts", [String: Int].self, DictionaryPayload.counts)
        ]
    }

    /// A dictionary payload with the tag key among its keys would write the key twice: refused
    /// by both encoders.
    @Test func aDictionaryPayloadHoldingTheTagKeyIsRefusedByBothEncoders() throws {
        Self.expectRefused(DictionaryPayload.counts(["type": 1, "k": 2]), saying: "writes the key")
        let fine = DictionaryPayload.counts(["k": 2])
        #expect(
            try LenientJSONDecoder().decode(DictionaryPayload.self, from: LenientJSONEncoder().encode(fine)) == fine)
        // Wide payloads, past the size where objects look their keys up in a table: every member
        // beside the tag, each once, in the bytes `JSONEncoder` writes.
        for count in [47, 48, 49, 200] {
            let wide = DictionaryPayload.counts(Dictionary(uniqueKeysWithValues: (0..<count).map { ("k\($0)", $0) }))
            let encoder = LenientJSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let reference = JSONEncoder()
            reference.outputFormatting = .sortedKeys
            let written = try encoder.encode(wide)
            #expect(written == (try reference.encode(wide)))
            #expect(try LenientJSONDecoder().decode(DictionaryPayload.self, from: written) == wide)
        }
    }

    struct Cash: Codable, Equatable {
        var amount: Int
    }

    enum InnerTagged: TaggedCodable, Equatable {
        case cash(Cash)
        static let tagKey = "kind"
        static let variants: [TaggedVariant<InnerTagged>] = [.init("cash", Cash.self, InnerTagged.cash)]
    }

    enum OuterTagged: TaggedCodable, Equatable {
        case inner(InnerTagged)
        static let tagKey = "type"
        static let variants: [TaggedVariant<OuterTagged>] = [.init("inner", InnerTagged.self, OuterTagged.inner)]
    }

    /// A tagged enum whose payload is a tagged enum of another tag key: both tags sit in one
    /// object, under every encoder, and every decoder reads it back.
    @Test func aTaggedPayloadOfAnotherTagKeyIsWrittenByEveryEncoder() throws {
        let value = [OuterTagged.inner(.cash(Cash(amount: 7)))]
        for data in [try LenientJSONEncoder().encode(value), try JSONEncoder().encode(value)] {
            let object = try JSONSerialization.jsonObject(with: data) as? [[String: Any]]
            #expect(object?.first?["type"] as? String == "inner" && object?.first?["kind"] as? String == "cash")
            #expect(try JSONDecoder().decode([OuterTagged].self, from: data) == value)
            #expect(try LenientJSONDecoder().decode([OuterTagged].self, from: data) == value)
        }
    }

    enum ContentIsTag: TaggedCodable, Equatable {
        case labelled(Labelled)
        static let tagKey = "type"
        static let contentKey: String? = "type"
        static let variants: [TaggedVariant<ContentIsTag>] = [.init("labelled", Labelled.self, ContentIsTag.labelled)]
    }

    enum ContentBecomesTag: TaggedCodable, Equatable {
        case labelled(Labelled)
        static let tagKey = "type_name"
        static let contentKey: String? = "typeName"
        static let variants: [TaggedVariant<ContentBecomesTag>] = [
            .init("labelled", Labelled.self, ContentBecomesTag.labelled)
        ]
    }

    /// A content key written as the tag key would replace the tag: refused, by both encoders
    /// when the keys are the same, by the lenient one also when its key strategy makes them so.
    @Test func aContentKeyWrittenAsTheTagKeyIsRefused() throws {
        let value = ContentIsTag.labelled(Labelled(type: "x", amount: 1))
        Self.expectRefused(value, saying: "would replace the tag")
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(throws: EncodingError.self) {
            try encoder.encode(ContentBecomesTag.labelled(Labelled(type: "x", amount: 1)))
        }
    }

    @Test func aPayloadWritingTheTagItselfIsWrittenByEveryEncoder() throws {
        let value = Same.same(SameTag(n: 4))
        for data in [try LenientJSONEncoder().encode(value), try JSONEncoder().encode(value)] {
            #expect(try LenientJSONDecoder(options: .strict).decode(Same.self, from: data) == value)
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

@testable import LenientCodable

/// What the decoder and the encoder learn about a type, now that a type which conforms to none of the package's
/// protocols is asked one runtime question (the marker) and the package's own types answer through the marker's
/// requirement: each role must still come out as the old one-question-per-protocol lookup found it.
@Suite struct TypeTraitsTests {
    struct Plain: Codable {
        var id: Int
    }

    struct Mapped: Codable, KeyMapping {
        var id: Int
        static let keyMapping: [String: KeySource] = ["id": "ID"]
    }

    struct Defaults: Codable, DeclaredDefaults {
        var size = 20
    }

    struct Hooked: Codable, DecodingHooks, EncodingHooks {
        var id: Int
        func didEncode(_ json: inout JSONValue) throws {}
    }

    class Base: Decodable, PolymorphicDecodable {
        static func decodingType(for json: JSONValue) -> (any Decodable.Type)? { nil }
    }

    final class Derived: Base {}

    /// The pattern the marker's documentation gives for a generic type that adopts a protocol conditionally.
    struct Page<Item: Codable>: Codable {
        var items: [Item]
    }

    @Test func plainTypesAdoptNothing() {
        for type in [Plain.self, Page<Int>.self] as [Any.Type] {
            let traits = TypeTraits(of: type)
            guard case .model = traits.kind else {
                Issue.record("\(type) is not a model")
                continue
            }
            #expect(!traits.hasHooks && !traits.isPolymorphic && !traits.hasKeyPlan)
            #expect(!traits.isForgivingWrapper && traits.defaultingWrapper == nil)
        }
    }

    @Test func adoptersAreAskedWhichProtocolsTheyConformTo() {
        #expect(TypeTraits(of: Mapped.self).hasKeyPlan)
        #expect(TypeTraits(of: Defaults.self).hasKeyPlan)
        #expect(TypeTraits(of: Hooked.self).hasHooks)
        #expect(!TypeTraits(of: Hooked.self).hasKeyPlan)
        #expect(TypeTraits(of: Base.self).isPolymorphic)
        #expect(TypeTraits(of: Derived.self).isPolymorphic)
        #expect(TypeTraits(of: Page<Hooked>.self).hasHooks)
        #expect(!TypeTraits(of: Page<Int>.self).hasHooks)
    }

    @Test func collectionsAndDictionariesAreReadStraight() {
        for type in [[Int].self, [Plain].self, ContiguousArray<String>.self, Set<Int>.self] as [Any.Type] {
            guard case .collection = TypeTraits(of: type).kind else {
                Issue.record("\(type) is not read as a collection")
                continue
            }
        }
        // Every dictionary: `[String: Plain]` read from the members, `[Int: Plain]` through its own
        // `init(from:)` but in `.lenient`, where it is read member by member.
        for type in [[String: Plain].self, [Int: Plain].self] as [Any.Type] {
            guard case .dictionary = TypeTraits(of: type).kind else {
                Issue.record("\(type) is not read as a dictionary")
                continue
            }
        }
    }

    @Test func wrappersForgive() {
        let coerced = TypeTraits(of: Coerced<Int>.self)
        #expect(coerced.isForgivingWrapper && coerced.defaultingWrapper == nil)
        // The wrappers that give a missing or null value a default, which the report names.
        for type in [LossyArray<Int>.self, LossyDictionary<String, Int>.self, Defaulted<Int>.self] as [Any.Type] {
            let traits = TypeTraits(of: type)
            #expect(traits.isForgivingWrapper && traits.defaultingWrapper != nil, "\(type)")
        }
    }

    @Test func scalarsAreComparedByMetatype() {
        #expect(TypeTraits(of: Int.self).isPlainScalar)
        #expect(TypeTraits(of: Decimal.self).isPlainScalar)
        guard case .date = TypeTraits(of: Date.self).kind, case .float = TypeTraits(of: Float.self).kind,
            case .jsonValue = TypeTraits(of: JSONValue.self).kind
        else {
            Issue.record("a scalar lost its kind")
            return
        }
    }

    @Test func encoderTraits() {
        #expect(EncodingTree.TraitSlot.shared(for: [Plain].self).collection != nil)
        #expect(EncodingTree.TraitSlot.shared(for: [String: Plain].self).collection != nil)
        #expect(EncodingTree.TraitSlot.shared(for: [Int: Plain].self).collection == nil)
        // What the type's conformances say; whether it keeps unknown keys is learned from its
        // first value, which other tests may have encoded already.
        let asked: EncodingTree.TypeTraits = [.hooks, .keyPlan, .converted]
        #expect(EncodingTree.TraitSlot.shared(for: Plain.self).traits.intersection(asked).isEmpty)
        #expect(EncodingTree.TraitSlot.shared(for: Mapped.self).traits.intersection(asked) == [.keyPlan])
        #expect(EncodingTree.TraitSlot.shared(for: Defaults.self).traits.intersection(asked) == [.keyPlan])
        #expect(EncodingTree.TraitSlot.shared(for: Hooked.self).traits.intersection(asked) == [.hooks])
        #expect(EncodingTree.TraitSlot.shared(for: Page<Hooked>.self).traits.intersection(asked) == [.hooks])
    }

    @Test func aConditionalAdopterDecodesAndEncodesThroughItsHooks() throws {
        let data = Data(#"{"items":[{"id":1}]}"#.utf8)
        let page = try LenientJSONDecoder().decode(Page<Hooked>.self, from: data)
        #expect(Page<Hooked>.decodedThroughHooks)
        #expect(page.items.count == 1)
        let json = try LenientJSONEncoder().encodeToJSONValue(page)
        #expect(json["hooked"] == true)
    }
}

extension TypeTraitsTests.Hooked {
    mutating func didDecode(from json: JSONValue) throws {}
}

extension TypeTraitsTests.Page: DecodingHooks, EncodingHooks where Item == TypeTraitsTests.Hooked {
    nonisolated(unsafe) static var decodedThroughHooks = false

    static func willDecode(_ json: JSONValue) throws -> JSONValue {
        decodedThroughHooks = true
        return json
    }

    func didEncode(_ json: inout JSONValue) throws {
        json["hooked"] = true
    }
}

extension TypeTraitsTests.Page: _LenientDecodingMarker, _LenientEncodingMarker
where Item == TypeTraitsTests.Hooked {}

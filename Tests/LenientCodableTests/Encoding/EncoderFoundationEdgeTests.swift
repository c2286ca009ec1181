// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Shapes where `LenientJSONEncoder` once wrote other bytes than `JSONEncoder` (a tester's
/// differential run): each is compared with Foundation's output for the same value and settings.
@Suite struct EncoderFoundationEdgeTests {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Both encoders' text for a value, with `.sortedKeys`.
    static func texts<T: Encodable>(
        _ value: T, configure: (JSONEncoder) -> Void = { _ in }, configureOurs: (LenientJSONEncoder) -> Void = { _ in }
    ) throws -> (foundation: String, ours: String) {
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        configure(foundation)
        let ours = LenientJSONEncoder()
        ours.outputFormatting = .sortedKeys
        configureOurs(ours)
        return (
            String(decoding: try foundation.encode(value), as: UTF8.self),
            String(decoding: try ours.encode(value), as: UTF8.self)
        )
    }

    /// Keeps a nested container, writes its key over with another value, then writes through the
    /// kept container: `JSONEncoder` drops those writes.
    struct StaleKeyed: Encodable {
        let replacement: Replacement
        /// What the keys are written over with: a value of another kind than the kept containers'.
        /// (A container written over with one of its own kind, an object over an object, still
        /// takes the kept container's writes: `Docs/Architecture.md` lists it.)
        enum Replacement { case int, string, null }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: Key("a"))
            var list = container.nestedUnkeyedContainer(forKey: Key("b"))
            switch replacement {
            case .int:
                try container.encode(0, forKey: Key("a"))
                try container.encode(1, forKey: Key("b"))
            case .null:
                try container.encodeNil(forKey: Key("a"))
                try container.encodeNil(forKey: Key("b"))
            case .string:
                try container.encode("x", forKey: Key("a"))
                try container.encode("y", forKey: Key("b"))
            }
            try nested.encode(true, forKey: Key("b"))
            try nested.encode("text", forKey: Key("c"))
            try list.encode(2)
            try list.encode("more")
        }
    }

    @Test(arguments: [StaleKeyed.Replacement.int, .string, .null])
    func writesThroughAContainerWhoseKeyWasWrittenOverAreDropped(replacement: StaleKeyed.Replacement) throws {
        let (foundation, ours) = try Self.texts(StaleKeyed(replacement: replacement))
        #expect(ours == foundation)
    }

    struct OneKey: Encodable {
        let key: String
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key(key))
        }
    }

    /// Under `.convertToSnakeCase`, a key spelled with other bytes than an earlier, canonically
    /// equivalent one keeps its own bytes, in the same call and in the next.
    @Test func aSnakeCaseKeyKeepsItsOwnBytes() throws {
        let ours = LenientJSONEncoder()
        ours.keyEncodingStrategy = .convertToSnakeCase
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        for key in ["\u{E9}t\u{E9}", "e\u{301}te\u{301}", "Caf\u{E9}Au", "Cafe\u{301}Au", "K", "\u{212A}"] {
            let value = OneKey(key: key)
            let expected = try foundation.encode(value)
            #expect(try ours.encode(value) == expected, "\(Array(key.utf8))")
            #expect(Array(try ours.encode(value)) == Array(expected))
        }
        let pair = ["\u{E9}a": 1, "\u{E9}b": 2]
        #expect(try ours.encode([pair]).count == foundation.encode([pair]).count)
    }

    /// `encodeToJSONObject` gives a `Float` as `JSONSerialization` reads the text written for it.
    @Test(arguments: [Float(0.1), .leastNonzeroMagnitude, .greatestFiniteMagnitude, -2.5, 16_777_216, 1.1754944e-38])
    func aFloatInAJSONObjectIsTheNumberOfItsText(float: Float) throws {
        let object = try LenientJSONEncoder().encodeToJSONObject([float])
        let expected = try JSONSerialization.jsonObject(with: JSONEncoder().encode([float]))
        let number = try #require((object as? [Any])?.first as? NSNumber)
        let expectedNumber = try #require((expected as? [Any])?.first as? NSNumber)
        #expect(number.doubleValue == expectedNumber.doubleValue)
        #expect(number.doubleValue == Double(float.description))
    }
}

extension EncoderFoundationEdgeTests {
    struct Failing: Encodable {
        struct Refused: Error {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key("a"))
            throw Refused()
        }
    }

    /// A value that fails, caught with `try?`, leaves no trace: not what it wrote before failing,
    /// not an empty object, and a key it was to replace keeps its earlier value.
    struct Probing: Encodable {
        let last: Bool
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode("old", forKey: Key("a"))
            try container.encode(["x": 1], forKey: Key("d"))
            try? container.encode(Failing(), forKey: Key("a"))
            try? container.encode(Double.nan, forKey: Key("c"))
            try? container.encode(Float.infinity, forKey: Key("d"))
            if last { try? container.encode(Failing(), forKey: Key("b")) }
        }
    }

    struct ProbingList: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(1)
            try? container.encode(Double.nan)
            try? container.encode(Float.nan)
            try container.encode(2)
            try? container.encode(Failing())
        }
    }

    @Test func aFailedValueCaughtWithTryLeavesNoTrace() throws {
        for value in [Probing(last: false), Probing(last: true)] {
            let (foundation, ours) = try Self.texts(value)
            #expect(ours == foundation)
        }
        let (foundation, ours) = try Self.texts(ProbingList())
        #expect(ours == foundation)
        #expect(ours == "[1,2]")
        #expect(try LenientJSONEncoder().encodeToJSONValue(Probing(last: true)) == ["a": "old", "d": ["x": 1]])
    }
}

extension EncoderFoundationEdgeTests {
    struct Boom: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key("written"))
            var list = container.nestedUnkeyedContainer(forKey: Key("list"))
            try list.encode("x")
            throw Failing.Refused()
        }
    }

    /// A type that maps its keys: a failed value leaves no trace either, at a renamed key, a
    /// nested key, an index, a fallback list's first key or a key its strategy spells.
    struct Mapped: Encodable, KeyMapping {
        enum CodingKeys: String, CodingKey { case renamed, nested, other, indexed, listed, plainName }
        static var keyMapping: [String: KeySource] {
            ["renamed": "R", "nested": "x.a", "other": "x.b", "indexed": "info[1].z", "listed": ["id", "ID"]]
        }
        static let keyStrategy: KeyStrategy? = .snakeCase

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(7, forKey: .renamed)
            try? container.encode(Boom(), forKey: .renamed)
            try container.encode(7, forKey: .nested)
            try? container.encode(Boom(), forKey: .other)
            try? container.encode(Double.nan, forKey: .other)
            try? container.encode(Boom(), forKey: .indexed)
            try? container.encode(Boom(), forKey: .listed)
            try container.encode(3, forKey: .plainName)
            try? container.encode(Boom(), forKey: .plainName)
            try? container.encode(Float.nan, forKey: .plainName)
        }
    }

    @Test func aFailedValueOfAKeyMappedTypeLeavesNoTrace() throws {
        let expected: JSONValue = ["R": 7, "x": ["a": 7], "plain_name": 3]
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try JSONValue(parsing: encoder.encode(Mapped())) == expected)
        #expect(try encoder.encodeToJSONValue(Mapped()) == expected)
        let object = try #require(try encoder.encodeToJSONObject(Mapped()) as? [String: Any])
        #expect(object.keys.sorted() == ["R", "plain_name", "x"])
    }

    struct HookObject: Encodable, EncodingHooks {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(1)
        }
        func didEncode(_ json: inout JSONValue) throws { json = ["m": 1] }
    }

    /// An unkeyed container kept after a hooked value wrote an object over its key: its writes
    /// are dropped, by every entry point.
    struct KeptOverHook: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var list = container.nestedUnkeyedContainer(forKey: Key("h"))
            try list.encode(0)
            try container.encode(HookObject(), forKey: Key("h"))
            try list.encode(5)
            var nested = list.nestedContainer(keyedBy: Key.self)
            try nested.encode(1, forKey: Key("deep"))
        }
    }

    @Test func writesOverAHooksObjectAreDropped() throws {
        let encoder = LenientJSONEncoder()
        #expect(String(decoding: try encoder.encode(KeptOverHook()), as: UTF8.self) == #"{"h":{"m":1}}"#)
        #expect(try encoder.encodeToJSONValue(KeptOverHook()) == ["h": ["m": 1]])
    }
}

/// A value that asks one encoder for a keyed container and then an unkeyed one (or the other way
/// round) would lose what it wrote through the first: `JSONEncoder` traps there, and
/// `LenientJSONEncoder` throws once the encode ends (containers cannot throw), naming the value.
@Suite struct SecondContainerKindTests {
    typealias Key = EncoderFoundationEdgeTests.Key

    struct BothKinds: Encodable {
        var keyedFirst: Bool
        func encode(to encoder: any Encoder) throws {
            if keyedFirst {
                var keyed = encoder.container(keyedBy: Key.self)
                try keyed.encode(1, forKey: Key("a"))
                var list = encoder.unkeyedContainer()
                try list.encode(2)
            } else {
                var list = encoder.unkeyedContainer()
                try list.encode(2)
                var keyed = encoder.container(keyedBy: Key.self)
                try keyed.encode(1, forKey: Key("a"))
            }
        }
    }

    struct Holder: Encodable {
        var inner: BothKinds
    }

    @Test(arguments: [true, false])
    func aValueAskingForBothKindsFailsTheEncode(keyedFirst: Bool) throws {
        let encoder = LenientJSONEncoder()
        for value in [Holder(inner: BothKinds(keyedFirst: keyedFirst))] {
            let error = try #require(throws: EncodingError.self) { try encoder.encode(value) }
            guard case .invalidValue(_, let context) = error else {
                Issue.record("\(error)")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == ["inner"])
            #expect(context.debugDescription.contains("BothKinds asked its encoder for"))
        }
        #expect(throws: EncodingError.self) { try encoder.encode([BothKinds(keyedFirst: keyedFirst)]) }
        // The same encoder then encodes other values as before.
        #expect(String(decoding: try encoder.encode([1, 2]), as: UTF8.self) == "[1,2]")
        #expect(String(decoding: try encoder.encode(["a": 1]), as: UTF8.self) == #"{"a":1}"#)
    }

    /// A key written twice holds the second value, whatever kind each is; a keyed container asked
    /// for twice adds to one object; and the root of one call is not the root of the next.
    struct Rewrites: Encodable {
        func encode(to encoder: any Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            try keyed.encode([1, 2], forKey: Key("x"))
            try keyed.encode(["k": 3], forKey: Key("x"))
            var again = encoder.container(keyedBy: Key.self)
            try again.encode(4, forKey: Key("y"))
        }
    }

    @Test func rewritingAKeyOrAskingTheSameKindAgainIsNoSecondKind() throws {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        for _ in 0..<2 {
            #expect(try encoder.encode(Rewrites()) == foundation.encode(Rewrites()))
            #expect(try encoder.encode([Rewrites()]) == foundation.encode([Rewrites()]))
            #expect(String(decoding: try encoder.encode([0]), as: UTF8.self) == "[0]")
        }
    }
}

/// Under a key strategy other than the default, Foundation writes a `[String: Value]` itself and
/// leaves the key the dictionary was given under out of its values' coding paths; with the
/// default strategy it encodes the dictionary through a keyed container, under that key. Code
/// that reads the path (a `.custom` key strategy, a value's own `encode(to:)`) writes what it
/// saw, so the bytes differ unless the paths agree.
@Suite struct DictionaryCodingPathTests {
    /// Writes the coding path it is encoded at.
    struct PathProbe: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.map(\.stringValue).joined(separator: "/"))
        }
    }

    struct Inner: Encodable {
        var x = 1
        var probe = PathProbe()
    }

    /// A dictionary given through a single value container: Foundation keeps its encoder's key.
    struct ThroughSingleValue: Encodable {
        var dict = ["k": PathProbe()]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dict)
        }
    }

    struct Shapes: Encodable {
        var dict = ["k": PathProbe()]
        var nested = ["k": Inner()]
        var dictOfDicts = ["outer": ["inner": PathProbe()]]
        var list = [["k": PathProbe()]]
        var wrapped = ["w": ThroughSingleValue()]
        var plain = Inner()
    }

    typealias Key = EncoderFoundationEdgeTests.Key

    static let strategies: [(name: String, strategy: JSONEncoder.KeyEncodingStrategy)] = [
        ("default", .useDefaultKeys),
        ("snake case", .convertToSnakeCase),
        ("path", .custom { path in Key(path.map(\.stringValue).joined(separator: ".")) }),
    ]

    @Test(arguments: 0..<3)
    func valuesInADictionarySeeFoundationsCodingPaths(_ which: Int) throws {
        let strategy = Self.strategies[which].strategy
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        foundation.keyEncodingStrategy = strategy
        let ours = LenientJSONEncoder()
        ours.outputFormatting = .sortedKeys
        ours.keyEncodingStrategy = strategy
        for value in [Shapes()] {
            let expected = String(decoding: try foundation.encode(value), as: UTF8.self)
            let written = String(decoding: try ours.encode(value), as: UTF8.self)
            #expect(written == expected, "\(Self.strategies[which].name): \(written) against \(expected)")
        }
        let top = ["k": Inner()]
        #expect(try ours.encode(top) == foundation.encode(top))
        // The written text decodes back as Foundation's does.
        let decoder = LenientJSONDecoder()
        let expected = try JSONSerialization.jsonObject(with: foundation.encode(Shapes())) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: ours.encode(Shapes())) as? NSDictionary == expected)
        #expect(
            try decoder.decode(JSONValue.self, from: ours.encode(Shapes()))
                == decoder.decode(
                    JSONValue.self, from: foundation.encode(Shapes())))
    }

    /// A value that fails inside a dictionary names the path Foundation names.
    struct Fails: Encodable {
        func encode(to encoder: any Encoder) throws {
            throw EncodingError.invalidValue(
                0, .init(codingPath: encoder.codingPath, debugDescription: "refused"))
        }
    }

    @Test(arguments: 0..<3)
    func anErrorInsideADictionaryNamesFoundationsPath(_ which: Int) throws {
        struct Holder: Encodable { var a = ["kK": [Fails()]] }
        let strategy = Self.strategies[which].strategy
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = strategy
        let ours = LenientJSONEncoder()
        ours.keyEncodingStrategy = strategy
        func path(_ body: () throws -> Data) -> [String]? {
            guard case .failure(let error) = Result(catching: body),
                case EncodingError.invalidValue(_, let context) = error
            else { return nil }
            return context.codingPath.map(\.stringValue)
        }
        let expected = path { try foundation.encode(Holder()) }
        #expect(expected != nil)
        #expect(path { try ours.encode(Holder()) } == expected)
    }
}

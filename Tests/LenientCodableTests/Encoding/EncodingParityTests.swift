// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// With `.sortedKeys`, the output must be JSONEncoder's, byte for byte.
@Suite struct EncodingParityTests {
    @Test(arguments: sortedFormattings, EncoderSetup.all)
    func richModelsMatchFoundation(formatting: JSONEncoder.OutputFormatting, setup: EncoderSetup) throws {
        for variant in 0..<2 {
            try expectSameBytes(RichModel.make(variant: variant), formatting: formatting, setup: setup)
        }
        try expectSameBytes([RichModel.make(variant: 0)], formatting: formatting, setup: setup)
        try expectSameBytes(["nested": ["deeper": RichModel.make(variant: 1)]], formatting: formatting, setup: setup)
    }

    @Test(arguments: sortedFormattings)
    func nonFiniteFloatsAsStringsMatchFoundation(formatting: JSONEncoder.OutputFormatting) throws {
        let setup = EncoderSetup(
            name: "convertToString", float: .convertToString(positiveInfinity: "+", negativeInfinity: "-", nan: "?/"))
        try expectSameBytes(NonFiniteModel(), formatting: formatting, setup: setup)
        try expectSameBytes(Double.nan, formatting: formatting, setup: setup)
        try expectSameBytes([Float.infinity], formatting: formatting, setup: setup)
    }

    @Test(arguments: sortedFormattings)
    func topLevelFragmentsMatchFoundation(formatting: JSONEncoder.OutputFormatting) throws {
        try expectSameBytes(1, formatting: formatting)
        try expectSameBytes(-0.0, formatting: formatting)
        try expectSameBytes("a/\"b\"", formatting: formatting)
        try expectSameBytes(true, formatting: formatting)
        try expectSameBytes(Int?.none, formatting: formatting)
        try expectSameBytes([Int](), formatting: formatting)
        try expectSameBytes([String: Int](), formatting: formatting)
        try expectSameBytes(EmptyModel(), formatting: formatting)
        try expectSameBytes(Date(timeIntervalSinceReferenceDate: 1.5), formatting: formatting)
        try expectSameBytes(Data([1, 2, 3]), formatting: formatting)
        try expectSameBytes(Decimal(string: "1.10"), formatting: formatting)
        try expectSameBytes([[[Int]]]([[[]], []]), formatting: formatting)
    }

    /// Strings of every escape at every offset from a word boundary, and random mixes of them
    /// with plain ASCII and multi-byte characters (fixed seed), with slashes escaped and kept.
    @Test(arguments: [JSONEncoder.OutputFormatting.sortedKeys, [.sortedKeys, .withoutEscapingSlashes]])
    func escapedStringsMatchFoundation(formatting: JSONEncoder.OutputFormatting) throws {
        let specials = ["\"", "\\", "/", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{01}", "\u{1F}"]
        var strings: [String] = []
        for special in specials {
            for offset in 0..<17 { strings.append(String(repeating: "a", count: offset) + special + "bcdefghijk") }
        }
        let pieces = specials + ["a", "Z", " ", "~", "\u{7F}", "é", "日本", "😀", "\u{2028}", "0123456789"]
        var state: UInt64 = 42
        for _ in 0..<300 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(state >> 60) * 3 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 33) % pieces.count]
            }
            strings.append(text)
        }
        try expectSameBytes(strings, formatting: formatting)
        let keyed = Dictionary(strings.enumerated().map { ($1, $0) }, uniquingKeysWith: max)
        try expectSameBytes(keyed, formatting: formatting)
    }

    @Test(arguments: [
        "a", "B", "a10", "a9", "é", "_", "1", "10", "2", "Z", "b", "A", "ab", "aB", "Ab", "~", "-", "a-b", "a_b", "ä",
        "",
        "e\u{301}", "😀", "\u{FF21}",
    ])
    func keySortOrderIsFoundations(extraKey: String) throws {
        var dictionary = [
            "a": 0, "B": 1, "a10": 2, "a9": 3, "é": 4, "_": 5, "Z": 6, "aB": 7, "Ab": 8, "10": 9, "9": 10,
        ]
        dictionary[extraKey] = 99
        try expectSameBytes(dictionary, formatting: [.sortedKeys])
        try expectSameBytes(dictionary, formatting: [.sortedKeys, .prettyPrinted])
    }

    @Test(arguments: [
        "myURLValue", "_leading", "a1b", "already_snake", "ABC", "aBC", "__x__", "URL", "myID2Go", "é", "ÉtéÀ",
        "simple",
        "oneTwoThree", "_oneTwoThree_", "a", "", "HTTPSConnection", "x1Y2z", "ǅungla",
    ])
    func snakeCaseKeysMatchFoundation(key: String) throws {
        let setup = EncoderSetup(name: "snake", key: .convertToSnakeCase)
        try expectSameBytes(SingleKeyModel(key: key), formatting: [.sortedKeys], setup: setup)
    }

    @Test func superEncodersMatchFoundation() throws {
        try expectSameBytes(SubclassModel(), formatting: [.sortedKeys])
        try expectSameBytes(
            SubclassModel(), formatting: [.sortedKeys], setup: EncoderSetup(name: "snake", key: .convertToSnakeCase))
        try expectSameBytes(UnkeyedSuperModel(), formatting: [.sortedKeys, .prettyPrinted])
    }

    @Test func repeatedKeysAndMergedContainersMatchFoundation() throws {
        try expectSameBytes(RepeatedKeyModel(), formatting: [.sortedKeys])
        try expectSameBytes(MergingModel(), formatting: [.sortedKeys])
        try expectSameBytes(
            SnakeCollisionModel(), formatting: [.sortedKeys],
            setup: EncoderSetup(name: "snake", key: .convertToSnakeCase))
    }

    /// Keys equal as `String`s (Unicode canonical equivalence) are one member, as in
    /// `JSONEncoder`'s dictionary of members: the first spelling, the last value. Compared byte
    /// for byte (`String`'s `==` would call the two spellings equal), in objects small enough to
    /// be searched member by member and in one past the table threshold.
    @Test(arguments: [
        ["caf\u{E9}", "cafe\u{301}"],
        ["cafe\u{301}", "caf\u{E9}"],
        ["a", "b", "caf\u{E9}", "x", "cafe\u{301}"],
        ["K", "\u{212A}"],  // the Kelvin sign is `K`, an ASCII key
        ["\u{212A}", "K"],
        ["\u{212B}", "\u{C5}", "A\u{30A}"],  // the Angstrom sign, Å precomposed and decomposed
        (0..<60).map { "key\($0)" } + ["caf\u{E9}"] + (60..<70).map { "key\($0)" } + ["cafe\u{301}", "K", "\u{212A}"],
    ])
    func canonicallyEqualKeysAreOneMember(keys: [String]) throws {
        let model = DynamicKeyModel(keys: keys)
        for formatting in [JSONEncoder.OutputFormatting.sortedKeys, []] {
            let foundation = JSONEncoder()
            foundation.outputFormatting = formatting
            let lenient = LenientJSONEncoder()
            lenient.outputFormatting = formatting
            let expected = try foundation.encode(model)
            let actual = try lenient.encode(model)
            // Both write each distinct key once with its last value.
            let members = try LenientJSONDecoder().decode([String: Int].self, from: actual)
            #expect(members == (try JSONDecoder().decode([String: Int].self, from: expected)))
            #expect(actual.count == expected.count)
            if formatting == .sortedKeys { #expect(Array(actual) == Array(expected)) }
        }
    }

    /// Thousands of distinct keys under `.convertToSnakeCase` (each converted once and
    /// remembered in place: the table was copied whole for every new key) match `JSONEncoder`.
    @Test func manyDistinctSnakeCaseKeysMatchFoundation() throws {
        let model = DynamicKeyModel(keys: (0..<5_000).map { "someKey\($0)Name" })
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let lenient = LenientJSONEncoder()
        lenient.outputFormatting = .sortedKeys
        lenient.keyEncodingStrategy = .convertToSnakeCase
        let written = try lenient.encode(model)
        #expect(Array(written) == Array(try foundation.encode(model)))
        let members = try LenientJSONDecoder().decode([String: Int].self, from: written)
        #expect(members.count == 5_000 && members["some_key4999_name"] == 4_999)
    }

    @Test func optionalsMatchFoundation() throws {
        try expectSameBytes(OptionalsModel(), formatting: [.sortedKeys])
        try expectSameBytes([1, nil, 3] as [Int?], formatting: [.sortedKeys])
    }

    /// Rows of numbers (`[[Double]]`, as in GeoJSON) are written without an encoder per row;
    /// a row holding a number JSON cannot hold must still get Foundation's string or error.
    @Test(
        arguments: [
            [], [[]], [[1, 2], [], [3.5, -0.0, 1e-7, 1e21, 0.1]], [[-65.613616999999977, 43.420273000000009]],
            [[1, .infinity]], [[.nan], [2]], [[1, 2], [3, -.infinity]],
        ] as [[[Double]]])
    func rowsOfNumbersMatchFoundation(rows: [[Double]]) throws {
        let setups = [
            EncoderSetup(name: "throw"),
            EncoderSetup(
                name: "convertToString", float: .convertToString(positiveInfinity: "+", negativeInfinity: "-", nan: "?")
            ),
        ]
        let shapes: [[String: [[[Double]]]]] = [["coordinates": [rows]], ["coordinates": [rows, rows.reversed()]]]
        for setup in setups {
            try expectSameOutcome(shapes[1], setup: setup)
            // The round trip, for the rows JSON can hold.
            guard rows.allSatisfy({ $0.allSatisfy(\.isFinite) }) else { continue }
            let data = try setup.lenientEncoder([]).encode(shapes[0])
            let decoded = try LenientJSONDecoder().decode([String: [[[Double]]]].self, from: data)
            #expect(
                decoded.mapValues { $0.map { $0.map { $0.map(\.bitPattern) } } }
                    == shapes[0].mapValues { $0.map { $0.map { $0.map(\.bitPattern) } } })
        }
    }

    /// Rows of numbers, and arrays of scalars as elements, nested as deep as Foundation writes,
    /// and one level deeper.
    @Test(arguments: 508...511)
    func arraysAtTheDepthLimitMatchFoundation(depth: Int) throws {
        try expectSameOutcome(NestedRows(depth: depth, rows: [[1, 2], [3]]), setup: EncoderSetup(name: "rows"))
        try expectSameOutcome(NestedValue(depth: depth, value: [1, 2]), setup: EncoderSetup(name: "[Int]"))
        try expectSameOutcome(NestedValue(depth: depth, value: ["a"]), setup: EncoderSetup(name: "[String]"))
        try expectSameOutcome(NestedValue(depth: depth, value: [0.5]), setup: EncoderSetup(name: "[Double]"))
    }

    /// Arrays of `Int`, `String` and `Double` as properties are written without an encoder of
    /// their own; a `Double` JSON cannot hold must still get Foundation's string or error.
    @Test(arguments: [[1.5, -0.0, 1e-7], [], [.nan], [1, .infinity]] as [[Double]])
    func arraysOfScalarsAsPropertiesMatchFoundation(doubles: [Double]) throws {
        let value = ScalarArrays(ints: [1, -2, .max, .min], strings: ["a/b", "\"", "", "é\n"], doubles: doubles)
        let setups = [
            EncoderSetup(name: "throw"),
            EncoderSetup(
                name: "convertToString", float: .convertToString(positiveInfinity: "+", negativeInfinity: "-", nan: "?")
            ),
        ]
        for setup in setups {
            try expectSameOutcome(value, setup: setup)
            try expectSameOutcome([value, value], setup: setup)
            guard doubles.allSatisfy(\.isFinite) else { continue }
            let decoded = try LenientJSONDecoder().decode(
                ScalarArrays.self, from: setup.lenientEncoder([]).encode(value))
            #expect(decoded == value)
        }
    }

    @Test func deepestNestingFoundationWritesIsWritten() throws {
        try expectSameBytes(NestedArrays(depth: 511), formatting: [.sortedKeys])
        try expectSameBytes(NestedArrays(depth: 511), formatting: [.sortedKeys, .prettyPrinted])
    }
}

struct EmptyModel: Codable {}

/// Encodes a value with each encoder, with sorted keys (Foundation's order is otherwise its
/// dictionary's), compact and pretty, and expects Foundation's bytes, or Foundation's error.
func expectSameOutcome<T: Encodable>(
    _ value: T, setup: EncoderSetup, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    for formatting in [.sortedKeys, [.sortedKeys, .prettyPrinted]] as [JSONEncoder.OutputFormatting] {
        let expected = Result { try setup.foundationEncoder(formatting).encode(value) }
        let actual = Result { try setup.lenientEncoder(formatting).encode(value) }
        switch (expected, actual) {
        case (.success(let expected), .success(let actual)):
            #expect(
                String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
                "\(setup.name)", sourceLocation: sourceLocation)
        case (.failure(let expected), .failure(let actual)):
            #expect(ErrorSummary(actual) == ErrorSummary(expected), "\(setup.name)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(setup.name): Foundation \(expected), lenient \(actual)", sourceLocation: sourceLocation)
        }
    }
}

struct ScalarArrays: Codable, Equatable {
    var ints: [Int]
    var strings: [String]
    var doubles: [Double]
}

/// A value as the only element of `depth` nested arrays.
struct NestedValue<Value: Encodable>: Encodable {
    var depth: Int
    var value: Value

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        if depth > 1 {
            try container.encode(NestedValue(depth: depth - 1, value: value))
        } else {
            try container.encode(value)
        }
    }
}

/// Rows of numbers inside `depth` arrays of one element.
struct NestedRows: Encodable {
    var depth: Int
    var rows: [[Double]]

    func encode(to encoder: any Encoder) throws {
        guard depth > 0 else {
            var container = encoder.singleValueContainer()
            return try container.encode(rows)
        }
        var container = encoder.unkeyedContainer()
        try container.encode(NestedRows(depth: depth - 1, rows: rows))
    }
}

struct SingleKeyModel: Encodable {
    var key: String
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FixtureKey.self)
        try container.encode(1, forKey: FixtureKey(key))
        try container.encode(["innerKey": key], forKey: FixtureKey("wrapper"))
    }
}

class BaseModel: Encodable {
    var baseValue = 1
}

final class SubclassModel: BaseModel {
    var ownValue = 2
    enum CodingKeys: String, CodingKey {
        case ownValue
        case parentPart
    }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ownValue, forKey: .ownValue)
        try super.encode(to: container.superEncoder())
        try super.encode(to: container.superEncoder(forKey: .parentPart))
    }
}

struct UnkeyedSuperModel: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(1)
        try BaseModel().encode(to: container.superEncoder())
        var nested = container.nestedContainer(keyedBy: FixtureKey.self)
        try nested.encode(2, forKey: FixtureKey("q"))
        _ = container.superEncoder()
        var nestedList = container.nestedUnkeyedContainer()
        try nestedList.encodeNil()
    }
}

struct RepeatedKeyModel: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FixtureKey.self)
        try container.encode(1, forKey: FixtureKey("a"))
        try container.encode(2, forKey: FixtureKey("b"))
        try container.encode([3], forKey: FixtureKey("a"))
        var nested = container.nestedContainer(keyedBy: FixtureKey.self, forKey: FixtureKey("c"))
        try nested.encode(4, forKey: FixtureKey("x"))
        var again = container.nestedContainer(keyedBy: FixtureKey.self, forKey: FixtureKey("c"))
        try again.encode(5, forKey: FixtureKey("y"))
        var secondKeyed = encoder.container(keyedBy: FixtureKey.self)
        try secondKeyed.encode(6, forKey: FixtureKey("d"))
    }
}

struct MergingModel: Encodable {
    func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(["z": 1])
        var container = encoder.container(keyedBy: FixtureKey.self)
        try container.encode(2, forKey: FixtureKey("b"))
    }
}

struct SnakeCollisionModel: Encodable {
    var ABC = 1
    var aBC = 2
}

struct OptionalsModel: Encodable {
    var present: Int? = 1
    var absent: Int?
    enum CodingKeys: CodingKey {
        case present
        case absent
        case explicitNull
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(present, forKey: .present)
        try container.encodeIfPresent(absent, forKey: .absent)
        try container.encode(absent, forKey: .explicitNull)
    }
}

struct NestedArrays: Encodable {
    var depth: Int
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        if depth > 1 { try container.encode(NestedArrays(depth: depth - 1)) }
    }
}

extension EncodingParityTests {
    /// One comparison spelled out: sorted keys in byte order and an escaped slash, as `JSONEncoder` writes them.
    @Test func sortedCompactBytesMatchFoundationLiterally() throws {
        struct Pair: Encodable {
            var b = 1
            var a = "x/y"
        }
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        let ours = LenientJSONEncoder()
        ours.outputFormatting = [.sortedKeys]
        #expect(try ours.encode(Pair()) == foundation.encode(Pair()))
        #expect(String(decoding: try ours.encode(Pair()), as: UTF8.self) == #"{"a":"x\/y","b":1}"#)
    }
}

/// Encodes one `Int` per key, its index, through a keyed container: the same key may come twice.
private struct DynamicKeyModel: Encodable {
    struct Key: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    var keys: [String]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (index, key) in keys.enumerated() { try container.encode(index, forKey: Key(stringValue: key)) }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Texts, containers and keys past 65 534 bytes or elements: the parsed tree holds shorter
/// lengths and counts in each value's own record and longer ones aside, and both must read the
/// same, as Foundation reads them.
@Suite struct LargeValueTests {
    static let decoders = [LenientJSONDecoder(options: .strict), LenientJSONDecoder(options: .lenient)]
    /// Around the largest length a value's record holds itself, and well past it.
    static let sizes = [65_533, 65_534, 65_535, 65_536, 65_537, 200_000]

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test(arguments: sizes)
    func longStringsReadWhole(_ size: Int) throws {
        let plain = String(repeating: "abcdefg", count: size / 7 + 1).prefix(size)
        // An escape at the end: the slow path reads the whole text too.
        let escaped = String(repeating: "é", count: size / 2) + "\\n"
        let json = Data(#"["\#(plain)","\#(escaped)",1]"#.utf8)
        let expected = try JSONDecoder().decode([JSONValue].self, from: json)
        for decoder in Self.decoders {
            let values = try decoder.decode([JSONValue].self, from: json)
            #expect(values == expected)
            #expect(values[0].stringValue?.utf8.count == size)
            #expect(values[1].stringValue == String(repeating: "é", count: size / 2) + "\n")
            let strings = try decoder.decode(Tuple.self, from: json)
            #expect(strings.first == String(plain))
            #expect(strings.number == 1)
            // Round trip through the encoder.
            let encoded = try LenientJSONEncoder().encode(strings)
            #expect(try decoder.decode(Tuple.self, from: encoded) == strings)
            #expect(encoded == (try JSONEncoder().encode(strings)))
        }
    }

    /// A first string, a second string and a number, in an array.
    struct Tuple: Codable, Equatable {
        var first: String
        var second: String
        var number: Int

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(String.self)
            second = try container.decode(String.self)
            number = try container.decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(first)
            try container.encode(second)
            try container.encode(number)
        }
    }

    @Test func longNumbersReadAsFoundationReadsThem() throws {
        let long = "1." + String(repeating: "0", count: 70_000) + "1"
        let json = Data("[\(long), \"x\"]".utf8)
        let foundation = try JSONDecoder().decode(Double.self, from: Data(long.utf8))
        for decoder in Self.decoders {
            // The tree's own reading keeps the text as written.
            #expect(try decoder.decode([JSONValue].self, from: json) == [.number(long), .string("x")])
            #expect(try decoder.decode(Double.self, from: Data(long.utf8)) == foundation)
        }
    }

    @Test(arguments: [65_534, 65_535, 70_000])
    func longKeysAreFoundAndKept(_ size: Int) throws {
        let key = String(repeating: "k", count: size)
        let shorter = String(repeating: "k", count: size - 1)
        let json = Data(#"{"\#(shorter)":1,"\#(key)":2,"z":3}"#.utf8)
        struct Probe: Decodable {
            var values: [Int?]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                let names = [String(repeating: "k", count: container.allKeys[0].stringValue.count + 1), "z", "missing"]
                values = try names.map { try container.decodeIfPresent(Int.self, forKey: AnyKey($0)) }
            }
        }
        for decoder in Self.decoders {
            #expect(try decoder.decode(Probe.self, from: json).values == [2, 3, nil])
            let dictionary = try decoder.decode([String: Int].self, from: json)
            #expect(dictionary == [shorter: 1, key: 2, "z": 3])
            let encoder = LenientJSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let encoded = try encoder.encode(dictionary)
            #expect(try decoder.decode([String: Int].self, from: encoded) == dictionary)
        }
    }

    @Test(arguments: sizes)
    func largeArraysCountEveryElement(_ count: Int) throws {
        let numbers = Array(0..<count)
        let json = try JSONEncoder().encode(numbers)
        // Every element a container: the count is taken by stepping over each.
        let nested = try JSONEncoder().encode(numbers.map { [$0, -$0] })
        struct Counted: Decodable {
            var count: Int?
            var last: Int
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                count = container.count
                var last = -1
                while !container.isAtEnd { last = try container.decode(Int.self) }
                self.last = last
            }
        }
        for decoder in Self.decoders {
            #expect(try decoder.decode([Int].self, from: json) == numbers)
            #expect(try decoder.decode(Set<Int>.self, from: json).count == count)
            let counted = try decoder.decode(Counted.self, from: json)
            #expect(counted.count == count)
            #expect(counted.last == count - 1)
            let pairs = try decoder.decode([[Int]].self, from: nested)
            #expect(pairs.count == count)
            #expect(pairs.last == [count - 1, -(count - 1)])
            let value = try decoder.decode(JSONValue.self, from: nested)
            #expect(value.arrayValue?.count == count)
            #expect(try decoder.decode(Int.self, from: json, at: "[\(count - 1)]") == count - 1)
            let error = try #require(throws: DecodingError.self) {
                try decoder.decode(Int.self, from: json, at: "[\(count)]")
            }
            guard case .valueNotFound(_, let context) = error else {
                Issue.record("Expected valueNotFound, got \(error)")
                continue
            }
            #expect(context.debugDescription.contains("the array has \(count)."))
        }
    }

    @Test(arguments: [65_535, 70_000])
    func largeObjectsCountEveryMember(_ count: Int) throws {
        let members = Dictionary(uniqueKeysWithValues: (0..<count).map { ("m\($0)", [$0]) })
        let json = try JSONEncoder().encode(members)
        for decoder in Self.decoders {
            let decoded = try decoder.decode([String: [Int]].self, from: json)
            #expect(decoded == members)
            let value = try decoder.decode(JSONValue.self, from: json)
            #expect(value.objectValue?.count == count)
            #expect(try decoder.decode(Int.self, from: json, at: "m\(count - 1)[0]") == count - 1)
        }
    }

    @Test func aCoercedElementPastTheRecordedCountIsReportedAtItsIndex() throws {
        let count = 70_000
        var elements = Array(repeating: "1", count: count)
        elements[count - 1] = #""2""#
        let json = Data("[\(elements.joined(separator: ","))]".utf8)
        let (values, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: json)
        #expect(values.count == count)
        #expect(values.last == 2)
        #expect(report.issues.count == 1)
        #expect(report.issues.first?.path == "[\(count - 1)]")
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(options: .strict).decode([Int].self, from: json) }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Arrays of `Double`, `Int`, `String`, `Float` and `Bool` are built by code compiled for their
/// element type, and, with no report collected, without a path per element: an element that
/// fails is decoded again under its own path. What a model sees must not change: the values, the
/// errors and their coding paths (Foundation's), the elements `.lenient` drops and the entries of
/// the report when one is asked for.
@Suite struct ScalarArrayTests {
    struct Samples: Codable, Equatable {
        var doubles: [Double]
        var ints: [Int]
        var strings: [String]
        var floats: [Float]
        var bools: [Bool]
        var nested: [[Double]]
    }

    /// The elements of each array, as JSON text, in the order of the model's properties.
    static let arrays: KeyValuePairs<String, [String]> = [
        "doubles": ["1.5", "-2", "3e2", "0.1"], "ints": ["1", "-2", "30"], "strings": [#""a""#, #""é""#, #""""#],
        "floats": ["1.25", "2"], "bools": ["true", "false"], "nested": ["[1, 2.5]", "[]", "[3]"],
    ]

    /// The document, with one element of one array replaced when asked.
    static func document(replacing array: String = "", at position: Int = 0, with json: String = "") -> Data {
        let members = arrays.map { name, elements in
            var elements = elements
            if name == array { elements[position] = json }
            return #""\#(name)": [\#(elements.joined(separator: ", "))]"#
        }
        return Data(("{" + members.joined(separator: ", ") + "}").utf8)
    }

    static let badElements: [(array: String, position: Int, json: String)] = [
        ("doubles", 2, #""x""#), ("doubles", 0, "null"), ("doubles", 3, "1e400"),
        ("ints", 1, "1.5"), ("ints", 2, #""7""#), ("ints", 0, "99999999999999999999"),
        ("strings", 1, "5"), ("strings", 2, "null"),
        ("floats", 1, "true"), ("bools", 0, "1"), ("bools", 1, #""yes""#),
    ]

    @Test func validArraysDecodeAsFoundationAndRoundTrip() throws {
        let data = Self.document()
        let expected = try JSONDecoder().decode(Samples.self, from: data)
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let decoded = try LenientJSONDecoder(options: options).decode(Samples.self, from: data)
            #expect(decoded == expected)
            let encoded = try LenientJSONEncoder().encode(decoded)
            #expect(try LenientJSONDecoder(options: options).decode(Samples.self, from: encoded) == expected)
        }
    }

    @Test(arguments: badElements.indices)
    func strictThrowsFoundationsErrorWithTheElementsPath(_ case: Int) throws {
        let bad = Self.badElements[`case`]
        let data = Self.document(replacing: bad.array, at: bad.position, with: bad.json)
        let foundation = DecodingErrorSummary(
            try #require(Self.error { try JSONDecoder().decode(Samples.self, from: data) }))
        let strict = DecodingErrorSummary(
            try #require(Self.error { try LenientJSONDecoder(.strict).decode(Samples.self, from: data) }))
        #expect(strict.kind == foundation.kind)
        // Foundation on Linux drops the path of a number out of range (FOUNDATION-NOTES.md);
        // ours keeps it. Every other path is Foundation's.
        if !foundation.codingPath.isEmpty { #expect(strict.codingPath == foundation.codingPath) }
        #expect(strict.codingPath.map(\.stringValue) == [bad.array, "Index \(bad.position)"])
    }

    /// `.lenient` with and without a report gives the same value; the report names the element it
    /// dropped or coerced, at the element's path; and a report handler sees the same entries.
    @Test(arguments: badElements.indices)
    func lenientGivesTheSameValueWithOrWithoutAReport(_ case: Int) throws {
        let bad = Self.badElements[`case`]
        let data = Self.document(replacing: bad.array, at: bad.position, with: bad.json)
        let decoder = LenientJSONDecoder()
        let plain = try decoder.decode(Samples.self, from: data)
        let (reported, report) = try decoder.decodeWithReport(Samples.self, from: data)
        #expect(plain == reported)
        let issue = try #require(report.issues.first)
        #expect(report.issues.count == 1)
        #expect(issue.path == "\(bad.array)[\(bad.position)]")
        let encoded = try LenientJSONEncoder().encode(plain)
        #expect(try decoder.decode(Samples.self, from: encoded) == plain)
    }

    /// A probe of `[Int]` with `try?` in a type's first pass sees Foundation's answer (a failure),
    /// so the type takes its `[String]` branch, with or without a report.
    @Test func aProbedScalarArrayFailsInTheFirstPass() throws {
        struct Either: Decodable, Equatable {
            var ints: [Int]?
            var strings: [String]?
            init(ints: [Int]?, strings: [String]?) {
                self.ints = ints
                self.strings = strings
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: TestCodingKey.self)
                ints = try? container.decode([Int].self, forKey: TestCodingKey("ids"))
                strings = ints == nil ? try container.decode([String].self, forKey: TestCodingKey("ids")) : nil
            }
        }
        let data = Data(#"{"ids": ["1", "2"]}"#.utf8)
        let expected = Either(ints: nil, strings: ["1", "2"])
        #expect(try JSONDecoder().decode(Either.self, from: data) == expected)
        #expect(try LenientJSONDecoder().decode(Either.self, from: data) == expected)
        #expect(try LenientJSONDecoder().decodeWithReport(Either.self, from: data).value == expected)
    }

    static func error(_ body: () throws -> Samples) -> (any Error)? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}

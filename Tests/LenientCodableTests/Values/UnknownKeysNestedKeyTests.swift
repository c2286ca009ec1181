// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `UnknownKeys` with nested keys: kept members come back merged with what the model writes.
@Suite struct UnknownKeysNestedKeyTests {
    /// The decoder's presets, as test arguments.
    enum Mode: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case lenient, strict

        var options: LenientJSONDecoder.Options { self == .lenient ? .lenient : .strict }
        var testDescription: String { rawValue }
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    struct Book: Codable, Equatable, KeyMapping {
        var id: Int
        var desc: String
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
    }

    struct Zoned: Codable, Equatable, KeyMapping {
        var zone: String
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["zone": "info[1].zone"]
    }
}

// MARK: - What the encoder merges

extension UnknownKeysNestedKeyTests {
    @Test(arguments: Mode.allCases)
    func editedMembersMergeIntoTheModelsNestedKeysAndThePropertyWins(mode: Mode) throws {
        var book = Book(id: 1, desc: "new")
        book.extras["ext"] = ["desc": "stale", "x": ["y": 1]]
        let written = try LenientJSONEncoder().encode(book)
        #expect(try JSONValue(parsing: written) == Self.json(#"{"id":1,"ext":{"desc":"new","x":{"y":1}}}"#))
        let again = try LenientJSONDecoder(options: mode.options).decode(Book.self, from: written)
        #expect(again.desc == "new")

        // A kept value of another kind than the model's container gives way to it.
        book.extras["ext"] = [1, 2]
        #expect(try LenientJSONEncoder().encodeToJSONValue(book) == Self.json(#"{"id":1,"ext":{"desc":"new"}}"#))

        var zoned = Zoned(zone: "z")
        zoned.extras["info"] = [["a": 1], ["zone": "old", "b": 2], 3, nil]
        #expect(
            try LenientJSONEncoder().encodeToJSONValue(zoned)
                == Self.json(#"{"info":[{"a":1},{"zone":"z","b":2},3,null]}"#))
    }

    struct OwnObject: Codable, Equatable {
        var ext: [String: Int]
        var extras = UnknownKeys()
    }

    @Test func aPropertysOwnObjectIsNotMergedInto() throws {
        var value = OwnObject(ext: ["a": 1])
        value.extras["ext"] = ["b": 2]
        #expect(try LenientJSONEncoder().encodeToJSONValue(value) == ["ext": ["a": 1]])
    }
}

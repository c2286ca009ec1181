// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A decoder remembers what it learned about the types its decodes met, for as many types as a
/// large app has models, so that the next decode of each asks nothing again. What it remembers
/// must be each type's own: a mapped type keeps its mapping and a plain one its keys, on the
/// first decode and on every later one, for each of hundreds of types in turn.
@Suite struct ManyTypesTests {
    /// A distinct type for every nesting of `Level`: `Level<Level<Int>>` is another type than
    /// `Level<Int>`.
    struct Level<Inner> {}

    struct Mapped<Tag>: Codable, Equatable, KeyMapping {
        var value: Int
        static var keyMapping: [String: KeySource] { ["value": "v"] }
    }

    struct Plain<Tag>: Codable, Equatable {
        var value: Int
    }

    /// Decodes `Mapped<Tag>` and `Plain<Tag>`, then the same for `Level<Tag>`, down to `depth`.
    static func decodeAll<Tag>(_ tag: Tag.Type, depth: Int, with decoder: LenientJSONDecoder) throws -> Int {
        let mapped = try decoder.decode(Mapped<Tag>.self, from: Data(#"{"v":\#(depth),"value":-1}"#.utf8))
        #expect(mapped == Mapped(value: depth))
        let plain = try decoder.decode(Plain<Tag>.self, from: Data(#"{"v":-1,"value":\#(depth)}"#.utf8))
        #expect(plain == Plain(value: depth))
        // What the encoder writes decodes back to the same value.
        #expect(try decoder.decode(Mapped<Tag>.self, from: LenientJSONEncoder().encode(mapped)) == mapped)
        guard depth > 0 else { return 2 }
        return try 2 + decodeAll(Level<Tag>.self, depth: depth - 1, with: decoder)
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func everyTypeKeepsItsOwnTraitsPastHundredsOfTypes(options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        // 600 types, then all of them again from what the decoder remembers.
        #expect(try Self.decodeAll(Int.self, depth: 299, with: decoder) == 600)
        #expect(try Self.decodeAll(Int.self, depth: 299, with: decoder) == 600)
    }

    @Test func decodersSharedAcrossTasksKeepEveryTypesTraits() async throws {
        let decoder = LenientJSONDecoder()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try Self.decodeAll(String.self, depth: 149, with: decoder) }
            }
            for try await count in group { #expect(count == 300) }
        }
    }
}

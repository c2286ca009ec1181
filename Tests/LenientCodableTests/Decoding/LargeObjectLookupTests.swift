// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Key lookups in objects of many members: past a few dozen members before a container's place,
/// the summary of those keys holds every hash, and searches answer from an index of them instead
/// of scanning from the first member each time (which made a `[Int: V]` of a hundred thousand
/// members take seconds). Whatever the path, the answers are Foundation's: the first of
/// duplicate keys, keys compared byte for byte, snake case converted as Foundation converts it.
@Suite struct LargeObjectLookupTests {
    static func integerKeyed(_ count: Int) -> String {
        "{" + (0..<count).map { "\"\($0)\":\($0 * 3)" }.joined(separator: ",") + "}"
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func aLargeIntegerKeyedDictionaryDecodesAsFoundationDecodesIt(options: LenientJSONDecoder.Options) throws {
        let document = Self.integerKeyed(20_000)
        let foundations = try JSONDecoder().decode([Int: Int].self, from: Data(document.utf8))
        #expect(try LenientJSONDecoder(options: options).decode([Int: Int].self, from: document) == foundations)
        let snake = LenientJSONDecoder(options: options)
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let foundationSnake = JSONDecoder()
        foundationSnake.keyDecodingStrategy = .convertFromSnakeCase
        #expect(
            try snake.decode([Int: Int].self, from: document)
                == foundationSnake.decode([Int: Int].self, from: Data(document.utf8)))
    }

    struct Sparse: Codable, Equatable {
        var first: Int
        var middle: Int
        var last: Int
        var missing: Int?
        var escaped: String
    }

    /// A model that asks out of the document's order in an object of 600 members, with a
    /// duplicate of every key it reads after the first: the first wins, as in Foundation.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func outOfOrderKeysInALargeObjectFindTheFirstMember(options: LenientJSONDecoder.Options) throws {
        var members = ["\"last\":1", "\"middle\":2", "\"first\":3", #""esc\u0061ped":"a""#]
        members += (0..<600).map { "\"filler\($0)\":\($0)" }
        members += ["\"first\":30", "\"middle\":20", "\"last\":10", #""escaped":"b""#, "\"e\u{301}\":5"]
        let document = "{" + members.joined(separator: ",") + "}"
        let foundations = try JSONDecoder().decode(Sparse.self, from: Data(document.utf8))
        let ours = try LenientJSONDecoder(options: options).decode(Sparse.self, from: document)
        #expect(ours == foundations)
        #expect(ours == Sparse(first: 3, middle: 2, last: 1, missing: nil, escaped: "a"))
    }

    struct SnakeModel: Codable, Equatable {
        var userName: String
        var createdAt: Int
        var isActive: Bool
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func snakeCaseKeysInALargeObjectFindTheFirstMember(options: LenientJSONDecoder.Options) throws {
        var members = (0..<300).map { "\"field_\($0)_x\":\($0)" }
        members += ["\"is_active\":true", "\"created_at\":7", "\"user_name\":\"ada\""]
        members += (300..<600).map { "\"field_\($0)_x\":\($0)" }
        members += ["\"user_name\":\"later\"", "\"created_at\":8"]
        let document = "{" + members.joined(separator: ",") + "}"
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let decoder = LenientJSONDecoder(options: options)
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let ours = try decoder.decode(SnakeModel.self, from: document)
        #expect(ours == (try foundation.decode(SnakeModel.self, from: Data(document.utf8))))
        #expect(ours == SnakeModel(userName: "ada", createdAt: 7, isActive: true))
    }
}

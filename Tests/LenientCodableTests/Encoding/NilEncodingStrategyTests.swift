// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `nilEncodingStrategy`: `nil` optional properties left out, as `JSONEncoder` does, or written as `null`.
@Suite struct NilEncodingStrategyTests {
    struct Profile: Codable, Equatable {
        var name: String
        var bio: String?
        var age: Int?
        var tags: [String?]
        var extra: Nested?
    }

    struct Nested: Codable, Equatable {
        var note: String?
    }

    struct Mapped: Codable, Equatable, KeyMapping {
        var title: String?
        var hidden: String?
        static let keyMapping: [String: KeySource] = ["title": "info.title", "hidden": .ignored]
    }

    static let profile = Profile(name: "Ada", bio: nil, age: nil, tags: ["a", nil], extra: Nested(note: nil))

    static func encode<T: Encodable>(_ value: T, _ strategy: LenientJSONEncoder.NilEncodingStrategy) throws -> String {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nilEncodingStrategy = strategy
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func omittingNilIsTheDefaultAndMatchesFoundation() throws {
        #expect(LenientJSONEncoder().nilEncodingStrategy == .omitKey)
        let foundation = JSONEncoder()
        foundation.outputFormatting = .sortedKeys
        let expected = String(decoding: try foundation.encode(Self.profile), as: UTF8.self)
        #expect(try Self.encode(Self.profile, .omitKey) == expected)
        #expect(expected == #"{"extra":{},"name":"Ada","tags":["a",null]}"#)
    }

    @Test func writingNullWritesEveryNilPropertyAndRoundTrips() throws {
        let text = try Self.encode(Self.profile, .writeNull)
        #expect(text == #"{"age":null,"bio":null,"extra":{"note":null},"name":"Ada","tags":["a",null]}"#)
        for decoder in [LenientJSONDecoder(options: .strict), LenientJSONDecoder()] {
            #expect(try decoder.decode(Profile.self, from: text) == Self.profile)
        }
        #expect(try JSONDecoder().decode(Profile.self, from: Data(text.utf8)) == Self.profile)
    }

    @Test func writingNullFollowsKeyMapping() throws {
        let text = try Self.encode(Mapped(title: nil, hidden: nil), .writeNull)
        #expect(text == #"{"info":{"title":null}}"#)
        #expect(try LenientJSONDecoder().decode(Mapped.self, from: text) == Mapped(title: nil, hidden: nil))
        #expect(try Self.encode(Mapped(title: "T", hidden: "h"), .writeNull) == #"{"info":{"title":"T"}}"#)
    }
}

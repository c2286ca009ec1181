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

    struct Kept: Codable, Equatable, KeyMapping {
        var name: String?
        var zone: Int?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["name": "ext.userName", "zone": "info[0].z"]
    }

    /// A `nil` at a nested key whose way the server's JSON blocks (a string, an empty object, an
    /// element that is not an object) leaves the kept value where it was: written `null` over
    /// it, the value would be lost on the next decode, with nothing reported.
    @Test(arguments: [
        #"{"ext":"legacy"}"#, #"{"ext":[]}"#, #"{"ext":{}}"#, #"{"ext":null}"#, #"{"ext":[1,{"userName":2}]}"#,
        #"{"info":[true]}"#, #"{"info":[{}]}"#, #"{"info":[]}"#, #"{"info":{}}"#, #"{"info":[[],{"z":1}]}"#,
        #"{"ext":"legacy","info":[7,8],"other":{"a":null}}"#,
    ])
    func writingNullLeavesAKeptValueInTheWayOfANestedKey(json: String) throws {
        let decoder = LenientJSONDecoder()
        let (value, report) = try decoder.decodeWithReport(Kept.self, from: json)
        #expect(value.name == nil && value.zone == nil)
        #expect(report.isEmpty)
        for strategy in [LenientJSONEncoder.NilEncodingStrategy.writeNull, .omitKey] {
            let encoder = LenientJSONEncoder()
            encoder.nilEncodingStrategy = strategy
            let written = try encoder.encode(value)
            // Every member the server sent comes back as it was; `.writeNull` adds `null` at the
            // nested keys whose way is free.
            let sent = try JSONValue(parsing: Data(json.utf8))
            let back = try JSONValue(parsing: written)
            for (key, member) in sent.objectValue ?? [:] {
                #expect(back[key] == member, "\(strategy): \(String(decoding: written, as: UTF8.self))")
            }
            let (again, againReport) = try decoder.decodeWithReport(Kept.self, from: written)
            #expect(again == value, "\(strategy)")
            #expect(againReport.isEmpty)
        }
    }

    /// Where the kept container has room for the nested key, the `null` is written into it.
    @Test func writingNullMergesIntoAKeptObject() throws {
        let value = try LenientJSONDecoder().decode(Kept.self, from: #"{"ext":{"x":1},"info":[{"y":2}]}"#)
        let encoder = LenientJSONEncoder()
        encoder.nilEncodingStrategy = .writeNull
        let written = try encoder.encode(value)
        #expect(try JSONValue(parsing: written) == ["ext": ["userName": nil, "x": 1], "info": [["z": nil, "y": 2]]])
        #expect(try LenientJSONDecoder().decode(Kept.self, from: written) == value)
    }

    @Test func writingNullFollowsKeyMapping() throws {
        let text = try Self.encode(Mapped(title: nil, hidden: nil), .writeNull)
        #expect(text == #"{"info":{"title":null}}"#)
        #expect(try LenientJSONDecoder().decode(Mapped.self, from: text) == Mapped(title: nil, hidden: nil))
        #expect(try Self.encode(Mapped(title: "T", hidden: "h"), .writeNull) == #"{"info":{"title":"T"}}"#)
    }
}

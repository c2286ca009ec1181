// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A `nil` optional beside kept members, where the decoder would read a kept member in its place
/// or the `null` the encoder writes for it would change what is kept: decoding what the encoder
/// wrote gives the same value, kept members included, under both `nilEncodingStrategy`s,
/// sorted or not, and the report stays empty.
@Suite struct UnknownKeysNullRoundTripTests {
    static let strategies: [LenientJSONEncoder.NilEncodingStrategy] = [.omitKey, .writeNull]

    /// Decodes `json` with an empty report, then encodes and decodes again under each strategy,
    /// with and without `.sortedKeys`: the same value, with an empty report, every time.
    static func expectRoundTrips<T: Codable & Equatable>(
        _ type: T.Type, _ json: String, decoder: LenientJSONDecoder = LenientJSONDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (value, report) = try decoder.decodeWithReport(T.self, from: json)
        #expect(report.isEmpty, sourceLocation: sourceLocation)
        try expectEncodedRoundTrips(value, decoder: decoder, sourceLocation: sourceLocation)
    }

    static func expectEncodedRoundTrips<T: Codable & Equatable>(
        _ value: T, decoder: LenientJSONDecoder = LenientJSONDecoder(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for strategy in strategies {
            for formatting in [JSONEncoder.OutputFormatting.sortedKeys, []] {
                let encoder = LenientJSONEncoder()
                encoder.nilEncodingStrategy = strategy
                encoder.outputFormatting = formatting
                let data = try encoder.encode(value)
                let (again, report) = try decoder.decodeWithReport(T.self, from: data)
                let written = String(decoding: data, as: UTF8.self)
                #expect(
                    again == value, "\(strategy) \(formatting.rawValue): \(written)", sourceLocation: sourceLocation)
                #expect(report.isEmpty, "\(strategy): \(written)", sourceLocation: sourceLocation)
            }
        }
    }

    struct Book: Codable, Equatable, KeyMapping {
        var bookID: Int?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["bookID": ["id", "ID", "book_id"]]
    }

    /// A later candidate of a fallback list that holds `null` is kept; left out, the property
    /// would be read from it the next time.
    @Test(arguments: [
        #"{"id":null,"ID":null}"#, #"{"id":null,"book_id":null,"ID":null}"#, #"{"id":null,"Book-ID":null}"#,
        #"{"ID":null,"id":null,"BOOK_ID":null}"#,
    ])
    func aKeptLaterCandidateHoldingNull(json: String) throws {
        try Self.expectRoundTrips(Book.self, json)
    }

    struct PathFirst: Codable, Equatable, KeyMapping {
        var bookID: Int?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["bookID": ["info[0].id", "id"]]
    }

    /// A kept value in the way of the first candidate: the `null` goes to the next one, and a
    /// candidate that cannot be written whole adds nothing (no `"info": {}` on the way to `[0]`).
    @Test(arguments: [
        #"{"info":3,"id":null,"ID":5}"#, #"{"id":null,"ID":5}"#, #"{"info":{},"id":null,"Id":5}"#,
        #"{"info":[],"id":null,"ID":null}"#,
    ])
    func aKeptValueInTheWayOfTheFirstCandidate(json: String) throws {
        try Self.expectRoundTrips(PathFirst.self, json)
    }

    struct Positions: Codable, Equatable, KeyMapping {
        var v: Int?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["v": "info[2].v"]
    }

    /// A kept array shorter than the nested key's index keeps its `null`s: the `null` written for
    /// `nil` at the index would make the decoder drop the ones before it.
    @Test(arguments: [
        #"{"info":[1,null]}"#, #"{"info":[null]}"#, #"{"info":[null,null]}"#, #"{"info":[{"a":null}]}"#,
        #"{"info":[1]}"#, #"{"info":[1,2,{"w":1}]}"#,
    ])
    func aKeptArrayShorterThanTheIndex(json: String) throws {
        try Self.expectRoundTrips(Positions.self, json)
    }

    struct Empty: Codable, Equatable {
        var a: Int?
    }

    struct Edited: Codable, Equatable, KeyMapping {
        var tags: [String]?
        var meta: [String: Int]?
        var items: [Empty]?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["tags": "ext.tags", "meta": "ext.meta", "items": "ext.items"]
    }

    /// The model wins where it holds a value, even an empty one: only containers that hold
    /// nothing but what `nil` optionals wrote give way to a kept value.
    @Test(arguments: [#"{"ext":"legacy"}"#, #"{"ext":null}"#, #"{"ext":{}}"#, #"{"ext":[]}"#])
    func aValueSetAfterDecodingWinsOverTheKeptOne(json: String) throws {
        var edited = try LenientJSONDecoder().decode(Edited.self, from: json)
        for change in [
            { (value: inout Edited) in value.tags = [] }, { $0.meta = [:] }, { $0.items = [Empty()] },
        ] {
            var value = edited
            change(&value)
            for strategy in Self.strategies {
                let encoder = LenientJSONEncoder()
                encoder.nilEncodingStrategy = strategy
                let data = try encoder.encode(value)
                let again = try LenientJSONDecoder().decode(Edited.self, from: data)
                #expect(again.tags == value.tags && again.meta == value.meta && again.items == value.items)
            }
        }
        edited.extras = UnknownKeys()
        #expect(try LenientJSONDecoder().decode(Edited.self, from: LenientJSONEncoder().encode(edited)) == edited)
    }

    class Base: Codable, Equatable {
        var id = 0
        var name: String?
        var extras = UnknownKeys()

        static func == (lhs: Base, rhs: Base) -> Bool {
            type(of: lhs) == type(of: rhs) && lhs.isEqual(to: rhs)
        }

        func isEqual(to other: Base) -> Bool {
            id == other.id && name == other.name && extras == other.extras
        }
    }

    /// A subclass that writes its superclass under `"super"` through `superEncoder()`.
    final class UnderSuper: Base {
        var page = 0
        enum CodingKeys: String, CodingKey { case page }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = try container.decode(Int.self, forKey: .page)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(page, forKey: .page)
            try super.encode(to: container.superEncoder())
        }

        override func isEqual(to other: Base) -> Bool {
            super.isEqual(to: other) && page == (other as? UnderSuper)?.page
        }
    }

    /// A subclass that writes its superclass under a key of its own through `superEncoder(forKey:)`.
    final class UnderKey: Base {
        var page = 0
        enum CodingKeys: String, CodingKey { case page, base }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = try container.decode(Int.self, forKey: .page)
            try super.init(from: container.superDecoder(forKey: .base))
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(page, forKey: .page)
            try super.encode(to: container.superEncoder(forKey: .base))
        }

        override func isEqual(to other: Base) -> Bool {
            super.isEqual(to: other) && page == (other as? UnderKey)?.page
        }
    }

    /// The superclass's `nil` optionals are noted through a super encoder as through the
    /// model's own.
    @Test func aSuperclassWrittenThroughASuperEncoder() throws {
        try Self.expectRoundTrips(UnderSuper.self, #"{"page":2,"super":{"id":1,"name":null,"NAME":"z"}}"#)
        try Self.expectRoundTrips(UnderKey.self, #"{"page":2,"base":{"id":1,"name":null,"Name":null}}"#)
    }

    struct Described: Codable, Equatable, KeyMapping {
        var desc: String?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
    }

    /// Under `.sortedKeys`, loose matching meets the spellings in sorted order (`"EXT"` before
    /// `"ext"`): the `null` is written at the property's own key path, which the decoder reads
    /// first. (Where the kept member at the own spelling is not an object or is empty,
    /// `{"ext": null, "EXT": {"desc": "x"}}`, nothing can be written there that keeps both; the
    /// guide says so.)
    @Test(arguments: [
        #"{"ext":{"q":1},"EXT":{"desc":"x"}}"#, #"{"ext":{"q":null},"Ext":{"DESC":null}}"#,
    ])
    func anotherSpellingThatSortsFirst(json: String) throws {
        try Self.expectRoundTrips(Described.self, json)
    }

    struct Snake: Codable, Equatable, KeyMapping {
        var userName: String?
        var extras = UnknownKeys()
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    /// A type's own strategy overrides the decoder's, for keeping too: under the decoder's
    /// `.convertFromSnakeCase`, the other spellings of the key the type's strategy reads are kept.
    @Test(arguments: [
        #"{"user-name":1,"user_name":null}"#, #"{"userName":1,"user_name":null}"#,
        #"{"user_name":null,"userName":"x"}"#, #"{"userName":"x","user_name":null}"#,
    ])
    func aTypeStrategyUnderTheDecodersSnakeCase(json: String) throws {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let value = try decoder.decode(Snake.self, from: json)
        #expect(value.userName == nil)
        #expect(value.extras.count == 1)
        try Self.expectRoundTrips(Snake.self, json, decoder: decoder)
    }

    struct Prefixed: Codable, Equatable, KeyMapping {
        var userName: String?
        var extras = UnknownKeys()
        static let keyStrategy: KeyStrategy? = .custom { "x_" + $0 }
    }

    /// A type's own key strategy spells the key the decoder looks for: loose spellings of that
    /// key are found too.
    @Test(arguments: [
        #"{"x_userName":null,"X_USERNAME":"x"}"#, #"{"x_userName":null,"xUserName":"x"}"#,
        #"{"x_userName":null,"X-USER-NAME":null}"#,
    ])
    func aTypeStrategysSpelling(json: String) throws {
        try Self.expectRoundTrips(Prefixed.self, json)
    }
}

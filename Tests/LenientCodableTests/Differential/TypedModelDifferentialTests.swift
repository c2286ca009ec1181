// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Typed models (nested structs, `[String: X]` and `[Int: X]`, optionals, `Decimal`, `Int8`…`UInt64`, `Float`) decoded
/// with `LenientJSONDecoder(.strict)` and with Foundation's `JSONDecoder`, live: the values must be equal.
@Suite(.enabled(if: CorpusDocument.isAvailable, CorpusDocument.unavailableReason))
struct TypedModelDifferentialTests {
    @Test func twitterWithSnakeCaseKeys() throws {
        var configuration = DecoderConfiguration()
        configuration.keyDecodingStrategy = .convertFromSnakeCase
        let outcome = DifferentialOutcome(
            Twitter.self, from: try CorpusDocument.twitter.contents(), configuration: configuration)
        let twitter = try #require(outcome.foundation.value)
        #expect(twitter.statuses.count == 100)
        expectSameOutcome(outcome)
    }

    @Test func citmCatalogWithIntegerKeyedDictionariesAndDecimals() throws {
        let outcome = DifferentialOutcome(CitmCatalog.self, from: try CorpusDocument.citmCatalog.contents())
        let catalog = try #require(outcome.foundation.value)
        #expect(!catalog.events.isEmpty && !catalog.areaNames.isEmpty)
        expectSameOutcome(outcome)
    }

    @Test func canadaAsDoubles() throws {
        let outcome = DifferentialOutcome(Canada<Double>.self, from: try CorpusDocument.canada.contents())
        let expected = try #require(outcome.foundation.value)
        let actual = try #require(outcome.lenient.value)
        #expect(actual.coordinates.map(\.bitPattern) == expected.coordinates.map(\.bitPattern))
        #expect(expected.coordinates.count == 111_126)
        expectSameOutcome(outcome)
    }

    @Test func canadaAsFloats() throws {
        let outcome = DifferentialOutcome(Canada<Float>.self, from: try CorpusDocument.canada.contents())
        let expected = try #require(outcome.foundation.value)
        let actual = try #require(outcome.lenient.value)
        #expect(actual.coordinates.map(\.bitPattern) == expected.coordinates.map(\.bitPattern))
    }

    @Test func canadaAsDecimals() throws {
        let outcome = DifferentialOutcome(Canada<Decimal>.self, from: try CorpusDocument.canada.contents())
        _ = try #require(outcome.foundation.value)
        expectSameOutcome(outcome)
    }
}

// MARK: - twitter.json

extension TypedModelDifferentialTests {
    struct Twitter: Decodable, Equatable {
        var statuses: [Status]
        var searchMetadata: SearchMetadata
    }

    struct Status: Decodable, Equatable {
        var metadata: [String: String]
        var createdAt: String
        var id: UInt64
        var idStr: String
        var text: String
        var truncated: Bool
        var inReplyToStatusId: Int64?
        var inReplyToUserId: Int?
        var inReplyToScreenName: String?
        var user: User
        var geo: [String: Double]?
        var retweetCount: Int32
        var favoriteCount: UInt32
        var entities: Entities
        var favorited: Bool
        var lang: String
    }

    struct User: Decodable, Equatable {
        var id: Int64
        var name: String
        var screenName: String
        var description: String
        var url: String?
        var followersCount: Int
        var utcOffset: Int32?
        var timeZone: String?
        var verified: Bool
        var profileBackgroundColor: String
        var entities: [String: [String: [Url]]]
    }

    struct Entities: Decodable, Equatable {
        var hashtags: [Hashtag]
        var urls: [Url]
        var userMentions: [Mention]
    }

    struct Hashtag: Decodable, Equatable {
        var text: String
        var indices: [UInt8]
    }

    struct Url: Decodable, Equatable {
        var url: String
        var expandedUrl: String?
        var indices: [Int16]
    }

    struct Mention: Decodable, Equatable {
        var screenName: String
        var id: Int64
        var idStr: String
        var indices: [UInt16]
    }

    struct SearchMetadata: Decodable, Equatable {
        var completedIn: Float
        var maxId: UInt64
        var maxIdStr: String
        var nextResults: String?
        var count: Int8
        var sinceId: UInt
    }
}

// MARK: - citm_catalog.json

extension TypedModelDifferentialTests {
    struct CitmCatalog: Decodable, Equatable {
        var areaNames: [Int: String]
        var audienceSubCategoryNames: [String: String]
        var blockNames: [String: String]
        var events: [String: Event]
        var performances: [Performance]
        var seatCategoryNames: [String: String]
        var subTopicNames: [String: String]
        var topicSubTopics: [String: [Int]]
        var venueNames: [String: String]
    }

    struct Event: Decodable, Equatable {
        var description: String?
        var id: Int
        var logo: String?
        var name: String
        var subTopicIds: [Int]
        var subjectCode: String?
        var subtitle: String?
        var topicIds: [UInt32]
    }

    struct Performance: Decodable, Equatable {
        var eventId: Int
        var id: Int
        var logo: String?
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int64
        var venueCode: String
    }

    struct Price: Decodable, Equatable {
        var amount: Decimal
        var audienceSubCategoryId: Int64
        var seatCategoryId: UInt64
    }

    struct SeatCategory: Decodable, Equatable {
        var areas: [Area]
        var seatCategoryId: Int
    }

    struct Area: Decodable, Equatable {
        var areaId: Int
        var blockIds: [Int]
    }
}

// MARK: - canada.json

extension TypedModelDifferentialTests {
    struct Canada<Scalar: Decodable & Equatable>: Decodable, Equatable {
        var type: String
        var features: [Feature]

        struct Feature: Decodable, Equatable {
            var type: String
            var properties: [String: String]
            var geometry: Geometry
        }

        struct Geometry: Decodable, Equatable {
            var type: String
            var coordinates: [[[Scalar]]]
        }

        var coordinates: [Scalar] {
            features.flatMap { $0.geometry.coordinates.joined().joined() }
        }
    }
}

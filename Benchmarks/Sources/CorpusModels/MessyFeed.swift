// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// The model of `messy_feed.json` and its cleaned twin `messy_feed_clean.json`, copied from the
// library's `MessyFeedTests` (`Tests/LenientCodableTests/Fixtures/Messy/`). The messy document has
// string numbers, `0`/`1` booleans, dates in four forms, a `null` list, a JSON object in a string,
// a legacy key, an unknown enum case and one broken post in 50; LenientJSONDecoder decodes it with
// `.lenient` and `.convertFromSnakeCase`. The twin holds the same data as proper JSON, camel-case
// keys and ISO 8601 dates, for Foundation's `JSONDecoder` with `.iso8601`; both give an equal value.

package struct MessyFeed: Codable, Equatable, Sendable, KeyMapping {
    package var status: String
    package var nextCursor: String
    package var serverTime: Date
    package var viewer: MessyViewer
    package var posts: [MessyPost]
    package var pinnedPostIds: [Int]

    package static let keyMapping: [String: KeySource] = ["nextCursor": "paging.next"]
}

package struct MessyViewer: Codable, Equatable, Sendable {
    package var id: Int
    package var name: String
    package var verified: Bool
    package var joined: Date
    package var avatarUrl: URL
}

package struct MessyPost: Codable, Equatable, Sendable, KeyMapping {
    package var id: Int
    package var kind: MessyPostKind
    package var body: String
    package var likeCount: Int
    package var shareCount: Int
    package var isLiked: Bool
    package var createdAt: Date
    package var tags: [String]
    package var location: MessyLocation?

    package static let keyMapping: [String: KeySource] = ["body": "message", "likeCount": ["like_count", "likes"]]
}

package enum MessyPostKind: String, Codable, Sendable, CaseFallback {
    case text, photo, video, unknown
    package static let fallbackCase = MessyPostKind.unknown
}

package struct MessyLocation: Codable, Equatable, Sendable {
    package var lat: Double
    package var lng: Double
}

/// The two documents and the decoders the library's test decodes them with.
package enum MessyFeedDocument {
    /// `Benchmarks/Corpus/messy_feed.json`: 50 posts, one of them broken.
    package static let messyFileURL = Corpus.directory.appendingPathComponent("messy_feed.json")
    /// `Benchmarks/Corpus/messy_feed_clean.json`: the 49 good posts, cleaned.
    package static let cleanFileURL = Corpus.directory.appendingPathComponent("messy_feed_clean.json")

    /// How many posts the decoded feed holds: the broken one is dropped.
    package static let postCount = 49

    /// The lenient decoder for the messy document: `.lenient` with `.convertFromSnakeCase`.
    package static func lenientDecoder() -> LenientJSONDecoder {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }

    /// Foundation's decoder for the clean twin: ISO 8601 dates.
    package static func foundationDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

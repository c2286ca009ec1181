// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A realistic messy social-feed response (`Fixtures/Messy/feed.json`): string numbers, `0`/`1` booleans, dates in
/// four forms, a `null` list, a JSON object in a string, a legacy key, an unknown enum case and one broken post in 50.
/// `.lenient` decodes it whole and reports exactly the values it forgave; Foundation's `JSONDecoder` decodes the
/// cleaned twin (`Fixtures/Messy/feed-clean.json`: same data, proper JSON types and keys, ISO 8601 dates) to an equal
/// value. The benchmark uses both files.
@Suite struct MessyFeedTests {
    struct Feed: Codable, Equatable, KeyMapping {
        var status: String
        var nextCursor: String
        var serverTime: Date
        var viewer: Viewer
        var posts: [Post]
        var pinnedPostIds: [Int]

        static let keyMapping: [String: KeySource] = ["nextCursor": "paging.next"]
    }

    struct Viewer: Codable, Equatable {
        var id: Int
        var name: String
        var verified: Bool
        var joined: Date
        var avatarUrl: URL
    }

    struct Post: Codable, Equatable, KeyMapping {
        var id: Int
        var kind: Kind
        var body: String
        var likeCount: Int
        var shareCount: Int
        var isLiked: Bool
        var createdAt: Date
        var tags: [String]
        var location: Location?

        static let keyMapping: [String: KeySource] = ["body": "message", "likeCount": ["like_count", "likes"]]
    }

    /// A kind the app does not know is `unknown`, by its default: `.lenient` matches `"PHOTO"`
    /// to `photo` first, which it would not do for a `CaseFallback` enum (Foundation's decoder
    /// gives such an enum its fallback case, and so does every mode).
    enum Kind: String, Codable, DefaultValue {
        case text, photo, video, unknown
        static let defaultValue = Kind.unknown
    }

    struct Location: Codable, Equatable {
        var lat: Double
        var lng: Double
    }

    /// What `feed.json` holds that is not what the models ask for, written down by reading the file — in the order of
    /// the models' properties.
    static let expectedIssues = [
        IssueSummary(.coerced, "viewer.id"),  // "42"
        IssueSummary(.coerced, "viewer.verified"),  // 1
        IssueSummary(.coerced, "viewer.avatarUrl"),  // " https://cdn.example.com/u/42.png "
        IssueSummary(.coerced, "posts[2].id"),  // "1003"
        IssueSummary(.coerced, "posts[5].likeCount"),  // "35"
        IssueSummary(.coerced, "posts[7].isLiked"),  // 0
        IssueSummary(.coerced, "posts[9].isLiked"),  // 1
        IssueSummary(.coerced, "posts[12].isLiked"),  // "yes"
        IssueSummary(.coerced, "posts[13].kind"),  // "PHOTO"
        IssueSummary(.defaulted, "posts[19].tags"),  // null
        IssueSummary(.coerced, "posts[25].location"),  // "{\"lat\":41.1496,\"lng\":-8.611}"
        IssueSummary(.coerced, "posts[29].tags"),  // "swift"
        IssueSummary(.defaulted, "posts[33].shareCount"),  // "<null>"
        IssueSummary(.droppedElement, "posts[37]"),  // "created_at": "N/A"
        IssueSummary(.keyFallback, "posts[40].likeCount"),  // "likes" instead of "like_count"
        IssueSummary(.defaulted, "posts[44].kind"),  // "reel"
        IssueSummary(.defaulted, "pinnedPostIds"),  // null
    ]

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: TestPaths.messyDirectory.appendingPathComponent(name))
    }

    static func decodeMessy() throws -> (value: Feed, report: DecodingReport) {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decodeWithReport(Feed.self, from: try fixture("feed.json"))
    }

    @Test func reportListsExactlyTheForgivenValues() throws {
        let (_, report) = try Self.decodeMessy()
        let actual = report.issues.map(IssueSummary.init)
        let missing = Self.expectedIssues.filter { !actual.contains($0) }
        let unexpected = actual.filter { !Self.expectedIssues.contains($0) }
        #expect(missing.isEmpty, "Not reported: \(missing)")
        #expect(unexpected.isEmpty, "Reported but not forgiven: \(unexpected)")
        #expect(actual == Self.expectedIssues, "In the order the decoder met them:\n\(report)")
    }

    @Test func messyFeedDecodesToTheCleanTwin() throws {
        let (feed, _) = try Self.decodeMessy()
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .iso8601
        let twin = try foundation.decode(Feed.self, from: try Self.fixture("feed-clean.json"))
        #expect(feed.posts.count == 49)
        #expect(twin.posts.count == 49)
        #expect(!feed.posts.contains { $0.id == 1038 }, "the broken post is dropped")
        for (lenient, clean) in zip(feed.posts, twin.posts) where lenient != clean {
            Issue.record("Post \(lenient.id) differs:\n  lenient \(lenient)\n  twin    \(clean)")
        }
        #expect(feed.viewer == twin.viewer)
        #expect(feed == twin)
    }

    @Test func spotChecksOfForgivenValues() throws {
        let (feed, _) = try Self.decodeMessy()
        #expect(feed.nextCursor == "c_1795167000_50")
        #expect(feed.serverTime == Date(timeIntervalSince1970: 1_795_167_000))
        #expect(feed.viewer.id == 42 && feed.viewer.verified)
        #expect(feed.viewer.avatarUrl.absoluteString == "https://cdn.example.com/u/42.png")
        #expect(feed.viewer.joined == Date(timeIntervalSince1970: 1_551_657_600))
        let byID = Dictionary(uniqueKeysWithValues: feed.posts.map { ($0.id, $0) })
        #expect(byID[1003]?.id == 1003)
        #expect(byID[1006]?.likeCount == 35)
        #expect(byID[1013]?.isLiked == true)
        #expect(byID[1014]?.kind == .photo)
        #expect(byID[1020]?.tags == [])
        #expect(byID[1026]?.location == Location(lat: 41.1496, lng: -8.611))
        #expect(byID[1030]?.tags == ["swift"])
        #expect(byID[1034]?.shareCount == 0)
        #expect(byID[1041]?.likeCount == (40 * 7) % 50)
        #expect(byID[1045]?.kind == .unknown)
        #expect(feed.pinnedPostIds == [])
        // The four date forms: ISO 8601, Unix seconds, Unix milliseconds in a string, Twitter's.
        for index in [0, 1, 2, 3] {
            #expect(byID[1001 + index]?.createdAt == Date(timeIntervalSince1970: 1_795_167_000 - Double(index) * 3600))
        }
    }

    /// `.strict` honours the key mapping (Foundation ignores it, so the two fail at different keys) and forgives nothing.
    @Test func strictRejectsTheMessyFeed() throws {
        let decoder = LenientJSONDecoder(.strict)
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(Feed.self, from: try Self.fixture("feed.json"))
        }
        #expect(
            DecodingErrorSummary(error)
                == DecodingErrorSummary(
                    kind: .typeMismatch,
                    codingPath: [
                        CodingKeySummary(stringValue: "viewer"), CodingKeySummary(stringValue: "id"),
                    ]))
    }
}

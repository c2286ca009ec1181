// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// The models of the example: a social feed as a messy server sends it (see Payloads/feed.json).
// They are plain Codable types; everything LenientCodable adds is declared through its protocols,
// so the same models still decode clean JSON with Foundation's JSONDecoder. LenientJSONEncoder
// writes them back through the same key mapping, so the encoded feed has the server's keys.

/// A feed: its owner and a page of posts of several kinds.
struct Feed: Codable, KeyMapping, DecodingHooks {
    var id: Int
    var title: String
    var generatedAt: Date
    var nextCursor: String?
    var pageSize: Int
    var isPublic: Bool
    var owner: User
    var posts: [Post]

    // Renamed keys, a fallback list and nested keys; the other properties follow the strategy.
    static let keyMapping: [String: KeySource] = [
        "id": ["feed_id", "id"],
        "title": "feed_title",
        "generatedAt": "generated",
        "nextCursor": "meta.next_cursor",
        "pageSize": "meta.page_size",
    ]
    static let keyStrategy: KeyStrategy? = .snakeCase

    // The server wraps every response in {"status": …, "data": {"feed": {…}}}. Unwrapping it
    // here keeps the envelope out of the model; a bare feed is decoded as it is.
    static func willDecode(_ json: JSONValue) throws -> JSONValue {
        json["data"]?["feed"] ?? json
    }
}

/// The owner of a feed.
struct User: Codable, KeyMapping {
    /// A plan the server may extend: `.lenient` reads `"PRO"` as `pro`, and an unknown plan as
    /// the default, `free`, instead of failing. (A `CaseFallback` enum would take its fallback
    /// for `"PRO"`, as Foundation's decoder does.)
    enum Plan: String, Codable, DefaultValue {
        case free, pro, team
        static let defaultValue = Plan.free
    }

    var id: Int
    var userName: String
    var displayName: String
    var avatarURL: URL?
    var verified: Bool
    var joined: Date
    var plan: Plan

    // Older API versions spell these keys differently: the first key present wins.
    static let keyMapping: [String: KeySource] = [
        "id": ["user_id", "ID", "id"],
        "avatarURL": ["avatar_url", "avatar"],
    ]
    static let keyStrategy: KeyStrategy? = .snakeCase
}

/// A post of the feed. The list mixes kinds, told apart by the member `type`: the decoder asks
/// ``decodingType(for:)`` which subclass to create for each element. When encoding, the hook
/// ``didEncode(_:)`` adds a Unix `timestamp` beside `created_at`.
class Post: Codable, KeyMapping, PolymorphicDecodable, EncodingHooks {
    /// Who may see the post; values this version does not know become `unknown`, by default.
    enum Visibility: String, Codable, DefaultValue {
        case `public`, friends, `private`, unknown
        static let defaultValue = Visibility.unknown
    }

    class var kind: String { "post" }

    let id: Int
    let createdAt: Date
    let likes: Int
    let pinned: Bool
    let visibility: Visibility
    let tags: [String]

    static let keyStrategy: KeyStrategy? = .snakeCase

    class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
        switch json["type"]?.stringValue {
        case "text": TextPost.self
        case "photo": PhotoPost.self
        case "poll": PollPost.self
        default: nil  // a kind this version does not know: keep what all posts share
        }
    }

    // Older clients sort posts by a Unix timestamp, whatever date format the encoder uses. The
    // encoder calls this after key mapping, for every post of every subclass.
    func didEncode(_ json: inout JSONValue) throws {
        json["timestamp"] = JSONValue(Int(createdAt.timeIntervalSince1970))
    }

    private enum CodingKeys: String, CodingKey {
        case type, id, createdAt, likes, pinned, visibility, tags
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        likes = try container.decode(Int.self, forKey: .likes)
        pinned = try container.decode(Bool.self, forKey: .pinned)
        visibility = try container.decode(Visibility.self, forKey: .visibility)
        tags = try container.decode([String].self, forKey: .tags)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.kind, forKey: .type)
        try container.encode(id, forKey: .id)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(likes, forKey: .likes)
        try container.encode(pinned, forKey: .pinned)
        try container.encode(visibility, forKey: .visibility)
        try container.encode(tags, forKey: .tags)
    }
}

final class TextPost: Post {
    override class var kind: String { "text" }

    let body: String

    private enum CodingKeys: String, CodingKey { case body }

    required init(from decoder: any Decoder) throws {
        body = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .body)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(body, forKey: .body)
    }
}

final class PhotoPost: Post {
    struct Size: Codable {
        var width: Int
        var height: Int
    }

    override class var kind: String { "photo" }

    let url: URL
    let size: Size

    private enum CodingKeys: String, CodingKey { case url, size }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        url = try container.decode(URL.self, forKey: .url)
        size = try container.decode(Size.self, forKey: .size)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(size, forKey: .size)
    }
}

final class PollPost: Post {
    override class var kind: String { "poll" }

    let question: String
    let options: [String]
    let votes: [Int]

    private enum CodingKeys: String, CodingKey { case question, options, votes }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        question = try container.decode(String.self, forKey: .question)
        options = try container.decode([String].self, forKey: .options)
        votes = try container.decode([Int].self, forKey: .votes)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(question, forKey: .question)
        try container.encode(options, forKey: .options)
        try container.encode(votes, forKey: .votes)
    }
}

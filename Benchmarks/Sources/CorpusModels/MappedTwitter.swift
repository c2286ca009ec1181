// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import LenientCodable

// `twitter.json` through `KeyMapping` instead of coding keys: the key-mapped variant of the model
// in `Twitter.swift`, with the same data. Property names are camel case and differ from the JSON
// keys, so every type has renames; every type has a fallback list (`["id_str", "idStr"]`: only the
// first key is in the document, so each lookup misses nothing but costs the list); `Status` reads
// its `metadata` object through nested keys (`"metadata.result_type"`) instead of a nested type.
// Synthesized coding keys are the property names; Foundation ignores the mapping, so only
// LenientJSONDecoder decodes this model from the document.
//
// Properties come in the order of the plain model's, a nested type's fields where the plain model
// has the nested type, so that the two models' values list the same leaves in the same order
// (`MappedTwitter.leaves(of:)`), which is how the benchmarks check that they decode the same data.

package struct MappedTwitterDocument: Decodable, Sendable, KeyMapping {
    package var statuses: [MappedStatus]
    package var search: MappedSearchMetadata

    package static let keyMapping: [String: KeySource] = [
        "statuses": ["statuses", "results"],
        "search": "search_metadata",
    ]
}

package struct MappedSearchMetadata: Decodable, Sendable, KeyMapping {
    package var completedIn: Double
    package var maxID: Int
    package var maxIDString: String
    package var nextResults: String
    package var query: String
    package var refreshURL: String
    package var count: Int
    package var sinceID: Int
    package var sinceIDString: String

    package static let keyMapping: [String: KeySource] = [
        "completedIn": "completed_in",
        "maxID": ["max_id", "maxId"],
        "maxIDString": ["max_id_str", "maxIdStr"],
        "nextResults": "next_results",
        "query": ["query", "q"],
        "refreshURL": "refresh_url",
        "sinceID": ["since_id", "sinceId"],
        "sinceIDString": ["since_id_str", "sinceIdStr"],
    ]
}

/// A tweet. A class, because a retweet holds the status it retweets.
package final class MappedStatus: Decodable, Sendable, KeyMapping {
    // The plain model's `metadata` object, read through nested keys.
    package let resultType: String
    package let languageCode: String
    package let createdAt: String
    package let id: Int
    package let idString: String
    package let text: String
    package let source: String
    package let truncated: Bool
    package let replyToStatusID: Int?
    package let replyToStatusIDString: String?
    package let replyToUserID: Int?
    package let replyToUserIDString: String?
    package let replyToScreenName: String?
    package let author: MappedUser
    package let geo: MappedPoint?
    package let coordinates: MappedPoint?
    package let place: MappedPlace?
    package let contributors: [Int]?
    package let retweetOf: MappedStatus?
    package let retweets: Int
    package let favorites: Int
    package let entities: MappedEntities
    package let favorited: Bool
    package let retweeted: Bool
    package let possiblySensitive: Bool?
    package let language: String

    package static let keyMapping: [String: KeySource] = [
        "resultType": "metadata.result_type",
        "languageCode": ["metadata.iso_language_code", "metadata.lang"],
        "createdAt": "created_at",
        "idString": ["id_str", "idStr"],
        "replyToStatusID": "in_reply_to_status_id",
        "replyToStatusIDString": "in_reply_to_status_id_str",
        "replyToUserID": "in_reply_to_user_id",
        "replyToUserIDString": "in_reply_to_user_id_str",
        "replyToScreenName": "in_reply_to_screen_name",
        "author": ["user", "author"],
        "retweetOf": "retweeted_status",
        "retweets": "retweet_count",
        "favorites": ["favorite_count", "favourite_count"],
        "possiblySensitive": "possibly_sensitive",
        "language": "lang",
    ]
}

package struct MappedUser: Decodable, Sendable, KeyMapping {
    package var id: Int
    package var idString: String
    package var name: String
    package var screenName: String
    package var location: String
    package var bio: String
    package var url: String?
    package var entities: MappedUserEntities
    package var protected: Bool
    package var followers: Int
    package var friends: Int
    package var listed: Int
    package var createdAt: String
    package var favourites: Int
    package var utcOffset: Int?
    package var timeZone: String?
    package var geoEnabled: Bool
    package var verified: Bool
    package var statuses: Int
    package var language: String
    package var contributorsEnabled: Bool
    package var isTranslator: Bool
    package var isTranslationEnabled: Bool
    package var backgroundColor: String
    package var backgroundImageURL: String
    package var backgroundImageURLHTTPS: String
    package var backgroundTile: Bool
    package var imageURL: String
    package var imageURLHTTPS: String
    package var bannerURL: String?
    package var linkColor: String
    package var sidebarBorderColor: String
    package var sidebarFillColor: String
    package var textColor: String
    package var useBackgroundImage: Bool
    package var defaultProfile: Bool
    package var defaultProfileImage: Bool
    package var following: Bool
    package var followRequestSent: Bool
    package var notifications: Bool

    package static let keyMapping: [String: KeySource] = [
        "idString": ["id_str", "idStr"],
        "screenName": "screen_name",
        "bio": "description",
        "followers": "followers_count",
        "friends": "friends_count",
        "listed": "listed_count",
        "createdAt": "created_at",
        "favourites": "favourites_count",
        "utcOffset": "utc_offset",
        "timeZone": "time_zone",
        "geoEnabled": "geo_enabled",
        "statuses": "statuses_count",
        "language": "lang",
        "contributorsEnabled": "contributors_enabled",
        "isTranslator": "is_translator",
        "isTranslationEnabled": "is_translation_enabled",
        "backgroundColor": "profile_background_color",
        "backgroundImageURL": "profile_background_image_url",
        "backgroundImageURLHTTPS": "profile_background_image_url_https",
        "backgroundTile": "profile_background_tile",
        "imageURL": "profile_image_url",
        "imageURLHTTPS": "profile_image_url_https",
        "bannerURL": "profile_banner_url",
        "linkColor": "profile_link_color",
        "sidebarBorderColor": "profile_sidebar_border_color",
        "sidebarFillColor": "profile_sidebar_fill_color",
        "textColor": "profile_text_color",
        "useBackgroundImage": "profile_use_background_image",
        "defaultProfile": "default_profile",
        "defaultProfileImage": "default_profile_image",
        "followRequestSent": "follow_request_sent",
    ]
}

package struct MappedUserEntities: Decodable, Sendable, KeyMapping {
    /// Present only when the user's profile has a URL.
    package var profileURL: MappedURLEntities?
    package var bio: MappedURLEntities

    package static let keyMapping: [String: KeySource] = [
        "profileURL": ["url", "profile_url"],
        "bio": "description",
    ]
}

package struct MappedURLEntities: Decodable, Sendable, KeyMapping {
    package var links: [MappedURLEntity]

    package static let keyMapping: [String: KeySource] = ["links": ["urls", "links"]]
}

package struct MappedEntities: Decodable, Sendable, KeyMapping {
    package var hashtags: [MappedHashtag]
    package var cashtags: [MappedHashtag]
    package var links: [MappedURLEntity]
    package var mentions: [MappedUserMention]
    /// Present only when the status has media.
    package var media: [MappedMedia]?

    package static let keyMapping: [String: KeySource] = [
        "hashtags": ["hashtags", "tags"],
        "cashtags": "symbols",
        "links": "urls",
        "mentions": "user_mentions",
    ]
}

/// A hashtag or a cashtag (`symbols`).
package struct MappedHashtag: Decodable, Sendable, KeyMapping {
    package var tag: String
    package var range: [Int]

    package static let keyMapping: [String: KeySource] = [
        "tag": ["text", "tag"],
        "range": "indices",
    ]
}

package struct MappedURLEntity: Decodable, Sendable, KeyMapping {
    package var link: String
    package var expanded: String
    package var display: String
    package var range: [Int]

    package static let keyMapping: [String: KeySource] = [
        "link": ["url", "link"],
        "expanded": "expanded_url",
        "display": "display_url",
        "range": "indices",
    ]
}

package struct MappedUserMention: Decodable, Sendable, KeyMapping {
    package var screenName: String
    package var name: String
    package var id: Int
    package var idString: String
    package var range: [Int]

    package static let keyMapping: [String: KeySource] = [
        "screenName": "screen_name",
        "idString": ["id_str", "idStr"],
        "range": "indices",
    ]
}

package struct MappedMedia: Decodable, Sendable, KeyMapping {
    package var id: Int
    package var idString: String
    package var range: [Int]
    package var mediaURL: String
    package var mediaURLHTTPS: String
    package var link: String
    package var display: String
    package var expanded: String
    package var kind: String
    package var sizes: MappedMediaSizes
    /// Present when the media was first posted in another status.
    package var sourceStatusID: Int?
    package var sourceStatusIDString: String?

    package static let keyMapping: [String: KeySource] = [
        "idString": ["id_str", "idStr"],
        "range": "indices",
        "mediaURL": "media_url",
        "mediaURLHTTPS": "media_url_https",
        "link": "url",
        "display": "display_url",
        "expanded": "expanded_url",
        "kind": "type",
        "sourceStatusID": "source_status_id",
        "sourceStatusIDString": "source_status_id_str",
    ]
}

package struct MappedMediaSizes: Decodable, Sendable, KeyMapping {
    package var medium: MappedMediaSize
    package var small: MappedMediaSize
    package var thumbnail: MappedMediaSize
    package var large: MappedMediaSize

    package static let keyMapping: [String: KeySource] = [
        "medium": ["medium", "m"],
        "thumbnail": "thumb",
    ]
}

package struct MappedMediaSize: Decodable, Sendable, KeyMapping {
    package var width: Int
    package var height: Int
    package var resize: String

    package static let keyMapping: [String: KeySource] = [
        "width": ["w", "width"],
        "height": "h",
    ]
}

/// A GeoJSON point, as the API gives `geo` and `coordinates`.
package struct MappedPoint: Decodable, Sendable, KeyMapping {
    package var kind: String
    package var position: [Double]

    package static let keyMapping: [String: KeySource] = [
        "kind": "type",
        "position": ["coordinates", "coords"],
    ]
}

package struct MappedPlace: Decodable, Sendable, KeyMapping {
    package var id: String
    package var url: String
    package var kind: String
    package var name: String
    package var fullName: String
    package var countryCode: String
    package var country: String

    package static let keyMapping: [String: KeySource] = [
        "id": ["id", "place_id"],
        "kind": "place_type",
        "fullName": "full_name",
        "countryCode": "country_code",
    ]
}

/// Compares values of the two twitter models without a conversion between them.
package enum MappedTwitter {
    /// Every leaf of `value` in declaration order: numbers, strings and booleans with their types,
    /// `nil` for an absent optional and the count of each array, without property names. A plain
    /// and a key-mapped value that hold the same data give the same list.
    package static func leaves(of value: Any) -> [String] {
        var leaves: [String] = []
        collectLeaves(of: value, into: &leaves)
        return leaves
    }

    private static func collectLeaves(of value: Any, into leaves: inout [String]) {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            if let wrapped = mirror.children.first {
                collectLeaves(of: wrapped.value, into: &leaves)
            } else {
                leaves.append("nil")
            }
        case .collection:
            leaves.append("[\(mirror.children.count)]")
            for child in mirror.children { collectLeaves(of: child.value, into: &leaves) }
        case .struct, .class:
            for child in mirror.children { collectLeaves(of: child.value, into: &leaves) }
        default:
            leaves.append("\(type(of: value)):\(value)")
        }
    }
}

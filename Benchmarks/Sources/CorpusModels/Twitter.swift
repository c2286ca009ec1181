// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The model of `twitter.json`, a search result of the Twitter v1.1 API, with every field the
// document holds. Swift names are camel case; the coding keys spell the API's snake case, as a
// model written for Foundation's default key strategy would. `geo`, `coordinates`, `place` and
// `contributors` are null throughout the document; they are typed as the API documents them.

package struct TwitterDocument: Codable, Sendable {
    package var statuses: [Status]
    package var searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

package struct SearchMetadata: Codable, Sendable {
    package var completedIn: Double
    package var maxID: Int
    package var maxIDString: String
    package var nextResults: String
    package var query: String
    package var refreshURL: String
    package var count: Int
    package var sinceID: Int
    package var sinceIDString: String

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxID = "max_id"
        case maxIDString = "max_id_str"
        case nextResults = "next_results"
        case query
        case refreshURL = "refresh_url"
        case count
        case sinceID = "since_id"
        case sinceIDString = "since_id_str"
    }
}

/// A tweet. A class, because a retweet holds the status it retweets.
package final class Status: Codable, Sendable {
    package let metadata: StatusMetadata
    package let createdAt: String
    package let id: Int
    package let idString: String
    package let text: String
    package let source: String
    package let truncated: Bool
    package let inReplyToStatusID: Int?
    package let inReplyToStatusIDString: String?
    package let inReplyToUserID: Int?
    package let inReplyToUserIDString: String?
    package let inReplyToScreenName: String?
    package let user: User
    package let geo: Point?
    package let coordinates: Point?
    package let place: Place?
    package let contributors: [Int]?
    package let retweetedStatus: Status?
    package let retweetCount: Int
    package let favoriteCount: Int
    package let entities: Entities
    package let favorited: Bool
    package let retweeted: Bool
    package let possiblySensitive: Bool?
    package let lang: String

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id
        case idString = "id_str"
        case text
        case source
        case truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToStatusIDString = "in_reply_to_status_id_str"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToUserIDString = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user
        case geo
        case coordinates
        case place
        case contributors
        case retweetedStatus = "retweeted_status"
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities
        case favorited
        case retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }
}

package struct StatusMetadata: Codable, Sendable {
    package var resultType: String
    package var isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type"
        case isoLanguageCode = "iso_language_code"
    }
}

package struct User: Codable, Sendable {
    package var id: Int
    package var idString: String
    package var name: String
    package var screenName: String
    package var location: String
    package var description: String
    package var url: String?
    package var entities: UserEntities
    package var protected: Bool
    package var followersCount: Int
    package var friendsCount: Int
    package var listedCount: Int
    package var createdAt: String
    package var favouritesCount: Int
    package var utcOffset: Int?
    package var timeZone: String?
    package var geoEnabled: Bool
    package var verified: Bool
    package var statusesCount: Int
    package var lang: String
    package var contributorsEnabled: Bool
    package var isTranslator: Bool
    package var isTranslationEnabled: Bool
    package var profileBackgroundColor: String
    package var profileBackgroundImageURL: String
    package var profileBackgroundImageURLHTTPS: String
    package var profileBackgroundTile: Bool
    package var profileImageURL: String
    package var profileImageURLHTTPS: String
    package var profileBannerURL: String?
    package var profileLinkColor: String
    package var profileSidebarBorderColor: String
    package var profileSidebarFillColor: String
    package var profileTextColor: String
    package var profileUseBackgroundImage: Bool
    package var defaultProfile: Bool
    package var defaultProfileImage: Bool
    package var following: Bool
    package var followRequestSent: Bool
    package var notifications: Bool

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case name
        case screenName = "screen_name"
        case location
        case description
        case url
        case entities
        case protected
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case createdAt = "created_at"
        case favouritesCount = "favourites_count"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case geoEnabled = "geo_enabled"
        case verified
        case statusesCount = "statuses_count"
        case lang
        case contributorsEnabled = "contributors_enabled"
        case isTranslator = "is_translator"
        case isTranslationEnabled = "is_translation_enabled"
        case profileBackgroundColor = "profile_background_color"
        case profileBackgroundImageURL = "profile_background_image_url"
        case profileBackgroundImageURLHTTPS = "profile_background_image_url_https"
        case profileBackgroundTile = "profile_background_tile"
        case profileImageURL = "profile_image_url"
        case profileImageURLHTTPS = "profile_image_url_https"
        case profileBannerURL = "profile_banner_url"
        case profileLinkColor = "profile_link_color"
        case profileSidebarBorderColor = "profile_sidebar_border_color"
        case profileSidebarFillColor = "profile_sidebar_fill_color"
        case profileTextColor = "profile_text_color"
        case profileUseBackgroundImage = "profile_use_background_image"
        case defaultProfile = "default_profile"
        case defaultProfileImage = "default_profile_image"
        case following
        case followRequestSent = "follow_request_sent"
        case notifications
    }
}

package struct UserEntities: Codable, Sendable {
    /// Present only when the user's profile has a URL.
    package var url: URLEntities?
    package var description: URLEntities
}

package struct URLEntities: Codable, Sendable {
    package var urls: [URLEntity]
}

package struct Entities: Codable, Sendable {
    package var hashtags: [Hashtag]
    package var symbols: [Hashtag]
    package var urls: [URLEntity]
    package var userMentions: [UserMention]
    /// Present only when the status has media.
    package var media: [Media]?

    enum CodingKeys: String, CodingKey {
        case hashtags
        case symbols
        case urls
        case userMentions = "user_mentions"
        case media
    }
}

/// A hashtag or a cashtag (`symbols`).
package struct Hashtag: Codable, Sendable {
    package var text: String
    package var indices: [Int]
}

package struct URLEntity: Codable, Sendable {
    package var url: String
    package var expandedURL: String
    package var displayURL: String
    package var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url
        case expandedURL = "expanded_url"
        case displayURL = "display_url"
        case indices
    }
}

package struct UserMention: Codable, Sendable {
    package var screenName: String
    package var name: String
    package var id: Int
    package var idString: String
    package var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name"
        case name
        case id
        case idString = "id_str"
        case indices
    }
}

package struct Media: Codable, Sendable {
    package var id: Int
    package var idString: String
    package var indices: [Int]
    package var mediaURL: String
    package var mediaURLHTTPS: String
    package var url: String
    package var displayURL: String
    package var expandedURL: String
    package var type: String
    package var sizes: MediaSizes
    /// Present when the media was first posted in another status.
    package var sourceStatusID: Int?
    package var sourceStatusIDString: String?

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case indices
        case mediaURL = "media_url"
        case mediaURLHTTPS = "media_url_https"
        case url
        case displayURL = "display_url"
        case expandedURL = "expanded_url"
        case type
        case sizes
        case sourceStatusID = "source_status_id"
        case sourceStatusIDString = "source_status_id_str"
    }
}

package struct MediaSizes: Codable, Sendable {
    package var medium: MediaSize
    package var small: MediaSize
    package var thumb: MediaSize
    package var large: MediaSize
}

package struct MediaSize: Codable, Sendable {
    package var w: Int
    package var h: Int
    package var resize: String
}

/// A GeoJSON point, as the API gives `geo` and `coordinates`.
package struct Point: Codable, Sendable {
    package var type: String
    package var coordinates: [Double]
}

package struct Place: Codable, Sendable {
    package var id: String
    package var url: String
    package var placeType: String
    package var name: String
    package var fullName: String
    package var countryCode: String
    package var country: String

    enum CodingKeys: String, CodingKey {
        case id
        case url
        case placeType = "place_type"
        case name
        case fullName = "full_name"
        case countryCode = "country_code"
        case country
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The model of `twitter.json`, a search result of the Twitter v1.1 API, with every field the
// document holds. Swift names are camel case; the coding keys spell the API's snake case, as a
// model written for Foundation's default key strategy would. `geo`, `coordinates`, `place` and
// `contributors` are null throughout the document; they are typed as the API documents them.

public struct TwitterDocument: Codable, Sendable {
    public var statuses: [Status]
    public var searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

public struct SearchMetadata: Codable, Sendable {
    public var completedIn: Double
    public var maxID: Int
    public var maxIDString: String
    public var nextResults: String
    public var query: String
    public var refreshURL: String
    public var count: Int
    public var sinceID: Int
    public var sinceIDString: String

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
public final class Status: Codable, Sendable {
    public let metadata: StatusMetadata
    public let createdAt: String
    public let id: Int
    public let idString: String
    public let text: String
    public let source: String
    public let truncated: Bool
    public let inReplyToStatusID: Int?
    public let inReplyToStatusIDString: String?
    public let inReplyToUserID: Int?
    public let inReplyToUserIDString: String?
    public let inReplyToScreenName: String?
    public let user: User
    public let geo: Point?
    public let coordinates: Point?
    public let place: Place?
    public let contributors: [Int]?
    public let retweetedStatus: Status?
    public let retweetCount: Int
    public let favoriteCount: Int
    public let entities: Entities
    public let favorited: Bool
    public let retweeted: Bool
    public let possiblySensitive: Bool?
    public let lang: String

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

public struct StatusMetadata: Codable, Sendable {
    public var resultType: String
    public var isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
        case resultType = "result_type"
        case isoLanguageCode = "iso_language_code"
    }
}

public struct User: Codable, Sendable {
    public var id: Int
    public var idString: String
    public var name: String
    public var screenName: String
    public var location: String
    public var description: String
    public var url: String?
    public var entities: UserEntities
    public var protected: Bool
    public var followersCount: Int
    public var friendsCount: Int
    public var listedCount: Int
    public var createdAt: String
    public var favouritesCount: Int
    public var utcOffset: Int?
    public var timeZone: String?
    public var geoEnabled: Bool
    public var verified: Bool
    public var statusesCount: Int
    public var lang: String
    public var contributorsEnabled: Bool
    public var isTranslator: Bool
    public var isTranslationEnabled: Bool
    public var profileBackgroundColor: String
    public var profileBackgroundImageURL: String
    public var profileBackgroundImageURLHTTPS: String
    public var profileBackgroundTile: Bool
    public var profileImageURL: String
    public var profileImageURLHTTPS: String
    public var profileBannerURL: String?
    public var profileLinkColor: String
    public var profileSidebarBorderColor: String
    public var profileSidebarFillColor: String
    public var profileTextColor: String
    public var profileUseBackgroundImage: Bool
    public var defaultProfile: Bool
    public var defaultProfileImage: Bool
    public var following: Bool
    public var followRequestSent: Bool
    public var notifications: Bool

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

public struct UserEntities: Codable, Sendable {
    /// Present only when the user's profile has a URL.
    public var url: URLEntities?
    public var description: URLEntities
}

public struct URLEntities: Codable, Sendable {
    public var urls: [URLEntity]
}

public struct Entities: Codable, Sendable {
    public var hashtags: [Hashtag]
    public var symbols: [Hashtag]
    public var urls: [URLEntity]
    public var userMentions: [UserMention]
    /// Present only when the status has media.
    public var media: [Media]?

    enum CodingKeys: String, CodingKey {
        case hashtags
        case symbols
        case urls
        case userMentions = "user_mentions"
        case media
    }
}

/// A hashtag or a cashtag (`symbols`).
public struct Hashtag: Codable, Sendable {
    public var text: String
    public var indices: [Int]
}

public struct URLEntity: Codable, Sendable {
    public var url: String
    public var expandedURL: String
    public var displayURL: String
    public var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url
        case expandedURL = "expanded_url"
        case displayURL = "display_url"
        case indices
    }
}

public struct UserMention: Codable, Sendable {
    public var screenName: String
    public var name: String
    public var id: Int
    public var idString: String
    public var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name"
        case name
        case id
        case idString = "id_str"
        case indices
    }
}

public struct Media: Codable, Sendable {
    public var id: Int
    public var idString: String
    public var indices: [Int]
    public var mediaURL: String
    public var mediaURLHTTPS: String
    public var url: String
    public var displayURL: String
    public var expandedURL: String
    public var type: String
    public var sizes: MediaSizes
    /// Present when the media was first posted in another status.
    public var sourceStatusID: Int?
    public var sourceStatusIDString: String?

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

public struct MediaSizes: Codable, Sendable {
    public var medium: MediaSize
    public var small: MediaSize
    public var thumb: MediaSize
    public var large: MediaSize
}

public struct MediaSize: Codable, Sendable {
    public var w: Int
    public var h: Int
    public var resize: String
}

/// A GeoJSON point, as the API gives `geo` and `coordinates`.
public struct Point: Codable, Sendable {
    public var type: String
    public var coordinates: [Double]
}

public struct Place: Codable, Sendable {
    public var id: String
    public var url: String
    public var placeType: String
    public var name: String
    public var fullName: String
    public var countryCode: String
    public var country: String

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

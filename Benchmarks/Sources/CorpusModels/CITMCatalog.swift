// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The model of `citm_catalog.json`. Its lookup tables are objects keyed by numeric-string ids,
// kept as `[String: X]` dictionaries as a real app would. The fields that are always null in
// the document (`description`, `subjectCode`, `subtitle`, `name`, `seatMapImage`) are optional
// strings, which is what they hold in other versions of the catalogue.

package struct CITMCatalog: Codable, Sendable {
    package var areaNames: [String: String]
    package var audienceSubCategoryNames: [String: String]
    package var blockNames: [String: String]
    package var events: [String: Event]
    package var performances: [Performance]
    package var seatCategoryNames: [String: String]
    package var subTopicNames: [String: String]
    package var subjectNames: [String: String]
    package var topicNames: [String: String]
    package var topicSubTopics: [String: [Int]]
    package var venueNames: [String: String]

    package struct Event: Codable, Sendable {
        package var description: String?
        package var id: Int
        package var logo: String?
        package var name: String
        package var subTopicIds: [Int]
        package var subjectCode: String?
        package var subtitle: String?
        package var topicIds: [Int]
    }

    package struct Performance: Codable, Sendable {
        package var eventId: Int
        package var id: Int
        package var logo: String?
        package var name: String?
        package var prices: [Price]
        package var seatCategories: [SeatCategory]
        package var seatMapImage: String?
        /// Milliseconds since 1970.
        package var start: Int
        package var venueCode: String
    }

    package struct Price: Codable, Sendable {
        package var amount: Int
        package var audienceSubCategoryId: Int
        package var seatCategoryId: Int
    }

    package struct SeatCategory: Codable, Sendable {
        package var areas: [Area]
        package var seatCategoryId: Int
    }

    package struct Area: Codable, Sendable {
        package var areaId: Int
        package var blockIds: [Int]
    }
}

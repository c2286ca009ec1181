// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The model of `citm_catalog.json`. Its lookup tables are objects keyed by numeric-string ids,
// kept as `[String: X]` dictionaries as a real app would. The fields that are always null in
// the document (`description`, `subjectCode`, `subtitle`, `name`, `seatMapImage`) are optional
// strings, which is what they hold in other versions of the catalogue.

public struct CITMCatalog: Codable, Sendable {
    public var areaNames: [String: String]
    public var audienceSubCategoryNames: [String: String]
    public var blockNames: [String: String]
    public var events: [String: Event]
    public var performances: [Performance]
    public var seatCategoryNames: [String: String]
    public var subTopicNames: [String: String]
    public var subjectNames: [String: String]
    public var topicNames: [String: String]
    public var topicSubTopics: [String: [Int]]
    public var venueNames: [String: String]

    public struct Event: Codable, Sendable {
        public var description: String?
        public var id: Int
        public var logo: String?
        public var name: String
        public var subTopicIds: [Int]
        public var subjectCode: String?
        public var subtitle: String?
        public var topicIds: [Int]
    }

    public struct Performance: Codable, Sendable {
        public var eventId: Int
        public var id: Int
        public var logo: String?
        public var name: String?
        public var prices: [Price]
        public var seatCategories: [SeatCategory]
        public var seatMapImage: String?
        /// Milliseconds since 1970.
        public var start: Int
        public var venueCode: String
    }

    public struct Price: Codable, Sendable {
        public var amount: Int
        public var audienceSubCategoryId: Int
        public var seatCategoryId: Int
    }

    public struct SeatCategory: Codable, Sendable {
        public var areas: [Area]
        public var seatCategoryId: Int
    }

    public struct Area: Codable, Sendable {
        public var areaId: Int
        public var blockIds: [Int]
    }
}

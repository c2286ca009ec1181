// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// What an `UnknownKeys` property keeps when keys are spelled by strategies, and what the encoder
/// writes back: never a member that a property reads, never a key rewritten, never the encoder's
/// own padding taken for the server's data.
@Suite struct UnknownKeysSpellingTests {
    /// Names whose snake-case key does not spell them back word for word.
    struct Acronyms: Codable, Equatable, KeyMapping {
        var isHTTPOK: Bool
        var avatarURLString: String?
        var userID: Int
        var extras = UnknownKeys()
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    /// The same, with the kept keys asked for before the properties that read the members.
    struct AcronymsFirst: Codable, Equatable, KeyMapping {
        var extras = UnknownKeys()
        var isHTTPOK: Bool
        var avatarURLString: String?
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    struct Snake: Codable, Equatable, KeyMapping {
        var userName: String
        var extras = UnknownKeys()
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    struct Plain: Codable, Equatable {
        var userName: String
        var extras = UnknownKeys()
    }

    struct Padded: Codable, Equatable, KeyMapping {
        var time: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["time": "info[1].time"]
    }

    struct PaddedTwice: Codable, Equatable, KeyMapping {
        var cell: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["cell": "grid[1][2]"]
    }

    static let modes: [LenientJSONDecoder.Options] = [.lenient, .strict]

    @Test(arguments: modes)
    func membersReadThroughATypeStrategyAreNotKeptWhateverTheNamesCapitals(_ options: LenientJSONDecoder.Options)
        throws
    {
        let json = #"{"is_httpok":true,"avatar_url_string":"u","user_id":7,"other_Thing":1}"#
        let decoder = LenientJSONDecoder(options: options)
        let value = try decoder.decode(Acronyms.self, from: json)
        #expect(value.isHTTPOK && value.avatarURLString == "u" && value.userID == 7)
        #expect(value.extras.keys == ["other_Thing"])
        let first = try decoder.decode(AcronymsFirst.self, from: json)
        #expect(first.extras.keys == ["user_id", "other_Thing"])

        // Clearing a property is not undone by a copy of its member kept on the side.
        var edited = value
        edited.avatarURLString = nil
        let written = try LenientJSONEncoder().encode(edited)
        let back = try decoder.decode(Acronyms.self, from: written)
        #expect(back == edited)
        #expect(back.avatarURLString == nil)
        let object = try #require(try JSONValue(parsing: written).objectValue)
        #expect(object.keys.sorted() == ["is_httpok", "other_Thing", "user_id"])
    }

    struct Acronyms2: Codable, Equatable, KeyMapping {
        var extras = UnknownKeys()
        var fetchURLForID: Int?
        var getHTTPResponseURL: Int?
        static let keyStrategy: KeyStrategy? = .kebabCase
    }

    struct LooseFirst: Codable, Equatable {
        var extras = UnknownKeys()
        var userID: Int?
    }

    struct LooseLast: Codable, Equatable {
        var userID: Int?
        var extras = UnknownKeys()
    }

    @Test func severalAcronymsInANameAreReadOnTheTypesFirstDecode() throws {
        let value = try LenientJSONDecoder().decode(
            Acronyms2.self, from: #"{"fetch-url-for-id":1,"get-http-response-url":2,"x-y":3}"#)
        #expect(value.fetchURLForID == 1 && value.getHTTPResponseURL == 2)
        #expect(value.extras.keys == ["x-y"])
        var edited = value
        edited.fetchURLForID = nil
        let back = try LenientJSONDecoder().decode(Acronyms2.self, from: try LenientJSONEncoder().encode(edited))
        #expect(back == edited)
    }

    @Test func aMemberLooseMatchingGivesToAPropertyIsNotKept() throws {
        for json in [#"{"user_id":5,"x":1}"#, #"{"User-ID":5,"x":1}"#] {
            let first = try LenientJSONDecoder().decode(LooseFirst.self, from: json)
            #expect(first.userID == 5 && first.extras.keys == ["x"], "\(json)")
            var edited = first
            edited.userID = nil
            let back = try LenientJSONDecoder().decode(LooseFirst.self, from: try LenientJSONEncoder().encode(edited))
            #expect(back == edited, "\(json)")
        }
        // A spelling that hides the words is read too when the kept keys come after the property.
        let last = try LenientJSONDecoder().decode(LooseLast.self, from: #"{"USERID":5,"x":1}"#)
        #expect(last.userID == 5 && last.extras.keys == ["x"])
        // Strict mode matches no key loosely: the member is nobody's, and kept.
        let strict = try LenientJSONDecoder(options: .strict).decode(LooseLast.self, from: #"{"USERID":5}"#)
        #expect(strict.userID == nil && strict.extras.keys == ["USERID"])
    }

    struct LooseOnly: Codable, Equatable {
        var extras = UnknownKeys()
        var userName: String = ""
    }

    @Test func aLooseSpellingThatHidesTheWordsIsRecognisedFromTheTypesSecondDecode() throws {
        // The first decode cannot know that `USERNAME` is `userName`'s: the kept keys come first.
        _ = try LenientJSONDecoder().decode(LooseOnly.self, from: #"{"USERNAME":"a"}"#)
        let value = try LenientJSONDecoder().decode(LooseOnly.self, from: #"{"USERNAME":"a","x":1}"#)
        #expect(value.userName == "a")
        #expect(value.extras.keys == ["x"])
    }

    struct Converted: Codable, Equatable {
        var userName = ""
        var extras = UnknownKeys()
    }

    /// A member that the decoder's strategy converts to a key a property read is that key
    /// repeated, not kept, as `{"a": 1, "a": 2}` keeps no second `a`: written back beside the
    /// property's own member, it would be read in the property's place where it sorts first.
    @Test(arguments: [#"{"user_name":"a","userName":"b"}"#, #"{"userName":"a","user_name":"b"}"#])
    func aMemberAStrategyConvertsToATakenKeyIsARepeatedKey(json: String) throws {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let value = try decoder.decode(Converted.self, from: json)
        #expect(value.userName == "a")
        #expect(value.extras.keys.isEmpty)
        // Foundation reads the first too.
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        struct Plain: Decodable { var userName: String }
        #expect(try foundation.decode(Plain.self, from: Data(json.utf8)).userName == "a")
        // Written back (sorted, where `userName` would come first), read back the same.
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(value)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"user_name":"a"}"#)
        #expect(try decoder.decode(Converted.self, from: encoded) == value)
    }

    @Test func aLongUnknownKeyCostsItsLength() throws {
        // A key of 100 000 words: no spelling of it is tried, and it is kept as it came.
        let key = Array(repeating: "a", count: 100_000).joined(separator: "_")
        let value = try LenientJSONDecoder().decode(Snake.self, from: "{\"\(key)\":1,\"user_name\":\"a\"}")
        #expect(value.extras.keys == [key])
        #expect(value.userName == "a")
    }

    @Test func aTypeStrategyMeetsTheJSONsOwnKeysUnderTheDecodersStrategy() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let value = try decoder.decode(Snake.self, from: #"{"user_name":"a","zz_top":1}"#)
            #expect(value.userName == "a")
            #expect(value.extras.keys == ["zz_top"])
            let back = try decoder.decode(Snake.self, from: try LenientJSONEncoder().encode(value))
            #expect(back == value)
        }
    }

    @Test func keptMembersAreWrittenAsTheyCameUnderAKeyEncodingStrategy() throws {
        let kept: UnknownKeys = ["Top": ["Inner": 1, "x": ["DeepKey": true, "Über": "ü"]], "ID": 2]
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let written = try encoder.encode(Plain(userName: "a", extras: kept))
        #expect(
            String(decoding: written, as: UTF8.self)
                == #"{"ID":2,"Top":{"Inner":1,"x":{"DeepKey":true,"Über":"ü"}},"user_name":"a"}"#)
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(Plain.self, from: written) == Plain(userName: "a", extras: kept))

        // A property's own JSONValue still goes through the strategy, as under JSONEncoder.
        struct Holder: Codable { var someValue: JSONValue }
        let holder = try encoder.encode(Holder(someValue: ["innerKey": 1]))
        #expect(String(decoding: holder, as: UTF8.self) == #"{"some_value":{"inner_key":1}}"#)
    }

    @Test(arguments: modes)
    func theEncodersPaddingDoesNotComeBackAsKeptData(_ options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        let padded = try LenientJSONEncoder().encode(Padded(time: 5))
        #expect(String(decoding: padded, as: UTF8.self) == #"{"info":[null,{"time":5}]}"#)
        let (value, report) = try decoder.decodeWithReport(Padded.self, from: padded)
        #expect(value == Padded(time: 5))
        #expect(report.issues.isEmpty)

        let twice = try LenientJSONEncoder().encode(PaddedTwice(cell: 3))
        #expect(String(decoding: twice, as: UTF8.self) == #"{"grid":[null,[null,null,3]]}"#)
        #expect(try decoder.decode(PaddedTwice.self, from: twice) == PaddedTwice(cell: 3))
    }

    @Test func nullsAfterTheLastReadPositionAndOtherValuesAreKept() throws {
        let json = #"{"info":[null,{"time":5,"zone":"z"},null,4]}"#
        let value = try LenientJSONDecoder().decode(Padded.self, from: json)
        #expect(value.time == 5)
        #expect(value.extras["info"] == [.null, ["zone": "z"], .null, 4])
        let written = try LenientJSONEncoder().encode(value)
        #expect(try JSONValue(parsing: written) == (try JSONValue(parsing: json)))
        #expect(try LenientJSONDecoder().decode(Padded.self, from: written) == value)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `UnknownKeys`: decode → encode keeps every key the server sent.
@Suite struct UnknownKeysTests {
    struct Profile: Codable, Equatable {
        var extras = UnknownKeys()
        var id: Int
        var name: String
    }

    struct Mapped: Codable, Equatable, KeyMapping {
        var id: Int
        var desc: String
        var userName: String
        var more = UnknownKeys()

        static let keyMapping: [String: KeySource] = ["id": ["id", "ID"], "desc": "ext.desc"]
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    struct Nested: Codable, Equatable {
        var profile: Profile
        var rest = UnknownKeys()
    }

    struct Ignoring: Codable, Equatable, KeyMapping {
        var id: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["extras": .ignored]
    }

    static let modes: [LenientJSONDecoder.Options] = [.lenient, .strict]
    static let profileJSON = #"{"id":1,"theme":"dark","name":"Ada","beta":true,"tags":[1,{"a":null}]}"#

    @Test func thePropertyReceivesTheMembersNoOtherPropertyReadsInOrder() throws {
        for options in Self.modes {
            let profile = try LenientJSONDecoder(options: options).decode(Profile.self, from: Self.profileJSON)
            #expect(profile.id == 1)
            #expect(profile.extras.keys == ["theme", "beta", "tags"])
            #expect(profile.extras["theme"] == "dark")
            #expect(profile.extras.count == 3)
            #expect(!profile.extras.isEmpty)
            #expect(profile.extras.map(\.key) == ["theme", "beta", "tags"])
        }
    }

    @Test func keyMappingAndStrategiesDecideWhatIsRead() throws {
        let json = #"{"ID":3,"ext":{"desc":"d"},"user_name":"ada","extra":1,"userName":"other"}"#
        let value = try LenientJSONDecoder().decode(Mapped.self, from: json)
        #expect(value.id == 3)
        #expect(value.desc == "d")
        #expect(value.userName == "ada")
        #expect(value.more.keys == ["extra", "userName"])

        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let snake = try decoder.decode(Profile.self, from: #"{"id":1,"name":"a","dark_mode":true}"#)
        #expect(snake.extras.keys == ["dark_mode"])
    }

    @Test func looselyMatchedMembersAreReadInLenientOnly() throws {
        let json = #"{"ID":1,"Name":"a"}"#
        let lenient = try LenientJSONDecoder().decode(Profile.self, from: json)
        #expect(lenient.extras.isEmpty)
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Profile.self, from: json)
        }
    }

    struct Spelled: Codable, Equatable {
        var userName: String
        var extras = UnknownKeys()
    }

    /// Loose matching reads the first member that matches: another spelling of the same key
    /// after it is read by nobody, so it is kept, and the round trip writes it back.
    @Test func aSecondLooseSpellingIsKept() throws {
        let decoder = LenientJSONDecoder()
        let first = try decoder.decode(Spelled.self, from: #"{"user_name":"x","UserName":"y","q":1}"#)
        #expect(first.userName == "x")
        #expect(first.extras.keys == ["UserName", "q"])
        let second = try decoder.decode(Spelled.self, from: #"{"UserName":"y","user_name":"x"}"#)
        #expect(second.userName == "y")
        #expect(second.extras.keys == ["user_name"])
        // Nothing the server sent is lost: the encoder writes the kept members back.
        let written = try JSONValue(parsing: String(decoding: LenientJSONEncoder().encode(first), as: UTF8.self))
        #expect(written["UserName"] == "y")
        #expect(written["q"] == 1)
        #expect(written["userName"] == "x")
    }

    @Test func aMemberNamedLikeThePropertyIsAnUnknownKeyToo() throws {
        let profile = try LenientJSONDecoder().decode(Profile.self, from: #"{"id":1,"name":"a","extras":{"x":1}}"#)
        #expect(profile.extras.keys == ["extras"])
    }

    @Test func collectedMembersAreNotReportedAsUnknownKeys() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(
            Nested.self, from: #"{"profile":{"id":1,"name":"a","x":2},"y":3}"#)
        #expect(value.profile.extras.keys == ["x"])
        #expect(value.rest.keys == ["y"])
        #expect(report.issues(ofKind: .unknownKey).isEmpty)
    }

    @Test func theEncoderWritesTheMembersBackAfterThePropertiesAndAPropertyWins() throws {
        let profile = try LenientJSONDecoder().decode(Profile.self, from: Self.profileJSON)
        let encoder = LenientJSONEncoder()
        let data = try encoder.encode(profile)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"id":1,"name":"Ada","theme":"dark","beta":true,"tags":[1,{"a":null}]}"#)
        for options in Self.modes {
            #expect(try LenientJSONDecoder(options: options).decode(Profile.self, from: data) == profile)
        }

        var clash = profile
        clash.extras["name"] = "Eve"
        let written = try encoder.encodeToJSONValue(clash)
        #expect(written["name"] == "Ada")
    }

    @Test func nestedObjectsRoundTripWithTheirOwnMembers() throws {
        let json = #"{"a":0,"profile":{"id":1,"name":"a","x":[true]},"z":"last"}"#
        let value = try LenientJSONDecoder().decode(Nested.self, from: json)
        let encoded = try LenientJSONEncoder().encodeToJSONValue(value)
        #expect(encoded == (try JSONValue(parsing: json)))
        #expect(try LenientJSONDecoder().decode(Nested.self, from: LenientJSONEncoder().encode(value)) == value)
    }

    @Test func underFoundationItIsAnOrdinaryPropertyThatMayBeMissing() throws {
        let missing = try JSONDecoder().decode(Profile.self, from: Data(#"{"id":1,"name":"a","x":2}"#.utf8))
        #expect(missing.extras.isEmpty)
        let present = try JSONDecoder().decode(Profile.self, from: Data(#"{"id":1,"name":"a","extras":{"x":2}}"#.utf8))
        #expect(present.extras["x"] == 2)
        let null = try JSONDecoder().decode(Profile.self, from: Data(#"{"id":1,"name":"a","extras":null}"#.utf8))
        #expect(null.extras.isEmpty)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Profile.self, from: Data(#"{"id":1,"name":"a","extras":[1]}"#.utf8))
        }
        let encoded = try JSONEncoder().encode(present)
        #expect(try JSONDecoder().decode(Profile.self, from: encoded) == present)
    }

    @Test func anIgnoredPropertyCollectsAndWritesNothing() throws {
        let value = try LenientJSONDecoder().decode(Ignoring.self, from: #"{"id":1,"x":2}"#)
        #expect(value.extras.isEmpty)
        var withExtras = value
        withExtras.extras["x"] = 2
        #expect(try LenientJSONEncoder().encodeToJSONValue(withExtras) == ["id": 1])
    }

    @Test func valueSemanticsLiteralsAndEquality() throws {
        var extras: UnknownKeys = ["a": 1, "b": "two"]
        let copy = extras
        extras["a"] = nil
        #expect(extras.keys == ["b"])
        #expect(copy.keys == ["a", "b"])
        #expect(UnknownKeys(JSONObject([(key: "b", value: "two")])) == extras)
        #expect(Set([extras, copy]).count == 2)
    }

    struct OptionalExtras: Codable, Equatable {
        var a = 0
        var extras: UnknownKeys?
    }

    @Test(arguments: [LenientJSONEncoder.NilEncodingStrategy.omitKey, .writeNull])
    func anOptionalPropertyIsCollectedAndComesBack(_ nilStrategy: LenientJSONEncoder.NilEncodingStrategy) throws {
        let encoder = LenientJSONEncoder()
        encoder.nilEncodingStrategy = nilStrategy
        encoder.outputFormatting = .sortedKeys
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            // A member named like the property is an unknown key like any other.
            let kept = try decoder.decode(OptionalExtras.self, from: #"{"a":1,"extras":{"b":2},"c":3}"#)
            #expect(kept.extras == ["extras": ["b": 2], "c": 3])
            let written = try encoder.encode(kept)
            #expect(String(decoding: written, as: UTF8.self) == #"{"a":1,"c":3,"extras":{"b":2}}"#)
            #expect(try decoder.decode(OptionalExtras.self, from: written) == kept)

            // Nothing to keep: `nil`, written as nothing, whatever the nil strategy.
            let none = try decoder.decode(OptionalExtras.self, from: #"{"a":1}"#)
            #expect(none.extras == nil)
            let (value, report) = try decoder.decodeWithReport(OptionalExtras.self, from: try encoder.encode(none))
            #expect(String(decoding: try encoder.encode(none), as: UTF8.self) == #"{"a":1}"#)
            #expect(value == none)
            #expect(report.isEmpty)
        }
        // Under Foundation's coders it is an ordinary optional property at its own key.
        let foundation = try JSONDecoder().decode(
            OptionalExtras.self, from: Data(#"{"a":1,"extras":{"b":2},"c":3}"#.utf8))
        #expect(foundation.extras == ["b": 2])
        #expect(try JSONDecoder().decode(OptionalExtras.self, from: Data(#"{"a":1}"#.utf8)).extras == nil)
        let foundationEncoder = JSONEncoder()
        foundationEncoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try foundationEncoder.encode(foundation), as: UTF8.self) == #"{"a":1,"extras":{"b":2}}"#)
        #expect(String(decoding: try foundationEncoder.encode(OptionalExtras(a: 1)), as: UTF8.self) == #"{"a":1}"#)
    }
}

/// A property with a fallback list that decodes as `nil` while a later candidate holds a value
/// (the first candidate is invalid, or the model set the property to `nil`): the kept candidate
/// is not written back, or decoding the output would read it as the property's value.
struct UnknownKeysFallbackCandidateTests {
    struct Book: Codable, Equatable, KeyMapping {
        var id: Int?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["id": ["id", "ID", "book_id"]]
    }

    @Test(arguments: [
        (#"{"uid":"s","id":"x","book_id":7}"#, nil as Int?),
        (#"{"id":3,"book_id":5,"ID":4}"#, 3),
        (#"{"uid":"s","ID":4}"#, 4),
    ])
    func aDecodedValueRoundTripsWhateverItsCandidatesHold(_ text: String, id: Int?) throws {
        let decoder = LenientJSONDecoder()
        let book = try decoder.decode(Book.self, from: text)
        #expect(book.id == id)
        for strategy in [LenientJSONEncoder.NilEncodingStrategy.omitKey, .writeNull] {
            let encoder = LenientJSONEncoder()
            encoder.nilEncodingStrategy = strategy
            let (again, report) = try decoder.decodeWithReport(Book.self, from: encoder.encode(book))
            #expect(again.id == book.id, "\(strategy)")
            #expect(report.isEmpty, "\(report)")
        }
    }

    @Test func aPropertySetToNilAfterDecodingStaysNil() throws {
        var book = try LenientJSONDecoder().decode(Book.self, from: #"{"id":3,"book_id":5,"ID":4,"uid":"s"}"#)
        book.id = nil
        let written = try LenientJSONEncoder().encode(book)
        let again = try LenientJSONDecoder().decode(Book.self, from: written)
        #expect(again.id == nil)
        #expect(again.extras["uid"] == "s")
        #expect(try LenientJSONDecoder(options: .strict).decode(Book.self, from: written).id == nil)
    }

    /// A candidate another property writes is that property's, and stays.
    struct TwoNames: Codable, Equatable, KeyMapping {
        var id: Int?
        var bookID: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["id": ["id", "book_id"], "bookID": "book_id"]
    }

    @Test func aCandidateAnotherPropertyWritesStays() throws {
        let value = TwoNames(id: nil, bookID: 5)
        let written = try JSONSerialization.jsonObject(with: LenientJSONEncoder().encode(value)) as? [String: Any]
        #expect(written?["book_id"] as? Int == 5)
    }
}

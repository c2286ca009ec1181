// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A property whose own key holds `null` reads that `null`, as Foundation's decoder does, and
/// another spelling of its key beside it is not read: an ``UnknownKeys`` property keeps it. The
/// encoder then writes the `nil` optional as `null` under its key, so that decoding its JSON again
/// does not read the kept spelling in its place.
@Suite struct UnknownKeysLooseSpellingTests {
    struct User: Codable, Equatable {
        var userName: Int?
        var extras = UnknownKeys()
    }

    struct ExtrasFirst: Codable, Equatable {
        var extras = UnknownKeys()
        var userName: Int?
        var age: Int
    }

    struct Order: Codable, Equatable, KeyMapping {
        var orderID: Int?
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["orderID": ["order_id", "id"]] }
    }

    struct Required: Codable, Equatable {
        var userName: Int
        var extras = UnknownKeys()
    }

    static func summary(_ report: DecodingReport) -> [String] {
        report.issues.map { "\($0.path) (\($0.jsonPath)) \($0.kind): \($0.message)" }
    }

    /// Decodes `json`, encodes the value and decodes that: the same value both times.
    static func roundTrip<T: Codable & Equatable>(
        _ type: T.Type, _ json: String, decoder: LenientJSONDecoder = LenientJSONDecoder(),
        encoder: LenientJSONEncoder = LenientJSONEncoder(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (value: T, report: DecodingReport, written: JSONValue) {
        let (value, report) = try decoder.decodeWithReport(T.self, from: json)
        let data = try encoder.encode(value)
        let again = try decoder.decode(T.self, from: data)
        #expect(again == value, "\(String(decoding: data, as: UTF8.self))", sourceLocation: sourceLocation)
        return (value, report, try JSONValue(parsing: data))
    }

    @Test func anOptionalsNullHidesAnotherSpellingWhichIsKeptAndComesBack() throws {
        let (value, report, written) = try Self.roundTrip(User.self, #"{"userName":null,"UserName":3}"#)
        #expect(value.userName == nil)
        #expect(value.extras == ["UserName": 3])
        #expect(report.isEmpty)
        #expect(written == ["userName": nil, "UserName": 3])
    }

    /// A kept spelling that holds `null` too: read in the property's place, it would leave the
    /// bag, with nothing to report (the property is `nil` either way).
    @Test(
        arguments: [
            (#"{"userName":null,"UserName":null}"#, ["userName": nil, "UserName": nil] as JSONValue),
            (#"{"UserName":null,"userName":null}"#, ["userName": nil, "UserName": nil] as JSONValue),
            (
                #"{"userName":null,"user_name":null,"USERNAME":2}"#,
                ["userName": nil, "user_name": nil, "USERNAME": 2] as JSONValue
            ),
        ] as [(String, JSONValue)])
    func aKeptSpellingHoldingNullComesBack(json: String, expected: JSONValue) throws {
        let (value, report, written) = try Self.roundTrip(User.self, json)
        #expect(value.userName == nil)
        #expect(report.isEmpty)
        #expect(written == expected)
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(User.self, from: written)
        #expect(again.extras == value.extras)
        #expect(againReport.isEmpty)
    }

    @Test func whereverTheUnknownKeysPropertyIsDeclared() throws {
        let (value, report, written) = try Self.roundTrip(
            ExtrasFirst.self, #"{"user_name":3,"userName":null,"age":1}"#)
        #expect(value.userName == nil)
        #expect(value.extras == ["user_name": 3])
        #expect(report.isEmpty)
        #expect(written == ["userName": nil, "user_name": 3, "age": 1])
    }

    @Test func underTheSnakeCaseStrategies() throws {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let (value, report, written) = try Self.roundTrip(
            User.self, #"{"user_name":null,"UserName":3}"#, decoder: decoder, encoder: encoder)
        #expect(value.userName == nil)
        #expect(report.isEmpty)
        #expect(written == ["user_name": nil, "UserName": 3])
        // Foundation's decoder reads the same nil.
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        struct Plain: Decodable { var userName: Int? }
        #expect(try foundation.decode(Plain.self, from: Data(#"{"user_name":null,"UserName":3}"#.utf8)).userName == nil)
    }

    @Test(arguments: [
        (#"{"order_id":null,"ID":17}"#, ["order_id": nil, "ID": 17] as JSONValue),
        (#"{"order_id":"x","ID":17}"#, ["order_id": nil, "ID": 17] as JSONValue),
    ])
    func aFallbackListsNullOrInvalidValueHidesAnotherSpelling(json: String, expected: JSONValue) throws {
        let (value, _, written) = try Self.roundTrip(Order.self, json)
        #expect(value.orderID == nil)
        #expect(value.extras == ["ID": 17])
        #expect(written == expected)
    }

    @Test func aNonOptionalsNullTakesItsDefaultReportedAndTheOtherSpellingIsKept() throws {
        let (value, report, written) = try Self.roundTrip(Required.self, #"{"userName":null,"USER_NAME":3}"#)
        #expect(value == Required(userName: 0, extras: ["USER_NAME": 3]))
        #expect(Self.summary(report) == ["userName (userName) defaulted: Found null; used the default 0."])
        #expect(written == ["userName": 0, "USER_NAME": 3])
    }

    @Test func withoutAnUnknownKeysPropertyTheOtherSpellingIsAnUnknownKey() throws {
        struct Plain: Codable, Equatable { var userName: Int? }
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(
            Plain.self, from: #"{"userName":null,"UserName":3}"#)
        #expect(value.userName == nil)
        #expect(report.issues(ofKind: .unknownKey).map(\.path) == ["UserName"])
        // And a nil with nothing kept is still left out.
        #expect(try LenientJSONEncoder().encodeToJSONValue(value) == [:])
    }

    struct OptionalBag: Codable, Equatable {
        var userName: Int?
        var extras: UnknownKeys?
    }

    /// The encoder learns from a type's first value whether it keeps unknown keys: a first value
    /// whose optional bag is `nil` teaches it that the type does.
    @Test func aTypeWhoseFirstValueHasNoBag() throws {
        let encoder = LenientJSONEncoder()
        #expect(try encoder.encodeToJSONValue(OptionalBag(userName: nil, extras: nil)) == [:])
        let (value, _, written) = try Self.roundTrip(
            OptionalBag.self, #"{"userName":null,"user-name":3}"#, encoder: encoder)
        #expect(value == OptionalBag(userName: nil, extras: ["user-name": 3]))
        #expect(written == ["userName": nil, "user-name": 3])
    }

    /// Values in an array, some with a kept spelling and some without, each in its own object.
    @Test func eachObjectOfAnArray() throws {
        let json = #"[{"userName":null,"UserName":1},{"userName":2},{"USERNAME":3},{"userName":null,"x":4}]"#
        let (values, _, written) = try Self.roundTrip([User].self, json)
        #expect(values.map(\.userName) == [nil, 2, 3, nil])
        #expect(
            written == [
                ["userName": nil, "UserName": 1], ["userName": 2], ["userName": 3], ["x": 4],
            ])
    }

    struct Nested: Codable, Equatable, KeyMapping {
        var desc: Int?
        var time: Int?
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc", "time": "info[1].time"] }
    }

    /// Loose matching reads another spelling at every level of a nested key: the `null` is
    /// written where the nested key leads, into the kept objects and arrays.
    @Test(arguments: [
        #"{"ext":{"desc":null,"Desc":3}}"#,
        #"{"ext":{"desc":null},"EXT":{"desc":3}}"#,
        #"{"info":[1,{"time":null,"Time":3}]}"#,
        #"{"ext":{"desc":null,"Desc":3},"info":[1,{"time":null,"TIME":4}]}"#,
        #"{"ext":{"desc":null,"Desc":null}}"#,
        #"{"info":[1,{"time":null,"Time":null}]}"#,
    ])
    func aNestedKeysNullIsWrittenWhereItLeads(json: String) throws {
        let (value, report, _) = try Self.roundTrip(Nested.self, json)
        #expect(value.desc == nil && value.time == nil)
        #expect(report.isEmpty)
    }

    struct PathFirst: Codable, Equatable, KeyMapping {
        var desc: Int?
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["desc": ["ext.desc", "desc"]] }
    }

    @Test func aFallbackListWhoseFirstCandidateIsANestedKey() throws {
        let (value, _, written) = try Self.roundTrip(PathFirst.self, #"{"desc":null,"DESC":3}"#)
        #expect(value == PathFirst(desc: nil, extras: ["DESC": 3]))
        #expect(written == ["ext": ["desc": nil], "DESC": 3])
    }

    /// A custom `encode(to:)` that leaves an empty bag out: the type still keeps unknown keys.
    struct SkipsEmptyBag: Codable, Equatable {
        var userName: Int?
        var extras = UnknownKeys()
        enum CodingKeys: String, CodingKey { case userName, extras }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(userName, forKey: .userName)
            if !extras.isEmpty { try container.encode(extras, forKey: .extras) }
        }
    }

    @Test func aTypeWhoseFirstValueLeavesAnEmptyBagOut() throws {
        let (values, _, _) = try Self.roundTrip(
            [SkipsEmptyBag].self, #"[{"userName":1},{"userName":null,"UserName":3}]"#)
        #expect(values.map(\.userName) == [1, nil])
    }

    struct TwoSpellings: Codable, Equatable {
        var userName: Int?
        var username: Int?
    }

    /// Loose matching does not take a member that another property reads under its own key.
    @Test func aMemberAnotherPropertyReadsIsNotALooseSpelling() throws {
        let (value, report, written) = try Self.roundTrip(TwoSpellings.self, #"{"userName":null,"username":5}"#)
        #expect(value == TwoSpellings(userName: nil, username: 5))
        #expect(report.isEmpty)
        #expect(written == ["username": 5])
        let only = try LenientJSONDecoder().decode(TwoSpellings.self, from: #"{"username":5,"USER_NAME":7}"#)
        #expect(only == TwoSpellings(userName: 7, username: 5))
        // Foundation's decoder gives the same for the first document.
        let foundation = try JSONDecoder().decode(
            TwoSpellings.self, from: Data(#"{"userName":null,"username":5}"#.utf8))
        #expect(foundation == value)
    }

    struct Generic<Bag: Codable & Equatable>: Codable, Equatable {
        var userName: Int?
        var bag: Bag
    }

    /// A property that is `UnknownKeys` only through a generic parameter is an ordinary property
    /// to every decoder, as the type's synthesized code reads it: the encoder writes it at its
    /// key too, as `JSONEncoder` does, and both decoders read back the same value.
    @Test func aGenericPropertyThatIsUnknownKeysIsAnOrdinaryProperty() throws {
        let value = Generic(userName: nil, bag: UnknownKeys(["a": 1]))
        let written = try LenientJSONEncoder().encode(value)
        #expect(try JSONValue(parsing: written) == ["bag": ["a": 1]])
        #expect(try JSONValue(parsing: JSONEncoder().encode(value)) == ["bag": ["a": 1]])
        #expect(try LenientJSONDecoder().decode(Generic<UnknownKeys>.self, from: written) == value)
        #expect(try JSONDecoder().decode(Generic<UnknownKeys>.self, from: written) == value)
        // Declared as `UnknownKeys`, the members go into the enclosing object, as before.
        #expect(
            try LenientJSONEncoder().encodeToJSONValue(User(userName: 1, extras: ["a": 1])) == ["userName": 1, "a": 1])
    }

    @Test func nothingChangesWhereNoKeptMemberIsAnotherSpelling() throws {
        let (value, _, written) = try Self.roundTrip(User.self, #"{"other":3}"#)
        #expect(value.userName == nil)
        #expect(written == ["other": 3])
    }
}

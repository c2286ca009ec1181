// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `UnknownKeys` with nested keys, nested keys into arrays and fallback lists: what the model does
/// not read is kept, and comes back where it was, merged with what the model writes.
@Suite struct UnknownKeysNestedKeyTests {
    /// The decoder's presets, as test arguments.
    enum Mode: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case lenient, strict

        var options: LenientJSONDecoder.Options { self == .lenient ? .lenient : .strict }
        var testDescription: String { rawValue }
    }

    /// What one round trip gives: the value decoded, the JSON `LenientJSONEncoder().encode` wrote
    /// for it, and that JSON decoded again.
    struct RoundTrip<T> {
        var value: T
        var written: JSONValue
        var again: T
    }

    static func roundTrip<T: Codable>(
        _ type: T.Type, _ json: String, _ mode: Mode, encoder: LenientJSONEncoder = LenientJSONEncoder()
    ) throws -> RoundTrip<T> {
        let decoder = LenientJSONDecoder(options: mode.options)
        let value = try decoder.decode(T.self, from: json)
        let data = try encoder.encode(value)
        return RoundTrip(
            value: value, written: try JSONValue(parsing: data), again: try decoder.decode(T.self, from: data))
    }

    static func json(_ text: String) throws -> JSONValue { try JSONValue(parsing: text) }

    struct Book: Codable, Equatable, KeyMapping {
        var id: Int
        var desc: String
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
    }

    struct Zoned: Codable, Equatable, KeyMapping {
        var zone: String
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["zone": "info[1].zone"]
    }

    struct Fallback: Codable, Equatable, KeyMapping {
        var bookID: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["bookID": ["id", "ID", "book_id"]]
    }
}

// MARK: - The three shapes of issue 17

extension UnknownKeysNestedKeyTests {
    @Test(arguments: Mode.allCases)
    func membersBesideANestedKeyAreKeptAndComeBackInTheSameObject(mode: Mode) throws {
        let json = #"{"id":1,"ext":{"desc":"d","other":1,"more":{"x":[1,2]}}}"#
        let trip = try Self.roundTrip(Book.self, json, mode)
        #expect(trip.value.desc == "d")
        #expect(trip.value.extras == ["ext": ["other": 1, "more": ["x": [1, 2]]]])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    @Test(arguments: Mode.allCases)
    func elementsBesideANestedKeyIntoAnArrayAreKeptInPlace(mode: Mode) throws {
        let json = #"{"info":[{"a":1},{"zone":"z","b":2},3]}"#
        let trip = try Self.roundTrip(Zoned.self, json, mode)
        #expect(trip.value.zone == "z")
        #expect(trip.value.extras == ["info": [["a": 1], ["b": 2], 3]])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    @Test(arguments: Mode.allCases)
    func fallbackKeysThatWereNotUsedAreKept(mode: Mode) throws {
        let json = #"{"id":1,"ID":2,"book_id":3}"#
        let trip = try Self.roundTrip(Fallback.self, json, mode)
        #expect(trip.value.bookID == 1)
        #expect(trip.value.extras == ["ID": 2, "book_id": 3])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    @Test(arguments: Mode.allCases)
    func aValueFoundUnderALaterFallbackIsWrittenAtTheFirstKey(mode: Mode) throws {
        // `ID` is the key used: it is read, so not kept, and the value goes back under `id`.
        let trip = try Self.roundTrip(Fallback.self, #"{"ID":2,"book_id":3}"#, mode)
        #expect(trip.value.bookID == 2)
        #expect(trip.value.extras == ["book_id": 3])
        #expect(trip.written == (try Self.json(#"{"id":2,"book_id":3}"#)))
        #expect(trip.again == trip.value)

        // A `null` first key is passed over: read, not kept (the property's value would be written over it), so the
        // round trip gives the same value back.
        let null = try Self.roundTrip(Fallback.self, #"{"id":null,"ID":2}"#, mode)
        #expect(null.value.bookID == 2)
        #expect(null.value.extras.isEmpty)
        #expect(null.written == ["id": 2])
        #expect(null.again == null.value)
    }

    struct NestedFallback: Codable, Equatable, KeyMapping {
        var id: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["id": ["data.id", "id"]]
    }

    @Test(arguments: Mode.allCases)
    func aNestedFallbackKeepsItsSiblingsAndTheUnusedCandidates(mode: Mode) throws {
        let json = #"{"data":{"id":1,"x":2},"id":3}"#
        let trip = try Self.roundTrip(NestedFallback.self, json, mode)
        #expect(trip.value.id == 1)
        #expect(trip.value.extras == ["data": ["x": 2], "id": 3])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)

        // Nothing under `data.id`: `id` is used, and `data` is kept whole.
        let second = try Self.roundTrip(NestedFallback.self, #"{"data":{"x":2},"id":3}"#, mode)
        #expect(second.value.id == 3)
        #expect(second.value.extras == ["data": ["x": 2]])
        #expect(second.written == (try Self.json(#"{"data":{"x":2,"id":3}}"#)))
        #expect(second.again.id == 3)
    }
}

// MARK: - What the report says

extension UnknownKeysNestedKeyTests {
    @Test(arguments: Mode.allCases)
    func keptMembersAreNotIssuesAndNeverUnknownKeys(mode: Mode) throws {
        var options = mode.options
        let decoder = LenientJSONDecoder(options: options)
        let book = try decoder.decodeWithReport(Book.self, from: #"{"id":1,"ext":{"desc":"d","x":1}}"#)
        #expect(book.report.isEmpty, "\(book.report)")
        let zoned = try decoder.decodeWithReport(Zoned.self, from: #"{"info":[0,{"zone":"z","b":2}]}"#)
        #expect(zoned.report.isEmpty, "\(zoned.report)")
        // A later fallback is reported as such, as before; the unused key is kept, not reported.
        let fallback = try decoder.decodeWithReport(Fallback.self, from: #"{"ID":2,"book_id":3}"#)
        #expect(fallback.report.issues.map(\.kind) == [.keyFallback], "\(fallback.report)")

        options.reportsUnknownKeys = true
        let watching = LenientJSONDecoder(options: options)
        let cases: [(json: String, written: String)] = [
            (#"{"id":1,"ext":{"desc":"d","x":1},"y":2}"#, #"{"id":1,"ext":{"desc":"d","x":1},"y":2}"#),
            (#"{"id":1,"ext":{"x":1}}"#, #"{"id":1,"ext":{"x":1}}"#),
            (#"{"ext":{"desc":null},"y":[]}"#, #"{"y":[]}"#),
        ]
        for (json, written) in cases {
            let (value, report) = try watching.decodeWithReport(OptionalBook.self, from: json)
            #expect(report.isEmpty, "\(report)")
            #expect(try JSONValue(parsing: LenientJSONEncoder().encode(value)) == Self.json(written), "\(json)")
        }
        let (value, report) = try watching.decodeWithReport(Fallback.self, from: #"{"id":1,"ID":2}"#)
        #expect(report.isEmpty, "\(report)")
        #expect(try LenientJSONEncoder().encodeToJSONValue(value) == Self.json(#"{"id":1,"ID":2}"#))
    }

    struct FallbackWithoutExtras: Codable, Equatable, KeyMapping {
        var bookID: Int
        static let keyMapping: [String: KeySource] = ["bookID": ["id", "ID"]]
    }

    @Test func withoutAnUnknownKeysPropertyAnUnusedFallbackIsAnUnknownKey() throws {
        // The other side of the same rule: a member no property reads is kept or, when asked, reported.
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(
            FallbackWithoutExtras.self, from: #"{"id":1,"ID":2}"#)
        #expect(value.bookID == 1)
        #expect(report.issues.map(\.kind) == [.unknownKey], "\(report)")
        #expect(report.issues.first?.path == "ID")
        #expect(try LenientJSONEncoder().encodeToJSONValue(value) == ["id": 1])
    }

    struct Owner: Codable, Equatable {
        var name: String
    }

    struct PathsWithoutExtras: Codable, Equatable, KeyMapping {
        var desc: Int
        var time: Int?
        var owner: Owner?
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc", "time": "info[1].time"] }
    }

    struct PathsWithExtras: Codable, Equatable, KeyMapping {
        var desc: Int
        var time: Int?
        var owner: Owner?
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc", "time": "info[1].time"] }
    }

    struct ExtOther: Codable, Equatable {
        var other: Int
    }

    struct ModelFirst: Codable, Equatable, KeyMapping {
        var ext: ExtOther
        var desc: String
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc"] }
    }

    struct PathFirst: Codable, Equatable, KeyMapping {
        var desc: String
        var ext: ExtOther
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc"] }
    }

    /// A nested model and a nested key through the same member: what the key reads is no
    /// unknown key of the model, whichever is declared first.
    @Test func aNestedKeyReadAfterTheNestedModelIsNoUnknownKey() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let json = #"{"ext":{"desc":"d","other":1,"more":2}}"#
        let modelFirst = try decoder.decodeWithReport(ModelFirst.self, from: json)
        let pathFirst = try decoder.decodeWithReport(PathFirst.self, from: json)
        #expect(modelFirst.value == ModelFirst(ext: ExtOther(other: 1), desc: "d"))
        #expect(modelFirst.report.issues.map(\.path) == ["ext.more"])
        #expect(pathFirst.report.issues.map(\.path) == ["ext.more"])
    }

    struct Rewritten: Codable, Equatable, KeyMapping, DecodingHooks {
        var desc: String
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc"] }
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var json = json
            json["added"] = 1
            return json
        }
    }

    struct RewrittenWithExtras: Codable, Equatable, KeyMapping, DecodingHooks {
        var desc: String
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["desc": "ext.desc"] }
        static func willDecode(_ json: JSONValue) throws -> JSONValue { try Rewritten.willDecode(json) }
    }

    /// A type whose hook changes its JSON reads the JSON the hook returned: its unknown keys are
    /// what it leaves unread there, as an `UnknownKeys` property would keep them.
    @Test func theUnknownKeysOfAHookedTypeAreThoseOfTheJSONItsHookReturned() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let json = #"{"ext":{"desc":"d","o":1},"p":1}"#
        let (value, report) = try decoder.decodeWithReport([Rewritten].self, from: "[\(json)]")
        #expect(value == [Rewritten(desc: "d")])
        #expect(report.issues.map(\.path).sorted() == ["[0].added", "[0].ext.o", "[0].p"])
        let (kept, keptReport) = try decoder.decodeWithReport(RewrittenWithExtras.self, from: json)
        #expect(kept.extras == ["ext": ["o": 1], "p": 1, "added": 1])
        #expect(keptReport.isEmpty, "\(keptReport)")
    }

    /// What a nested key goes through is looked inside: the members beside it that no property
    /// reads are reported, where `UnknownKeys` would keep them, and nothing is reported twice.
    /// An element beside it is reported by its members, or whole when it has none.
    @Test func membersBesideANestedKeyAreUnknownKeysToo() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let json = #"""
            {"ext":{"desc":1,"other":2,"deeper":{"a":1}},"info":[{"x":1},{"time":2,"y":3},4],
             "owner":{"name":"o","z":1},"zz":1}
            """#
        let (value, report) = try decoder.decodeWithReport(PathsWithoutExtras.self, from: json)
        #expect(value == PathsWithoutExtras(desc: 1, time: 2, owner: Owner(name: "o")))
        #expect(
            report.issues(ofKind: .unknownKey).map(\.path).sorted() == [
                "ext.deeper", "ext.other", "info[0].x", "info[1].y", "info[2]", "owner.z", "zz",
            ])
        #expect(report.issues.count == 7, "\(report)")

        // With an UnknownKeys property, every one of them is kept and none is reported; the
        // model comes back the same.
        let (kept, keptReport) = try decoder.decodeWithReport(PathsWithExtras.self, from: json)
        #expect(keptReport.issues(ofKind: .unknownKey).map(\.path) == ["owner.z"])
        #expect(Set(kept.extras.keys) == ["ext", "info", "zz"])
        let again = try decoder.decode(PathsWithExtras.self, from: LenientJSONEncoder().encode(kept))
        #expect(again == kept)
    }
}

// MARK: - What the encoder merges

extension UnknownKeysNestedKeyTests {
    @Test(arguments: Mode.allCases)
    func editedMembersMergeIntoTheModelsNestedKeysAndThePropertyWins(mode: Mode) throws {
        var book = Book(id: 1, desc: "new")
        book.extras["ext"] = ["desc": "stale", "x": ["y": 1]]
        let written = try LenientJSONEncoder().encode(book)
        #expect(try JSONValue(parsing: written) == Self.json(#"{"id":1,"ext":{"desc":"new","x":{"y":1}}}"#))
        let again = try LenientJSONDecoder(options: mode.options).decode(Book.self, from: written)
        #expect(again.desc == "new")
        #expect(again.extras == ["ext": ["x": ["y": 1]]])

        // A kept value of another kind than the model's container gives way to it.
        book.extras["ext"] = [1, 2]
        #expect(try LenientJSONEncoder().encodeToJSONValue(book) == Self.json(#"{"id":1,"ext":{"desc":"new"}}"#))

        var zoned = Zoned(zone: "z")
        zoned.extras["info"] = [["a": 1], ["zone": "old", "b": 2], 3, nil]
        #expect(
            try LenientJSONEncoder().encodeToJSONValue(zoned)
                == Self.json(#"{"info":[{"a":1},{"zone":"z","b":2},3,null]}"#))
    }

    struct OwnObject: Codable, Equatable {
        var ext: [String: Int]
        var extras = UnknownKeys()
    }

    @Test func aPropertysOwnObjectIsNotMergedInto() throws {
        var value = OwnObject(ext: ["a": 1])
        value.extras["ext"] = ["b": 2]
        #expect(try LenientJSONEncoder().encodeToJSONValue(value) == ["ext": ["a": 1]])
    }
}

// MARK: - Edges

extension UnknownKeysNestedKeyTests {
    struct OptionalBook: Codable, Equatable, KeyMapping {
        var desc: String?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
    }

    @Test(arguments: Mode.allCases)
    func aContainerInWhichNothingIsReadIsKeptWhole(mode: Mode) throws {
        let cases: [(json: String, extras: UnknownKeys)] = [
            (#"{"ext":{}}"#, ["ext": [:]]),
            (#"{"ext":{"x":1}}"#, ["ext": ["x": 1]]),
            (#"{"ext":"legacy"}"#, ["ext": "legacy"]),
            (#"{"ext":["desc"]}"#, ["ext": ["desc"]]),
            (#"{"ext":null}"#, ["ext": nil]),
            (#"{"ext.desc":"literal"}"#, ["ext.desc": "literal"]),
            (#"{}"#, [:]),
        ]
        for (json, extras) in cases {
            let trip = try Self.roundTrip(OptionalBook.self, json, mode)
            #expect(trip.value.desc == nil, "\(json)")
            #expect(trip.value.extras == extras, "\(json)")
            #expect(trip.written == (try Self.json(json)), "\(json)")
            #expect(trip.again == trip.value, "\(json)")
        }
    }

    @Test(arguments: Mode.allCases)
    func aContainerReadWholeIsNotKeptAtAll(mode: Mode) throws {
        let trip = try Self.roundTrip(OptionalBook.self, #"{"ext":{"desc":"d"},"ext.desc":"literal"}"#, mode)
        #expect(trip.value.desc == "d")
        #expect(trip.value.extras == ["ext.desc": "literal"])
        #expect(trip.written == (try Self.json(#"{"ext":{"desc":"d"},"ext.desc":"literal"}"#)))

        // A `null` read is a read; a nil optional is left out as usual, or written as `null`.
        let null = try Self.roundTrip(OptionalBook.self, #"{"ext":{"desc":null,"x":1}}"#, mode)
        #expect(null.value.desc == nil)
        #expect(null.value.extras == ["ext": ["x": 1]])
        #expect(null.written == ["ext": ["x": 1]])
        let encoder = LenientJSONEncoder()
        encoder.nilEncodingStrategy = .writeNull
        let written = try Self.roundTrip(OptionalBook.self, #"{"ext":{"desc":null,"x":1}}"#, mode, encoder: encoder)
        #expect(written.written == (try Self.json(#"{"ext":{"desc":null,"x":1}}"#)))
    }

    @Test func aDefaultedPropertyWinsOverAKeptValueOfAnotherKind() throws {
        // `.lenient` invents "" for the missing `desc` (and reports it); writing it replaces the kept string.
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Book.self, from: #"{"id":1,"ext":"legacy"}"#)
        #expect(value.desc == "")
        #expect(value.extras == ["ext": "legacy"])
        #expect(report.issues.map(\.kind) == [.defaulted], "\(report)")
        let written = try LenientJSONEncoder().encode(value)
        #expect(try JSONValue(parsing: written) == Self.json(#"{"id":1,"ext":{"desc":""}}"#))
        #expect(try LenientJSONDecoder().decode(Book.self, from: written) == Book(id: 1, desc: ""))
    }

    struct Positions: Codable, Equatable, KeyMapping {
        var second: Int?
        var third: Int?
        var far: String?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["second": "list[1]", "third": "list[2]", "far": "info[5].zone"]
    }

    @Test(arguments: Mode.allCases)
    func readElementsLeaveNullInTheirPlaceAndTrailingOnesAreLeftOff(mode: Mode) throws {
        let cases: [(json: String, extras: UnknownKeys)] = [
            (#"{"list":[1,2,3,4]}"#, ["list": [1, nil, nil, 4]]),
            (#"{"list":[1,2,3]}"#, ["list": [1]]),
            // A null before a read position is what the encoder pads with: not kept, written all the same.
            (#"{"list":[null,2,3]}"#, [:]),
            (#"{"list":[null,2,3,null]}"#, ["list": [nil, nil, nil, nil]]),
            (#"{"list":[0,2]}"#, ["list": [0]]),
            (#"{"list":[]}"#, ["list": []]),
            (#"{"list":{"1":2}}"#, ["list": ["1": 2]]),
            // An index beyond the array reads nothing.
            (#"{"info":[{"a":1}]}"#, ["info": [["a": 1]]]),
            (#"{"info":[0,1,2,3,4,{"zone":"z","b":1},6]}"#, ["info": [0, 1, 2, 3, 4, ["b": 1], 6]]),
        ]
        for (json, extras) in cases {
            let trip = try Self.roundTrip(Positions.self, json, mode)
            #expect(trip.value.extras == extras, "\(json)")
            #expect(trip.written == (try Self.json(json)), "\(json)")
            #expect(trip.again == trip.value, "\(json)")
        }
    }

    @Test func anIndexBeyondTheKeptArrayIsWrittenAfterItsElements() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Zoned.self, from: #"{"info":[{"a":1}]}"#)
        #expect(value.zone == "")
        #expect(value.extras == ["info": [["a": 1]]])
        #expect(report.issues.map(\.kind) == [.defaulted])
        let written = try LenientJSONEncoder().encode(value)
        #expect(try JSONValue(parsing: written) == Self.json(#"{"info":[{"a":1},{"zone":""}]}"#))
        #expect(try LenientJSONDecoder().decode(Zoned.self, from: written) == value)

        var far = Positions()
        far.far = "z"
        far.extras["info"] = [["a": 1]]
        #expect(
            try LenientJSONEncoder().encodeToJSONValue(far)
                == Self.json(#"{"info":[{"a":1},null,null,null,null,{"zone":"z"}]}"#))
    }

    struct Deep: Codable, Equatable, KeyMapping {
        var leaf: Int
        var other: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["leaf": "a.b[1].c.d[2].e", "other": "a.b[1].f"]
    }

    @Test(arguments: Mode.allCases)
    func deepNestedKeysKeepEverySiblingAtEveryLevel(mode: Mode) throws {
        var keptBelow = "0"
        for _ in 0..<200 { keptBelow = "[\(keptBelow)]" }
        let json = #"""
            {"top":1,"a":{"x":1,"b":[{"y":2},{"c":{"d":[0,{"k":1},{"e":5,"g":6}],"z":3},"f":7,"w":\#(keptBelow)},8],"v":9}}
            """#
        let trip = try Self.roundTrip(Deep.self, json, mode)
        #expect(trip.value.leaf == 5 && trip.value.other == 7)
        #expect(trip.value.extras["top"] == 1)
        #expect(trip.value.extras["a"]?["b"]?[1]?["c"] == (try Self.json(#"{"d":[0,{"k":1},{"g":6}],"z":3}"#)))
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    struct Meta: Codable, Equatable {
        var a: Int
        var extras = UnknownKeys()
    }

    struct Item: Codable, Equatable {
        var id: Int
        var extras = UnknownKeys()
    }

    struct Envelope: Codable, Equatable, KeyMapping {
        var desc: String
        var meta: Meta
        var items: [Item]
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc", "meta": "ext.meta", "items": "data[0].items"]
    }

    @Test(arguments: Mode.allCases)
    func typesWithTheirOwnUnknownKeysInsideKeptContainers(mode: Mode) throws {
        let json = #"""
            {"ext":{"desc":"d","meta":{"a":1,"b":2},"other":3},
             "data":[{"items":[{"id":1,"x":1},{"id":2}],"page":1},"tail"],"v":0}
            """#
        let trip = try Self.roundTrip(Envelope.self, json, mode)
        #expect(trip.value.meta.extras == ["b": 2])
        #expect(trip.value.items.map(\.extras) == [["x": 1], [:]])
        #expect(trip.value.extras == ["ext": ["other": 3], "data": [["page": 1], "tail"], "v": 0])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    struct Probing: Codable, Equatable, KeyMapping {
        var id: Int
        var desc: String
        var extras: UnknownKeys
        static let keyMapping: [String: KeySource] = ["id": ["id", "ID"], "desc": "ext.desc"]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // Collected before anything is read, and again after probes that fail: the same members.
            extras = try container.decode(UnknownKeys.self, forKey: .extras)
            if let list = try? container.nestedUnkeyedContainer(forKey: .desc) {
                desc = "\(list.count ?? 0) elements"
            } else {
                desc = try container.decode(String.self, forKey: .desc)
            }
            _ = try? container.nestedContainer(keyedBy: CodingKeys.self, forKey: .id)
            _ = try? container.decode(UnknownKeys.self, forKey: .id)
            id = (try? container.decode(Int.self, forKey: .id)) ?? -1
            let again = try? container.decode(UnknownKeys.self, forKey: .extras)
            guard again == extras else {
                throw DecodingError.dataCorruptedError(forKey: .extras, in: container, debugDescription: "Changed.")
            }
        }
    }

    @Test(arguments: Mode.allCases)
    func probesWithTryDoNotChangeWhatIsKept(mode: Mode) throws {
        let json = #"{"id":null,"ID":7,"ext":{"desc":"d","x":[1]}}"#
        let trip = try Self.roundTrip(Probing.self, json, mode)
        #expect(trip.value.id == 7)
        #expect(trip.value.desc == "d")
        #expect(trip.value.extras == ["ext": ["x": [1]]])
        #expect(trip.written == (try Self.json(#"{"id":7,"ext":{"desc":"d","x":[1]}}"#)))
        #expect(trip.again == trip.value)
    }

    struct Uncoded: Codable, Equatable, KeyMapping {
        var id: Int
        var desc: String?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
        static let codedProperties: Set<String>? = ["id", "extras"]
    }

    @Test(arguments: Mode.allCases)
    func aNestedKeyOfAnUncodedPropertyReadsNothing(mode: Mode) throws {
        let json = #"{"id":1,"ext":{"desc":"d","x":1}}"#
        let trip = try Self.roundTrip(Uncoded.self, json, mode)
        #expect(trip.value.desc == nil)
        #expect(trip.value.extras == ["ext": ["desc": "d", "x": 1]])
        #expect(trip.written == (try Self.json(json)))
    }

    @Test func aLooseMatchThroughANestedKeyKeepsTheRestUnderTheServersSpelling() throws {
        let trip = try Self.roundTrip(Book.self, #"{"id":1,"EXT":{"Desc":"d","x":1}}"#, .lenient)
        #expect(trip.value.desc == "d")
        #expect(trip.value.extras == ["EXT": ["x": 1]])
        #expect(trip.written == (try Self.json(#"{"id":1,"ext":{"desc":"d"},"EXT":{"x":1}}"#)))
        #expect(trip.again == trip.value)
    }
}

// MARK: - More shapes

extension UnknownKeysNestedKeyTests {
    struct Grid: Codable, Equatable, KeyMapping {
        var cell: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["cell": "grid[1][2].v"]
    }

    @Test(arguments: Mode.allCases)
    func arraysInsideArraysKeepTheirPositions(mode: Mode) throws {
        let json = #"{"grid":[[0],[1,2,{"v":3,"w":4},5]]}"#
        let trip = try Self.roundTrip(Grid.self, json, mode)
        #expect(trip.value.cell == 3)
        #expect(trip.value.extras == ["grid": [[0], [1, 2, ["w": 4], 5]]])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    struct TwoBags: Codable, Equatable, KeyMapping {
        var desc: String
        var first = UnknownKeys()
        var second = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["desc": "extras.desc"]
    }

    @Test(arguments: Mode.allCases)
    func twoPropertiesKeepTheSameAndItIsWrittenOnce(mode: Mode) throws {
        // Each keeps what no other property reads, and a member named like the other one counts as
        // that property's; both merge into `extras`, the nested key's object, without doubling anything.
        let json = #"{"extras":{"desc":"d","x":1},"first":2,"y":[3]}"#
        let trip = try Self.roundTrip(TwoBags.self, json, mode)
        #expect(trip.value.first == ["extras": ["x": 1], "first": 2, "y": [3]])
        #expect(trip.value.second == ["extras": ["x": 1], "y": [3]])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }

    @Test(arguments: Mode.allCases)
    func anArrayOfModelsKeepsEachElementsOwn(mode: Mode) throws {
        let json = #"[{"id":1,"ext":{"desc":"a","x":1}},{"id":2,"ext":{"desc":"b"},"y":2}]"#
        let trip = try Self.roundTrip([Book].self, json, mode)
        #expect(trip.value.map(\.extras) == [["ext": ["x": 1]], ["y": 2]])
        #expect(trip.written == (try Self.json(json)))
        #expect(trip.again == trip.value)
    }
}

// MARK: - Elements beside a nested key

extension UnknownKeysNestedKeyTests {
    struct Time: Codable, Equatable, KeyMapping {
        var t: Int
        static let keyMapping: [String: KeySource] = ["t": "info[1].time"]
    }

    struct TimeWithExtras: Codable, Equatable, KeyMapping {
        var t: Int
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["t": "info[1].time"]
    }

    /// The elements beside a key path's element that are no object with members (a number, an
    /// empty object, an array, `null`) are reported whole, as an `UnknownKeys` property keeps them.
    @Test func elementsBesideAKeyPathAreReportedWhole() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let json = #"{"info":[7,{"time":1},{},[2],null,{"x":1}]}"#
        let (value, report) = try decoder.decodeWithReport(Time.self, from: json)
        #expect(value == Time(t: 1))
        #expect(
            report.issues(ofKind: .unknownKey).map(\.path) == ["info[0]", "info[2]", "info[3]", "info[4]", "info[5].x"])
        #expect(report.issues.count == 5)
        let (kept, keptReport) = try decoder.decodeWithReport(TimeWithExtras.self, from: json)
        #expect(kept.extras == ["info": [7, nil, [:], [2], nil, ["x": 1]]])
        #expect(keptReport.isEmpty)
        let (again, againReport) = try decoder.decodeWithReport(
            TimeWithExtras.self, from: LenientJSONEncoder().encode(kept))
        #expect(again == kept && againReport.isEmpty)
        // A `null` before the element read is padding, kept by no bag and reported by no report.
        let padded = #"{"info":[null,{"time":2}]}"#
        #expect(try decoder.decodeWithReport(Time.self, from: padded).report.isEmpty)
        #expect(try decoder.decode(TimeWithExtras.self, from: padded).extras.isEmpty)
    }
}

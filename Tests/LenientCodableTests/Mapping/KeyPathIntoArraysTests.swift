// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Key paths that step into arrays: `"info[1].time"` in `KeySource`.
@Suite struct KeyPathIntoArraysTests {
    struct Event: Codable, Equatable, KeyMapping {
        var time: Int
        var firstName: String
        var third: String
        var cell: Int

        static let keyMapping: [String: KeySource] = [
            "time": "info[1].time",
            "firstName": "info[0].name",
            "third": "tags[2]",
            "cell": "grid[1][0]",
        ]
    }

    struct Fallback: Codable, Equatable, KeyMapping {
        var time: Int
        static let keyMapping: [String: KeySource] = ["time": ["info[5].time", "info[0].time", "time"]]
    }

    struct Literal: Codable, Equatable, KeyMapping {
        var a: Int
        var b: Int
        static let keyMapping: [String: KeySource] = ["a": .key("a[1]"), "b": "b[x]"]
    }

    struct Padded: Codable, Equatable, KeyMapping {
        var late: Int
        static let keyMapping: [String: KeySource] = ["late": "list[2].v"]
    }

    struct Conflict: Codable, KeyMapping {
        var whole: [Int]
        var part: Int
        static let keyMapping: [String: KeySource] = ["whole": "info", "part": "info[0].x"]
    }

    struct StartsWithIndex: Codable, KeyMapping {
        var x: Int
        static let keyMapping: [String: KeySource] = ["x": "[0].x"]
    }

    static let json = #"""
        {"info":[{"name":"Ada","time":1},{"time":2}],"tags":["a","b","c"],"grid":[[1],[5,6]]}
        """#
    static let modes: [LenientJSONDecoder.Options] = [.lenient, .strict]

    @Test func decodingStepsIntoArrays() throws {
        for options in Self.modes {
            let (event, report) = try LenientJSONDecoder(options: options).decodeWithReport(Event.self, from: Self.json)
            #expect(event == Event(time: 2, firstName: "Ada", third: "c", cell: 5))
            #expect(report.isEmpty)
        }
    }

    @Test func fallbacksTryEachPathAndReportTheOneUsed() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Fallback.self, from: Self.json)
        #expect(value.time == 1)
        #expect(report.issues.map(\.kind) == [.keyFallback])
        #expect(report.issues.first?.message.contains("\"info[0].time\" instead of \"info[5].time\"") == true)
    }

    @Test func looseMatchingFollowsArrayStepsInLenientOnly() throws {
        let json = #"{"Info":[{"Name":"Ada"},{"TIME":2}],"tags":["a","b","c"],"grid":[[1],[5]]}"#
        let (event, report) = try LenientJSONDecoder().decodeWithReport(Event.self, from: json)
        #expect(event == Event(time: 2, firstName: "Ada", third: "c", cell: 5))
        #expect(report.issues(ofKind: .keyFallback).map(\.path) == ["time", "firstName"])
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(options: .strict).decode(Event.self, from: json) }
    }

    @Test func aMissingElementIsAMissingValue() throws {
        let json = #"{"info":[{"name":"Ada"}],"tags":"x","grid":[]}"#
        let (event, report) = try LenientJSONDecoder().decodeWithReport(Event.self, from: json)
        #expect(event == Event(time: 0, firstName: "Ada", third: "", cell: 0))
        #expect(report.issues(ofKind: .defaulted).map(\.path) == ["time", "third", "cell"])
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Event.self, from: json)
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "time")
        #expect(context.debugDescription.contains("tried \"info[1].time\""))
    }

    @Test func bracketsThatAreNoIndexAndKeyAreLiteralKeys() throws {
        let value = try LenientJSONDecoder(options: .strict).decode(Literal.self, from: #"{"a[1]":1,"b[x]":2}"#)
        #expect(value == Literal(a: 1, b: 2))
        let encoded = try LenientJSONEncoder().encodeToJSONValue(value)
        #expect(encoded == ["a[1]": 1, "b[x]": 2])
    }

    @Test func encodingWritesTheArraysAndMergesTheirElements() throws {
        let event = Event(time: 2, firstName: "Ada", third: "c", cell: 5)
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(event), as: UTF8.self)
        #expect(text == #"{"grid":[null,[5]],"info":[{"name":"Ada"},{"time":2}],"tags":[null,null,"c"]}"#)
        #expect(try LenientJSONDecoder(options: .strict).decode(Event.self, from: Data(text.utf8)) == event)
        let padded = try LenientJSONEncoder().encodeToJSONValue(Padded(late: 1))
        #expect(padded == ["list": [nil, nil, ["v": 1]]])
    }

    @Test func decodeEncodeDecodeGivesTheSameValue() throws {
        let decoded = try LenientJSONDecoder().decode(Event.self, from: Self.json)
        let again = try LenientJSONDecoder().decode(Event.self, from: LenientJSONEncoder().encode(decoded))
        #expect(again == decoded)
    }

    @Test func aPropertyWrittenWhereAnotherStepsInIsAConflict() throws {
        #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(Conflict(whole: [1], part: 2)) }
    }

    @Test func aPathThatStartsWithAnIndexIsAKeyMappingError() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(StartsWithIndex.self, from: #"{"x":1}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.underlyingError is KeyMappingError)
    }

    struct FarIndex: Codable, KeyMapping, Equatable {
        var t = 0
        static let keyMapping: [String: KeySource] = ["t": "info[2000000000]"]
    }

    struct LastWrittenIndex: Codable, KeyMapping, Equatable {
        var t = 0
        static let keyMapping: [String: KeySource] = ["t": "info[65535].v"]
    }

    /// The encoder pads an array with `null` up to the index a key path names, so an index of
    /// two billion would ask for two billion nodes: it is refused with an error instead, before
    /// anything is written. The largest index it writes still round-trips.
    @Test func anIndexPastTheLargestWrittenOneIsRefusedNotPadded() throws {
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(FarIndex(t: 1)) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("2000000000"))
        #expect(context.underlyingError is KeyMappingError)
        let model = LastWrittenIndex(t: 7)
        let data = try LenientJSONEncoder().encode(model)
        let json = try JSONValue(parsing: String(decoding: data, as: UTF8.self))
        guard case .array(let elements)? = json["info"] else {
            Issue.record("no array written: \(json)")
            return
        }
        #expect(elements.count == 65_536)
        #expect(try LenientJSONDecoder(options: .strict).decode(LastWrittenIndex.self, from: data) == model)
    }

    struct IndexFallback: Codable, KeyMapping, Equatable {
        var n: Int
        static let keyMapping: [String: KeySource] = ["n": ["a.b", "c[0]"]]
    }

    /// A fallback found through an index step names the element in the report's JSON path.
    @Test func aFallbackThroughAnIndexNamesTheElement() throws {
        let (model, report) = try LenientJSONDecoder().decodeWithReport(
            IndexFallback.self, from: #"{"a":{"b":null},"c":[7]}"#)
        #expect(model.n == 7)
        #expect(report.issues.map(\.kind) == [.keyFallback])
        #expect(report.issues.map(\.jsonPath) == ["c[0]"])
        let missing = try LenientJSONDecoder().decodeWithReport(IndexFallback.self, from: "{}")
        #expect(missing.report.issues.map(\.jsonPath) == ["a.b"])
    }
}

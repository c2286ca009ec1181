// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Errors that used to point at the wrong place or hide their cause, and inputs refused or changed without a word.
@Suite struct MisleadingErrorTests {
    struct Point: Decodable, Equatable {
        var x: Int
        var y: Int
    }

    struct Holder: Decodable {
        var point: Point
    }

    @Test func failingJSONTextInAStringNamesItsInnerError() throws {
        // The string holds an object, but not valid JSON: the error says why the text could not stand in.
        let document = #"{"point": "{\"x\": 1,, \"y\": 2}"}"#
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Holder.self, from: document)
        }
        let description = String(describing: error)
        #expect(description.contains("JSON text"))
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected the type mismatch Foundation reports, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["point"])
        let parseError = try #require(context.underlyingError as? JSONParseError)
        #expect(parseError.column == 9)
    }

    @Test func jsonTextThatParsesButDoesNotDecodeNamesTheFailingMember() throws {
        let document = #"{"point": "{\"x\": 1, \"y\": {}}"}"#
        let decoder = LenientJSONDecoder()
        // Lenient defaults a `y` that cannot be read; with defaults off the inner failure must surface.
        var options = LenientJSONDecoder.Options.lenient
        options.defaultsInvalidValues = false
        decoder.options = options
        let error = try #require(throws: DecodingError.self) { try decoder.decode(Holder.self, from: document) }
        #expect(String(describing: error).contains("JSON text"))
        #expect(String(describing: error).contains("y"))
    }

    @Test func stringInputWithAByteOrderMarkDecodesAsDataDoes() throws {
        let text = "\u{FEFF}{\"x\": 1, \"y\": 2}"
        let fromData = try LenientJSONDecoder(options: .strict).decode(Point.self, from: Data(text.utf8))
        let fromString = try LenientJSONDecoder(options: .strict).decode(Point.self, from: text)
        #expect(fromString == fromData)
        #expect(try LenientJSONDecoder().decodeWithReport(Point.self, from: text).value == fromData)
        #expect(try JSONDecoder().decode(Point.self, from: Data(text.utf8)) == fromData)
    }

    @Test(arguments: [#"{\ud800: 1}"#, #"{a\udc00: 1}"#, #"{\ud800\u0041: 1}"#])
    func unquotedJSON5KeyWithALoneSurrogateIsRefused(_ document: String) throws {
        let decoder = LenientJSONDecoder()
        decoder.allowsJSON5 = true
        let error = try #require(throws: DecodingError.self) { try decoder.decode([String: Int].self, from: document) }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected a syntax error, got \(error)")
            return
        }
        #expect((context.underlyingError as? JSONParseError)?.code == .invalidUnicodeEscape)
    }

    @Test func unquotedJSON5KeyWithAPairedSurrogateEscapeDecodes() throws {
        let decoder = LenientJSONDecoder()
        decoder.allowsJSON5 = true
        #expect(try decoder.decode([String: Int].self, from: #"{a\ud83d\ude00: 1}"#) == ["a😀": 1])
    }

    struct Reading: Decodable, DecodingHooks {
        var value: Double
        var unit: String

        /// Adds a member, so the value is decoded from the JSON the hook returned.
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var json = json
            if json["unit"] == nil { json["unit"] = "none" }
            return json
        }
    }

    @Test(arguments: [("Infinity", Double.infinity), ("-Infinity", -Double.infinity)])
    func json5ModelWithHooksReadsNonFiniteNumbers(text: String, expected: Double) throws {
        let decoder = LenientJSONDecoder(options: .strict)
        decoder.allowsJSON5 = true
        let reading = try decoder.decode(Reading.self, from: "{value: \(text)}")
        #expect(reading.value == expected)
        #expect(reading.unit == "none")
    }

    @Test func json5ModelWithHooksReadsNaN() throws {
        let decoder = LenientJSONDecoder()
        decoder.allowsJSON5 = true
        #expect(try decoder.decode(Reading.self, from: "{value: NaN}").value.isNaN)
    }

    @Test func decodingAJSONValueReportsNoLineOrColumnOfItsOwnText() throws {
        var deep: JSONValue = 1
        for _ in 0..<600 { deep = [deep] }
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(JSONValue.self, from: deep)
        }
        let description = String(describing: error)
        #expect(!description.contains("line"))
        #expect(!description.contains("column"))
        // A type mismatch inside a JSON value keeps its coding path, as with any input.
        let mismatch = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Point.self, from: ["x": 1, "y": "two"] as JSONValue)
        }
        guard case .typeMismatch(_, let context) = mismatch else {
            Issue.record("expected a type mismatch, got \(mismatch)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["y"])
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The messages of decoding errors, pinned: each names the coding path (in the context) and what was found (in the
/// debug description); a syntax error names its line and column.
@Suite struct ErrorMessageTests {
    struct Model: Codable, Sendable {
        var a: Int
        var b: [String]
        var c: Double?
        var n: Nested?
    }

    struct Nested: Codable, Sendable {
        var x: Bool
        var u: URL?
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        var options: LenientJSONDecoder.Options = .strict
        var kind: String
        var path: [String]
        var message: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(
            name: "type mismatch", json: #"{"a":"x","b":[]}"#, kind: "typeMismatch", path: ["a"],
            message: "Expected to decode Int but found a string instead."),
        Case(
            name: "type mismatch in an array", json: #"{"a":1,"b":["x",2]}"#, kind: "typeMismatch",
            path: ["b", "Index 1"], message: "Expected to decode String but found number instead."),
        Case(
            name: "nested type mismatch", json: #"{"a":1,"b":[],"n":{"x":"maybe"}}"#, kind: "typeMismatch",
            path: ["n", "x"], message: "Expected to decode Bool but found a string instead."),
        Case(
            name: "object for an array", json: #"{"a":1,"b":{}}"#, kind: "typeMismatch", path: ["b"],
            message: "Expected to decode Array<Any> but found a dictionary instead."),
        Case(
            name: "missing key", json: #"{"b":[]}"#, kind: "keyNotFound", path: ["a"],
            message: #"No value associated with key CodingKeys(stringValue: "a", intValue: nil) ("a")."#),
        Case(
            name: "null", json: #"{"a":null,"b":[]}"#, kind: "valueNotFound", path: ["a"],
            message: "Cannot get value of type Int -- found null value instead"),
        Case(
            name: "number out of range", json: #"{"a":1e30,"b":[]}"#, kind: "dataCorrupted", path: ["a"],
            message: "Parsed JSON number <1e30> does not fit in Int."),
        Case(
            name: "fraction for an integer", json: #"{"a":1.5,"b":[]}"#, kind: "dataCorrupted", path: ["a"],
            message: "Parsed JSON number <1.5> does not fit in Int."),
        Case(
            name: "invalid URL", json: #"{"a":1,"b":[],"n":{"x":true,"u":""}}"#, kind: "dataCorrupted",
            path: ["n", "u"], message: "Invalid URL string."),
        Case(
            name: "syntax error", json: "{\"a\":1,\n \"b\":[1,,2]}", kind: "dataCorrupted", path: [],
            message: "The given data was not valid JSON. Unexpected character ',' in array around line 2, column 9."),
        Case(
            name: "syntax error, lenient", json: "{\"a\":1,\n \"b\":[1,,2]}", options: .lenient, kind: "dataCorrupted",
            path: [],
            message: "The given data was not valid JSON. Unexpected character ',' in array around line 2, column 9."),
        Case(
            name: "end of input", json: #"{"a":1,"b":["#, kind: "dataCorrupted", path: [],
            message: "The given data was not valid JSON. Unexpected end of input in array around line 1, column 13."),
        Case(
            name: "invalid escape", json: #"{"a":1,"b":["\q"]}"#, kind: "dataCorrupted", path: [],
            message: "The given data was not valid JSON. Invalid escape of 'q' in string around line 1, column 14."),
        Case(
            name: "lenient, array for the top-level object", json: "[1]", options: .lenient, kind: "typeMismatch",
            path: [], message: "Expected to decode Dictionary<String, Any> but found an array instead."),
    ]

    @Test(arguments: cases)
    func decodingErrorMessage(_ testCase: Case) throws {
        let decoder = LenientJSONDecoder(options: testCase.options)
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(Model.self, from: Data(testCase.json.utf8))
        }
        let (kind, context) = try #require(Self.parts(of: error))
        #expect(kind == testCase.kind)
        #expect(context.codingPath.map(\.stringValue) == testCase.path)
        #expect(context.debugDescription == testCase.message)
        if let parseError = context.underlyingError as? JSONParseError {
            #expect(context.debugDescription.contains("line \(parseError.line), column \(parseError.column)"))
        }
    }

    private static func parts(of error: DecodingError) -> (String, DecodingError.Context)? {
        switch error {
        case .typeMismatch(_, let context): ("typeMismatch", context)
        case .valueNotFound(_, let context): ("valueNotFound", context)
        case .keyNotFound(let key, let context):
            (
                "keyNotFound",
                DecodingError.Context(
                    codingPath: context.codingPath + [key], debugDescription: context.debugDescription)
            )
        case .dataCorrupted(let context): ("dataCorrupted", context)
        @unknown default: nil
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct ParseErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var json: String
        var code: JSONParseError.Code
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { json.debugDescription }
    }

    static let cases: [Case] = [
        Case(
            json: "[1, 2,, 3]", code: .unexpectedCharacter, line: 1, column: 7,
            message: "Unexpected character ',' in array around line 1, column 7."),
        Case(
            json: "{\n  \"a\": 1,\n  \"b\": [1, 2}\n}", code: .unexpectedCharacter, line: 3, column: 13,
            message: "Unexpected character '}' in array around line 3, column 13."),
        Case(
            json: "{\"a\" 1}", code: .unexpectedCharacter, line: 1, column: 6,
            message: "Unexpected character '1' in object, expected ':' after a key, around line 1, column 6."),
        Case(
            json: "[1, 2", code: .unexpectedEndOfInput, line: 1, column: 6,
            message: "Unexpected end of input in array around line 1, column 6."),
        Case(
            json: "", code: .emptyInput, line: 1, column: 1,
            message: "The input holds no JSON value; it is empty or only white space around line 1, column 1."),
        Case(
            json: "[012]", code: .invalidNumber, line: 1, column: 2,
            message: "Invalid number '01' in array around line 1, column 2."),
        Case(
            json: "[1.]", code: .invalidNumber, line: 1, column: 2,
            message: "Invalid number '1.]' in array around line 1, column 2."),
        Case(
            json: #"["a\qb"]"#, code: .invalidEscape, line: 1, column: 4,
            message: "Invalid escape of 'q' in string around line 1, column 4."),
        Case(
            json: #"["\uD800"]"#, code: .invalidUnicodeEscape, line: 1, column: 3,
            message: #"Unpaired high surrogate in '\uD800"]' in string around line 1, column 3."#),
        Case(
            json: "[\"a\u{1}\"]", code: .controlCharacterInString, line: 1, column: 4,
            message: "Unescaped control character U+0001 in string around line 1, column 4."),
        Case(
            json: "[1] x", code: .trailingContent, line: 1, column: 5,
            message: "Unexpected character 'x' after the top-level value around line 1, column 5."),
        Case(
            json: "[tru]", code: .unexpectedCharacter, line: 1, column: 5,
            message: "Unexpected character ']' in array around line 1, column 5."),
        Case(
            json: "[\"é\", x]", code: .unexpectedCharacter, line: 1, column: 7,
            message: "Unexpected character 'x' in array around line 1, column 7."),
    ]

    @Test(arguments: cases)
    func reportsCodePositionAndMessage(_ testCase: Case) throws {
        let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: testCase.json) }
        #expect(error.code == testCase.code)
        #expect(error.line == testCase.line)
        #expect(error.column == testCase.column)
        #expect(error.message == testCase.message)
    }

    @Test func invalidUTF8IsRefusedWithItsOffset() throws {
        let bytes: [UInt8] = Array("[\"ab".utf8) + [0xFF] + Array("\"]".utf8)
        let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: Data(bytes)) }
        #expect(error.code == .invalidUTF8)
        #expect(error.byteOffset == 4)
    }

    /// White space is skipped eight bytes at a time after its first byte: runs of every length
    /// around a word, and what follows them, must still be read exactly.
    @Test(arguments: 0...20)
    func whiteSpaceRunsOfEveryLength(length: Int) throws {
        let run = String(repeating: " ", count: length)
        let json =
            "{\n" + run + "\"a\" :" + run + "1,\t" + run + "\"b\":[\r\n" + run + "true" + run + "]" + run + "}"
            + run
        let value = try JSONValue(parsing: json)
        #expect(value == ["a": 1, "b": [true]])
        let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: "[1,\n" + run + "x]") }
        #expect(error.code == .unexpectedCharacter)
        #expect(error.line == 2)
        #expect(error.column == length + 1)
    }

    @Test(arguments: [512, 513])
    func nestingIsLimitedTo512(depth: Int) throws {
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        if depth <= 512 {
            #expect(throws: Never.self) { try JSONValue(parsing: json) }
        } else {
            let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: json) }
            #expect(error.code == .tooDeeplyNested)
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func deepNestingFailsCleanly(options: LenientJSONDecoder.Options) throws {
        let json = String(repeating: "[", count: 200_000)
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(JSONValue.self, from: json)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect((context.underlyingError as? JSONParseError)?.code == .tooDeeplyNested)
    }

    @Test func errorsCompareByCodeOnly() {
        let first = JSONParseError(code: .invalidNumber, line: 1, column: 2, byteOffset: 1, message: "a")
        let second = JSONParseError(code: .invalidNumber, line: 9, column: 9, byteOffset: 99, message: "b")
        #expect(first == second)
        #expect(first != JSONParseError(code: .invalidEscape, line: 1, column: 2, byteOffset: 1, message: "a"))
    }
}

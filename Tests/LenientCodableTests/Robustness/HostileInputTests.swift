// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Input built to hurt: each case ends in a clear error or a correct value. Sizes suit a debug build; the full sizes
/// (100 MB documents, 1 GB of whitespace, 1 million keys) and their timings are in scripts/hostile.sh.
@Suite struct HostileInputTests {
    static let strict = LenientJSONDecoder(options: .strict)
    static let lenient = LenientJSONDecoder(options: .lenient)

    // MARK: Nesting

    struct Nesting: CustomTestStringConvertible, Sendable {
        var name: String
        var open: String
        var close: String
        var testDescription: String { name }

        func document(depth: Int) -> Data {
            Data((String(repeating: open, count: depth) + "0" + String(repeating: close, count: depth)).utf8)
        }
    }

    static let nestings = [
        Nesting(name: "arrays", open: "[", close: "]"),
        Nesting(name: "objects", open: #"{"a":"#, close: "}"),
        Nesting(name: "mixed", open: #"[{"":"#, close: "}]"),
    ]

    @Test(arguments: nestings)
    func nestingFarBeyondTheLimitFailsCleanly(_ nesting: Nesting) throws {
        let input = nesting.document(depth: 200_000)
        for decoder in [Self.strict, Self.lenient] {
            let error = try #require(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: input) }
            #expect(error.parseError?.code == .tooDeeplyNested)
            #expect(error.parseError?.byteOffset ?? 0 < 512 * nesting.open.utf8.count + 1)
        }
        for allowsJSON5 in [false, true] {
            let error = try #require(throws: JSONParseError.self) {
                try JSONValue(parsing: input, allowsJSON5: allowsJSON5)
            }
            #expect(error.code == .tooDeeplyNested)
            #expect(error.line == 1)
        }
    }

    @Test(arguments: nestings)
    func nestingAtTheLimitDecodesAndOneMoreFails(_ nesting: Nesting) throws {
        let depth = nesting.open.contains("[{") ? 256 : 512
        let deepest = try JSONValue(parsing: nesting.document(depth: depth))
        #expect(try Self.strict.decode(JSONValue.self, from: nesting.document(depth: depth)) == deepest)
        #expect(throws: JSONParseError.tooDeeplyNestedCode) {
            try JSONValue(parsing: nesting.document(depth: depth + 1))
        }
        // As in Foundation, the encoder stops one level earlier than the decoder: 511 levels encode, 512 do not.
        #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(deepest) }
        let shallower = try JSONValue(parsing: nesting.document(depth: depth - 1))
        #expect(try JSONValue(parsing: LenientJSONEncoder().encode(shallower)) == shallower)
    }

    @Test func encodingAValueNestedBeyondTheLimitThrows() throws {
        var value: JSONValue = 0
        for _ in 0..<600 { value = [value] }
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(value) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected EncodingError.invalidValue, got \(error).")
            return
        }
        #expect(!context.debugDescription.isEmpty)
    }

    // MARK: Size

    @Test func tenMegabytesOfWhitespace() throws {
        var input = Data(repeating: 0x20, count: 10_000_000)
        input.replaceSubrange(5_000_000..<5_000_004, with: Array("\n\t\r ".utf8))
        input.append(contentsOf: Array("[1]".utf8))
        input.append(Data(repeating: 0x0A, count: 1_000_000))
        #expect(try Self.strict.decode([Int].self, from: input) == [1])
        let error = try #require(throws: JSONParseError.self) { try JSONValue(parsing: input.prefix(10_000_002)) }
        #expect(error.code == .unexpectedEndOfInput)
        #expect(error.line == 3, "the line breaks are a line feed and a carriage return")
        #expect(error.byteOffset == 10_000_002)
        let empty = try #require(throws: JSONParseError.self) { try JSONValue(parsing: input.prefix(1_000_000)) }
        #expect(empty.code == .emptyInput)
    }

    @Test func oneMegabyteKey() throws {
        let key = String(repeating: "k", count: 1_000_000)
        let input = Data(#"{"\#(key)":1,"k0":2}"#.utf8)
        let dictionary = try Self.strict.decode([String: Int].self, from: input)
        #expect(dictionary[key] == 1)
        #expect(try Self.lenient.decode(OneKey.self, from: input).k0 == 2)
        #expect(try JSONValue(parsing: input)[key] == 1)
    }

    @Test func oneHundredThousandKeys() throws {
        let count = 100_000
        let input = Data(("{" + (0..<count).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}").utf8)
        let dictionary = try Self.strict.decode([String: Int].self, from: input)
        #expect(dictionary.count == count)
        #expect(dictionary["k99999"] == 99_999)
        #expect(try Self.strict.decode(OneKey.self, from: input).k0 == 0)
        #expect(try Self.lenient.decode(OneKey.self, from: input).k0 == 0)
        #expect(try JSONValue(parsing: input).objectValue?.count == count)
    }

    /// Reads every member through `allKeys`, as a JSON-any type or a table of translations does.
    struct EveryMember: Decodable, Equatable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        var members: [String: Int] = [:]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for key in container.allKeys { members[key.stringValue] = try container.decode(Int.self, forKey: key) }
        }
    }

    /// Keys beyond ASCII, written or escaped, read one by one: each lookup checks for an earlier
    /// spelling of its key that Swift's `String` takes for the same, which costs one scan of the
    /// object, not one per key (20 000 keys took minutes when each lookup scanned the keys
    /// before it).
    @Test(arguments: [#"é"#, #"é"#, "名前"])
    func twentyThousandKeysBeyondASCII(prefix: String) throws {
        let input = Data(("{" + (0..<20_000).map { #""\#(prefix)\#($0)":\#($0)"# }.joined(separator: ",") + "}").utf8)
        let foundation = try JSONDecoder().decode(EveryMember.self, from: input)
        #expect(foundation.members.count == 20_000)
        #expect(try Self.strict.decode(EveryMember.self, from: input) == foundation)
        #expect(try Self.lenient.decode(EveryMember.self, from: input) == foundation)
    }

    // MARK: Numbers of 10 000 digits

    struct LongNumber: CustomTestStringConvertible, Sendable {
        var name: String
        var literal: String
        var testDescription: String { name }
    }

    static let longNumbers = [
        LongNumber(name: "integer", literal: String(repeating: "9", count: 10_000)),
        LongNumber(name: "negative integer", literal: "-" + String(repeating: "1", count: 10_000)),
        LongNumber(name: "fraction", literal: "0." + String(repeating: "0", count: 9_998) + "1"),
        LongNumber(name: "long mantissa", literal: "1." + String(repeating: "5", count: 10_000)),
        LongNumber(name: "leading zeros in fraction", literal: "1." + String(repeating: "0", count: 10_000) + "e2"),
        LongNumber(name: "exponent digits", literal: "1e" + String(repeating: "0", count: 9_999) + "1"),
    ]

    /// Strict decoding agrees with Foundation on every type; the literal survives in `JSONValue` and lenient `String`.
    @Test(arguments: longNumbers)
    func numbersOfTenThousandDigits(_ number: LongNumber) throws {
        let input = Data("[\(number.literal)]".utf8)
        #expect(try JSONValue(parsing: input) == .array([.number(number.literal)]))
        #expect(try Self.lenient.decode([String].self, from: input) == [number.literal])
        func agree<Value: Decodable & Equatable>(_ type: Value.Type) {
            let ours = Result { try Self.strict.decode([Value].self, from: input) }
            let foundation = Result { try JSONDecoder().decode([Value].self, from: input) }
            switch (ours, foundation) {
            case (.success(let left), .success(let right)):
                #expect(left == right, "\(Value.self)")
            case (.failure(let error), .failure):
                guard case .dataCorrupted(let context) = error as? DecodingError else {
                    Issue.record("\(Value.self): expected dataCorrupted, got \(error)")
                    return
                }
                #expect(context.codingPath.map(\.intValue) == [0], "\(Value.self): the error names the element")
            default:
                Issue.record("\(Value.self): ours \(ours), Foundation \(foundation)")
            }
        }
        agree(Int.self)
        agree(Int64.self)
        agree(UInt64.self)
        agree(Double.self)
        agree(Float.self)
    }

    // MARK: Invalid UTF-8, lone surrogates, NUL bytes

    struct BadInput: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var code: JSONParseError.Code
        var byteOffset: Int
        var testDescription: String { name }
    }

    static let badInputs = [
        BadInput(name: "byte FF", bytes: [0x5B, 0x22, 0xFF, 0x22, 0x5D], code: .invalidUTF8, byteOffset: 2),
        BadInput(
            name: "overlong slash", bytes: [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D], code: .invalidUTF8, byteOffset: 2),
        BadInput(
            name: "surrogate in UTF-8", bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D], code: .invalidUTF8,
            byteOffset: 2),
        BadInput(
            name: "truncated sequence", bytes: [0x5B, 0x22, 0xE2, 0x82, 0x22, 0x5D], code: .invalidUTF8, byteOffset: 2),
        BadInput(
            name: "continuation byte alone", bytes: [0x5B, 0x22, 0x80, 0x22, 0x5D], code: .invalidUTF8, byteOffset: 2),
        BadInput(
            name: "beyond U+10FFFF", bytes: [0x5B, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x5D], code: .invalidUTF8,
            byteOffset: 2),
        BadInput(
            name: "invalid UTF-8 in a key", bytes: Array(#"{"a"#.utf8) + [0xFE] + Array(#"":1}"#.utf8),
            code: .invalidUTF8, byteOffset: 3),
        BadInput(
            name: "lone high surrogate", bytes: Array(#"["\ud800"]"#.utf8), code: .invalidUnicodeEscape, byteOffset: 2),
        BadInput(
            name: "lone low surrogate", bytes: Array(#"["x\udc00"]"#.utf8), code: .invalidUnicodeEscape, byteOffset: 3),
        BadInput(
            name: "two high surrogates", bytes: Array(#"["\ud800\ud800"]"#.utf8), code: .invalidUnicodeEscape,
            byteOffset: 2),
        BadInput(
            name: "high surrogate at the end", bytes: Array(#"["\uD83D"]"#.utf8), code: .invalidUnicodeEscape,
            byteOffset: 2),
        BadInput(
            name: "NUL in a string", bytes: [0x5B, 0x22, 0x61, 0x00, 0x22, 0x5D], code: .controlCharacterInString,
            byteOffset: 3),
        BadInput(name: "NUL after the value", bytes: [0x5B, 0x5D, 0x00], code: .trailingContent, byteOffset: 2),
        BadInput(name: "NUL before the value", bytes: [0x20, 0x00, 0x31], code: .invalidEncoding, byteOffset: 0),
    ]

    @Test(arguments: badInputs)
    func invalidTextIsAClearError(_ input: BadInput) throws {
        let data = Data(input.bytes)
        for decoder in [Self.strict, Self.lenient] {
            let error = try #require(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: data) }
            let parseError = try #require(error.parseError)
            #expect(parseError.code == input.code)
            #expect(parseError.byteOffset == input.byteOffset)
            #expect(error.debugDescription.contains("line 1, column"))
        }
        for allowsJSON5 in [false, true] {
            let error = try #require(throws: JSONParseError.self) {
                try JSONValue(parsing: data, allowsJSON5: allowsJSON5)
            }
            #expect(error.code == input.code)
        }
    }

    @Test func escapedNULAndSurrogatePairsAreCorrectValues() throws {
        let input = Data(#"["a\u0000b", "\ud83d\ude00", "\uD834\uDD1E"]"#.utf8)
        let expected = ["a\u{0}b", "\u{1F600}", "\u{1D11E}"]
        #expect(try Self.strict.decode([String].self, from: input) == expected)
        #expect(try JSONDecoder().decode([String].self, from: input) == expected)
        #expect(try JSONValue(parsing: input) == .array(expected.map(JSONValue.string)))
    }

    // MARK: Truncation

    /// Every proper prefix of an object or array document (without its trailing whitespace) is incomplete: a parse error inside the prefix, and a
    /// `dataCorrupted` error from the decoder in both modes. `.lenient` may name another error than the parser's: it checks a string's or number's
    /// text only when the value is read (`defersValueValidation`), so a prefix that ends inside an escape or a number fails on the document's end.
    static func checkEveryPrefix(of file: Data, stride step: Int) {
        var documentEnd = file.endIndex
        while documentEnd > file.startIndex, [0x20, 0x0A, 0x0D, 0x09].contains(file[documentEnd - 1]) {
            documentEnd -= 1
        }
        let document = Data(file[..<documentEnd])
        // Plain checks in the loop, one expectation at the end: `#expect` per prefix would cost more than the parse.
        var problems: [String] = []
        for end in stride(from: 0, to: document.count, by: step) {
            let prefix = document.prefix(end)
            do {
                _ = try JSONValue(parsing: prefix)
                problems.append("prefix of \(end) bytes parsed")
            } catch let error as JSONParseError {
                if error.byteOffset > end || error.line < 1 || error.column < 1 {
                    problems.append("prefix of \(end) bytes: \(error.debugDescription) at line \(error.line)")
                }
                if (end / step).isMultiple(of: 7) {
                    for decoder in [Self.strict, Self.lenient] {
                        do {
                            _ = try decoder.decode(JSONValue.self, from: prefix)
                            problems.append("prefix of \(end) bytes decoded")
                        } catch let decodingError as DecodingError where decodingError.parseError?.code == error.code {
                        } catch let decodingError as DecodingError
                            where decoder === Self.lenient && (decodingError.parseError?.byteOffset ?? .max) <= end
                        {
                        } catch {
                            problems.append("prefix of \(end) bytes: decoding threw \(error)")
                        }
                    }
                }
            } catch {
                problems.append("prefix of \(end) bytes: \(type(of: error)) \(error)")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    /// A small document with every kind of token: each byte offset truncates it in a different place.
    static let everyToken = Data(
        #"""
        {"s": "plain", "e": "esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 é 😀", "k\u0041": [],
         "n": [0, -0, 1, -12.5e+3, 6.02E23, 1e-7, 12345678901234567890], "t": true, "f": false, "z": null,
         "o": {"a": [{}, [[]], {"b": {"c": [1, "2", null]}}]}, "ws": [ 1 ,	2
         ,3 ]}
        """#.utf8)

    @Test func truncationAtEveryOffsetOfASmallDocument() {
        Self.checkEveryPrefix(of: Self.everyToken, stride: 1)
    }

    @Test func truncationOfTheFeed() throws {
        let feed = try Data(contentsOf: TestPaths.messyDirectory.appendingPathComponent("feed.json"))
        Self.checkEveryPrefix(of: feed, stride: 97)
    }

    @Test(.enabled(if: CorpusDocument.isAvailable, CorpusDocument.unavailableReason))
    func truncationOfTwitter() throws {
        Self.checkEveryPrefix(of: try CorpusDocument.twitter.contents(), stride: 31_991)
    }
}

extension HostileInputTests {
    struct OneKey: Codable, Sendable {
        var k0: Int
    }
}

extension JSONParseError {
    /// A parse error of code `tooDeeplyNested`, for `#expect(throws:)`, which compares codes only.
    static let tooDeeplyNestedCode = JSONParseError(
        code: .tooDeeplyNested, line: 1, column: 1, byteOffset: 0, message: "")
}

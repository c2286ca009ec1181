// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The other ways into `LenientJSONDecoder(.strict)` — `String`, `[UInt8]`, `JSONValue`, `JSONSerialization` objects,
/// UTF-16 and UTF-32 input, byte order marks, JSON5 — give what Foundation's `JSONDecoder` gives for the same document.
@Suite struct EntryPointDifferentialTests {
    static let document = #"""
        {"name":"caf\u00e9 é😀","count":42,"big":18446744073709551615,"ratio":0.1,"tiny":5e-324,"flag":true,
         "none":null,"list":[1,-2.5e3,"x",[],{}],"nested":{"a":{"b":[false]}}}
        """#

    private var foundationTree: DecodedTree? {
        try? JSONDecoder().decode(DecodedTree.self, from: Data(Self.document.utf8))
    }

    @Test func decodesFromString() throws {
        let expected = try #require(foundationTree)
        let actual = try LenientJSONDecoder(.strict).decode(DecodedTree.self, from: Self.document)
        #expect(actual.firstDifference(from: expected) == nil)
    }

    @Test func decodesFromBytes() throws {
        let expected = try #require(foundationTree)
        let actual = try LenientJSONDecoder(.strict).decode(DecodedTree.self, from: Array(Self.document.utf8))
        #expect(actual.firstDifference(from: expected) == nil)
    }

    @Test func decodesFromJSONValue() throws {
        let expected = try #require(foundationTree)
        let value = try JSONValue(parsing: Self.document)
        let actual = try LenientJSONDecoder(.strict).decode(DecodedTree.self, from: value)
        #expect(actual.firstDifference(from: expected) == nil)
    }

    @Test func stringErrorsMatchFoundation() {
        let json = #"{"user":{"id":"7","name":"n"}}"#
        let expected = DecodingOutcome { try JSONDecoder().decode(Account.self, from: Data(json.utf8)) }
        let actual = DecodingOutcome { try LenientJSONDecoder(.strict).decode(Account.self, from: json) }
        #expect(expected.errorSummary != nil)
        #expect(actual.errorSummary == expected.errorSummary)
    }

    @Test func bytesSyntaxErrorKeepsPosition() throws {
        let bytes = Array("[1,\n 2,\n ]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Int].self, from: Data("[1,\n 2,\n x]".utf8)) }
        let outcome = DecodingOutcome { try LenientJSONDecoder(.strict).decode([Int].self, from: bytes) }
        let parseError = try #require(expectSyntaxError(outcome.error))
        #expect(parseError.line == 3)
    }

    /// Numbers that `JSONSerialization` holds exactly (integers, halves, booleans), so its misrounding of some doubles on
    /// Linux plays no part.
    @Test func decodesFromJSONObject() throws {
        let json =
            #"{"id":9007199254740993,"small":-7,"half":0.5,"flag":true,"off":false,"text":"t\u00e9","none":null,"list":[1,2,[3]],"object":{"k":"v"}}"#
        let expected = try JSONDecoder().decode(DecodedTree.self, from: Data(json.utf8))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
        let actual = try LenientJSONDecoder(.strict).decode(DecodedTree.self, fromJSONObject: object)
        #expect(actual.firstDifference(from: expected) == nil)
    }

    /// A value `JSONSerialization` returns where an `Int` is expected fails as the same JSON fails in Foundation's
    /// decoder; in particular a boolean (an `NSNumber` on Linux) is not taken for the integer 1.
    @Test(arguments: ["true", #""1""#, "null", "[1]", "{}", "1.5"])
    func jsonObjectMismatchesFailLikeFoundation(_ fragment: String) throws {
        let json = Data(#"{"value":\#(fragment)}"#.utf8)
        let foundation = DecodingOutcome { try JSONDecoder().decode(OnlyInt.self, from: json) }
        let object = try JSONSerialization.jsonObject(with: json)
        let ours = DecodingOutcome { try LenientJSONDecoder(.strict).decode(OnlyInt.self, fromJSONObject: object) }
        #expect(foundation.errorSummary != nil, "Foundation rejects \(fragment) as Int.")
        let expected = try #require(foundation.errorSummary)
        #expect(ours.errorSummary?.agrees(withFoundation: expected) == true, "ours: \(ours); Foundation: \(expected)")
    }

    @Test func jsonObjectThatIsNotJSONIsRejected() {
        let outcome = DecodingOutcome {
            try LenientJSONDecoder(.strict).decode([String: Int].self, fromJSONObject: ["a": Date()])
        }
        #expect(outcome.errorSummary == DecodingErrorSummary(kind: .dataCorrupted, codingPath: []))
    }

    @Test(arguments: TextEncoding.allCases)
    func detectsEncodingLikeFoundation(_ encoding: TextEncoding) throws {
        let input = encoding.encode(Self.document)
        let utf8Tree = try #require(foundationTree)
        let outcome = DifferentialOutcome(DecodedTree.self, from: input)
        if encoding == .utf32LittleEndianWithBOM {
            // FOUNDATION-NOTES.md: JSONDecoder mis-detects the UTF-32LE byte order mark `FF FE 00 00` (as UTF-16LE).
            // DESIGN.md promises that UTF-32 input is detected, so ours must read it like the same text in UTF-8.
            #expect(
                outcome.foundation.value != utf8Tree, "Foundation's known mis-detection; update this case if fixed.")
            let actual = try #require(outcome.lenient.value)
            #expect(actual.firstDifference(from: utf8Tree) == nil)
        } else {
            #expect(outcome.foundation.value == utf8Tree, "Foundation detects \(encoding).")
            expectSameTree(outcome, "\(encoding)")
        }
    }

    /// JSON5 documents Foundation's JSON5 scanner handles safely (FOUNDATION-NOTES.md: never `[0E+]`-like input, which
    /// traps it).
    @Test(arguments: [
        "{\n  // comment\n  unquoted: 'single', \"q\": [1, 2,], /* block */ hex: 0x1F, lead: .5, trail: 5., plus: +1,\n}",
        "[1, 'two', {a: null,},]",
    ])
    func json5DecodesLikeFoundation(_ json: String) {
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        let ours = LenientJSONDecoder(.strict)
        ours.allowsJSON5 = true
        let expected = DecodingOutcome { try foundation.decode(DecodedTree.self, from: Data(json.utf8)) }
        let actual = DecodingOutcome { try ours.decode(DecodedTree.self, from: Data(json.utf8)) }
        #expect(expected.value != nil, "Foundation's JSON5 mode accepts \(json).")
        #expect(actual.value == expected.value, "ours: \(actual)")
    }

    @Test func topLevelDictionaryWithoutBracesDecodesLikeFoundation() {
        let json = "a: 1,\nb: [true, 'x'],\n"
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        foundation.assumesTopLevelDictionary = true
        let ours = LenientJSONDecoder(.strict)
        ours.allowsJSON5 = true
        ours.assumesTopLevelDictionary = true
        let expected = DecodingOutcome { try foundation.decode(DecodedTree.self, from: Data(json.utf8)) }
        let actual = DecodingOutcome { try ours.decode(DecodedTree.self, from: Data(json.utf8)) }
        #expect(expected.value != nil)
        #expect(actual.value == expected.value, "ours: \(actual)")
    }
}

extension EntryPointDifferentialTests {
    struct Account: Decodable, Equatable {
        struct User: Decodable, Equatable {
            var id: Int
            var name: String
        }
        var user: User
    }

    struct OnlyInt: Decodable, Equatable {
        var value: Int
    }

    enum TextEncoding: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case utf8WithBOM, utf16LittleEndian, utf16LittleEndianWithBOM, utf16BigEndian, utf16BigEndianWithBOM
        case utf32LittleEndian, utf32LittleEndianWithBOM, utf32BigEndian, utf32BigEndianWithBOM

        var testDescription: String { rawValue }

        func encode(_ text: String) -> Data {
            var bytes: [UInt8] = []
            func append(_ unit: UInt32, width: Int, bigEndian: Bool) {
                let shifts = (0..<width).map { $0 * 8 }
                for shift in bigEndian ? shifts.reversed() : shifts {
                    bytes.append(UInt8(truncatingIfNeeded: unit >> UInt32(shift)))
                }
            }
            switch self {
            case .utf8WithBOM:
                bytes = [0xEF, 0xBB, 0xBF] + Array(text.utf8)
            case .utf16LittleEndian, .utf16LittleEndianWithBOM, .utf16BigEndian, .utf16BigEndianWithBOM:
                let bigEndian = self == .utf16BigEndian || self == .utf16BigEndianWithBOM
                if self == .utf16LittleEndianWithBOM || self == .utf16BigEndianWithBOM {
                    append(0xFEFF, width: 2, bigEndian: bigEndian)
                }
                for unit in text.utf16 { append(UInt32(unit), width: 2, bigEndian: bigEndian) }
            case .utf32LittleEndian, .utf32LittleEndianWithBOM, .utf32BigEndian, .utf32BigEndianWithBOM:
                let bigEndian = self == .utf32BigEndian || self == .utf32BigEndianWithBOM
                if self == .utf32LittleEndianWithBOM || self == .utf32BigEndianWithBOM {
                    append(0xFEFF, width: 4, bigEndian: bigEndian)
                }
                for scalar in text.unicodeScalars { append(scalar.value, width: 4, bigEndian: bigEndian) }
            }
            return Data(bytes)
        }
    }
}

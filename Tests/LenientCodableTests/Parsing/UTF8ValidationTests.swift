// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The parser validates the UTF-8 of every string, with a fast path for runs of two- and
/// three-byte characters. These tests hold it to the standard library's own UTF-8 decoder:
/// the same bytes are accepted, the same text comes out, and a refusal points at the first
/// byte the standard library finds ill-formed.
@Suite struct UTF8ValidationTests {
    /// Where the standard library finds the first ill-formed sequence, or `nil` when all is well.
    static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Checks one string body, framed as `["…"]`, against the standard library.
    static func checkAgainstStandardLibrary(_ body: [UInt8]) throws {
        let document = Array(#"[""#.utf8) + body + Array(#""]"#.utf8)
        if let invalid = firstInvalidOffset(body) {
            let error = try #require(throws: JSONParseError.self, "\(body)") { try JSONValue(parsing: Data(document)) }
            #expect(error.code == .invalidUTF8, "\(body)")
            #expect(error.byteOffset == 2 + invalid, "\(body)")
        } else {
            let decoded = try LenientJSONDecoder(.strict).decode([String].self, from: Data(document))
            #expect(decoded == [String(decoding: body, as: UTF8.self)], "\(body)")
        }
    }

    /// Sequences at the edges of the UTF-8 table: each lead byte's first and last allowed
    /// continuation, the bytes just outside, and truncated and overlong forms.
    static let sequences: [[UInt8]] = [
        [0xC2, 0x80], [0xDF, 0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x7F], [0xC2, 0xC0],
        [0xE0, 0xA0, 0x80], [0xE0, 0x9F, 0xBF], [0xE1, 0x80, 0x80], [0xEC, 0xBF, 0xBF], [0xED, 0x80, 0x80],
        [0xED, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF],
        [0xE3, 0x81], [0xE3, 0x81, 0x41], [0xE3, 0x41, 0x81], [0xE3, 0xC1, 0x81], [0xE3, 0x81, 0xC1],
        [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
        [0xF1, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xBF, 0x80],
    ]

    @Test(arguments: sequences)
    func aSequenceAloneAndInRuns(_ sequence: [UInt8]) throws {
        let japanese = Array("日本語".utf8)
        let cyrillic = Array("жук".utf8)
        for body in [
            sequence, Array("a".utf8) + sequence, sequence + Array("b".utf8), japanese + sequence,
            sequence + japanese, cyrillic + sequence + cyrillic, japanese + sequence + Array("xyz".utf8),
            Array(repeating: 0xE3, count: 1) + sequence,
        ] {
            try Self.checkAgainstStandardLibrary(body)
        }
    }

    /// Random bodies made of whole characters and stray bytes, from a fixed seed.
    @Test func randomBodiesAgreeWithTheStandardLibrary() throws {
        let pieces: [[UInt8]] =
            ["A", " ", "é", "日", "ж", "€", "\u{10348}", "\u{FFFD}"].map { Array($0.utf8) }
            + [0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE3, 0xED, 0xEF, 0xF0, 0xF4, 0xF5]
            .map { [$0] }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var validCount = 0
        for _ in 0..<3000 {
            let body = (0..<(1 + next() % 10)).flatMap { _ in pieces[next() % pieces.count] }
            if Self.firstInvalidOffset(body) == nil { validCount += 1 }
            try Self.checkAgainstStandardLibrary(body)
        }
        // The pieces must produce both kinds, or the test proves little.
        #expect(validCount > 150)
        #expect(validCount < 2850)
    }

    /// In `.lenient`, which reads ill-formed UTF-8 in a string as U+FFFD, a syntax error after such a string is at
    /// the column that the standard library's decoding of the line counts: one character for each well-formed
    /// sequence, each longest start of one, and each other byte (stray continuation bytes too).
    @Test(arguments: sequences + [[0x80, 0x80, 0x80], [0xE3, 0x81, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x41, 0xBF]])
    func theColumnAfterIllFormedTextCountsItsCharacters(_ sequence: [UInt8]) throws {
        for body in [sequence, Array("日".utf8) + sequence + Array("a".utf8), sequence + sequence] {
            let before = Array(#"{"k": ["#.utf8) + Array("\n".utf8) + Array(#"  ""#.utf8) + body + Array(#"", "#.utf8)
            let document = before + Array("x]}".utf8)
            let error = try #require(throws: DecodingError.self, "\(body)") {
                try LenientJSONDecoder().decode([String: [String]].self, from: Data(document))
            }
            guard case .dataCorrupted(let context) = error,
                let parseError = (context.underlyingError as? JSONParseError) ?? nil
            else {
                Issue.record("\(error)")
                continue
            }
            let line = String(decoding: before.split(separator: UInt8(ascii: "\n")).last ?? [], as: UTF8.self)
            #expect(parseError.line == 2, "\(body)")
            #expect(parseError.column == line.unicodeScalars.count + 1, "\(body)")
        }
    }

    /// Every scalar from U+0080 to U+FFFF except surrogates, in one long string.
    @Test func everyTwoAndThreeByteScalarRoundTrips() throws {
        var text = ""
        for value in 0x80...0xFFFF {
            if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
        }
        try Self.checkAgainstStandardLibrary(Array(text.utf8))
    }
}

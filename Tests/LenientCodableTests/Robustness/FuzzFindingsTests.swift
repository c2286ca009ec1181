// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Inputs the fuzz targets (Fuzz/) found, kept as tests.
@Suite struct FuzzFindingsTests {
    /// Numbers of 2^53 or more with a long fraction or an exponent that Foundation refuses as integers (their
    /// significand does not fit 64 bits); `.strict` refuses them too.
    static let longFractionalIntegers = [
        "2374623746732768942.98",
        "-2374623746732768942.9832749832423479823246327846",
        "100000000000000000000.5e-2",
        "123456789056789012.4567895616",
    ]

    @Test(arguments: longFractionalIntegers)
    func strictRefusesAnIntegerFoundationRefuses(_ literal: String) throws {
        let input = Data("[\(literal)]".utf8)
        #expect(throws: DecodingError.self, "Foundation refuses it") {
            try JSONDecoder().decode([Int64].self, from: input)
        }
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode([Int64].self, from: input)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.intValue) == [0])
    }

    /// Shorter numbers of the same kind decode as Foundation decodes them: the fraction dropped.
    @Test(arguments: ["1234567890123456789.5", "-1234567890123456789.5", "9007199254740993.5e0"])
    func strictAgreesWithFoundationBelowTwentyDigits(_ literal: String) throws {
        let input = Data("[\(literal)]".utf8)
        #expect(
            try LenientJSONDecoder(options: .strict).decode([Int64].self, from: input)
                == JSONDecoder().decode([Int64].self, from: input))
    }

    /// UTF-16 or UTF-32 whose length is not a whole number of code units is refused, where Foundation ignores the
    /// partial unit at the end.
    @Test(arguments: [[0x00, 0x5B, 0x00, 0x5D, 0x28], [0x00, 0x00, 0x00, 0x30, 0x00, 0x20]] as [[UInt8]])
    func partialCodeUnitIsRefused(_ bytes: [UInt8]) throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(JSONValue.self, from: Data(bytes))
        }
        #expect(error.parseError?.code == .invalidEncoding)
        #expect(throws: Never.self, "Foundation accepts it") {
            try JSONDecoder().decode(DecodedTree.self, from: Data(bytes))
        }
    }

    /// A document that ends with the `[` opening level 513.
    struct TooDeepAtTheEnd: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var data: Data
    }

    static let tooDeepAtTheEnd = [
        TooDeepAtTheEnd(testDescription: "513 [", data: Data(String(repeating: "[", count: 513).utf8)),
        TooDeepAtTheEnd(
            testDescription: "512 objects, then [",
            data: Data((String(repeating: #"{"a":"#, count: 512) + "[").utf8)),
        TooDeepAtTheEnd(
            testDescription: "513 [ in UTF-16LE",
            data: Data(Array(repeating: [0x5B, 0x00] as [UInt8], count: 513).joined())),
    ]

    /// Ours refuses it as too deeply nested, strict and lenient.
    @Test(arguments: tooDeepAtTheEnd)
    func documentEndingWithTheBracketOfLevel513IsTooDeep(_ document: TooDeepAtTheEnd) throws {
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let error = try #require(throws: DecodingError.self) {
                try LenientJSONDecoder(options: options).decode(DecodedTree.self, from: document.data)
            }
            #expect(error.parseError?.code == .tooDeeplyNested)
        }
    }

    /// Foundation's `JSONDecoder` traps on such a document (its scanner locates the depth error one byte past the end of
    /// the input), so the differential fuzz target does not hand it over (Fuzz/README.md, allow-list 8). When this
    /// fails, Foundation no longer traps: remove that skip.
    @Test func foundationTrapsOnADocumentEndingWithTheBracketOfLevel513() async {
        await #expect(processExitsWith: .failure) {
            _ = try? JSONDecoder().decode(DecodedTree.self, from: Data(String(repeating: "[", count: 513).utf8))
        }
    }

    /// `0.` and 128 zeros, then `1e148`: 10^19, which fits a `UInt64`, but 129 fraction digits fit the 128-bit
    /// significand of Foundation's `Decimal`, whose exponent would pass -128.
    static let decimalExponentUnderflow = "[0." + String(repeating: "0", count: 128) + "1e148]"

    /// `.strict` refuses it, as Foundation means to: its `Decimal` fails.
    @Test func strictRefusesAnIntegerWhoseDecimalExponentPassesTheLimit() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(
                [UInt64].self, from: Data(Self.decimalExponentUnderflow.utf8))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.intValue) == [0])
    }

    /// Foundation's `JSONDecoder` traps on it instead of throwing (in `JSONScanner.validateNumber`), so the differential
    /// fuzz target does not hand it over (Fuzz/README.md, allow-list 9). When this fails, Foundation no longer traps:
    /// remove that skip.
    @Test func foundationTrapsOnAnIntegerWhoseDecimalExponentPassesTheLimit() async {
        await #expect(processExitsWith: .failure) {
            let input = "[0." + String(repeating: "0", count: 128) + "1e148]"
            _ = try? JSONDecoder().decode([UInt64].self, from: Data(input.utf8))
        }
    }
}

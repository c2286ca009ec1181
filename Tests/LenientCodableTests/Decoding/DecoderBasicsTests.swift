// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct DecoderBasicsTests {
    struct Book: Codable, Equatable {
        var name: String
        var page: Int
        var price: Double?
        var tags: [String]
        var ratings: [String: Int]
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func decodesNestedModel(options: LenientJSONDecoder.Options) throws {
        let json = #"{"name":"Harry \"P\" \u00e9","page":256,"price":null,"tags":["a","b"],"ratings":{"x":1,"y":2}}"#
        let book = try LenientJSONDecoder(options: options).decode(Book.self, from: Data(json.utf8))
        #expect(
            book == Book(name: "Harry \"P\" é", page: 256, price: nil, tags: ["a", "b"], ratings: ["x": 1, "y": 2]))
    }

    @Test func decodesFromEveryInputKind() throws {
        let decoder = LenientJSONDecoder(.strict)
        let text = "[1, 2.5, -3e2]"
        #expect(try decoder.decode([Double].self, from: text) == [1, 2.5, -300])
        #expect(try decoder.decode([Double].self, from: Array(text.utf8)) == [1, 2.5, -300])
        #expect(try decoder.decode([Double].self, from: JSONValue(parsing: text)) == [1, 2.5, -300])
        #expect(try decoder.decode([Int].self, fromJSONObject: [1, 2, 3]) == [1, 2, 3])
    }

    @Test func integersAreExact() throws {
        let decoder = LenientJSONDecoder(.strict)
        #expect(try decoder.decode(Int.self, from: "1e2") == 100)
        #expect(try decoder.decode(Int.self, from: "1.0") == 1)
        #expect(try decoder.decode(Int64.self, from: "-9223372036854775808") == Int64.min)
        #expect(try decoder.decode(UInt64.self, from: "18446744073709551615") == UInt64.max)
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: "1.5") }
        #expect(throws: DecodingError.self) { try decoder.decode(Int8.self, from: "128") }
    }

    @Test func syntaxErrorsKeepTheirPosition() throws {
        let decoder = LenientJSONDecoder(.strict)
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode([Int].self, from: "[1,\n 2,,3]")
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        let parseError = try #require(context.underlyingError as? JSONParseError)
        #expect(parseError.code == .unexpectedCharacter)
        #expect(parseError.line == 2)
        #expect(parseError.column == 4)
        #expect(context.debugDescription.contains("line 2, column 4"))
    }

    @Test func trailingCommasOnlyInLenient() throws {
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode([Int].self, from: "[1,2,]") }
        #expect(try LenientJSONDecoder(.lenient).decode([Int].self, from: "[1,2,]") == [1, 2])
    }

    /// A comma before a closing bracket or brace is dropped in `.lenient`, at every level; one
    /// before the end of the input, before another comma, or before the other kind's closing is
    /// still an error, as it is in `.strict`.
    @Test(
        arguments: [
            (#"[1,2,]"#, #"[1,2]"#), (#"{"a":1,}"#, #"{"a":1}"#), (#"[[1,],{"a":[2,],},]"#, #"[[1],{"a":[2]}]"#),
            (#"[ 1 , ]"#, #"[1]"#), (#"{"a":{"b":{},},}"#, #"{"a":{"b":{}}}"#), (#"[1,2,"#, nil), (#"[1,,]"#, nil),
            (#"{"a":1,]"#, nil), (#"[1,}"#, nil), (#"{"a":1,,}"#, nil), (#"[,]"#, nil),
        ] as [(String, String?)])
    func trailingCommasCloseTheirOwnContainerOnly(json: String, equivalent: String?) throws {
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode(JSONValue.self, from: json) }
        if let equivalent {
            #expect(
                try LenientJSONDecoder(.lenient).decode(JSONValue.self, from: json) == JSONValue(parsing: equivalent))
        } else {
            #expect(throws: DecodingError.self) { try LenientJSONDecoder(.lenient).decode(JSONValue.self, from: json) }
        }
    }

    /// The same at the end of a top-level object without braces (JSON5 with
    /// `assumesTopLevelDictionary`), which ends with the input.
    @Test(
        arguments: [
            ("a: 1, b: 2,", #"{"a":1,"b":2}"#), ("a: [1,], ", #"{"a":[1]}"#), ("a: 1, }", nil), ("a: 1,,", nil),
        ]
            as [(String, String?)])
    func aTrailingCommaEndsATopLevelObjectWithoutBraces(json5: String, equivalent: String?) throws {
        let decoder = LenientJSONDecoder(.lenient)
        decoder.allowsJSON5 = true
        decoder.assumesTopLevelDictionary = true
        if let equivalent {
            #expect(try decoder.decode(JSONValue.self, from: json5) == JSONValue(parsing: equivalent))
        } else {
            #expect(throws: DecodingError.self) { try decoder.decode(JSONValue.self, from: json5) }
        }
    }

    @Test func typeMismatchHasCodingPath() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(Book.self, from: #"{"name":"x","page":1,"tags":[1],"ratings":{}}"#)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("Expected typeMismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["tags", "Index 0"])
    }
}

extension DecoderBasicsTests {
    /// From 2^53 up, Foundation reads an integer written with a fraction or exponent as a
    /// Decimal: digits past its 128-bit significand are dropped, each kept fraction digit lowers an
    /// exponent that must stay above -129, and the significand (trailing zeros dropped) must fit 64
    /// bits; the conversion negates a magnitude that fits the type, so Int64.min is refused.
    @Test(arguments: [
        "2374623746732768942.98", "100000000000000000000.5e-2", "9223372036854775295.5", "1234567890123456789.5",
        "9007199254740993.5e0", "123456789012345678900e-1", "10000000000000000000.0000",
        "0.2222222222222222000000000000000000000000000000000000701560741952603972e18",
        "1000000000000000000.0000000000000000000000000000001", "1000000000000000000.0000000000000001",
        "12345678901234567890123456789012345678901234567890e-31",
        "-9007199254740993.00000000000000000000000000000000000000001",
        "-9223372036854775808.0", "-9223372036854775807.0", "-922337203685477580.8e1", "9223372036854775807.0",
        "0." + String(repeating: "0", count: 127) + "1e147", "0." + String(repeating: "0", count: 126) + "1e146",
    ])
    func longIntegersWithFractionsFollowFoundation(literal: String) throws {
        let input = Data("[\(literal)]".utf8)
        let foundationSigned = try? JSONDecoder().decode([Int64].self, from: input)
        let foundationUnsigned = try? JSONDecoder().decode([UInt64].self, from: input)
        #expect((try? LenientJSONDecoder(.strict).decode([Int64].self, from: input)) == foundationSigned)
        #expect((try? LenientJSONDecoder(.strict).decode([UInt64].self, from: input)) == foundationUnsigned)
    }
}

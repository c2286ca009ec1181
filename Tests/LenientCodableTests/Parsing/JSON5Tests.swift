// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct JSON5Tests {
    struct Case: CustomTestStringConvertible, Sendable {
        var json5: String
        var equivalentJSON: String
        var testDescription: String { json5.debugDescription }
    }

    static let accepted: [Case] = [
        Case(json5: "// comment\n[1, /* inline */ 2]", equivalentJSON: "[1,2]"),
        Case(json5: "[1, 2,]", equivalentJSON: "[1,2]"),
        Case(json5: "{a: 1, $b_2: 2,}", equivalentJSON: #"{"a":1,"$b_2":2}"#),
        Case(json5: "['single \"quoted\"', 'it\\'s']", equivalentJSON: #"["single \"quoted\"","it's"]"#),
        Case(json5: "[0x1F, -0XFF]", equivalentJSON: "[31,-255]"),
        Case(json5: "[.5, 5., +1]", equivalentJSON: "[0.5,5.0,1]"),
        Case(json5: "['line\\\ncontinued']", equivalentJSON: #"["linecontinued"]"#),
        // Foundation refuses a NUL character however it is escaped (`\0`, `\x00`, `\u0000`): see FoundationParityTests.
        Case(json5: "['\\x41\\v\\x01']", equivalentJSON: #"["A\u000b\u0001"]"#),
        Case(json5: "\u{FEFF}\u{00A0}[1]\u{2028}", equivalentJSON: "[1]"),
    ]

    @Test(arguments: accepted)
    func acceptsWhatFoundationsJSON5Accepts(_ testCase: Case) throws {
        let decoder = LenientJSONDecoder(.strict)
        decoder.allowsJSON5 = true
        let value = try decoder.decode(JSONValue.self, from: testCase.json5)
        let expected = try JSONValue(parsing: testCase.equivalentJSON)
        #expect(value == expected)
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(JSONValue.self, from: testCase.json5)
        }
    }

    @Test func decodesJSON5NumbersIntoSwiftNumbers() throws {
        let decoder = LenientJSONDecoder(.strict)
        decoder.allowsJSON5 = true
        #expect(try decoder.decode([Int].self, from: "[0x10, +3, -0x1]") == [16, 3, -1])
        let doubles = try decoder.decode([Double].self, from: "[.5, 5., Infinity, -Infinity, +2]")
        #expect(doubles == [0.5, 5, .infinity, -.infinity, 2])
        #expect(try decoder.decode(Double.self, from: "NaN").isNaN)
    }

    @Test func topLevelObjectWithoutBraces() throws {
        struct Settings: Decodable, Equatable {
            var name: String
            var size: Int
        }
        let decoder = LenientJSONDecoder(.strict)
        decoder.allowsJSON5 = true
        decoder.assumesTopLevelDictionary = true
        #expect(try decoder.decode(Settings.self, from: "name: 'x', size: 3,") == Settings(name: "x", size: 3))
        #expect(try decoder.decode(Settings.self, from: "{name: 'y', size: 4}") == Settings(name: "y", size: 4))
    }

    @Test(arguments: ["[01]", "['\\1']", "[1 2]", "/* open", "[0x]", "{a b: 1}"])
    func stillRefusesInvalidJSON5(_ json5: String) throws {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: json5, allowsJSON5: true) }
    }
}

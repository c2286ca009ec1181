// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A string with escapes is unescaped a word at a time between its backslashes. These tests put
/// an escape at every offset around two words, after ASCII and after multi-byte text, and hold
/// the result to Foundation's decoder, in both modes and through the encoder and back.
@Suite struct EscapedStringTests {
    static let escapes = [#"\/"#, #"\n"#, #"\\"#, #"\""#, #"\u00e9"#, #"\ud83d\ude00"#]
    static let fillers = ["a", "é", "日"]

    @Test(arguments: escapes, fillers)
    func anEscapeAtEveryOffsetReadsAsFoundationReadsIt(escape: String, filler: String) throws {
        for before in 0...19 {
            for after in [0, 1, 7, 8, 9] {
                let body =
                    String(repeating: filler, count: before) + escape + String(repeating: "x", count: after) + escape
                let json = Data("[\"\(body)\"]".utf8)
                let expected = try JSONDecoder().decode([String].self, from: json)
                for options in [LenientJSONDecoder.Options.strict, .lenient] {
                    let (value, report) = try LenientJSONDecoder(options).decodeWithReport([String].self, from: json)
                    #expect(value == expected, "\(body)")
                    #expect(report.isEmpty, "\(body)")
                }
                let encoded = try LenientJSONEncoder().encode(expected)
                #expect(try LenientJSONDecoder().decode([String].self, from: encoded) == expected, "\(body)")
            }
        }
    }
}

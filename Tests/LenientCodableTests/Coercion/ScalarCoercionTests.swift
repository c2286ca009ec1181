// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The scalar rows of DESIGN.md's coercion table: integers, floating point, `Decimal`, `Bool`, `String`, `URL`, `Data`
/// and null-like strings. Each row decodes `{"value": …}` in `.lenient` (value and report) and in `.strict` (against
/// Foundation's `JSONDecoder`, live).
@Suite struct ScalarCoercionTests {
    static let integersCases: [CoercionCase] = [
        CoercionCase(Int.self, #""42""#, .forgiven(42, .coerced), messageContains: [#""42""#, "42"]),
        CoercionCase(Int.self, #"" 42 ""#, .forgiven(42, .coerced), note: "trimmed"),
        CoercionCase(Int.self, #""4.2e1""#, .forgiven(42, .coerced), messageContains: ["4.2e1", "42"]),
        CoercionCase(Int.self, #""+7""#, .forgiven(7, .coerced)),
        CoercionCase(Int.self, #""007""#, .forgiven(7, .coerced)),
        CoercionCase(Int.self, #""-12""#, .forgiven(-12, .coerced)),
        CoercionCase(Int.self, "42.0", .clean(42), note: "integral float, as Foundation"),
        CoercionCase(Int.self, "true", .forgiven(1, .coerced), messageContains: ["true", "1"]),
        CoercionCase(Int.self, "false", .forgiven(0, .coerced)),
        CoercionCase(Int.self, "2.9", .forgiven(2, .coerced), messageContains: ["2.9", "2"]),
        CoercionCase(Int.self, "-2.9", .forgiven(-2, .coerced), note: "toward zero"),
        CoercionCase(Int.self, #""2.5""#, .forgiven(2, .coerced)),
        CoercionCase(Int.self, #""-0.5""#, .forgiven(0, .coerced)),
        CoercionCase(Int.self, #""99999999999999999999""#, .forgiven(0, .defaulted), note: "out of range"),
        CoercionCase(Int.self, "99999999999999999999", .forgiven(0, .defaulted), note: "out of range"),
        CoercionCase(Int.self, #""abc""#, .forgiven(0, .defaulted), messageContains: ["abc"]),
        CoercionCase(Int.self, #""""#, .forgiven(0, .defaulted), note: "empty string"),
        CoercionCase(Int.self, "[1]", .forgiven(0, .defaulted)),
        CoercionCase(Int.self, #"{"a":1}"#, .forgiven(0, .defaulted)),
        CoercionCase(Int8.self, "300", .forgiven(0, .defaulted), messageContains: ["300"], note: "never wraps"),
        CoercionCase(Int8.self, "-129", .forgiven(0, .defaulted), note: "never clamps"),
        CoercionCase(Int8.self, #""-128""#, .forgiven(-128, .coerced)),
        CoercionCase(Int8.self, "127.9", .forgiven(127, .coerced)),
        CoercionCase(Int16.self, #""42""#, .forgiven(42, .coerced)),
        CoercionCase(Int32.self, #""42""#, .forgiven(42, .coerced)),
        CoercionCase(Int64.self, #""-9223372036854775808""#, .forgiven(.min, .coerced)),
        CoercionCase(UInt.self, "-1", .forgiven(0, .defaulted), note: "never wraps"),
        CoercionCase(UInt.self, #""-1""#, .forgiven(0, .defaulted)),
        CoercionCase(UInt.self, "-0.5", .forgiven(0, .coerced), note: "truncates to 0, in range"),
        CoercionCase(UInt8.self, #""256""#, .forgiven(0, .defaulted)),
        CoercionCase(UInt8.self, "true", .forgiven(1, .coerced)),
        CoercionCase(UInt16.self, #""42""#, .forgiven(42, .coerced)),
        CoercionCase(UInt32.self, #""42""#, .forgiven(42, .coerced)),
        CoercionCase(UInt64.self, #""18446744073709551615""#, .forgiven(.max, .coerced)),
        CoercionCase(UInt64.self, #""18446744073709551616""#, .forgiven(0, .defaulted)),
    ]

    @Test(arguments: integersCases)
    func integers(_ testCase: CoercionCase) {
        testCase.check()
    }

    /// 128-bit integers are forgiven as the other integers are: what they cannot hold is their
    /// default, 0, and `.strict` fails as Foundation does.
    @Test(arguments: [
        #"{"v":170141183460469231731687303715884105728}"#, #"{"v":"1e39"}"#, #"{"v":"x"}"#, #"{"v":null}"#, "{}",
        #"{"v":-1}"#, #"{"v":[1]}"#,
    ])
    func wideIntegersAreForgivenAsOtherIntegers(json: String) throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        struct Signed: Codable, Equatable { var v: Int128 }
        struct Unsigned: Codable, Equatable { var v: UInt128 }
        func check<T: Codable & Equatable>(_ type: T.Type, zero: T) throws {
            let data = Data(json.utf8)
            let foundation = try? JSONDecoder().decode(T.self, from: data)
            let strict = try? LenientJSONDecoder(options: .strict).decode(T.self, from: data)
            #expect(strict == foundation)
            let (lenient, report) = try LenientJSONDecoder().decodeWithReport(T.self, from: data)
            if let foundation {
                #expect(lenient == foundation)
                #expect(report.isEmpty)
            } else {
                #expect(lenient == zero)
                #expect(report.issues.map(\.kind) == [.defaulted])
                #expect(report.issues.map(\.path) == ["v"])
            }
            let (again, againReport) = try LenientJSONDecoder().decodeWithReport(
                T.self, from: LenientJSONEncoder().encode(lenient))
            #expect(again == lenient && againReport.isEmpty)
        }
        try check(Signed.self, zero: Signed(v: 0))
        try check(Unsigned.self, zero: Unsigned(v: 0))
    }

    /// Past 64 bits, a number with a fraction or an exponent, or such a numeric string, is coerced as a smaller one
    /// is (the fraction dropped toward zero), where Foundation refuses it; and round-trips.
    @Test(arguments: [
        (#"{"v":1e20}"#, "100000000000000000000"), (#"{"v":"1.5e20"}"#, "150000000000000000000"),
        (#"{"v":12345678901234567890123.9}"#, "12345678901234567890123"),
        (#"{"v":"-1.5e20"}"#, "-150000000000000000000"),
        (#"{"v":"1e38"}"#, "100000000000000000000000000000000000000"),
    ])
    func wideIntegersAreCoercedFromFractionsAndExponents(json: String, expected: String) throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        struct Signed: Codable, Equatable { var v: Int128 }
        struct Unsigned: Codable, Equatable { var v: UInt128 }
        let data = Data(json.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Signed.self, from: data) }
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(options: .strict).decode(Signed.self, from: data) }
        let (signed, report) = try LenientJSONDecoder().decodeWithReport(Signed.self, from: data)
        #expect(signed.v == Int128(expected))
        #expect(report.issues.map(\.kind) == [.coerced])
        #expect(try LenientJSONDecoder().decode(Signed.self, from: LenientJSONEncoder().encode(signed)) == signed)
        let (unsigned, unsignedReport) = try LenientJSONDecoder().decodeWithReport(Unsigned.self, from: data)
        if expected.hasPrefix("-") {
            #expect(unsigned.v == 0)
            #expect(unsignedReport.issues.map(\.kind) == [.defaulted])
        } else {
            #expect(unsigned.v == UInt128(expected))
            #expect(unsignedReport.issues.map(\.kind) == [.coerced])
        }
    }

    static let floatingPointCases: [CoercionCase] = [
        CoercionCase(Double.self, #""3.25""#, .forgiven(3.25, .coerced), messageContains: ["3.25"]),
        CoercionCase(Double.self, #"" -0.5 ""#, .forgiven(-0.5, .coerced)),
        CoercionCase(Double.self, #""1e-3""#, .forgiven(0.001, .coerced)),
        CoercionCase(Double.self, #""0.1""#, .forgiven(0.1, .coerced), note: "correctly rounded"),
        CoercionCase(Double.self, "2", .clean(2)),
        CoercionCase(Double.self, "true", .forgiven(1, .coerced)),
        CoercionCase(Double.self, "false", .forgiven(0, .coerced)),
        CoercionCase(Double.self, #""NaN""#, .forgiven(.nan, .coerced), isEqual: { $0.isNaN && $1.isNaN }),
        CoercionCase(Double.self, #""nan""#, .forgiven(.nan, .coerced), isEqual: { $0.isNaN && $1.isNaN }),
        CoercionCase(Double.self, #""Infinity""#, .forgiven(.infinity, .coerced)),
        CoercionCase(Double.self, #""INFINITY""#, .forgiven(.infinity, .coerced)),
        CoercionCase(Double.self, #""-Infinity""#, .forgiven(-.infinity, .coerced)),
        CoercionCase(Double.self, #""-infinity""#, .forgiven(-.infinity, .coerced)),
        CoercionCase(Double.self, #""abc""#, .forgiven(0, .defaulted)),
        CoercionCase(Float.self, #""1.5""#, .forgiven(1.5, .coerced)),
        CoercionCase(Float.self, #""0.1""#, .forgiven(0.1, .coerced), note: "read as Float"),
        CoercionCase(Float.self, #""infinity""#, .forgiven(.infinity, .coerced)),
        CoercionCase(Float.self, #""NAN""#, .forgiven(.nan, .coerced), isEqual: { $0.isNaN && $1.isNaN }),
        CoercionCase(Float.self, "true", .forgiven(1, .coerced)),
        // A string is read as a number would be: no zero from text with a non-zero digit.
        CoercionCase(Float.self, #""1e-50""#, .forgiven(0, .defaulted), note: "underflow, as the number 1e-50"),
        CoercionCase(Float.self, "1e-50", .forgiven(0, .defaulted), note: "underflow"),
        CoercionCase(Double.self, #""1e-400""#, .forgiven(0, .defaulted), note: "underflow"),
        CoercionCase(Float.self, #""0e5""#, .forgiven(0, .coerced), note: "zero is zero"),
    ]

    @Test(arguments: floatingPointCases)
    func floatingPoint(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let decimalsCases: [CoercionCase] = [
        CoercionCase(Decimal.self, "0.1", .clean(Self.decimal("0.1")), note: "from a number: not forgiven"),
        CoercionCase(Decimal.self, #""0.1""#, .forgiven(Self.decimal("0.1"), .coerced), note: "digits exact"),
        CoercionCase(
            Decimal.self, #""12345678901234567890.123456789""#,
            .forgiven(Self.decimal("12345678901234567890.123456789"), .coerced), note: "never through Double"),
        CoercionCase(Decimal.self, #"" -7.25 ""#, .forgiven(Self.decimal("-7.25"), .coerced)),
        CoercionCase(Decimal.self, "true", .forgiven(1, .coerced)),
    ]

    @Test(arguments: decimalsCases)
    func decimals(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let booleansCases: [CoercionCase] = [
        CoercionCase(Bool.self, "0", .forgiven(false, .coerced)),
        CoercionCase(Bool.self, "1", .forgiven(true, .coerced), messageContains: ["1", "true"]),
        CoercionCase(Bool.self, "2", .forgiven(true, .coerced)),
        CoercionCase(Bool.self, "-1.5", .forgiven(true, .coerced)),
        CoercionCase(Bool.self, "0.0", .forgiven(false, .coerced)),
        CoercionCase(Bool.self, "1e-400", .forgiven(false, .coerced), note: "0 as a Double, as @Coerced reads it"),
        CoercionCase(Bool.self, "5e-324", .forgiven(true, .coerced), note: "the least Double"),
        CoercionCase(Bool.self, "1e400", .forgiven(true, .coerced), note: "too large for a Double, not zero"),
        CoercionCase(Bool.self, #""true""#, .forgiven(true, .coerced)),
        CoercionCase(Bool.self, #""FALSE""#, .forgiven(false, .coerced)),
        CoercionCase(Bool.self, #""Yes""#, .forgiven(true, .coerced), messageContains: ["Yes", "true"]),
        CoercionCase(Bool.self, #""no""#, .forgiven(false, .coerced)),
        CoercionCase(Bool.self, #""Y""#, .forgiven(true, .coerced)),
        CoercionCase(Bool.self, #""n""#, .forgiven(false, .coerced)),
        CoercionCase(Bool.self, #""1""#, .forgiven(true, .coerced)),
        CoercionCase(Bool.self, #""0""#, .forgiven(false, .coerced)),
        CoercionCase(Bool.self, #""ON""#, .forgiven(true, .coerced)),
        CoercionCase(Bool.self, #""Off""#, .forgiven(false, .coerced)),
        CoercionCase(Bool.self, #""T""#, .forgiven(false, .defaulted), note: "not in the table"),
        CoercionCase(Bool.self, #""F""#, .forgiven(false, .defaulted), note: "not in the table"),
        CoercionCase(Bool.self, #""maybe""#, .forgiven(false, .defaulted)),
    ]

    @Test(arguments: booleansCases)
    func booleans(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let stringsCases: [CoercionCase] = [
        CoercionCase(String.self, "1.10", .forgiven("1.10", .coerced), messageContains: ["1.10"]),
        CoercionCase(String.self, "1e3", .forgiven("1e3", .coerced), note: "the literal text"),
        CoercionCase(String.self, "-0", .forgiven("-0", .coerced)),
        CoercionCase(String.self, "42", .forgiven("42", .coerced)),
        CoercionCase(String.self, "12345678901234567890123", .forgiven("12345678901234567890123", .coerced)),
        CoercionCase(String.self, "true", .forgiven("true", .coerced), messageContains: ["true"]),
        CoercionCase(String.self, "false", .forgiven("false", .coerced)),
        CoercionCase(String.self, "[1]", .forgiven("", .defaulted), note: "an array is no string"),
        CoercionCase(String.self, #"" padded ""#, .clean(" padded "), note: "strings are never trimmed"),
    ]

    @Test(arguments: stringsCases)
    func strings(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let urlsAndDataCases: [CoercionCase] = [
        CoercionCase(URL.self, #""https://x.y/a?b=c""#, .clean(Self.url("https://x.y/a?b=c"))),
        CoercionCase(URL.self, #"" https://x.y ""#, .forgiven(Self.url("https://x.y"), .coerced), note: "trimmed"),
        CoercionCase(Data.self, #""aGVsbG8=""#, .clean(Data("hello".utf8)), note: "base64"),
        CoercionCase(Data.self, #""""#, .clean(Data()), note: "empty base64"),
        CoercionCase(URL.self, "42", .fails, note: "no URL made from a number's text"),
        CoercionCase(URL.self, "true", .fails, note: "no URL made from a boolean's text"),
        CoercionCase(URL?.self, "false", .forgiven(nil, .defaulted), note: "no URL made from a boolean's text"),
        CoercionCase(Data.self, "1234", .fails, note: "no bytes decoded from a number's text as base64"),
        CoercionCase(Data.self, "true", .fails, note: "no bytes decoded from a boolean's text as base64"),
        CoercionCase(Data?.self, "1234", .forgiven(nil, .defaulted), note: "no bytes from a number's text"),
    ]

    @Test(arguments: urlsAndDataCases)
    func urlsAndData(_ testCase: CoercionCase) {
        testCase.check()
    }

    /// Null-like strings count as `null` for every type but `String`. Whether the forgiven value is reported as
    /// coerced or defaulted is left open; the value is not.
    static let nullLikeStringsCases: [CoercionCase] = [
        CoercionCase(Int.self, #""null""#, .forgivenAsOneOf(0, [.defaulted, .coerced])),
        CoercionCase(Int.self, #""nil""#, .forgivenAsOneOf(0, [.defaulted, .coerced])),
        CoercionCase(Int.self, #""<null>""#, .forgivenAsOneOf(0, [.defaulted, .coerced])),
        CoercionCase(Int.self, #""(null)""#, .forgivenAsOneOf(0, [.defaulted, .coerced])),
        CoercionCase(Int.self, #""NULL""#, .forgivenAsOneOf(0, [.defaulted, .coerced]), note: "any case"),
        CoercionCase(Bool.self, #""<null>""#, .forgivenAsOneOf(false, [.defaulted, .coerced])),
        CoercionCase(Double.self, #""nil""#, .forgivenAsOneOf(0, [.defaulted, .coerced])),
        CoercionCase(Int?.self, #""null""#, .forgivenAsOneOf(nil, [.defaulted, .coerced])),
        CoercionCase(Int?.self, #""(null)""#, .forgivenAsOneOf(nil, [.defaulted, .coerced])),
        CoercionCase(Date?.self, #""<null>""#, .forgivenAsOneOf(nil, [.defaulted, .coerced])),
        CoercionCase(Bool?.self, #""nil""#, .forgivenAsOneOf(nil, [.defaulted, .coerced])),
        CoercionCase([Int].self, #""null""#, .forgivenAsOneOf([], [.defaulted, .coerced])),
        CoercionCase(String.self, #""null""#, .clean("null"), note: "a String keeps the text"),
        CoercionCase(String.self, #""<null>""#, .clean("<null>"), note: "a String keeps the text"),
        CoercionCase(String?.self, #""nil""#, .clean("nil"), note: "a String keeps the text"),
    ]

    @Test(arguments: nullLikeStringsCases)
    func nullLikeStrings(_ testCase: CoercionCase) {
        testCase.check()
    }

    static func decimal(_ text: String) -> Decimal {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? .nan
    }

    static func url(_ text: String) -> URL {
        URL(string: text) ?? URL(fileURLWithPath: "/invalid-test-url")
    }
}

extension ScalarCoercionTests {
    /// One row spelled out: the value, the issue's kind and path, and its message.
    @Test func coercedStringNumberIsReportedWithItsText() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: #"["42", 7]"#)
        #expect(value == [42, 7])
        #expect(report.issues.map(\.kind) == [.coerced])
        #expect(report.issues.first?.path == "[0]")
        #expect(report.issues.first?.message == #"Coerced string "42" to Int 42."#)
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode([Int].self, from: #"["42", 7]"#) }
    }

    /// Padding around a number or a URL is what Swift calls white space, `Character` by `Character`: ASCII and
    /// Unicode spaces, a line separator, a space that a combining mark joins (a white space `Character`), but not a
    /// byte-order mark, a combining mark alone, or a space that a prepended mark joins to the text (one `Character`
    /// that is no white space). A megabyte of padding is trimmed too, a byte at a time where it is ASCII.
    @Test(arguments: [
        (" ", " "), ("\t\n", "\r\n"), ("\u{A0}", "\u{2003}"), ("\u{3000}", "\u{2028}"), (" \u{301}", ""),
        ("", " \u{301}"), ("\u{301}", ""), ("\u{600} ", ""), ("", "\u{600} "), ("\u{85}", "\u{85}"),
        ("\u{1C}", ""), ("\u{FEFF}", ""), ("\r", "\r"), (String(repeating: " ", count: 1 << 20) + "\u{A0}", "\u{A0}"),
        ("\u{A0}" + String(repeating: "\n", count: 1 << 20), String(repeating: "\t", count: 1 << 20) + "\u{2029}"),
    ])
    func paddingIsWhatSwiftCallsWhiteSpace(_ leading: String, _ trailing: String) throws {
        func swiftTrimmed(_ text: String) -> String {
            guard let first = text.firstIndex(where: { !$0.isWhitespace }) else { return "" }
            return String(text[first...(text.lastIndex(where: { !$0.isWhitespace }) ?? first)])
        }
        struct Value<T: Decodable>: Decodable { var value: T }
        let number = leading + "42" + trailing
        let decoded = try LenientJSONDecoder().decode(
            Value<Int>.self, from: JSONEncoder().encode(["value": number])
        ).value
        #expect(decoded == (swiftTrimmed(number) == "42" ? 42 : 0))
        let address = leading + "https://example.com/a?b=c" + trailing
        let url = try LenientJSONDecoder().decode(
            Value<URL?>.self, from: JSONEncoder().encode(["value": address])
        ).value
        // Where Foundation reads the padded text as a URL (percent-encoding what it must), that URL stands.
        #expect(url == URL(string: address) ?? URL(string: swiftTrimmed(address)))
    }
}

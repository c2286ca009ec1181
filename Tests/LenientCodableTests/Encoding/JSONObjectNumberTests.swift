// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The numbers `encodeToJSONObject` gives, and that `decode(_:fromJSONObject:)` reads back exactly.
@Suite struct JSONObjectNumberTests {
    // MARK: Booleans and small integers

    /// An `Int8` is stored as a C `char`, as a boolean is: every one of them is still a number,
    /// as `JSONSerialization` writes it, boxed as an `NSNumber` or as a Swift value; and the
    /// booleans, from `JSONSerialization`, `NSNumber(value:)` and Swift, stay booleans.
    @Test func smallIntegersAreNumbersAndBooleansAreBooleans() throws {
        for value in Int8.min...Int8.max {
            for boxed in [NSNumber(value: value) as Any, value as Any] {
                let object: [String: Any] = ["v": boxed]
                let written = try JSONSerialization.data(withJSONObject: object)
                let expected = try JSONDecoder().decode([String: Int].self, from: written)
                #expect(expected == ["v": Int(value)])
                let (decoded, report) = try LenientJSONDecoder().decodeWithReport(
                    [String: Int].self, fromJSONObject: object)
                #expect(decoded == expected, "\(value)")
                #expect(report.isEmpty, "\(value): \(report)")
                #expect(
                    try LenientJSONDecoder(options: .strict).decode([String: Int].self, fromJSONObject: object)
                        == expected)
                #expect(
                    try LenientJSONDecoder().decode(JSONValue.self, fromJSONObject: object) == [
                        "v": .number("\(value)")
                    ])
            }
        }
        let parsed = try JSONSerialization.jsonObject(with: Data("[true,false]".utf8))
        for object in [parsed, [NSNumber(value: true), NSNumber(value: false)], [true, false] as [Any]] {
            #expect(
                try LenientJSONDecoder(options: .strict).decode([Bool].self, fromJSONObject: object) == [true, false])
            #expect(try LenientJSONDecoder().decode(JSONValue.self, fromJSONObject: object) == [true, false])
            // Written back as booleans, read back the same.
            let json = try LenientJSONEncoder().encodeToJSONObject(
                try LenientJSONDecoder().decode(JSONValue.self, fromJSONObject: object))
            #expect(
                try LenientJSONDecoder(options: .strict).decode([Bool].self, fromJSONObject: json) == [true, false])
        }
    }

    /// A `Float` in an `NSNumber` is the number `JSONSerialization` writes for it, its own
    /// shortest text (`0.1`), not the double it widens to (`0.10000000149011612`).
    @Test(
        arguments: [
            0.1, 1.0 / 3.0, 0.3, 100.25, 16_777_216, 1e10, .leastNonzeroMagnitude, -2.5e-8, .greatestFiniteMagnitude,
        ] as [Float])
    func floatsAreReadAsJSONSerializationWritesThem(_ value: Float) throws {
        for boxed in [NSNumber(value: value) as Any, value as Any] {
            let object: [String: Any] = ["v": boxed]
            let written = try JSONSerialization.data(withJSONObject: object)
            let expected = try JSONDecoder().decode([String: Double].self, from: written)
            for options in [LenientJSONDecoder.Options.strict, .lenient] {
                let (decoded, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                    [String: Double].self, fromJSONObject: object)
                #expect(decoded == expected, "\(value)")
                #expect(report.isEmpty)
                let asFloat = try LenientJSONDecoder(options: options).decode(
                    [String: Float].self, fromJSONObject: object)
                #expect(asFloat == ["v": value])
            }
            // The round trip through the encoder's objects keeps the value.
            let json = try LenientJSONEncoder().encodeToJSONObject(
                try LenientJSONDecoder().decode(JSONValue.self, fromJSONObject: object))
            #expect(
                try LenientJSONDecoder(options: .strict).decode([String: Double].self, fromJSONObject: json) == expected
            )
        }
    }

    // MARK: Decimal

    @Test(arguments: DecimalCase.all)
    func decimalRoundTripsExactly(_ testCase: DecimalCase) throws {
        let price = Price(amount: testCase.value)
        let object = try LenientJSONEncoder().encodeToJSONObject(price)
        let amount = try #require((object as? [String: Any])?["amount"] as? NSNumber)
        #expect((amount is NSDecimalNumber) == testCase.needsDecimalNumber)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(Price.self, fromJSONObject: object)
        #expect(lenient.amount == testCase.value)
        #expect(report.isEmpty)
        let strict = try LenientJSONDecoder(options: .strict).decode(Price.self, fromJSONObject: object)
        #expect(strict.amount == testCase.value)
    }

    @Test func decimalPastADoubleIsTheExactDecimalNumber() throws {
        let value = try #require(Decimal(string: "12345678901234567890.5"))
        let object = try LenientJSONEncoder().encodeToJSONObject(Price(amount: value))
        let amount = try #require((object as? [String: Any])?["amount"] as? NSDecimalNumber)
        #expect(amount.decimalValue == value)
        #expect(amount.stringValue == "12345678901234567890.5")
    }

    // MARK: Int128 and UInt128

    @Test(arguments: Int128Case.all)
    func int128RoundTripsExactly(_ testCase: Int128Case) throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let values = testCase.values
        let object = try LenientJSONEncoder().encodeToJSONObject(values)
        let elements = try #require(object as? [Any])
        #expect(elements.count == values.count)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport([Int128].self, fromJSONObject: object)
        #expect(lenient == values)
        #expect(report.isEmpty)
        #expect(try LenientJSONDecoder(options: .strict).decode([Int128].self, fromJSONObject: object) == values)
    }

    @Test(arguments: UInt128Case.all)
    func uint128RoundTripsExactly(_ testCase: UInt128Case) throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let values = testCase.values
        let object = try LenientJSONEncoder().encodeToJSONObject(values)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport([UInt128].self, fromJSONObject: object)
        #expect(lenient == values)
        #expect(report.isEmpty)
        #expect(try LenientJSONDecoder(options: .strict).decode([UInt128].self, fromJSONObject: object) == values)
    }

    @Test func int128PastSixtyFourBitsIsADecimalNumber() throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        let value = Int128(Int64.max) * 1000
        let object = try LenientJSONEncoder().encodeToJSONObject(Big128(ids: [value, 7]))
        let ids = try #require((object as? [String: Any])?["ids"] as? [Any])
        let big = try #require(ids.first as? NSDecimalNumber)
        #expect(big.stringValue == "9223372036854775807000")
        // A 128-bit value that fits 64 bits stays an ordinary integer.
        let small = try #require(ids.last as? NSNumber)
        #expect(!(small is NSDecimalNumber))
        #expect(small.int64Value == 7)
    }

    // MARK: Ordinary numbers

    @Test func ordinaryNumbersKeepTheirKinds() throws {
        let object = try LenientJSONEncoder().encodeToJSONObject(OrdinaryNumbers())
        let members = try #require(object as? [String: Any])
        func number(_ key: String) throws -> NSNumber {
            let value = try #require(members[key] as? NSNumber)
            #expect(!(value is NSDecimalNumber), "\(key) is a decimal number")
            return value
        }
        let int = try number("int")
        #expect(String(cString: int.objCType) == "q")
        #expect(int.int64Value == -42)
        let large = try number("large")
        #expect(String(cString: large.objCType) == "Q")
        #expect(large.uint64Value == UInt64.max)
        let double = try number("double")
        #expect(String(cString: double.objCType) == "d")
        #expect(double.doubleValue == 0.1)
        let tiny = try number("tiny")
        #expect(String(cString: tiny.objCType) == "d")
        #expect(tiny.doubleValue == 2.5e-300)
        // Decimals a Double gives back digit for digit stay as they were: a double, or an integer.
        let decimalFraction = try number("decimalFraction")
        #expect(String(cString: decimalFraction.objCType) == "d")
        #expect(decimalFraction.doubleValue == 12.75)
        let decimalInteger = try number("decimalInteger")
        #expect(String(cString: decimalInteger.objCType) == "q")
        #expect(decimalInteger.int64Value == 1200)
        #expect(
            try LenientJSONDecoder(options: .strict).decode(OrdinaryNumbers.self, fromJSONObject: object) == .init())
    }

    @Test func jsonValueNumbersPastADoubleAreDecimalNumbers() throws {
        let object = try LenientJSONEncoder().encodeToJSONObject(
            JSONValue.array([.number("3.14159265358979323846264338327950288"), .number("1e300"), .number("0.5")]))
        let elements = try #require(object as? [Any])
        try #require(elements.count == 3)
        let pi = try #require(elements[0] as? NSDecimalNumber)
        #expect(pi.stringValue == "3.14159265358979323846264338327950288")
        // Past the range of Decimal: a double, as JSONSerialization gives.
        let huge = try #require(elements[1] as? NSNumber)
        #expect(!(huge is NSDecimalNumber))
        #expect(huge.doubleValue == 1e300)
        #expect(!(elements[2] is NSDecimalNumber))
        #expect((elements[2] as? NSNumber)?.doubleValue == 0.5)
        #expect(try JSONSerialization.data(withJSONObject: object).isEmpty == false)
    }

    /// A number past `Double` and `Decimal` alike has no `NSNumber`: refused, never infinity
    /// (which `JSONSerialization` refuses to write, and the decoder to read).
    @Test(arguments: ["1e400", "-1e400", "1.7976931348623159e308"])
    func aNumberNoNSNumberHoldsIsRefused(text: String) throws {
        let error = #expect(throws: EncodingError.self) {
            try LenientJSONEncoder().encodeToJSONObject(["v": JSONValue.number(text)])
        }
        guard case .invalidValue(_, let context)? = error else {
            Issue.record("Expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(context.debugDescription.contains(text))
        // The JSON text itself can hold it.
        #expect(
            try String(decoding: LenientJSONEncoder().encode(["v": JSONValue.number(text)]), as: UTF8.self).contains(
                text))
    }
}

// MARK: - Fixtures

extension JSONObjectNumberTests {
    struct Price: Codable, Equatable {
        var amount: Decimal
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    struct Big128: Codable {
        var ids: [Int128]
    }

    struct OrdinaryNumbers: Codable, Equatable {
        var int = -42
        var large = UInt64.max
        var double = 0.1
        var tiny = 2.5e-300
        var decimalFraction = Decimal(string: "12.75") ?? 0
        var decimalInteger = Decimal(1200)
    }

    struct DecimalCase: CustomTestStringConvertible, Sendable {
        let name: String
        let value: Decimal
        /// Whether a `Double` loses digits of the value.
        let needsDecimalNumber: Bool
        var testDescription: String { name }

        static let thirtyEightDigits = Decimal(string: "12345678901234567890123456789012345678") ?? 0

        static let all: [DecimalCase] = [
            .init(
                name: "past a double", value: Decimal(string: "12345678901234567890.5") ?? 0, needsDecimalNumber: true),
            .init(
                name: "38 digits, negative", value: Decimal(string: "-1234567890123456789012345678901234567.8") ?? 0,
                needsDecimalNumber: true),
            .init(name: "38-digit integer", value: thirtyEightDigits, needsDecimalNumber: true),
            .init(
                name: "38 digits, exponent -128",
                value: Decimal(sign: .plus, exponent: -128, significand: thirtyEightDigits), needsDecimalNumber: true),
            .init(
                name: "38 digits, exponent 90, negative",
                value: Decimal(sign: .minus, exponent: 90, significand: thirtyEightDigits), needsDecimalNumber: true),
            .init(
                name: "one, exponent -128", value: Decimal(sign: .plus, exponent: -128, significand: 1),
                needsDecimalNumber: false),
            .init(name: "0.1", value: Decimal(string: "0.1") ?? 0, needsDecimalNumber: false),
            .init(name: "-0.000001", value: Decimal(string: "-0.000001") ?? 0, needsDecimalNumber: false),
            .init(name: "zero", value: 0, needsDecimalNumber: false),
        ]
    }

    struct Int128Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// The values' text, so that the cases exist where `Int128` does not.
        let texts: [String]
        var testDescription: String { name }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        var values: [Int128] { texts.compactMap { Int128($0) } }

        static let all: [Int128Case] = [
            .init(
                name: "min and max",
                texts: ["-170141183460469231731687303715884105728", "170141183460469231731687303715884105727"]),
            .init(name: "Int64.max × 1000", texts: ["9223372036854775807000", "-9223372036854775807000"]),
            .init(name: "2^64, which a double holds", texts: ["18446744073709551616", "-18446744073709551616"]),
            .init(name: "10^20", texts: ["100000000000000000000"]),
            .init(name: "just past Int64", texts: ["-9223372036854775809", "9223372036854775808"]),
            .init(name: "small", texts: ["0", "-1", "42"]),
        ]
    }

    struct UInt128Case: CustomTestStringConvertible, Sendable {
        let name: String
        let texts: [String]
        var testDescription: String { name }

        @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        var values: [UInt128] { texts.compactMap { UInt128($0) } }

        static let all: [UInt128Case] = [
            .init(name: "max", texts: ["340282366920938463463374607431768211455"]),
            .init(name: "2^64", texts: ["18446744073709551616"]),
            .init(
                name: "10^30 and 10^30 + 1",
                texts: ["1000000000000000000000000000000", "1000000000000000000000000000001"]),
            .init(name: "UInt64.max and 0", texts: ["18446744073709551615", "0"]),
        ]
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct EncodingConverterTests {
    struct ConversionError: Error, Equatable {}

    struct Money: Codable, Equatable {
        var cents: Int
        var currency: String
    }

    struct Order: Codable, Equatable {
        var total: Money
        var paid: Bool
        var flags: [Bool]
        var small: Int8
    }

    static func encoder() -> LenientJSONEncoder {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.converters.register(Money.self) { money in
            .string("\(Decimal(money.cents) / 100) \(money.currency)")
        }
        encoder.converters.register(Bool.self) { flag in flag ? "T" : "F" }
        return encoder
    }

    @Test func convertersWriteTheirTypes() throws {
        let order = Order(total: Money(cents: 1250, currency: "USD"), paid: true, flags: [false, true], small: 3)
        let data = try Self.encoder().encode(order)
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"flags":["F","T"],"paid":"T","small":3,"total":"12.5 USD"}"#)
    }

    @Test func theInverseConvertersRoundTrip() throws {
        let order = Order(total: Money(cents: 1250, currency: "USD"), paid: false, flags: [true], small: -1)
        let data = try Self.encoder().encode(order)
        var options = LenientJSONDecoder.Options.strict
        options.converters.register(Bool.self) { json in json == "T" }
        options.converters.register(Money.self) { json in
            let parts = json.stringValue?.split(separator: " ") ?? []
            guard parts.count == 2, let amount = Double(parts[0]) else { throw ConversionError() }
            return Money(cents: Int((amount * 100).rounded()), currency: String(parts[1]))
        }
        let (decoded, report) = try LenientJSONDecoder(options: options).decodeWithReport(Order.self, from: data)
        #expect(decoded == order)
        #expect(report.issues.map(\.path) == ["total", "paid", "flags[0]"])
    }

    @Test func withoutConvertersTypesEncodeThemselves() throws {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let order = Order(total: Money(cents: 5, currency: "EUR"), paid: true, flags: [], small: 1)
        let data = try encoder.encode(order)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"flags":[],"paid":true,"small":1,"total":{"cents":5,"currency":"EUR"}}"#)
        #expect(encoder.converters.isEmpty)
        #expect(!encoder.converters.contains(Money.self))
    }

    @Test func aThrowingConverterFailsTheEncodeWithThePath() throws {
        let encoder = LenientJSONEncoder()
        encoder.converters.register(Money.self) { _ in throw ConversionError() }
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode([Order(total: Money(cents: 1, currency: "X"), paid: true, flags: [], small: 0)])
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 0", "total"])
        #expect(context.underlyingError as? ConversionError == ConversionError())
    }

    @Test func arraysOfStandardTypesUseTheirConverters() throws {
        let encoder = LenientJSONEncoder()
        encoder.converters.register(Int.self) { number in .string(String(number, radix: 16)) }
        encoder.converters.register(String.self) { text in .string(text.uppercased()) }
        encoder.converters.register(Double.self) { number in .string("\(number)") }
        #expect(try encoder.encodeToJSONValue([255, 16]) == ["ff", "10"])
        #expect(try encoder.encodeToJSONValue(["a", "b"]) == ["A", "B"])
        #expect(try encoder.encodeToJSONValue([0.5]) == ["0.5"])
    }

    @Test func removingAConverterRestoresTheTypesOwnEncoding() throws {
        let encoder = Self.encoder()
        encoder.converters.removeConverter(for: Bool.self)
        #expect(try encoder.encodeToJSONValue(true) == .bool(true))
        #expect(try encoder.encodeToJSONValue(Money(cents: 100, currency: "USD")) == "1 USD")
    }
}

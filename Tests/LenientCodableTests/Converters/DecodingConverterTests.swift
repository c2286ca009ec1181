// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct DecodingConverterTests {
    struct ConversionError: Error, Equatable {
        var text: String
    }

    /// Its own JSON form is `{"cents": 1250, "currency": "USD"}`; the converter reads two others.
    struct Money: Codable, Equatable {
        var cents: Int
        var currency: String
    }

    struct Order: Codable, Equatable {
        var total: Money
        var paid: Bool
    }

    struct OptionalOrder: Codable, Equatable {
        var total: Money?
    }

    /// `"12.5 USD"` or `{"amount": 12.5, "currency": "USD"}`.
    static func money(from json: JSONValue) throws -> Money {
        if let text = json.stringValue {
            let parts = text.split(separator: " ")
            guard parts.count == 2, let amount = Decimal(string: String(parts[0])) else {
                throw ConversionError(text: text)
            }
            return Money(cents: NSDecimalNumber(decimal: amount * 100).intValue, currency: String(parts[1]))
        }
        guard let amount = json["amount"]?.doubleValue, let currency = json["currency"]?.stringValue else {
            throw ConversionError(text: "\(json)")
        }
        return Money(cents: Int((amount * 100).rounded()), currency: currency)
    }

    /// A service whose booleans are "T" and "F"; any other string is `false` to it.
    static func serviceBool(from json: JSONValue) throws -> Bool {
        guard let text = json.stringValue else { throw ConversionError(text: "\(json)") }
        return text == "T"
    }

    static func options(_ base: LenientJSONDecoder.Options) -> LenientJSONDecoder.Options {
        var options = base
        options.converters.register(Money.self, money(from:))
        return options
    }

    static let usd1250 = Money(cents: 1250, currency: "USD")

    @Test(
        arguments: [LenientJSONDecoder.Options.strict, .lenient],
        [#""12.5 USD""#, #"{"amount": 12.5, "currency": "USD"}"#])
    func moneyConverterReadsBothForms(base: LenientJSONDecoder.Options, total: String) throws {
        let decoder = LenientJSONDecoder(options: Self.options(base))
        let (order, report) = try decoder.decodeWithReport(Order.self, from: #"{"total": \#(total), "paid": true}"#)
        #expect(order == Order(total: Self.usd1250, paid: true))
        #expect(report.issues.map(\.kind) == [.coerced])
        let issue = try #require(report.issues.first)
        #expect(issue.path == "total")
        #expect(issue.message.contains("converter registered for Money"))
        #expect(issue.found == (try JSONValue(parsing: total)))
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func theTypesOwnFormIsNotConverted(base: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: Self.options(base))
        let (money, report) = try decoder.decodeWithReport(Money.self, from: #"{"cents": 99, "currency": "EUR"}"#)
        #expect(money == Money(cents: 99, currency: "EUR"))
        #expect(report.isEmpty)
    }

    @Test func aConverterForAnotherDateFormatRunsWhenTheFormatListFails() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.converters.register(Date.self) { json in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "dd.MM.yyyy"
            guard let text = json.stringValue, let date = formatter.date(from: text) else {
                throw ConversionError(text: "\(json)")
            }
            return date
        }
        let decoder = LenientJSONDecoder(options: options)
        let (dates, report) = try decoder.decodeWithReport([Date].self, from: #"["20.11.2025", 0]"#)
        #expect(dates == [Date(timeIntervalSince1970: 1_763_596_800), Date(timeIntervalSince1970: 0)])
        #expect(report.issues.map(\.path) == ["[0]"])
    }

    // MARK: Standard types

    struct Flags: Codable, Equatable {
        var active: Bool
        var archived: Bool?
    }

    struct BooleanCase: CustomTestStringConvertible, Sendable {
        var json: String
        var expected: Flags
        var kinds: [DecodingIssue.Kind]
        var testDescription: String { json }
    }

    @Test(arguments: [
        BooleanCase(
            json: #"{"active": "T", "archived": "F"}"#, expected: Flags(active: true, archived: false),
            kinds: [.coerced, .coerced]),
        // The converter is asked before the table: to this service "yes" is not "T".
        BooleanCase(json: #"{"active": "yes"}"#, expected: Flags(active: false, archived: nil), kinds: [.coerced]),
        BooleanCase(
            json: #"{"active": true, "archived": false}"#, expected: Flags(active: true, archived: false), kinds: []),
        // Not a string: the converter throws, and the table still reads the number.
        BooleanCase(json: #"{"active": 1}"#, expected: Flags(active: true, archived: nil), kinds: [.coerced]),
    ])
    func aBooleanConverterOverridesTheTable(testCase: BooleanCase) throws {
        var options = LenientJSONDecoder.Options.lenient
        options.converters.register(Bool.self, Self.serviceBool(from:))
        let (flags, report) = try LenientJSONDecoder(options: options).decodeWithReport(Flags.self, from: testCase.json)
        #expect(flags == testCase.expected)
        #expect(report.issues.map(\.kind) == testCase.kinds)
    }

    @Test func aBooleanConversionIsReportedWithItsConverter() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.converters.register(Bool.self, Self.serviceBool(from:))
        let (_, report) = try LenientJSONDecoder(options: options).decodeWithReport(
            Flags.self, from: #"{"active":"T"}"#)
        #expect(
            report.issues == [
                DecodingIssue(
                    path: "active", kind: .coerced,
                    message: #"Converted string "T" to Bool with the converter registered for Bool."#, found: "T")
            ])
    }

    @Test func strictStillRunsRegisteredConverters() throws {
        var options = LenientJSONDecoder.Options.strict
        options.converters.register(Bool.self, Self.serviceBool(from:))
        options.converters.register(Int.self) { json in
            guard let text = json.stringValue, let value = Int(text, radix: 16) else { throw ConversionError(text: "") }
            return value
        }
        struct Row: Decodable, Equatable {
            var flag: Bool
            var count: Int
        }
        let row = try LenientJSONDecoder(options: options).decode(Row.self, from: #"{"flag": "T", "count": "ff"}"#)
        #expect(row == Row(flag: true, count: 255))
        // Every other leniency stays off.
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Row.self, from: #"{"flag": 1, "count": 1}"#)
        }
    }

    @Test func nullNeverReachesAConverter() throws {
        var options = LenientJSONDecoder.Options.strict
        options.converters.register(Bool.self) { _ in true }
        let flags = try LenientJSONDecoder(options: options).decode(
            Flags.self, from: #"{"active": false, "archived": null}"#)
        #expect(flags == Flags(active: false, archived: nil))
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Flags.self, from: #"{"active": null}"#)
        }
        // Foundation's error for a null Bool, as without the converter.
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("Expected typeMismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["active"])
    }

    // MARK: Failures

    @Test func aThrowingConverterFailsStrictWithThePathAndItsError() throws {
        let decoder = LenientJSONDecoder(options: Self.options(.strict))
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(
                [Order].self, from: #"[{"total": "12.5 USD", "paid": true}, {"total": "lots", "paid": true}]"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 1", "total"])
        #expect(context.underlyingError as? ConversionError == ConversionError(text: "lots"))
        #expect(context.debugDescription.contains("converter registered for Money"))
    }

    @Test func aThrowingConverterDefaultsInLenient() throws {
        struct Wallet: Codable, Equatable, DefaultValue {
            var balance: Money
            static let defaultValue = Wallet(balance: Money(cents: 0, currency: "XXX"))
        }
        var options = LenientJSONDecoder.Options.lenient
        options.converters.register(Wallet.self) { _ in throw ConversionError(text: "never") }
        let decoder = LenientJSONDecoder(options: options)
        struct Account: Codable, Equatable {
            var wallet: Wallet
        }
        let (account, report) = try decoder.decodeWithReport(Account.self, from: #"{"wallet": "empty"}"#)
        #expect(account == Account(wallet: .defaultValue))
        #expect(report.issues.map(\.kind) == [.defaulted])
        #expect(report.issues.first?.message.contains("converter registered for Wallet") == true)
    }

    @Test func aThrowingConverterGivesNilInAnOptional() throws {
        let decoder = LenientJSONDecoder(options: Self.options(.lenient))
        let (order, report) = try decoder.decodeWithReport(OptionalOrder.self, from: #"{"total": "lots"}"#)
        #expect(order == OptionalOrder(total: nil))
        #expect(report.issues.map(\.kind) == [.defaulted])
        #expect(report.issues.map(\.path) == ["total"])
    }

    @Test func aThrowingConverterDropsTheElementInLenient() throws {
        let decoder = LenientJSONDecoder(options: Self.options(.lenient))
        let (prices, report) = try decoder.decodeWithReport([Money].self, from: #"["12.5 USD", "lots", "1 EUR"]"#)
        #expect(prices == [Self.usd1250, Money(cents: 100, currency: "EUR")])
        #expect(report.issues.map(\.kind) == [.coerced, .droppedElement, .coerced])
        #expect(report.issues.map(\.path) == ["[0]", "[1]", "[2]"])
    }

    @Test func whenTheConverterCannotHelpTheTypesLenientDecodingStands() throws {
        let decoder = LenientJSONDecoder(options: Self.options(.lenient))
        let (money, report) = try decoder.decodeWithReport(Money.self, from: #"{"cents": "99", "currency": "EUR"}"#)
        #expect(money == Money(cents: 99, currency: "EUR"))
        #expect(report.issues.map(\.kind) == [.coerced])
        #expect(report.issues.map(\.path) == ["cents"])
    }

    // MARK: Isolation

    @Test func convertersDoNotLeakBetweenOptionsValues() throws {
        let withConverter = Self.options(.strict)
        let without = LenientJSONDecoder.Options.strict
        #expect(withConverter != without)
        #expect(withConverter == withConverter)
        #expect(withConverter.converters.contains(Money.self))
        #expect(!without.converters.contains(Money.self))
        // The same closure registered twice is two registrations.
        #expect(Self.options(.strict) != withConverter)
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: without).decode(Money.self, from: #""12.5 USD""#)
        }
        #expect(try LenientJSONDecoder(options: withConverter).decode(Money.self, from: #""12.5 USD""#) == Self.usd1250)
        var removed = withConverter
        removed.converters.removeConverter(for: Money.self)
        #expect(removed.converters.isEmpty)
        #expect(removed == without)
    }

    /// A decoder remembers what it learned about a type between decodes; a setting changed after
    /// a decode must still apply to the next one, in both directions.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func converterRegisteredOrRemovedBetweenDecodesAppliesToTheNext(base: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: base)
        let plain = Data(#"{"total": {"cents": 1250, "currency": "USD"}, "paid": true}"#.utf8)
        let text = Data(#"{"total": "12.5 USD", "paid": true}"#.utf8)
        #expect(try decoder.decode(Order.self, from: plain) == Order(total: Self.usd1250, paid: true))
        #expect(throws: DecodingError.self) { try decoder.decode(Order.self, from: text) }

        decoder.options.converters.register(Money.self, Self.money(from:))
        #expect(try decoder.decode(Order.self, from: text) == Order(total: Self.usd1250, paid: true))

        decoder.options.converters.removeConverter(for: Money.self)
        #expect(throws: DecodingError.self) { try decoder.decode(Order.self, from: text) }
        let encoded = try LenientJSONEncoder().encode(Order(total: Self.usd1250, paid: true))
        #expect(try decoder.decode(Order.self, from: encoded) == Order(total: Self.usd1250, paid: true))
    }
}

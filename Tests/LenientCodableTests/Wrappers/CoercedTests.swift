// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct CoercedTests {
    // MARK: Integers

    static let intRows: [WrapperCoercionCase<Int>] = [
        .init("42", 42), .init(#""42""#, 42), .init(#"" 42 ""#, 42), .init(#""4.2e1""#, 42), .init(#""+7""#, 7),
        .init(#""007""#, 7), .init("42.0", 42), .init("4.2e1", 42), .init("4.9", 4), .init("-4.9", -4),
        .init(#""4.9""#, 4), .init(#""-4.9""#, -4), .init("true", 1), .init("false", 0), .init("-0.5", 0),
        .init(#""abc""#, nil), .init(#""""#, nil), .init(#""4 2""#, nil), .init(#""0x2A""#, nil), .init("null", nil),
        .init("{}", nil), .init("[1]", nil), .init("1e30", nil), .init(#""1e30""#, nil),
        .init("9223372036854775808", nil), .init(#""9223372036854775808""#, nil), .init("-9223372036854779904", nil),
        .init("9223372036854775807", .max), .init(#""-9223372036854775808""#, .min),
    ]

    @Test(arguments: intRows, WrapperDecoder.allCases)
    func int(_ row: WrapperCoercionCase<Int>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    @Test(arguments: IntegerWidthCase.all, WrapperDecoder.allCases)
    func everyIntegerWidthKeepsItsRange(_ row: IntegerWidthCase, decoder: WrapperDecoder) throws {
        try row.check(decoder)
    }

    // MARK: Floating point and Decimal

    static let doubleRows: [WrapperCoercionCase<Double>] = [
        .init("2.5", 2.5), .init(#""2.5""#, 2.5), .init(#"" 1e3 ""#, 1000), .init("42", 42),
        .init(#""-0.125""#, -0.125),
        .init(#""NaN""#, .nan), .init(#""nan""#, .nan), .init(#""Infinity""#, .infinity),
        .init(#""-Infinity""#, -.infinity), .init("true", 1), .init("false", 0), .init(#""abc""#, nil),
        .init(#""2.5kg""#, nil), .init("null", nil), .init("[]", nil),
    ]

    @Test(arguments: doubleRows, WrapperDecoder.allCases)
    func double(_ row: WrapperCoercionCase<Double>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder, matches: sameFloatingPoint)
    }

    static let floatRows: [WrapperCoercionCase<Float>] = [
        .init("2.5", 2.5), .init(#""2.5""#, 2.5), .init("7", 7), .init(#""-Infinity""#, -.infinity),
        .init(#""NaN""#, .nan), .init("true", 1), .init("1e300", nil), .init(#""1e300""#, nil), .init(#""x""#, nil),
        .init("null", nil),
    ]

    @Test(arguments: floatRows, WrapperDecoder.allCases)
    func float(_ row: WrapperCoercionCase<Float>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder, matches: sameFloatingPoint)
    }

    static let decimalRows: [WrapperCoercionCase<Decimal>] = [
        .init("12.5", Decimal(string: "12.5")), .init(#""12.50""#, Decimal(string: "12.5")),
        .init("0.1", Decimal(string: "0.1")), .init(#""0.1""#, Decimal(string: "0.1")),
        .init(#"" -3.75 ""#, Decimal(string: "-3.75")), .init("42", 42), .init(#""1e-3""#, Decimal(string: "0.001")),
        .init(#""123456789012345678901234567890""#, Decimal(string: "123456789012345678901234567890")),
        .init("true", 1), .init("false", 0), .init(#""12abc""#, nil), .init(#""NaN""#, nil), .init(#""""#, nil),
        .init("null", nil), .init("{}", nil),
    ]

    @Test(arguments: decimalRows, WrapperDecoder.allCases)
    func decimal(_ row: WrapperCoercionCase<Decimal>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    // MARK: Bool and String

    static let boolRows: [WrapperCoercionCase<Bool>] = [
        .init("true", true), .init("false", false), .init("1", true), .init("0", false), .init("2", true),
        .init("-1", true), .init("0.0", false), .init("0.5", true), .init(#""true""#, true), .init(#""FALSE""#, false),
        .init(#""yes""#, true), .init(#""No""#, false), .init(#""y""#, true), .init(#""N""#, false),
        .init(#""1""#, true), .init(#""0""#, false), .init(#""on""#, true), .init(#""OFF""#, false),
        .init(#"" yes ""#, true), .init(#""maybe""#, nil), .init(#""2""#, nil), .init(#""""#, nil),
        .init("null", nil), .init("[]", nil), .init("1e-400", false), .init("5e-324", true), .init("-0.0", false),
    ]

    @Test(arguments: boolRows, WrapperDecoder.allCases)
    func bool(_ row: WrapperCoercionCase<Bool>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    static let stringRows: [WrapperCoercionCase<String>] = [
        .init(#""abc""#, "abc"), .init(#"" padded ""#, " padded "), .init(#""null""#, "null"), .init("42", "42"),
        .init("-7", "-7"), .init("1.5", "1.5"), .init("18446744073709551615", "18446744073709551615"),
        .init("true", "true"), .init("false", "false"), .init("null", nil), .init("{}", nil), .init("[1]", nil),
    ]

    @Test(arguments: stringRows, WrapperDecoder.allCases)
    func string(_ row: WrapperCoercionCase<String>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    @Test(arguments: WrapperDecoder.allCases)
    func stringFromANumberKeepsTheLiteralOnlyWhereTheDecoderShowsIt(decoder: WrapperDecoder) throws {
        let box = try decoder.decode(CoercedBox<String>.self, from: #"{"value":1.10}"#)
        #expect(box.value == (decoder == .strictLenientJSONDecoder ? "1.10" : "1.1"))
    }

    // MARK: Date, URL, Data

    static let instant = Date(timeIntervalSince1970: 1_795_167_000)  // 2026-11-20T09:30:00Z, a Friday

    static let dateRows: [WrapperCoercionCase<Date>] = [
        .init(#""2026-11-20T09:30:00Z""#, instant), .init(#""2026-11-20T10:30:00+01:00""#, instant),
        .init(#""2026-11-20T09:30:00+0000""#, instant), .init(#""2026-11-20 09:30:00""#, instant),
        .init(#""2026-11-20T09:30:00.500Z""#, instant.addingTimeInterval(0.5)),
        .init("1795167000", instant), .init("1795167000000", instant),
        .init("1795167000.5", instant.addingTimeInterval(0.5)), .init(#""1795167000""#, instant),
        .init(#""1795167000000""#, instant), .init(#""2026-11-20""#, Date(timeIntervalSince1970: 1_795_132_800)),
        .init(#""2026/11/20 09:30:00""#, instant), .init(#""Fri Nov 20 09:30:00 +0000 2026""#, instant),
        .init(#""yesterday""#, nil), .init(#""""#, nil), .init("true", nil), .init("null", nil), .init("{}", nil),
    ]

    @Test(arguments: dateRows, WrapperDecoder.allCases)
    func date(_ row: WrapperCoercionCase<Date>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    static let urlRows: [WrapperCoercionCase<URL>] = [
        .init(#""https://example.com/a?b=c""#, URL(string: "https://example.com/a?b=c")),
        .init(#"" https://example.com/a.png\n""#, URL(string: "https://example.com/a.png")),
        .init(#""/relative/path""#, URL(string: "/relative/path")), .init(#""""#, nil), .init(#""  ""#, nil),
        .init(#""<null>""#, nil), .init("42", nil), .init("false", nil), .init("null", nil),
    ]

    @Test(arguments: urlRows, WrapperDecoder.allCases)
    func url(_ row: WrapperCoercionCase<URL>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    static let dataRows: [WrapperCoercionCase<Data>] = [
        .init(#""AQID""#, Data([1, 2, 3])), .init(#"" AQID ""#, Data([1, 2, 3])), .init(#""""#, Data()),
        .init(#""!!!""#, nil), .init("42", nil), .init("1234", nil), .init("true", nil), .init("null", nil),
    ]

    /// An optional `URL` or `Data` is `nil` for a number or a boolean under every decoder: the table reads them from
    /// strings only, and none of the decoder's own coercions (a number's text) stands in for it.
    /// `.lenient` gives the same `nil`, and reports it.
    @Test(arguments: WrapperDecoder.allCases)
    func anOptionalURLOrDataIsNotMadeFromANumber(decoder: WrapperDecoder) throws {
        struct Profile: Codable, Equatable {
            @Coerced var homepage: URL?
            @Coerced var blob: Data?
        }
        for json in [#"{"homepage":42,"blob":1234}"#, #"{"homepage":false,"blob":true}"#] {
            let profile = try decoder.decode(Profile.self, from: json)
            #expect(profile.homepage == nil, "\(json)")
            #expect(profile.blob == nil, "\(json)")
            let (lenient, report) = try LenientJSONDecoder().decodeWithReport(Profile.self, from: json)
            #expect(lenient == profile, "\(json)")
            #expect(report.issues.map(\.path).sorted() == ["blob", "homepage"], "\(json)")
        }
    }

    @Test(arguments: dataRows, WrapperDecoder.allCases)
    func data(_ row: WrapperCoercionCase<Data>, decoder: WrapperDecoder) throws {
        try expectCoercion(row, under: decoder)
    }

    /// The date strategies a decoder can have, set on Foundation's decoder and on the lenient one
    /// in both modes alike.
    enum DateStrategyDecoder: String, CaseIterable, CustomTestStringConvertible {
        case foundation, lenient, strict
        var testDescription: String { rawValue }

        /// Decodes with `strategy` set, or with the decoder's default when it is `nil`.
        func decode<T: Decodable>(
            _ type: T.Type, from json: String, strategy: JSONDecoder.DateDecodingStrategy?
        ) throws -> T {
            switch self {
            case .foundation:
                let decoder = JSONDecoder()
                if let strategy { decoder.dateDecodingStrategy = strategy }
                return try decoder.decode(type, from: Data(json.utf8))
            case .lenient, .strict:
                let decoder = LenientJSONDecoder(options: self == .strict ? .strict : .lenient)
                if let strategy { decoder.dateDecodingStrategy = strategy }
                return try decoder.decode(type, from: json)
            }
        }
    }

    struct Dates: Codable, Equatable {
        var plain: Date
        @Coerced var wrapped: Date
    }

    static let newYorkFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }()

    /// A strategy set on the decoder reads a wrapped `Date` as it reads a plain one: milliseconds
    /// are not taken for seconds, a format keeps its time zone, a closure is called.
    @Test(arguments: DateStrategyDecoder.allCases)
    func strategyTheUserSetIsHonoured(decoder: DateStrategyDecoder) throws {
        let milliseconds = try decoder.decode(
            Dates.self, from: #"{"plain": 86400000, "wrapped": 86400000}"#, strategy: .millisecondsSince1970)
        #expect(milliseconds.plain == Date(timeIntervalSince1970: 86_400))
        #expect(milliseconds.wrapped == milliseconds.plain)

        let formatted = try decoder.decode(
            Dates.self, from: #"{"plain": "2024-02-01 10:00:00", "wrapped": "2024-02-01 10:00:00"}"#,
            strategy: .formatted(Self.newYorkFormatter))
        #expect(formatted.plain == Date(timeIntervalSince1970: 1_706_799_600))  // 15:00 UTC
        #expect(formatted.wrapped == formatted.plain)

        let custom = try decoder.decode(
            Dates.self, from: #"{"plain": 2, "wrapped": 2}"#,
            strategy: .custom { decoder in
                Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) * 3_600)
            })
        #expect(custom.wrapped == Date(timeIntervalSince1970: 7_200))
    }

    /// Under Foundation's default strategy a number is Unix time for the wrapper, as documented,
    /// and the table's string forms still read where the strategy reads no string.
    @Test(arguments: DateStrategyDecoder.allCases)
    func numbersUnderTheDefaultStrategyAreUnixTime(decoder: DateStrategyDecoder) throws {
        let value = try decoder.decode(CoercedBox<Date>.self, from: #"{"value": 1795167000}"#, strategy: nil)
        #expect(value.value == Self.instant)
        let text = try decoder.decode(
            CoercedBox<Date>.self, from: #"{"value": "2026-11-20 09:30:00"}"#, strategy: .secondsSince1970)
        #expect(text.value == Self.instant)
    }

    /// A numeric string is no date to a strategy of numbers under Foundation's decoder, and the
    /// table reads it as Unix time: the lenient decoder, whatever it would forgive of a plain
    /// `Date`, gives the wrapper the same; a boolean is refused under a strategy as under none.
    @Test(arguments: DateStrategyDecoder.allCases)
    func numericStringsReadAsUnderFoundation(decoder: DateStrategyDecoder) throws {
        let strategies: [JSONDecoder.DateDecodingStrategy] = [
            .deferredToDate, .secondsSince1970, .millisecondsSince1970,
            .custom { try Date(timeIntervalSince1970: $0.singleValueContainer().decode(Double.self)) },
        ]
        for strategy in strategies {
            let value = try decoder.decode(CoercedBox<Date>.self, from: #"{"value": "1795167000"}"#, strategy: strategy)
            #expect(value.value == Self.instant)
        }
    }

    /// A date that only the wrapper's list reads, where a strategy set on the lenient decoder does not, is reported
    /// once, in both modes: the value is the list's under every decoder, and the report says it was forgiven. Under
    /// the lenient preset's default strategy, which reads such strings itself, nothing is reported, as for a plain
    /// `Date`; what the encoder writes with the strategy reads back unreported.
    @Test(arguments: [false, true])
    func datesOnlyTheListReadsAreReported(strict: Bool) throws {
        struct Stamp: Codable, Equatable {
            @Coerced var value: Date
        }
        let rows: [(String, JSONDecoder.DateDecodingStrategy, JSONEncoder.DateEncodingStrategy)] = [
            (#""1795167000""#, .millisecondsSince1970, .millisecondsSince1970),
            (#""1795167000000""#, .secondsSince1970, .secondsSince1970),
            (#""2026-11-20T09:30:00Z""#, .millisecondsSince1970, .millisecondsSince1970),
        ]
        for (json, strategy, encoding) in rows {
            let decoder = LenientJSONDecoder(options: strict ? .strict : .lenient)
            decoder.dateDecodingStrategy = strategy
            let (value, report) = try decoder.decodeWithReport(Stamp.self, from: #"{"value": \#(json)}"#)
            #expect(value.value == Self.instant)
            #expect(report.issues.map(\.path) == ["value"])
            #expect(report.issues.map(\.kind) == [.coerced])
            let encoder = LenientJSONEncoder()
            encoder.dateEncodingStrategy = encoding
            let (again, quiet) = try decoder.decodeWithReport(Stamp.self, from: encoder.encode(value))
            #expect(again == value)
            #expect(quiet.isEmpty)
        }
        let (value, report) = try LenientJSONDecoder(options: strict ? .strict : .lenient).decodeWithReport(
            Stamp.self, from: #"{"value": "1795167000"}"#)
        #expect(value.value == Self.instant)
        #expect(report.issues.map(\.kind) == (strict ? [.coerced] : []))
    }

    /// `.deferredToDate` set on the lenient decoder reads what the lenient encoder wrote with it;
    /// Foundation's decoder cannot tell it from its default, under which a number is Unix time.
    @Test func deferredToDateSetOnBothSidesRoundTrips() throws {
        let value = Dates(plain: Self.instant, wrapped: Date(timeIntervalSince1970: 86_400.25))
        let encoder = LenientJSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate
        for options in [LenientJSONDecoder.Options.lenient, .strict] {
            let decoder = LenientJSONDecoder(options: options)
            decoder.dateDecodingStrategy = .deferredToDate
            #expect(try decoder.decode(Dates.self, from: encoder.encode(value)) == value)
        }
    }

    /// What an encoder writes with a strategy, the decoder with the same strategy reads back to
    /// the same wrapped date; the lenient pair at its defaults too.
    @Test func wrappedDatesRoundTripUnderMatchingStrategies() throws {
        let value = Dates(
            plain: Date(timeIntervalSince1970: 1_795_167_000), wrapped: Date(timeIntervalSince1970: 86_400))
        let strategies: [(JSONEncoder.DateEncodingStrategy, JSONDecoder.DateDecodingStrategy)] = [
            (.millisecondsSince1970, .millisecondsSince1970), (.secondsSince1970, .secondsSince1970),
            (.iso8601, .iso8601), (.formatted(Self.newYorkFormatter), .formatted(Self.newYorkFormatter)),
        ]
        for (encoding, decoding) in strategies {
            let foundationEncoder = JSONEncoder()
            foundationEncoder.dateEncodingStrategy = encoding
            let foundationDecoder = JSONDecoder()
            foundationDecoder.dateDecodingStrategy = decoding
            let lenientEncoder = LenientJSONEncoder()
            lenientEncoder.dateEncodingStrategy = encoding
            let lenientDecoder = LenientJSONDecoder()
            lenientDecoder.dateDecodingStrategy = decoding
            let expected = try foundationDecoder.decode(Dates.self, from: foundationEncoder.encode(value))
            #expect(expected.wrapped == expected.plain.addingTimeInterval(value.wrapped.timeIntervalSince(value.plain)))
            #expect(try lenientDecoder.decode(Dates.self, from: lenientEncoder.encode(value)) == expected)
        }
        let (again, report) = try LenientJSONDecoder().decodeWithReport(
            Dates.self, from: LenientJSONEncoder().encode(value))
        #expect(again == value)
        #expect(report.issues.isEmpty)
    }

    /// The wrapper's report says the same in both modes, with text quoted as the decoder's own
    /// messages quote it.
    @Test func reportMessageIsTheSameInBothModes() throws {
        struct Titled: Decodable {
            @Coerced var subtitle: String?
            @Coerced var title: String
        }
        for options in [LenientJSONDecoder.Options.lenient, .strict] {
            let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                Titled.self, from: #"{"subtitle": 12, "title": 1.50}"#)
            #expect(value.subtitle == "12" && value.title == "1.50")
            #expect(
                report.issues.map(\.message) == [
                    #"Coerced number 12 to String "12"."#, #"Coerced number 1.50 to String "1.50"."#,
                ])
        }
    }

    @Test func propertyListNativeDatesAndDataStillDecode() throws {
        struct Native: Codable {
            @Coerced var date: Date
            @Coerced var data: Data
        }
        let encoded = try PropertyListEncoder().encode(Native(date: Self.instant, data: Data([9, 8])))
        let decoded = try PropertyListDecoder().decode(Native.self, from: encoded)
        #expect(decoded.date == Self.instant)
        #expect(decoded.data == Data([9, 8]))
    }

    // MARK: Errors

    @Test(arguments: WrapperDecoder.allCases)
    func refusedValueNamesWhatWasFound(decoder: WrapperDecoder) throws {
        let error = #expect(throws: DecodingError.self) {
            try decoder.decode(CoercedBox<Int>.self, from: #"{"value":"abc"}"#)
        }
        guard case .typeMismatch(let type, let context)? = error else {
            Issue.record("Expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(type is Int.Type)
        #expect(context.codingPath.map(\.stringValue) == ["value"])
        #expect(context.debugDescription == #"Cannot coerce string "abc" to Int."#)
    }

    @Test func missingKeyOfANonOptionalIsStillAnError() throws {
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(CoercedBox<Int>.self, from: Data("{}".utf8))
        }
        guard case .keyNotFound(let key, _)? = error else {
            Issue.record("Expected keyNotFound, got \(String(describing: error))")
            return
        }
        #expect(key.stringValue == "value")
    }
}

// MARK: - Integer widths

/// A bound of an integer type, in or just out of range, as a number and as a string.
struct IntegerWidthCase: Sendable, CustomTestStringConvertible {
    let typeName: String
    let json: String
    /// The decoded value's description, or `nil` when it must be refused.
    let expected: String?
    private let checkRow: @Sendable (WrapperDecoder, SourceLocation) throws -> Void

    var testDescription: String { "\(typeName) \(json) -> \(expected ?? "refused")" }

    func check(_ decoder: WrapperDecoder, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try checkRow(decoder, sourceLocation)
    }

    private init<T: CoercibleValue & FixedWidthInteger & Sendable>(_ type: T.Type, json: String, expected: String?) {
        typeName = "\(type)"
        self.json = json
        self.expected = expected
        let row = WrapperCoercionCase<T>(json, expected.flatMap { T($0) })
        checkRow = { decoder, sourceLocation in
            #expect((row.expected == nil) == (expected == nil), "bad fixture", sourceLocation: sourceLocation)
            try expectCoercion(row, under: decoder, sourceLocation: sourceLocation)
        }
    }

    static let all: [IntegerWidthCase] =
        cases(for: Int.self) + cases(for: Int8.self) + cases(for: Int16.self) + cases(for: Int32.self)
        + cases(for: Int64.self) + cases(for: UInt.self) + cases(for: UInt8.self) + cases(for: UInt16.self)
        + cases(for: UInt32.self) + cases(for: UInt64.self)

    private static func cases<T: CoercibleValue & FixedWidthInteger & Sendable>(for type: T.Type) -> [IntegerWidthCase]
    {
        let maximum = String(T.max)
        let minimum = String(T.min)
        let aboveMaximum = (Decimal(string: maximum) ?? 0) + 1
        // A property list keeps numbers beyond 64 bits as reals, and the real nearest Int64.min - 1
        // is Int64.min itself: step far enough down for the value to stay out of range there too.
        let belowMinimum = (Decimal(string: minimum) ?? 0) - (T.isSigned && T.bitWidth == 64 ? 4096 : 1)
        return [
            .init(type, json: maximum, expected: maximum),
            .init(type, json: "\"\(maximum)\"", expected: maximum),
            .init(type, json: minimum, expected: minimum),
            .init(type, json: "\" \(minimum) \"", expected: minimum),
            .init(type, json: "\(aboveMaximum)", expected: nil),
            .init(type, json: "\"\(aboveMaximum)\"", expected: nil),
            .init(type, json: "\(belowMinimum)", expected: nil),
            .init(type, json: "\"\(belowMinimum)\"", expected: nil),
            .init(type, json: "\"12.7\"", expected: "12"),
            .init(type, json: "true", expected: "1"),
        ]
    }
}

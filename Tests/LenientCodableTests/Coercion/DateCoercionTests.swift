// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The date row of DESIGN.md's coercion table. With `dateDecodingStrategy` left at its default, `.lenient` reads every
/// form of `DateFormat.standardList` without reporting it (a date in a listed form is not forgiven); a strategy the
/// user sets is honoured exactly, in `.lenient` too.
@Suite struct DateCoercionTests {
    /// 2026-11-20T09:30:00Z, a Friday.
    static let seconds: TimeInterval = 1_795_167_000
    static let moment = Date(timeIntervalSince1970: seconds)
    /// 2026-11-20T00:00:00Z.
    static let midnight = Date(timeIntervalSince1970: 1_795_132_800)

    static let formatListCases: [CoercionCase] = [
        CoercionCase(Date.self, #""2026-11-20T09:30:00Z""#, .clean(moment)),
        CoercionCase(Date.self, #""2026-11-20T09:30:00.250Z""#, .clean(Date(timeIntervalSince1970: seconds + 0.25))),
        CoercionCase(Date.self, #""2026-11-20T10:30:00+0100""#, .clean(moment)),
        CoercionCase(Date.self, #""2026-11-20T09:30:00+0000""#, .clean(moment)),
        CoercionCase(Date.self, #""2026-11-20T09:30:00+00:00""#, .clean(moment)),
        CoercionCase(Date.self, #""2026-11-20T04:30:00-05:00""#, .clean(moment)),
        CoercionCase(Date.self, #""2026-11-20T09:30:00""#, .clean(moment), note: "no offset is UTC"),
        CoercionCase(Date.self, #""2026-11-20 09:30:00""#, .clean(moment)),
        CoercionCase(Date.self, "1795167000", .clean(moment), note: "Unix seconds, not since 2001"),
        CoercionCase(Date.self, "1795167000000", .clean(moment), note: "Unix milliseconds"),
        CoercionCase(Date.self, "1795167000.5", .clean(Date(timeIntervalSince1970: seconds + 0.5))),
        CoercionCase(Date.self, #""1795167000""#, .clean(moment), note: "seconds in a string"),
        CoercionCase(Date.self, #""1795167000000""#, .clean(moment), note: "milliseconds in a string"),
        CoercionCase(Date.self, "99999999999", .clean(Date(timeIntervalSince1970: 99_999_999_999)), note: "below 1e11"),
        CoercionCase(Date.self, "100000000000", .clean(Date(timeIntervalSince1970: 100_000_000)), note: "1e11 is ms"),
        CoercionCase(Date.self, #""2026-11-20""#, .clean(midnight)),
        CoercionCase(Date.self, #""2026/11/20 09:30:00""#, .clean(moment)),
        CoercionCase(Date.self, #""2026/11/20""#, .clean(midnight)),
        CoercionCase(Date.self, #""Fri Nov 20 09:30:00 +0000 2026""#, .clean(moment), note: "Twitter"),
        CoercionCase(Date.self, #""Fri Nov 20 10:30:00 +0100 2026""#, .clean(moment), note: "Twitter"),
        CoercionCase(Date.self, #""Fri, 20 Nov 2026 09:30:00 GMT""#, .clean(moment), note: "RFC 1123"),
        CoercionCase(Date.self, #""yesterday""#, .fails, note: "Date has no default"),
        CoercionCase(Date.self, #""2026-13-40""#, .fails),
        CoercionCase(Date.self, "true", .fails),
        CoercionCase(Date.self, nil, .fails),
        CoercionCase(Date?.self, #""yesterday""#, .forgiven(nil, .defaulted)),
        CoercionCase(Date?.self, "null", .clean(nil)),
        CoercionCase(Date?.self, nil, .clean(nil)),
        CoercionCase(Date?.self, #""2026-11-20""#, .clean(midnight)),
        CoercionCase(Date.self, #""NaN""#, .fails, note: "no date that is not finite"),
        CoercionCase(Date.self, #""-Infinity""#, .fails, note: "no date that is not finite"),
        CoercionCase(Date.self, #""99999999999999999999""#, .fails, note: "past the year 9999"),
        CoercionCase(Date.self, #""-99999999999999""#, .fails, note: "before the year 0"),
        CoercionCase(Date?.self, #""99999999999999999999""#, .forgiven(nil, .defaulted), note: "past the year 9999"),
    ]

    @Test(arguments: formatListCases)
    func formatList(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let setStrategiesCases: [CoercionCase] = {
        var seconds = DecoderConfiguration()
        seconds.dateDecodingStrategy = .secondsSince1970
        var milliseconds = DecoderConfiguration()
        milliseconds.dateDecodingStrategy = .millisecondsSince1970
        var iso = DecoderConfiguration()
        iso.dateDecodingStrategy = .iso8601
        var formatted = DecoderConfiguration()
        formatted.dateDecodingStrategy = .formatted(Self.dayMonthYear)
        var deferred = DecoderConfiguration()
        deferred.dateDecodingStrategy = .deferredToDate
        let notFinite = ["NaN", "nan", "Infinity", "-Infinity", " inf "].flatMap { text in
            [
                CoercionCase(Date.self, "\"\(text)\"", .fails, configuration: seconds, note: "secondsSince1970"),
                CoercionCase(Date.self, "\"\(text)\"", .fails, configuration: milliseconds, note: "milliseconds"),
                CoercionCase(Date.self, "\"\(text)\"", .fails, configuration: deferred, note: "deferredToDate"),
                CoercionCase(
                    Date?.self, "\"\(text)\"", .forgiven(nil, .defaulted), configuration: seconds,
                    note: "secondsSince1970, optional"),
            ]
        }
        return notFinite + [
            CoercionCase(Date.self, "1795167000", .clean(moment), configuration: seconds, note: "secondsSince1970"),
            CoercionCase(
                Date.self, "1795167000000", .clean(Date(timeIntervalSince1970: 1_795_167_000_000)),
                configuration: seconds, note: "secondsSince1970 is exact: no millisecond guess"),
            CoercionCase(
                Date.self, "1795167000", .clean(Date(timeIntervalSince1970: 1_795_167)), configuration: milliseconds,
                note: "millisecondsSince1970 is exact: no second guess"),
            CoercionCase(Date.self, #""2026-11-20T09:30:00Z""#, .clean(moment), configuration: iso, note: "iso8601"),
            CoercionCase(Date.self, "1795167000", .fails, configuration: iso, note: "iso8601 set: no Unix time"),
            CoercionCase(Date.self, #""2026-11-20""#, .fails, configuration: iso, note: "iso8601 set: no pattern"),
            CoercionCase(
                Date?.self, "1795167000", .forgiven(nil, .defaulted), configuration: iso,
                note: "iso8601 set, optional"),
            CoercionCase(Date.self, #""20.11.2026""#, .clean(midnight), configuration: formatted, note: "formatted"),
            CoercionCase(
                Date.self, #""2026-11-20T09:30:00Z""#, .fails, configuration: formatted, note: "formatted set: no ISO"),
        ]
    }()

    @Test(arguments: setStrategiesCases)
    func setStrategyIsHonouredExactly(_ testCase: CoercionCase) {
        testCase.check()
    }

    /// The format list reads no date that the encoder's own default could not write back: a string whose Unix time
    /// falls past the year 9999 is refused, and forgiven with a report, where it made up a date before; a number that no
    /// form reads as such a date is read as Foundation reads it, seconds since 2001, which the encoder then refuses to
    /// write under its default, with an error (set a `dateEncodingStrategy` to write it).
    @Test func theFormatListReadsNoDateItsEncoderCannotWrite() throws {
        for json in [#"{"value":"1e300"}"#, #"{"value":"99999999999999999999"}"#, #"{"value":"-1e20"}"#] {
            let (decoded, report) = try LenientJSONDecoder().decodeWithReport(Box<Date?>.self, from: json)
            #expect(decoded.value == nil, "\(json)")
            #expect(report.issues.map(\.kind) == [.defaulted], "\(json)")
        }
        for json in [#"{"value":1e20}"#, #"{"value":-1e20}"#, #"{"value":253402300800000}"#] {
            let (decoded, report) = try LenientJSONDecoder().decodeWithReport(Box<Date>.self, from: json)
            let foundation = try JSONDecoder().decode(Box<Date>.self, from: Data(json.utf8))
            #expect(decoded.value == foundation.value, "\(json)")
            #expect(report.issues.isEmpty, "\(json)")
            #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(decoded) }
            let encoder = LenientJSONEncoder()
            encoder.dateEncodingStrategy = .deferredToDate
            let decoder = LenientJSONDecoder()
            decoder.dateDecodingStrategy = .deferredToDate
            #expect(try decoder.decode(Box<Date>.self, from: encoder.encode(decoded)) == decoded, "\(json)")
        }
        // The last instant of the year 9999, in milliseconds, is read, and written back as it was read.
        let last = try LenientJSONDecoder().decode(Box<Date>.self, from: #"{"value":253402300799000}"#)
        #expect(last.value == Date(timeIntervalSince1970: 253_402_300_799))
        let written = try LenientJSONEncoder().encode(last)
        #expect(String(decoding: written, as: UTF8.self) == #"{"value":"9999-12-31T23:59:59Z"}"#)
        #expect(try LenientJSONDecoder().decode(Box<Date>.self, from: written) == last)
    }

    /// A date strategy that reads numbers makes no date from a `NaN` or an infinity that the coercion table read from a
    /// string (a `Double` property still takes it): a date that is not finite cannot be written or described. A custom
    /// strategy's closure may read such a number for itself, and make a finite date of it.
    @Test func noDateIsMadeFromANumberThatIsNotFinite() throws {
        let decoder = LenientJSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
            let text = try container.decode(String.self)
            guard text == "epoch" else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a date: \(text)")
            }
            return Date(timeIntervalSince1970: 0)
        }
        struct Event: Codable, Equatable {
            var start: Date?
            var price: Double
        }
        let (event, report) = try decoder.decodeWithReport(Event.self, from: #"{"start":"NaN","price":"NaN"}"#)
        #expect(event.start == nil)
        #expect(event.price.isNaN)
        #expect(report.issues.map(\.path).sorted() == ["price", "start"])
        let epoch = try decoder.decode(Event.self, from: #"{"start":"epoch","price":1}"#)
        #expect(epoch == Event(start: Date(timeIntervalSince1970: 0), price: 1))
        // Round trip of what was read.
        let encoder = LenientJSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let again = try decoder.decode(Event.self, from: try encoder.encode(epoch))
        #expect(again == epoch)
    }

    /// The refusal follows the number into what the closure decodes: a model of its own, as an object or as JSON text
    /// in a string. A closure that handles the number itself and makes a finite date keeps its date.
    @Test func aCustomStrategysNumbersThatAreNotFinite() throws {
        struct Seconds: Codable { var t: Double }
        struct Ratio: Codable { var t: Double, scale: Double }
        struct Event: Codable, Equatable { var at: Date? }
        let throughModel = LenientJSONDecoder()
        throughModel.dateDecodingStrategy = .custom { decoder in
            Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Seconds.self).t)
        }
        for json in [#"{"at":{"t":"NaN"}}"#, #"{"at":"{\"t\":\"-Infinity\"}"}"#] {
            let (event, report) = try throughModel.decodeWithReport(Event.self, from: json)
            #expect(event.at == nil, "\(json)")
            #expect(report.issues.map(\.kind).contains(.defaulted), "\(json)")
        }
        let handling = LenientJSONDecoder()
        handling.dateDecodingStrategy = .custom { decoder in
            let ratio = try decoder.singleValueContainer().decode(Ratio.self)
            return Date(timeIntervalSince1970: ratio.scale.isFinite ? ratio.t * ratio.scale : ratio.t)
        }
        let (kept, report) = try handling.decodeWithReport(Event.self, from: #"{"at":{"t":10,"scale":"NaN"}}"#)
        #expect(kept.at == Date(timeIntervalSince1970: 10))
        #expect(report.issues.map(\.path) == ["at.scale"])
        // Foundation's own non-finite numbers, named by the strategy, make its non-finite date.
        let named = LenientJSONDecoder()
        named.dateDecodingStrategy = .secondsSince1970
        named.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = .secondsSince1970
        foundation.nonConformingFloatDecodingStrategy = named.nonConformingFloatDecodingStrategy
        let fromFoundation = try foundation.decode(Event.self, from: Data(#"{"at":"+Inf"}"#.utf8))
        let fromLenient = try named.decode(Event.self, from: #"{"at":"+Inf"}"#)
        #expect(fromLenient.at == fromFoundation.at)
    }

    /// `.deferredToDate` reads seconds since 2001, as Foundation's `Date.init(from:)` does; in `.lenient` it is the
    /// format list only while the strategy was never set — the same number, another date.
    @Test func formatListIsNotSecondsSince2001() throws {
        let json = #"{"value":0}"#
        let lenient = try LenientJSONDecoder().decode(Box<Date>.self, from: json)
        let foundation = try JSONDecoder().decode(Box<Date>.self, from: Data(json.utf8))
        #expect(lenient.value == Date(timeIntervalSince1970: 0))
        #expect(foundation.value == Date(timeIntervalSinceReferenceDate: 0))
    }

    /// A custom list replaces the standard one, and is tried in order.
    @Test func customFormatListIsTriedInOrder() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.dateFormats = [.pattern("dd.MM.yyyy"), .unixTime]
        let decoder = LenientJSONDecoder(options: options)
        let (box, report) = try decoder.decodeWithReport(
            Box<[Date]>.self, from: #"{"value":["20.11.2026",1795167000]}"#)
        #expect(box.value == [Self.midnight, Self.moment])
        #expect(report.isEmpty, "\(report)")

        let (dropped, droppedReport) = try decoder.decodeWithReport(
            Box<[Date]>.self, from: #"{"value":["2026-11-20T09:30:00Z","20.11.2026"]}"#)
        #expect(dropped.value == [Self.midnight], "ISO 8601 is not in this list")
        #expect(droppedReport.issues.map(IssueSummary.init) == [IssueSummary(.droppedElement, "value[0]")])
    }

    /// A weekday name is checked against the date only when the pattern has one.
    @Test func aPatternWithAWeekdayButNoDateReadsAnyWeekday() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.dateFormats = [.pattern("EEE HH:mm")]
        let decoder = LenientJSONDecoder(options: options)
        let (box, report) = try decoder.decodeWithReport(Box<Date>.self, from: #"{"value":"Mon 10:00"}"#)
        #expect(box.value == Date(timeIntervalSince1970: 36_000))
        #expect(report.isEmpty)
    }

    /// The ISO 8601 reader alone (the list holds nothing else): the forms it accepts, each at
    /// 2026-11-20T09:30:00Z plus an offset in seconds, and the near misses it refuses.
    static let iso8601Forms: [(text: String, offset: TimeInterval?)] = [
        ("2026-11-20T09:30:00Z", 0), ("2026-11-20t09:30:00z", 0), ("2026-11-20 09:30:00Z", 0),
        ("2026-11-20T09:30Z", 0), ("2026-11-20T09:30", 0), ("  2026-11-20T09:30:00Z\\n", 0),
        ("2026-11-20T09:30:00.5Z", 0.5), ("2026-11-20T09:30:00,25Z", 0.25), ("2026-11-20T09:30:00.125", 0.125),
        ("2026-11-20T11:30:00+02:00", 0), ("2026-11-20T11:30:00+0200", 0), ("2026-11-20T11:30:00+02", 0),
        ("2026-11-20T04:00:00-05:30", 0), ("2026-11-20T09:30:60Z", 60),
        ("2026-11-20T09:30:00Zx", nil), ("2026-11-20T09:30:00.Z", nil), ("2026-11-20T09:30:00+2", nil),
        ("2026-11-20T09:30:00+02:00x", nil), ("2026-11-20T09:30:00+24:00", nil), ("2026-11-20X09:30:00Z", nil),
        ("2026-11-20T24:00:00Z", nil), ("2026-11-20T09:60:00Z", nil), ("2026-11-20T09:30:61Z", nil),
        ("2026-02-29T09:30:00Z", nil), ("2026-13-20T09:30:00Z", nil), ("2026-11-2T09:30:00Z", nil),
        ("2026-11-20T9:30:00Z", nil), ("2026-11-20", nil), ("", nil),
        // Ruby's Time#to_s, Go's Time.String, Python's str: a space before the zone.
        ("2026-11-20 09:30:00 UTC", 0), ("2026-11-20 09:30:00 utc", 0), ("2026-11-20 09:30:00 GMT", 0),
        ("2026-11-20 10:30:00 +0100", 0), ("2026-11-20 04:30:00 -05:00", 0), ("2026-11-20 09:30:00 Z", 0),
        ("2026-11-20 09:30:00.5 +0000 UTC", 0.5), ("2026-11-20 04:30:00.25 -0500 EST", 0.25),
        ("2026-11-20 09:30:00+00:00", 0), ("2026-11-20 09:30:00.123456+00:00", 0.123456),
        ("2026-11-20 09:30:00 PST", nil), ("2026-11-20 09:30:00UTC", nil), ("2026-11-20 09:30:00  UTC", nil),
        ("2026-11-20 09:30:00 UTC ", 0), ("2026-11-20 09:30:00 +0000 U", nil),
        ("2026-11-20 09:30:00 +0000 UTCXYZ", nil),
        ("2026-11-20 09:30:00 +0000 utc", nil),
    ]

    /// Spellings of other servers in the standard list, beside the ISO 8601 ones above.
    static let otherServerForms: [(text: String, offset: TimeInterval?)] = [
        ("Fri Nov 20 09:30:00 UTC 2026", 0), ("Fri Nov 20 09:30:00 GMT 2026", 0),
        ("Fri, 20 Nov 2026 10:30:00 +0100", 0), ("/Date(1795167000000)/", 0), ("/Date(1795167000500+0100)/", 0.5),
        ("/Date(-1000)/", -1_795_167_001), ("/Date(1795167000000+01)/", nil), ("/Date(abc)/", nil),
        ("Fri Nov 20 09:30:00 PST 2026", nil),
        // A weekday that is not the date's, and a year of two digits where `yyyy` wants four.
        ("Thu Nov 20 09:30:00 UTC 2026", nil), ("Thu, 20 Nov 2026 10:30:00 +0100", nil), ("26-11-20", nil),
        ("26/11/20", nil),
    ]

    @Test(arguments: otherServerForms)
    func standardListReadsOtherServersSpellings(_ text: String, offset: TimeInterval?) throws {
        let (box, report) = try LenientJSONDecoder().decodeWithReport(
            Box<Date?>.self, from: #"{"value":""# + text + #""}"#)
        if let offset {
            #expect(box.value == Date(timeIntervalSince1970: Self.seconds + offset))
            #expect(report.isEmpty, "\(report)")
        } else {
            #expect(box.value == nil)
        }
    }

    /// Ruby's `Time#to_s`, as TMDb and Rails APIs send it, read and written back by the package's own defaults.
    @Test func rubyDateRoundTrips() throws {
        let first = try LenientJSONDecoder().decode(Box<Date>.self, from: #"{"value":"2024-01-22 20:49:56 UTC"}"#)
        #expect(first.value == Date(timeIntervalSince1970: 1_705_956_596))
        let data = try LenientJSONEncoder().encode(first)
        #expect(String(decoding: data, as: UTF8.self) == #"{"value":"2024-01-22T20:49:56Z"}"#)
        #expect(try LenientJSONDecoder().decode(Box<Date>.self, from: data).value == first.value)
    }

    @Test(arguments: iso8601Forms)
    func iso8601Reader(_ text: String, offset: TimeInterval?) throws {
        var options = LenientJSONDecoder.Options.lenient
        options.dateFormats = [.iso8601]
        let decoder = LenientJSONDecoder(options: options)
        let json = #"{"value":""# + text + #""}"#
        if let offset {
            let box = try decoder.decode(Box<Date>.self, from: json)
            #expect(box.value == Date(timeIntervalSince1970: Self.seconds + offset))
        } else {
            #expect(throws: DecodingError.self) { try decoder.decode(Box<Date>.self, from: json) }
        }
    }

    @Test func iso8601ReaderKnowsLeapYears() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.dateFormats = [.iso8601]
        let box = try LenientJSONDecoder(options: options).decode(
            Box<[Date]>.self, from: #"{"value":["2024-02-29T00:00:00Z","2000-02-29T00:00:00Z"]}"#)
        #expect(box.value == [Date(timeIntervalSince1970: 1_709_164_800), Date(timeIntervalSince1970: 951_782_400)])
    }

    private static let dayMonthYear: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "dd.MM.yyyy"
        return formatter
    }()
}

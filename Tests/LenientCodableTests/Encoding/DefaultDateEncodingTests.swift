// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// DESIGN.md's encoder date default: with `dateEncodingStrategy` left unset, `LenientJSONEncoder` writes ISO 8601 in
/// UTC, with a fraction only when the date has one, and `LenientJSONDecoder()` reads back the identical `Date`, bit
/// for bit, from year 1 to 9999. Any strategy set explicitly writes what `JSONEncoder` writes.
@Suite struct DefaultDateEncodingTests {
    struct Event: Codable, Equatable {
        var at: Date
    }

    struct TextCase: Sendable, CustomTestStringConvertible {
        var interval: TimeInterval
        var text: String
        var testDescription: String { text }
    }

    /// Seconds since 2001 and the text the encoder writes for them.
    static let textCases: [TextCase] = [
        TextCase(interval: 736_250_400, text: "2024-05-01T10:00:00Z"),
        TextCase(interval: 736_250_400.5, text: "2024-05-01T10:00:00.5Z"),
        TextCase(interval: 736_250_400.125, text: "2024-05-01T10:00:00.125Z"),
        TextCase(interval: 736_250_400.1, text: "2024-05-01T10:00:00.1Z"),
        TextCase(interval: 0, text: "2001-01-01T00:00:00Z"),
        TextCase(interval: -0.25, text: "2000-12-31T23:59:59.75Z"),
        TextCase(interval: -1_109_289_600, text: "1965-11-07T00:00:00Z"),
        TextCase(interval: -978_307_200.001, text: "1969-12-31T23:59:59.999Z"),
        TextCase(interval: -63_113_904_000, text: "0001-01-01T00:00:00Z"),
        TextCase(interval: 63_113_904_000, text: "4001-01-01T00:00:00Z"),
        TextCase(interval: 252_423_993_599, text: "9999-12-31T23:59:59Z"),
        TextCase(
            interval: .leastNonzeroMagnitude, text: "2001-01-01T00:00:00." + String(repeating: "0", count: 323) + "5Z"),
    ]

    @Test(arguments: textCases)
    func unsetStrategyWritesISO8601InUTC(_ testCase: TextCase) throws {
        let date = Date(timeIntervalSinceReferenceDate: testCase.interval)
        let data = try LenientJSONEncoder().encode(Event(at: date))
        #expect(String(decoding: data, as: UTF8.self) == #"{"at":"\#(testCase.text)"}"#)
        let decoded = try LenientJSONDecoder().decodeWithReport(Event.self, from: data)
        #expect(decoded.value.at.timeIntervalSinceReferenceDate.bitPattern == testCase.interval.bitPattern)
        #expect(decoded.report.isEmpty)
    }

    /// The issue's example: the date Foundation's default would shift by 31 years under the lenient decoder.
    @Test func unixTimeComesBackUnshifted() throws {
        let first = try LenientJSONDecoder().decode(Event.self, from: #"{"at":1714557600}"#)
        let data = try LenientJSONEncoder().encode(first)
        #expect(String(decoding: data, as: UTF8.self) == #"{"at":"2024-05-01T10:00:00Z"}"#)
        #expect(try LenientJSONDecoder().decode(Event.self, from: data) == first)
    }

    /// Whole seconds agree with Foundation's own ISO 8601 formatting from 1583 to 9999. (Before the Gregorian
    /// reform of October 1582, Foundation's calendar is Julian; ISO 8601, and this package, use the proleptic
    /// Gregorian calendar throughout.)
    @Test func wholeSecondsMatchFoundationsISO8601() throws {
        var generator = RandomModelRoundTripTests.Generator(state: 7)
        let style = Date.ISO8601FormatStyle()
        let encoder = LenientJSONEncoder()
        // 1583-01-01T00:00:00Z.
        let gregorianStart: Int64 = -13_190_860_800
        #expect(
            try encoder.encode(Date(timeIntervalSinceReferenceDate: Double(gregorianStart)))
                == Data(#""1583-01-01T00:00:00Z""#.utf8))
        for _ in 0..<2000 {
            let seconds = Double(Int64.random(in: gregorianStart...252_423_993_599, using: &generator))
            let date = Date(timeIntervalSinceReferenceDate: seconds)
            let data = try encoder.encode([date])
            #expect(String(decoding: data, as: UTF8.self) == #"["\#(date.formatted(style))"]"#, "\(seconds)")
        }
    }

    /// Random instants from year 1 to 9999 with any fraction: uniform in time, and uniform in bit patterns (every
    /// magnitude of fraction down to subnormals, which a uniform draw in time never reaches).
    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func everyDoubleInRangeRoundTripsBitForBit(seed: UInt64) throws {
        var generator = RandomModelRoundTripTests.Generator(state: seed)
        var intervals: [Double] = []
        for _ in 0..<1000 {
            intervals.append(Double.random(in: -63_145_526_400..<252_423_993_600, using: &generator))
            let bits = UInt64.random(in: 0...Double(252_423_993_599).bitPattern, using: &generator)
            let value = Double(bitPattern: bits)
            intervals.append(Bool.random(using: &generator) && value <= 63_113_904_000 ? -value : value)
            // Milliseconds and microseconds, as clients make them.
            let millis = Int64.random(in: -63_113_904_000_000...252_423_993_599_999, using: &generator)
            intervals.append(Double(millis) / 1000)
            intervals.append(Double(millis) / 1_000_000)
        }
        let encoder = LenientJSONEncoder()
        let decoder = LenientJSONDecoder()
        let dates = intervals.map { Date(timeIntervalSinceReferenceDate: $0) }
        let data = try encoder.encode(dates)
        let (decoded, report) = try decoder.decodeWithReport([Date].self, from: data)
        #expect(report.isEmpty)
        try #require(decoded.count == dates.count)
        for (original, back) in zip(dates, decoded)
        where original.timeIntervalSinceReferenceDate.bitPattern != back.timeIntervalSinceReferenceDate.bitPattern {
            Issue.record(
                "\(original.timeIntervalSinceReferenceDate) came back as \(back.timeIntervalSinceReferenceDate)")
        }
    }

    /// `Date.distantPast` (0000-12-30 in the proleptic Gregorian calendar) and `Date.distantFuture`, which apps use
    /// as sentinels, are written and read back.
    @Test func distantPastAndFutureRoundTrip() throws {
        let dates = [Date.distantPast, Date.distantFuture, Date(timeIntervalSinceReferenceDate: -63_145_526_400)]
        let data = try LenientJSONEncoder().encode(dates)
        #expect(String(decoding: data, as: UTF8.self).contains("0000-12-30T00:00:00Z"))
        #expect(try LenientJSONDecoder().decode([Date].self, from: data) == dates)
    }

    /// The written fraction is the shortest that reads back: no digit could be dropped.
    @Test func fractionsAreShortest() throws {
        let cases: [(TimeInterval, String)] = [
            (0.1, "2001-01-01T00:00:00.1Z"), (1e-3, "2001-01-01T00:00:00.001Z"),
            (736_250_400.123, "2024-05-01T10:00:00.123Z"), (-0.001, "2000-12-31T23:59:59.999Z"),
            (736_250_400.123_456_7, "2024-05-01T10:00:00.1234567Z"),
        ]
        for (interval, text) in cases {
            let data = try LenientJSONEncoder().encode(Date(timeIntervalSinceReferenceDate: interval))
            #expect(String(decoding: data, as: UTF8.self) == #""\#(text)""#)
        }
    }

    /// The reader takes any number of fraction digits and rounds once, to the nearest `Double`.
    @Test func readerRoundsLongFractionsOnce() throws {
        let digits = "123456789012345678901234567890123456789"
        let late = try LenientJSONDecoder().decode(Date.self, from: #""2024-05-01T10:00:00.\#(digits)Z""#)
        #expect(late.timeIntervalSinceReferenceDate == Double("736250400.\(digits)"))
        let early = try LenientJSONDecoder().decode(Date.self, from: #""1965-11-06T23:59:59.\#(digits)Z""#)
        // -1_109_289_601 + 0.123… = -1_109_289_600.876…
        #expect(early.timeIntervalSinceReferenceDate == Double("-1109289600.876543210987654321098765432109876543211"))
        let offset = try LenientJSONDecoder().decode(Date.self, from: #""2024-05-01T12:00:00.5000+02:00""#)
        #expect(offset.timeIntervalSinceReferenceDate == 736_250_400.5)
    }

    /// `-0.0` has no ISO 8601 spelling: it comes back as `+0.0`, an equal `Date`.
    @Test func negativeZeroComesBackEqual() throws {
        let date = Date(timeIntervalSinceReferenceDate: -0.0)
        let data = try LenientJSONEncoder().encode([date])
        #expect(try LenientJSONDecoder().decode([Date].self, from: data) == [date])
    }

    @Test(arguments: [-63_145_526_400.5, -63_145_526_401, 252_423_993_600, 1e300, .nan, .infinity, -.infinity])
    func datesFourDigitYearsCannotWriteThrow(interval: Double) throws {
        let encoder = LenientJSONEncoder()
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode(Event(at: Date(timeIntervalSinceReferenceDate: interval)))
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["at"])
        encoder.dateEncodingStrategy = .deferredToDate
        if interval.isFinite { _ = try encoder.encode(Event(at: Date(timeIntervalSinceReferenceDate: interval))) }
    }

    /// Each strategy set explicitly writes `JSONEncoder`'s bytes, `.deferredToDate` included.
    @Test(arguments: [
        EncoderSetup(name: "deferredToDate", date: .deferredToDate),
        EncoderSetup(name: "secondsSince1970", date: .secondsSince1970),
        EncoderSetup(name: "millisecondsSince1970", date: .millisecondsSince1970),
        EncoderSetup(name: "iso8601", date: .iso8601),
        EncoderSetup(name: "formatted", date: .formatted(EncoderSetup.utcFormatter())),
        EncoderSetup(
            name: "custom", date: .custom { date, encoder in try "d\(date.timeIntervalSince1970)".encode(to: encoder) }),
    ])
    func explicitStrategiesMatchFoundation(setup: EncoderSetup) throws {
        let dates = [0, 736_250_400, 736_250_400.5, -1_109_116_800.25, 1e-7].map(
            Date.init(timeIntervalSinceReferenceDate:))
        try expectSameBytes(dates, formatting: .sortedKeys, setup: setup)
        try expectSameBytes(["at": dates[2]], formatting: .sortedKeys, setup: setup)
        try expectSameBytes(dates[1], formatting: .sortedKeys, setup: setup)
    }

    /// Unset, the property reads as a strategy that writes the same text, also on `JSONEncoder`; setting it back to
    /// what it reads keeps the output.
    @Test func unsetStrategyReadsAsEquivalentCustomStrategy() throws {
        let lenient = LenientJSONEncoder()
        let dates = [736_250_400.5, -0.25].map(Date.init(timeIntervalSinceReferenceDate:))
        let expected = try lenient.encode(dates)
        #expect(String(decoding: expected, as: UTF8.self) == #"["2024-05-01T10:00:00.5Z","2000-12-31T23:59:59.75Z"]"#)
        let foundation = JSONEncoder()
        foundation.dateEncodingStrategy = lenient.dateEncodingStrategy
        #expect(try foundation.encode(dates) == expected)
        let copy = LenientJSONEncoder()
        copy.dateEncodingStrategy = lenient.dateEncodingStrategy
        #expect(try copy.encode(dates) == expected)
    }

    /// JSON written by Foundation's `JSONEncoder` with its defaults is read exactly by a lenient decoder told so.
    @Test func foundationsDefaultOutputReadsWithDeferredToDate() throws {
        let event = Event(at: Date(timeIntervalSinceReferenceDate: 736_250_400.5))
        let data = try JSONEncoder().encode(event)
        let decoder = LenientJSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        #expect(try decoder.decode(Event.self, from: data) == event)
    }
}

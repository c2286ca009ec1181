// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// A form in which servers write dates, for ``LenientJSONDecoder/Options/dateFormats``.
///
/// The lenient decoder tries the forms of its list in order until one reads the value:
///
/// ```swift
/// var options = LenientJSONDecoder.Options.lenient
/// options.dateFormats = [.iso8601, .pattern("dd.MM.yyyy"), .unixTime]
/// ```
///
/// Every form reads dates from the year 0 to 9999 (in UTC) only, the dates ``LenientJSONEncoder``
/// writes when no date strategy is set: a string the encoder could not write back is no date. A
/// number that no form of the list reads is read as Foundation reads it, seconds since 2001.
public struct DateFormat: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, Sendable {
        case iso8601
        case unixTime
        case pattern(String)
    }

    let kind: Kind

    /// ISO 8601 date and time, with or without fractional seconds (any number of digits), with
    /// `Z`, `+0000`, `+00:00` or `+00` as the offset (no offset means UTC), and `T` or a space
    /// between date and time: `2026-11-20T09:30:00Z`, `2026-11-20T09:30:00.123+01:00`,
    /// `2026-11-20 09:30:00`. Also the spellings servers derive from it, with a space before the
    /// zone: Ruby's `Time#to_s` (`2026-11-20 09:30:00 UTC`, `2026-11-20 10:30:00 +0100`) and Go's
    /// `Time.String` (`2026-11-20 09:30:00.5 +0000 UTC`).
    public static let iso8601 = DateFormat(kind: .iso8601)

    /// Seconds or milliseconds since 1970, from a number or a numeric string. Values of
    /// 100 000 000 000 or more (in magnitude) are milliseconds: as seconds they would be
    /// after the year 5000. Also the milliseconds of ASP.NET's JSON dates, `/Date(1705956596000)/`
    /// and `/Date(1705956596000+0100)/`, whose offset does not change the instant.
    public static let unixTime = DateFormat(kind: .unixTime)

    /// A `DateFormatter` pattern (`"yyyy-MM-dd"`, `"EEE MMM dd HH:mm:ss Z yyyy"`), read with
    /// the `en_US_POSIX` locale, in UTC unless the pattern has a zone.
    ///
    /// - Parameter format: The pattern.
    /// - Returns: The date format.
    public static func pattern(_ format: String) -> DateFormat { DateFormat(kind: .pattern(format)) }

    /// The list the lenient decoder starts with: ISO 8601 (with Ruby's and Go's spellings), Unix
    /// time (with .NET's `/Date(…)/`), then YYModel's formats (`yyyy-MM-dd HH:mm:ss`, `yyyy-MM-dd`,
    /// `yyyy/MM/dd HH:mm:ss`, `yyyy/MM/dd`, Twitter's `EEE MMM dd HH:mm:ss Z yyyy`, and RFC 1123's
    /// `EEE, dd MMM yyyy HH:mm:ss zzz`, which also reads RFC 2822's numeric offsets), and Java's
    /// `Date.toString()`, `EEE MMM dd HH:mm:ss zzz yyyy` (in UTC or GMT).
    public static let standardList: [DateFormat] = [
        .iso8601, .unixTime,
        .pattern("yyyy-MM-dd"), .pattern("yyyy/MM/dd HH:mm:ss"), .pattern("yyyy/MM/dd"),
        .pattern("EEE MMM dd HH:mm:ss Z yyyy"), .pattern("EEE, dd MMM yyyy HH:mm:ss zzz"),
        .pattern("EEE MMM dd HH:mm:ss zzz yyyy"),
    ]

    /// The format's name: `iso8601`, `unixTime` or the pattern.
    public var description: String {
        switch kind {
        case .iso8601: "iso8601"
        case .unixTime: "unixTime"
        case .pattern(let format): format
        }
    }

    /// The date a string stands for in this format.
    func date(fromString text: String) -> Date? {
        switch kind {
        case .iso8601:
            return DateFormat.writable(ISO8601Reader.date(from: text))
        case .unixTime:
            if let date = DateFormat.dotNetDate(text) { return DateFormat.writable(date) }
            return CoercionRules.double(fromString: text).flatMap(DateFormat.unixDate)
        case .pattern(let format):
            return DateFormat.writable(PatternCache.shared.date(from: CoercionRules.trimmed(text), format: format))
        }
    }

    /// The date a number stands for in this format (only Unix time reads numbers).
    func date(fromNumber value: Double) -> Date? {
        guard case .unixTime = kind else { return nil }
        return DateFormat.unixDate(value)
    }

    /// `date`, when it falls in the years 0 to 9999, which the encoder writes when no date
    /// strategy is set; `nil` otherwise. A list's format reads no date that its own round trip
    /// would refuse (a Unix time of twenty digits, 1e20 milliseconds).
    static func writable(_ date: Date?) -> Date? {
        guard let date, ISO8601Writer.writableRange.contains(date.timeIntervalSinceReferenceDate) else { return nil }
        return date
    }

    /// The instant of ASP.NET's `/Date(milliseconds[±hhmm])/`, or `nil` for other text.
    static func dotNetDate(_ text: String) -> Date? {
        let text = CoercionRules.trimmed(text)
        guard text.hasPrefix("/Date("), text.hasSuffix(")/") else { return nil }
        var body = text.dropFirst(6).dropLast(2)
        // The offset after the milliseconds names the sender's zone; the milliseconds are UTC.
        if let sign = body.dropFirst().lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = body[body.index(after: sign)...]
            guard offset.count == 4, offset.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            body = body[..<sign]
        }
        guard let milliseconds = Int64(body) else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func unixDate(_ value: Double) -> Date? {
        guard value.isFinite else { return nil }
        let seconds = value.magnitude >= 100_000_000_000 ? value / 1000 : value
        return writable(Date(timeIntervalSince1970: seconds))
    }
}

/// Reads ISO 8601 date-times by hand: faster than a formatter, and exact to the nanosecond.
enum ISO8601Reader {
    static func date(from text: String) -> Date? {
        var text = CoercionRules.trimmed(text)
        return text.withUTF8 { bytes in
            var cursor = Cursor(bytes: bytes)
            return cursor.readDateTime()
        }
    }

    /// A position in the text being read.
    private struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var isAtEnd: Bool { index == bytes.count }
        var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        /// Reads exactly `count` digits.
        mutating func number(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for offset in index..<(index + count) {
                let byte = bytes[offset]
                guard JSONParser.isDigit(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// Skips `byte` when it comes next.
        mutating func expect(_ byte: UInt8) -> Bool {
            guard next == byte else { return false }
            index += 1
            return true
        }

        mutating func readDateTime() -> Date? {
            guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")),
                let day = number(2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
            else { return nil }
            // Whole seconds are counted in an integer from 2001, the reference date `Date` stores its
            // time from, so that no rounding happens before the fraction is added.
            var seconds = (daysFromCivil(year: year, month: month, day: day) - daysFrom1970To2001) * 86_400
            guard let separator = next else { return nil }  // A date alone is a pattern's job.
            guard separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == UInt8(ascii: " ")
            else { return nil }
            index += 1
            guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60 else {
                return nil
            }
            var second = 0
            if expect(UInt8(ascii: ":")) {
                guard let value = number(2), value <= 60 else { return nil }
                second = value
            }
            seconds += hour * 3600 + minute * 60 + second
            var fraction: Range<Int> = index..<index
            if expect(UInt8(ascii: ".")) || expect(UInt8(ascii: ",")) {
                let start = index
                while let byte = next, JSONParser.isDigit(byte) { index += 1 }
                guard index > start else { return nil }
                fraction = start..<index
            }
            if isAtEnd { return date(seconds: seconds, fraction: fraction) }
            // Servers also put a space before the zone: Ruby's `Time#to_s` (`2024-01-22 20:49:56 UTC`,
            // `… +0100`), Go's `Time.String` (`… +0000 UTC`), Python's `str` of a date (`…+00:00`).
            let spaced = expect(UInt8(ascii: " "))
            if expect(UInt8(ascii: "Z")) || expect(UInt8(ascii: "z")) || (spaced && expectUTCName()) {
                return isAtEnd ? date(seconds: seconds, fraction: fraction) : nil
            }
            guard let sign = next, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            index += 1
            guard let offsetHours = number(2) else { return nil }
            var offsetMinutes = 0
            if !isAtEnd && next != UInt8(ascii: " ") {
                _ = expect(UInt8(ascii: ":"))
                guard let value = number(2) else { return nil }
                offsetMinutes = value
            }
            // Go writes the zone's abbreviation after the offset, which says it again.
            if spaced && expect(UInt8(ascii: " ")) && !expectZoneAbbreviation() { return nil }
            guard isAtEnd, offsetHours < 24, offsetMinutes < 60 else { return nil }
            let offset = offsetHours * 3600 + offsetMinutes * 60
            return date(seconds: sign == UInt8(ascii: "+") ? seconds - offset : seconds + offset, fraction: fraction)
        }

        /// Skips `UTC` or `GMT`, in any case, when it comes next.
        mutating func expectUTCName() -> Bool {
            guard bytes.count - index >= 3 else { return false }
            let name = (bytes[index] | 0x20, bytes[index + 1] | 0x20, bytes[index + 2] | 0x20)
            guard
                name == (UInt8(ascii: "u"), UInt8(ascii: "t"), UInt8(ascii: "c"))
                    || name == (UInt8(ascii: "g"), UInt8(ascii: "m"), UInt8(ascii: "t"))
            else { return false }
            index += 3
            return true
        }

        /// Skips a zone abbreviation (`UTC`, `CET`, `AEDT`): two to five ASCII capitals.
        mutating func expectZoneAbbreviation() -> Bool {
            let start = index
            while let byte = next, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { index += 1 }
            return (2...5).contains(index - start)
        }

        /// The date `seconds` whole seconds after 2001 plus the decimal fraction whose digits are at
        /// `fraction`, rounded once, to the nearest `Double`: any number of digits is read exactly,
        /// so the text ``ISO8601Writer`` writes comes back as the same `Date`, bit for bit.
        func date(seconds: Int, fraction: Range<Int>) -> Date? {
            // Trailing zeros change nothing; without other digits the time is a whole number of
            // seconds, which a Double holds exactly in the years four digits can write.
            var end = fraction.upperBound
            while end > fraction.lowerBound, bytes[end - 1] == UInt8(ascii: "0") { end -= 1 }
            guard end > fraction.lowerBound else { return Date(timeIntervalSinceReferenceDate: Double(seconds)) }
            // A view into `bytes`, the text's UTF-8, which `withUTF8` in `date(from:)` keeps valid for
            // the whole read; the view is used here and never kept.
            let digits = UnsafeBufferPointer(rebasing: bytes[fraction.lowerBound..<end])
            // Milliseconds and microseconds: (seconds * 10^n + digits) / 10^n, both exact in a
            // Double, and one division, which rounds correctly.
            if digits.count <= 7 {
                var scale = 1
                var numerator = 0
                for digit in digits {
                    scale *= 10
                    numerator = numerator * 10 + Int(digit - UInt8(ascii: "0"))
                }
                let (scaled, overflow) = seconds.multipliedReportingOverflow(by: scale)
                if !overflow, (scaled + numerator).magnitude < 1 << 53 {
                    return Date(timeIntervalSinceReferenceDate: Double(scaled + numerator) / Double(scale))
                }
            }
            // The decimal text of seconds + 0.digits, which Double's initializer rounds correctly. Below
            // zero, -5 + 0.25 is written -4.75: the whole part moves up by one and the fraction becomes
            // its complement to 1, digit by digit (10 - d for the last digit, 9 - d before it).
            var text: [UInt8] = []
            text.reserveCapacity(digits.count + 24)
            if seconds >= 0 {
                text.append(contentsOf: String(seconds).utf8)
                text.append(UInt8(ascii: "."))
                text.append(contentsOf: digits)
            } else {
                text.append(UInt8(ascii: "-"))
                text.append(contentsOf: String(-(seconds + 1)).utf8)
                text.append(UInt8(ascii: "."))
                for (position, digit) in digits.enumerated() {
                    let complement =
                        position == digits.count - 1
                        ? 10 - (digit - UInt8(ascii: "0")) : 9 - (digit - UInt8(ascii: "0"))
                    text.append(UInt8(ascii: "0") + complement)
                }
            }
            guard let interval = Double(String(decoding: text, as: UTF8.self)) else { return nil }
            return Date(timeIntervalSinceReferenceDate: interval)
        }
    }

    /// The days from 1970-01-01, where ``daysFromCivil(year:month:day:)`` counts from, to 2001-01-01.
    static let daysFrom1970To2001 = 11_323

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let adjustedYear = month <= 2 ? year - 1 : year
        let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
        let yearOfEra = adjustedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Date formatters for patterns, made once per pattern and shared behind a lock.
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    private var formatters: [String: DateFormatter] = [:]
    private var readers: [String: PatternReader?] = [:]
    private let lock = NSLock()

    func date(from text: String, format: String) -> Date? {
        lock.lock()
        let reader: PatternReader?
        if let cached = readers[format] {
            reader = cached
        } else {
            reader = PatternReader(pattern: format)
            readers[format] = .some(reader)
        }
        lock.unlock()
        // Patterns of common fields are read by hand; the rest by a shared DateFormatter.
        if let reader { return reader.date(from: text) }
        lock.lock()
        defer { lock.unlock() }
        let formatter: DateFormatter
        if let cached = formatters[format] {
            formatter = cached
        } else {
            formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(secondsFromGMT: 0)
            formatter.dateFormat = format
            formatters[format] = formatter
        }
        return formatter.date(from: text)
    }
}

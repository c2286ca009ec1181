// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 The text `LenientJSONEncoder` writes for a date when no `dateEncodingStrategy` was set: ISO 8601
 in UTC, with a fraction of a second only when the date has one, and with as many digits as it
 takes for the lenient decoder's ISO 8601 reader to give back the same `Date`, bit for bit.

 A `Date` is a `Double` of seconds since 2001-01-01T00:00:00Z. Take 736_250_400.0625:

     shortest decimal of the Double    "736250400.0625"   (Swift's own, shortest that reads back)
     whole seconds, rounded down       736_250_400        -> 2024-05-01T10:00:00
     fraction digits                   "0625"
     text                              "2024-05-01T10:00:00.0625Z"

 Below zero the whole seconds round down and the fraction is the complement to 1 of the
 decimal's fraction: -0.25 is 2000-12-31T23:59:59.75Z. The reader adds the whole seconds and
 the fraction in decimal and rounds once, so it rebuilds the decimal the writer started from,
 which is the shortest one that reads back as the same `Double`.
 */

import Foundation

enum ISO8601Writer {
    /// The first and last instants four-digit years can write: 0000-01-01T00:00:00Z (year 0 of
    /// the proleptic Gregorian calendar, where `Date.distantPast` falls) and the last
    /// representable instant before 10000-01-01T00:00:00Z, in seconds since 2001.
    static let writableRange: Range<Double> = -63_145_526_400..<252_423_993_600

    /// The text for a date, or `nil` when it is not finite or falls outside the years 0 to 9999.
    static func string(from date: Date) -> String? {
        let interval = date.timeIntervalSinceReferenceDate
        guard writableRange.contains(interval) else { return nil }
        let wholeSeconds = interval.rounded(.down)
        var seconds = Int(wholeSeconds)
        var fraction: [UInt8] = []
        if wholeSeconds != interval {
            let decimal = ShortestDecimal(interval)
            if decimal.isNegative {
                // -4.75: whole seconds -5 and the fraction 0.25.
                fraction = complementToOne(decimal.fractionDigits)
                seconds = fraction.isEmpty ? -decimal.wholePart : -decimal.wholePart - 1
            } else {
                fraction = decimal.fractionDigits
                seconds = decimal.wholePart
            }
        }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDaysSince1970: days + ISO8601Reader.daysFrom1970To2001)
        var text: [UInt8] = []
        text.reserveCapacity(21 + fraction.count + 1)
        append(year, digits: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(month, digits: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(day, digits: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2, to: &text)
        if !fraction.isEmpty {
            text.append(UInt8(ascii: "."))
            text.append(contentsOf: fraction)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    private static func append(_ value: Int, digits: Int, to text: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The digits of 1 - 0.digits, as many as there are (trailing zeros excepted): 10 - d for the
    /// last non-zero digit, 9 - d before it. Empty for empty digits.
    private static func complementToOne(_ digits: [UInt8]) -> [UInt8] {
        guard let last = digits.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return [] }
        var result: [UInt8] = []
        result.reserveCapacity(last + 1)
        for index in 0...last {
            let digit = digits[index] - UInt8(ascii: "0")
            result.append(UInt8(ascii: "0") + (index == last ? 10 - digit : 9 - digit))
        }
        return result
    }

    /// Year, month and day of a day counted from 1970-01-01 in the proleptic Gregorian calendar
    /// (Howard Hinnant's algorithm, the inverse of ``ISO8601Reader/daysFromCivil(year:month:day:)``).
    static func civil(fromDaysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// The shortest decimal that reads back as a given `Double`, split at the decimal point: Swift's
/// own `description` finds the digits; this reads its plain (`-4.75`) and exponent (`1e-05`) forms.
struct ShortestDecimal {
    var isNegative = false
    /// The magnitude's whole part.
    var wholePart = 0
    /// The magnitude's fraction digits, without trailing zeros.
    var fractionDigits: [UInt8] = []

    /// - Parameter value: A finite value whose magnitude is below 2^63.
    init(_ value: Double) {
        var digits: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var exponentSign = 1
        var inExponent = false
        for byte in value.description.utf8 {
            switch byte {
            case UInt8(ascii: "-") where inExponent: exponentSign = -1
            case UInt8(ascii: "-"): isNegative = true
            case UInt8(ascii: "+"): break
            case UInt8(ascii: "."): pointPosition = digits.count
            case UInt8(ascii: "e"), UInt8(ascii: "E"): inExponent = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if inExponent {
                    exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                } else {
                    digits.append(byte)
                }
            default: break
            }
        }
        // The decimal point's place among the digits, after the exponent moves it.
        let point = (pointPosition ?? digits.count) + exponentSign * exponent
        for (index, digit) in digits.enumerated() where index < point {
            wholePart = wholePart * 10 + Int(digit - UInt8(ascii: "0"))
        }
        if point > digits.count {
            for _ in digits.count..<point { wholePart *= 10 }
        }
        if point < 0 { fractionDigits = Array(repeating: UInt8(ascii: "0"), count: -point) }
        if point < digits.count { fractionDigits += digits[max(point, 0)...] }
        while fractionDigits.last == UInt8(ascii: "0") { fractionDigits.removeLast() }
    }
}

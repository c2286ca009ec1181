// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Reads dates in `DateFormatter` patterns made only of the common fields — `yyyy`, `MM`,
/// `MMM`, `dd`, `HH`, `mm`, `ss`, `EEE`, `Z`, `zzz` — and separators, by hand.
///
/// `DateFormatter` goes through ICU and copies its symbol tables on every call: reading the
/// standard list's patterns by hand is two orders of magnitude faster. A pattern with any other
/// field is not supported here and goes to `DateFormatter`.
struct PatternReader {
    enum Field: Equatable {
        case year, month, monthName, day, hour, minute, second, weekdayName, offset, zone
        case literal(UInt8)
    }

    let fields: [Field]

    /// The reader of a pattern, or `nil` when the pattern uses fields this reader does not know.
    init?(pattern: String) {
        var fields: [Field] = []
        var bytes = Array(pattern.utf8)[...]
        while let first = bytes.first {
            let run = bytes.prefix(while: { $0 == first }).count
            let letter = first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z")
            switch (first, run) {
            case (UInt8(ascii: "y"), 4): fields.append(.year)
            case (UInt8(ascii: "M"), 2): fields.append(.month)
            case (UInt8(ascii: "M"), 3): fields.append(.monthName)
            case (UInt8(ascii: "d"), 2): fields.append(.day)
            case (UInt8(ascii: "H"), 2): fields.append(.hour)
            case (UInt8(ascii: "m"), 2): fields.append(.minute)
            case (UInt8(ascii: "s"), 2): fields.append(.second)
            case (UInt8(ascii: "E"), 3): fields.append(.weekdayName)
            case (UInt8(ascii: "Z"), 1): fields.append(.offset)
            case (UInt8(ascii: "z"), 3): fields.append(.zone)
            default:
                guard !letter, first != UInt8(ascii: "'") else { return nil }
                fields.append(contentsOf: repeatElement(.literal(first), count: run))
            }
            bytes = bytes.dropFirst(run)
        }
        self.fields = fields
    }

    private static let monthNames = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    private static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The date the text stands for, in UTC unless the text names an offset.
    func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { date(fromUTF8: $0) }
    }

    /// ``date(from:)`` over the text's bytes, read in place with a cursor: a pattern that does not
    /// match (most of those a list tries) usually fails at its first field, before any copy.
    /// `bytes` is valid only inside the caller's `withUTF8`, which holds the text; nothing here
    /// keeps it, and every read is checked against its count.
    private func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        let count = bytes.count
        var position = 0
        var year = 1970
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var offsetSeconds = 0
        var weekday: Int?
        func number(maximumDigits: Int) -> Int? {
            var value = 0
            let start = position
            while position - start < maximumDigits, position < count, JSONParser.isDigit(bytes[position]) {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return position == start ? nil : value
        }
        func name(in names: [String]) -> Int? {
            guard count - position >= 3 else { return nil }
            // Bytes of the text inside the caller's `withUTF8`, copied into the `String` here.
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<position + 3]), as: UTF8.self)
                .lowercased()
            guard let index = names.firstIndex(of: word) else { return nil }
            position += 3
            return index
        }
        func offset() -> Int? {
            guard position < count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") else {
                return nil
            }
            let sign = bytes[position]
            position += 1
            guard let hours = number(maximumDigits: 2), hours < 24 else { return nil }
            if position < count && bytes[position] == UInt8(ascii: ":") { position += 1 }
            let minutes = number(maximumDigits: 2) ?? 0
            guard minutes < 60 else { return nil }
            let seconds = hours * 3600 + minutes * 60
            return sign == UInt8(ascii: "+") ? seconds : -seconds
        }
        for field in fields {
            switch field {
            case .year:
                // Four digits, as `yyyy` says: `24-05-01` is not the year 24.
                let start = position
                guard let value = number(maximumDigits: 4), position - start == 4 else { return nil }
                year = value
            case .month:
                guard let value = number(maximumDigits: 2), (1...12).contains(value) else { return nil }
                month = value
            case .monthName:
                guard let value = name(in: Self.monthNames) else { return nil }
                month = value + 1
            case .day:
                guard let value = number(maximumDigits: 2), (1...31).contains(value) else { return nil }
                day = value
            case .hour:
                guard let value = number(maximumDigits: 2), value < 24 else { return nil }
                hour = value
            case .minute:
                guard let value = number(maximumDigits: 2), value < 60 else { return nil }
                minute = value
            case .second:
                guard let value = number(maximumDigits: 2), value <= 60 else { return nil }
                second = value
            case .weekdayName:
                guard let value = name(in: Self.weekdayNames) else { return nil }
                weekday = value
            case .offset:
                guard let value = offset() else { return nil }
                offsetSeconds = value
            case .zone:
                if let value = offset() {
                    offsetSeconds = value
                } else {
                    let start = position
                    while position < count,
                        bytes[position] | 0x20 >= UInt8(ascii: "a") && bytes[position] | 0x20 <= UInt8(ascii: "z")
                    {
                        position += 1
                    }
                    // Bytes of the text inside the caller's `withUTF8`, copied into the `String` here.
                    let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                    guard ["gmt", "utc", "ut", "z"].contains(word.lowercased()) else { return nil }
                    if let value = offset() { offsetSeconds = value }
                }
            case .literal(let expected):
                guard position < count, bytes[position] == expected else { return nil }
                position += 1
            }
        }
        guard position == count, day <= ISO8601Reader.daysIn(month: month, year: year) else { return nil }
        let days = ISO8601Reader.daysFromCivil(year: year, month: month, day: day)
        // A weekday name must be the date's (1970-01-01 was a Thursday, index 3 from Monday), when
        // the pattern has a date for it to be the weekday of.
        if let weekday, fields.contains(.day), ((days % 7) + 7 + 3) % 7 != weekday { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

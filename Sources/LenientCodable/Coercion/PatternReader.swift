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
        var bytes = Array(text.utf8)[...]
        var year = 1970
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var offsetSeconds = 0
        func number(maximumDigits: Int) -> Int? {
            let digits = bytes.prefix(maximumDigits).prefix(while: JSONParser.isDigit)
            guard !digits.isEmpty else { return nil }
            bytes = bytes.dropFirst(digits.count)
            return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        func name(in names: [String]) -> Int? {
            guard bytes.count >= 3 else { return nil }
            let word = String(decoding: bytes.prefix(3), as: UTF8.self).lowercased()
            guard let position = names.firstIndex(of: word) else { return nil }
            bytes = bytes.dropFirst(3)
            return position
        }
        func offset() -> Int? {
            guard let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
            bytes = bytes.dropFirst()
            guard let hours = number(maximumDigits: 2), hours < 24 else { return nil }
            if bytes.first == UInt8(ascii: ":") { bytes = bytes.dropFirst() }
            let minutes = number(maximumDigits: 2) ?? 0
            guard minutes < 60 else { return nil }
            let seconds = hours * 3600 + minutes * 60
            return sign == UInt8(ascii: "+") ? seconds : -seconds
        }
        for field in fields {
            switch field {
            case .year:
                guard let value = number(maximumDigits: 4) else { return nil }
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
                guard name(in: Self.weekdayNames) != nil else { return nil }
            case .offset:
                guard let value = offset() else { return nil }
                offsetSeconds = value
            case .zone:
                if let value = offset() {
                    offsetSeconds = value
                } else {
                    let word = bytes.prefix(while: { $0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z") })
                    guard ["gmt", "utc", "ut", "z"].contains(String(decoding: word, as: UTF8.self).lowercased()) else {
                        return nil
                    }
                    bytes = bytes.dropFirst(word.count)
                    if let value = offset() { offsetSeconds = value }
                }
            case .literal(let expected):
                guard bytes.first == expected else { return nil }
                bytes = bytes.dropFirst()
            }
        }
        guard bytes.isEmpty, day <= ISO8601Reader.daysIn(month: month, year: year) else { return nil }
        let days = ISO8601Reader.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}

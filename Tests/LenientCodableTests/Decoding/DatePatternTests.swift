// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The standard date list's patterns are read by hand; they must read what `DateFormatter`
/// reads, to the second.
@Suite struct DatePatternTests {
    static let patterns = [
        "yyyy-MM-dd", "yyyy/MM/dd HH:mm:ss", "yyyy/MM/dd", "EEE MMM dd HH:mm:ss Z yyyy",
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "dd.MM.yyyy HH:mm",
    ]

    static func formatter(_ pattern: String, zone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter
    }

    @Test(arguments: patterns)
    func readsWhatDateFormatterWrites(pattern: String) throws {
        var options = LenientJSONDecoder.Options.lenient
        options.dateFormats = [.pattern(pattern)]
        let decoder = LenientJSONDecoder(options: options)
        let zones = [TimeZone(secondsFromGMT: 0), TimeZone(secondsFromGMT: 19_800), TimeZone(secondsFromGMT: -25_200)]
        var seconds: TimeInterval = -2_000_000_000
        while seconds < 4_000_000_000 {
            for case let zone? in zones {
                let text = Self.formatter(pattern, zone: zone).string(from: Date(timeIntervalSince1970: seconds))
                let expected = try #require(
                    Self.formatter(pattern, zone: TimeZone(secondsFromGMT: 0) ?? zone).date(from: text))
                let decoded = try decoder.decode(Date.self, from: "\"\(text)\"")
                #expect(decoded == expected, "\(pattern): \(text)")
            }
            seconds += 86_400 * 37 + 3_601 * 7 + 59
        }
    }

    @Test(arguments: ["2026-13-01", "2026-02-30", "Wed Nov 20 09:30:00 +0000", "2026/11/20 25:00:00", "20.11.2026"])
    func refusesTextThatDoesNotFit(text: String) throws {
        var options = LenientJSONDecoder.Options.strict
        options.decodesDatesWithFormatList = true
        options.dateFormats = Array(DateFormat.standardList.dropFirst(2))
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Date.self, from: "\"\(text)\"")
        }
    }
}

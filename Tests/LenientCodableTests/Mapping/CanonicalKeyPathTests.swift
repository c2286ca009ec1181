// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Keys beyond ASCII are found under any canonically equal spelling (`"Å"` precomposed or
/// decomposed), as Foundation finds a coding key: through key paths and fallback lists too, so
/// that a kept bag never holds the property's own member under another spelling, which the
/// encoder (writing canonically equal keys as one member, as `JSONEncoder` does) would merge with
/// the property's value.
@Suite struct CanonicalKeyPathTests {
    struct PathModel: Codable, Equatable, KeyMapping {
        var inner: Int
        var listed: Int?
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["inner": "\u{C5}.x", "listed": ["q", "caf\u{E9}"]]
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func keyPathsAndFallbacksFindOtherSpellings(options: LenientJSONDecoder.Options) throws {
        let json = #"{"A\u030A": {"x": 1, "y": 2}, "cafe\u0301": 3, "other": 4}"#
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(PathModel.self, from: json)
        #expect(value.inner == 1)
        #expect(value.listed == 3)
        #expect(value.extras.count == 2, "\(value.extras)")
        #expect(value.extras["other"] == 4)
        // The fallback list's second candidate: reported as found there, not as a forgiven value.
        #expect(report.issues.map(\.kind) == [.keyFallback], "\(report)")
        // Written back and read again, nothing of the server's is lost or changed.
        let written = try LenientJSONEncoder().encode(value)
        let again = try LenientJSONDecoder(options: options).decode(PathModel.self, from: written)
        #expect(again == value)
        let object = try JSONDecoder().decode([String: JSONValue].self, from: written)
        #expect(object["\u{C5}"]?["x"] == 1 && object["\u{C5}"]?["y"] == 2, "\(object)")
    }
}

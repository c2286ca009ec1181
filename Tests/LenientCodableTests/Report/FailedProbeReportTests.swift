// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A value that was not decoded leaves nothing in the report: a probe's `try?` that fails after
/// a key was found under another spelling, in an element before the one that failed, or inside
/// the value itself, gives Foundation's value and an empty report.
struct FailedProbeReportTests {
    struct Wrap: Codable, Equatable {
        var v: Int
    }

    struct ProbesList: Decodable {
        var list: [Wrap]?
        var byName: [String: Wrap]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            list = try? container.decode([Wrap].self)
            byName = try? container.decode([String: Wrap].self)
        }
    }

    /// An array or dictionary whose later element fails takes back what the earlier ones
    /// recorded; one that decodes keeps it.
    @Test(arguments: [#"[{"V":1},{}]"#, #"[{"V":1},{"v":[]}]"#, #"{"a":{"V":1},"b":{}}"#])
    func aCollectionThatFailsLeavesNoEntry(json: String) throws {
        let data = Data(json.utf8)
        let foundation = try JSONDecoder().decode(ProbesList.self, from: data)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(ProbesList.self, from: data)
        #expect(foundation.list == nil && foundation.byName == nil)
        #expect(lenient.list == nil && lenient.byName == nil)
        #expect(report.isEmpty)

        let whole = Data(#"[{"V":1},{"v":2}]"#.utf8)
        let (decoded, wholeReport) = try LenientJSONDecoder().decodeWithReport(ProbesList.self, from: whole)
        #expect(decoded.list == [Wrap(v: 1), Wrap(v: 2)])
        #expect(wholeReport.issues.map(\.kind) == [.keyFallback])
    }

    struct ProbesValue: Decodable {
        var number: Int?
        var text: String?
        enum Keys: String, CodingKey { case v }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            number = try? container.decode(Int.self, forKey: .v)
            text = try? container.decode(String.self, forKey: .v)
        }
    }

    /// A key found under another spelling whose value the call cannot read leaves no entry; a
    /// later read of the same value that succeeds has its own.
    @Test func aValueFoundUnderAnotherSpellingThatFailsLeavesNoEntry() throws {
        let unreadable = Data(#"{"V":{}}"#.utf8)
        let foundation = try JSONDecoder().decode(ProbesValue.self, from: unreadable)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(ProbesValue.self, from: unreadable)
        #expect(foundation.number == nil && lenient.number == nil && lenient.text == nil)
        #expect(report.isEmpty)

        let text = Data(#"{"V":"x"}"#.utf8)
        let (read, readReport) = try LenientJSONDecoder().decodeWithReport(ProbesValue.self, from: text)
        #expect(read.number == nil && read.text == "x")
        #expect(readReport.issues.map(\.kind) == [.keyFallback])
        #expect(readReport.issues.map(\.jsonPath) == ["V"])
    }

    struct ProbesAccountTwice: Decodable {
        var first: String?
        var second: Int?
        enum Keys: String, CodingKey { case userName }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            first = try? container.decode(String.self, forKey: .userName)
            second = try? container.decode(Int.self, forKey: .userName)
        }
    }

    /// A value read twice under another spelling, once as its type and once not: the read that
    /// succeeded keeps its entry.
    @Test func aSecondReadThatFailsLeavesTheFirstReadsEntry() throws {
        let json = Data(#"{"user_name":"bob"}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(ProbesAccountTwice.self, from: json)
        #expect(value.first == "bob" && value.second == nil)
        #expect(report.issues.map(\.kind) == [.keyFallback])
    }

    /// A repeated member of a dictionary under a key strategy that converts keys, which
    /// Foundation fails on, is reported when only another spelling inside it lets it decode.
    @Test func aRepeatedMemberReadableOnlyByLooseMatchingIsReported() throws {
        let json = Data(#"{"a":{"v":1},"a":{"V":2}}"#.utf8)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        #expect(throws: DecodingError.self) { try foundation.decode([String: Wrap].self, from: json) }
        let strict = LenientJSONDecoder(options: .strict)
        strict.keyDecodingStrategy = .convertFromSnakeCase
        #expect(throws: DecodingError.self) { try strict.decode([String: Wrap].self, from: json) }
        let lenient = LenientJSONDecoder()
        lenient.keyDecodingStrategy = .convertFromSnakeCase
        let (value, report) = try lenient.decodeWithReport([String: Wrap].self, from: json)
        #expect(value == ["a": Wrap(v: 1)])
        #expect(report.issues.map(\.kind) == [.droppedElement])

        struct Holder: Codable, Equatable { var byName: [String: Wrap] }
        let nested = Data(#"{"by_name":{"a":{"v":1},"a":{"V":2}}}"#.utf8)
        let (held, heldReport) = try lenient.decodeWithReport(Holder.self, from: nested)
        #expect(held.byName == ["a": Wrap(v: 1)])
        #expect(heldReport.issues.map(\.kind) == [.droppedElement])
    }
}

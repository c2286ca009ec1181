// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Where one value of a document needs forgiving, the lenient decoder decodes the rest as
/// Foundation's `JSONDecoder` does: the same values, and nothing else in the report.
struct ForgivingPassDifferentialTests {
    struct Generic<Value: Codable & Equatable>: Codable, Equatable {
        var keep: Value
        var bad: Int
    }

    /// A generic property whose type is an optional reads `null` as `nil`, also beside a value
    /// that needs forgiving, and is not reported: `Int??` stays `nil`, not `.some(nil)`.
    @Test func anOptionalAskedForWithDecodeReadsNullAsFoundationDoes() throws {
        let clean = Data(#"{"keep":null,"bad":5}"#.utf8)
        let messy = Data(#"{"keep":null,"bad":"5"}"#.utf8)
        let foundation = try JSONDecoder().decode(Generic<Int??>.self, from: clean)
        #expect(foundation.keep == nil)
        let (doubly, doublyReport) = try LenientJSONDecoder().decodeWithReport(Generic<Int??>.self, from: messy)
        #expect(doubly == foundation)
        #expect(doublyReport.issues.map(\.path) == ["bad"])
        let (single, singleReport) = try LenientJSONDecoder().decodeWithReport(Generic<Int?>.self, from: messy)
        #expect(single == Generic(keep: nil, bad: 5))
        #expect(singleReport.issues.map(\.path) == ["bad"])
        let (list, listReport) = try LenientJSONDecoder().decodeWithReport(
            Generic<[Int??]>.self, from: #"{"keep":[null,1],"bad":"5"}"#)
        #expect(list.keep == [nil, 1] && listReport.issues.map(\.path) == ["bad"])
        for value in [doubly, Generic(keep: .some(nil), bad: 1), Generic(keep: 3, bad: 2)] {
            let again = try LenientJSONDecoder().decode(Generic<Int??>.self, from: LenientJSONEncoder().encode(value))
            let foundations = try JSONDecoder().decode(Generic<Int??>.self, from: JSONEncoder().encode(value))
            #expect(again == foundations)
        }
    }

    struct Inner: Codable, Equatable {
        var userName: Int?
        var extras = UnknownKeys()
    }

    struct ProbesForInner: Decodable, Equatable {
        var branch: String
        var inner: Inner?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let inner = try? container.decode(Inner.self) {
                branch = "inner"
                self.inner = inner
            } else {
                branch = "fallback"
            }
        }
    }

    /// A loose match inside a model that a probe catches: where the value under the other
    /// spelling cannot be read, the model decodes as Foundation decodes it (the key is missing),
    /// so the probe takes Foundation's branch, and its bag keeps the member; where it can be
    /// read, it fills the optional, reported (the documented exception).
    @Test func aLooseMatchThatFailsANestedModelLeavesTheProbesBranchAlone() throws {
        let unreadable = Data(#"{"user_name":"abc"}"#.utf8)
        let foundation = try JSONDecoder().decode(ProbesForInner.self, from: unreadable)
        #expect(foundation.branch == "inner" && foundation.inner?.userName == nil)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(ProbesForInner.self, from: unreadable)
        #expect(lenient.branch == "inner" && lenient.inner?.userName == nil)
        #expect(lenient.inner?.extras == ["user_name": "abc"])
        #expect(report.isEmpty)

        let readable = Data(#"{"user_name":5}"#.utf8)
        let (filled, filledReport) = try LenientJSONDecoder().decodeWithReport(ProbesForInner.self, from: readable)
        #expect(filled.branch == "inner" && filled.inner?.userName == 5)
        #expect(filledReport.issues.map(\.kind) == [.keyFallback])
    }
}

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
}

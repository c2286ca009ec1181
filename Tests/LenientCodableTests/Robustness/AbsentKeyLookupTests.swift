// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

@testable import LenientCodable

/// Models that look keys up by data (`contains` for every id of a list) in a large object ask
/// for thousands of keys the object does not have. A search that finds nothing scans the object
/// from its place to its end; once such searches have scanned more than twice the object, the
/// container asks an index of all its keys instead, so the lookups cost work linear in the
/// object, not its square (40 000 absent keys in 927 KB took 9.3 s, Foundation 25 ms).
struct AbsentKeyLookupTests {
    struct DynamicKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Counts which of the listed ids are keys of the object, and reads the value of those that are.
    struct Index: Decodable, Equatable {
        var found: [String: Int] = [:]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            for id in try container.decode([String].self, forKey: DynamicKey(stringValue: "ids")) {
                let key = DynamicKey(stringValue: id)
                if container.contains(key) { found[id] = try container.decode(Int.self, forKey: key) }
                _ = try container.decodeIfPresent(Int.self, forKey: key)
            }
        }
    }

    struct Counted: Decodable {
        var value: Index
        var decoder: TreeDecoder
        init(from decoder: any Decoder) throws {
            self.decoder = try #require(decoder as? TreeDecoder)
            value = try decoder.singleValueContainer().decode(Index.self)
        }
    }

    /// `count` members `k0`…, and ids of which every third names one of them; `prefix` spells the
    /// keys (beyond ASCII, with a separator).
    static func document(count: Int, prefix: String = "k") -> String {
        let ids = (0..<count).map { $0 % 3 == 0 ? #""\#(prefix)\#($0)""# : #""x\#(prefix)\#($0)""# }
        let members = (0..<count).map { #""\#(prefix)\#($0)":\#($0)"# }
        return #"{"ids":[\#(ids.joined(separator: ","))],\#(members.joined(separator: ","))}"#
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient], ["k", "é_", "key_"])
    func absentKeysLookedUpInALargeObjectCostWorkLinearInIt(options: LenientJSONDecoder.Options, prefix: String)
        throws
    {
        let count = 3000
        let text = Self.document(count: count, prefix: prefix)
        let expected = try JSONDecoder().decode(Index.self, from: Data(text.utf8))
        #expect(expected.found.count == count / 3)
        let counted = try LenientJSONDecoder(options: options).decode(Counted.self, from: text)
        #expect(counted.value == expected)
        let nodes = 4 * count + 8
        #expect(counted.decoder.nodesScannedInVain < 8 * nodes, "\(counted.decoder.nodesScannedInVain)")
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(Index.self, from: text)
        #expect(value == expected && report.isEmpty)
    }

    /// Under a key strategy, and with loose matching finding what the model spells otherwise.
    struct SnakeIndex: Decodable, Equatable {
        var found = 0
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicKey.self)
            for position in 0..<3000 where container.contains(DynamicKey(stringValue: "someKey\(position)")) {
                found += 1
            }
        }
    }

    @Test func absentKeysConvertedFromSnakeCaseCostWorkLinearInTheObject() throws {
        let members = (0..<3000).map { #""some_key_\#($0 * 2)":1"# }.joined(separator: ",")
        let text = "{\(members)}"
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try foundation.decode(SnakeIndex.self, from: Data(text.utf8))
        #expect(expected.found == 1500)
        let decoder = LenientJSONDecoder(options: .strict)
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try decoder.decode(SnakeIndex.self, from: text) == expected)
    }

    /// The first of duplicate keys wins, whether a search or the index answers.
    @Test func theIndexKeepsTheFirstOfDuplicateKeys() throws {
        let members = (0..<2000).map { #""k\#($0 % 500)":\#($0)"# }.joined(separator: ",")
        let ids = (0..<2000).map { #""k\#($0)""# }.joined(separator: ",")
        let text = #"{"ids":[\#(ids)],\#(members)}"#
        let expected = try JSONDecoder().decode(Index.self, from: Data(text.utf8))
        #expect(expected.found.count == 500)
        #expect(try LenientJSONDecoder(options: .strict).decode(Index.self, from: text) == expected)
        #expect(try LenientJSONDecoder().decode(Index.self, from: text) == expected)
    }

    struct Holder: Codable, Equatable {
        var m: [Int: Int]
    }

    /// Members of an `[Int: V]` whose keys are not integers are dropped and reported, each with
    /// its own value, from an index of the object's keys rather than a scan per member.
    @Test func droppedMembersOfALargeDictionaryAreReportedWithTheirValues() throws {
        let members = (0..<3000).map { #""q\#($0)":\#($0)"# }.joined(separator: ",")
        let (holder, report) = try LenientJSONDecoder().decodeWithReport(
            Holder.self, from: #"{"m":{\#(members),"7":7}}"#)
        #expect(holder.m == [7: 7])
        #expect(report.issues.count == 3000)
        #expect(report.issues.allSatisfy { $0.kind == .droppedElement })
        let values = report.issues.compactMap { issue -> Int? in
            if case .number(let text)? = issue.found { return Int(text) }
            return nil
        }
        #expect(values == Array(0..<3000))
        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Holder.self, from: LenientJSONEncoder().encode(holder))
        #expect(again == holder && reportAgain.isEmpty)
    }
}

/// A container kept past its decode looks absent keys up in its large object after the input is
/// gone: the index it builds then holds copies of the keys, never pointers into the input
/// (AddressSanitizer runs this suite in CI).
struct KeptContainerKeyLookupTests {
    final class Kept: Decodable, @unchecked Sendable {
        // Read by one task at a time: the test reads it after the decode returned.
        let container: KeyedDecodingContainer<AbsentKeyLookupTests.DynamicKey>
        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: AbsentKeyLookupTests.DynamicKey.self)
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func aKeptContainerIndexesItsKeysAfterTheInputIsGone(options: LenientJSONDecoder.Options) throws {
        let kept: Kept = try {
            let members = (0..<500).map { #""key_\#($0)":\#($0)"# }.joined(separator: ",")
            return try LenientJSONDecoder(options: options).decode(Kept.self, from: Data("{\(members)}".utf8))
        }()
        var found = 0
        for position in 0..<1500
        where kept.container.contains(AbsentKeyLookupTests.DynamicKey(stringValue: "key_\(position)")) {
            found += 1
            #expect(
                try kept.container.decode(
                    Int.self, forKey: AbsentKeyLookupTests.DynamicKey(stringValue: "key_\(position)"))
                    == position)
        }
        #expect(found == 500)
    }
}

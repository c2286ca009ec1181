// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A model that reads the same value twice has the decoder forgive it twice, the same way: the report names each
/// forgiven value once, through `decodeWithReport` and through the decoder's report handler alike.
@Suite struct ReadTwiceReportTests {
    struct Item: Codable, Equatable {
        var id: Int
        var name: String
    }

    /// Reads `id` twice, `missing` twice (defaulted), `items` twice (one element dropped), and `id` through a super
    /// decoder for its key twice.
    struct Twice: Decodable, Equatable {
        var id: Int
        var again: Int
        var missing: Int
        var missingAgain: Int
        var items: [Item]
        var itemsAgain: [Item]
        var viaSuper: Int
        var viaSuperAgain: Int

        enum CodingKeys: String, CodingKey { case id, missing, items }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            again = try container.decode(Int.self, forKey: .id)
            missing = try container.decode(Int.self, forKey: .missing)
            missingAgain = try container.decode(Int.self, forKey: .missing)
            items = try container.decode([Item].self, forKey: .items)
            itemsAgain = try container.decode([Item].self, forKey: .items)
            viaSuper = try Int(from: container.superDecoder(forKey: .id))
            viaSuperAgain = try Int(from: container.superDecoder(forKey: .id))
        }
    }

    /// Reads its discriminator through one container, then the payload through another: "type" is read twice.
    enum Shape: Decodable, Equatable {
        case circle(radius: Int)
        case square(side: Int)

        struct Kind: Decodable {
            var type: String
        }

        enum CodingKeys: String, CodingKey { case type, radius, side }

        init(from decoder: any Decoder) throws {
            let kind = try decoder.singleValueContainer().decode(Kind.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.decode(String.self, forKey: .type)
            switch kind.type {
            case "circle": self = .circle(radius: try container.decode(Int.self, forKey: .radius))
            default: self = .square(side: try container.decode(Int.self, forKey: .side))
            }
        }
    }

    static let json = #"{"id":"5","items":[{"id":1,"name":"a"},{"id":"x","name":"b"},{"name":"c"}]}"#

    @Test func eachValueReadTwiceIsReportedOnce() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Twice.self, from: Data(Self.json.utf8))
        #expect(value.id == 5 && value.again == 5 && value.viaSuper == 5 && value.viaSuperAgain == 5)
        #expect(value.missing == 0 && value.missingAgain == 0)
        #expect(value.items == [Item(id: 1, name: "a"), Item(id: 0, name: "b"), Item(id: 0, name: "c")])
        #expect(value.itemsAgain == value.items)
        let summary = report.issues.map { "\($0.path) \($0.kind)" }
        #expect(summary == ["id coerced", "missing defaulted", "items[1].id defaulted", "items[2].id defaulted"])
    }

    /// Reads `v` as `Int`, then as `Double`; reads member `"0"` by a string key and by an integer key.
    struct TwoTypes: Decodable, Equatable {
        var int: Int
        var double: Double
        var byName: Int
        var byIndex: Int

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int?
            init(stringValue: String) { self.stringValue = stringValue }
            init(intValue: Int) {
                stringValue = String(intValue)
                self.intValue = intValue
            }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            int = try container.decode(Int.self, forKey: Key(stringValue: "v"))
            double = try container.decode(Double.self, forKey: Key(stringValue: "v"))
            byName = try container.decode(Int.self, forKey: Key(stringValue: "0"))
            byIndex = try container.decode(Int.self, forKey: Key(intValue: 0))
        }
    }

    @Test func aValueReadAsTwoTypesOrUnderTwoKeysIsReportedOnce() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            TwoTypes.self, from: Data(#"{"v":"5","0":"1"}"#.utf8))
        #expect(value.int == 5 && value.double == 5 && value.byName == 1 && value.byIndex == 1)
        #expect(report.issues.map(\.path) == ["v", "0"])
        #expect(report.issues.map(\.kind) == [.coerced, .coerced])
    }

    @Test func twoValuesWithTheSameMessageStayTwoIssues() throws {
        let (values, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: Data(#"["1","1"]"#.utf8))
        #expect(values == [1, 1])
        #expect(report.issues.map(\.path) == ["[0]", "[1]"])
        #expect(report.issues[0].message == report.issues[1].message)
    }

    struct Inner: Decodable, Equatable {
        var n: Int
    }

    struct TwoTexts: Decodable, Equatable {
        var a: Inner
        var b: Inner
    }

    @Test func theSameForgivenessInsideTwoJSONTextsStaysTwoIssues() throws {
        // Both texts are parsed into trees of their own, with the same node at the same index.
        let json = #"{"a":"{\"n\":\"1\"}","b":"{\"n\":\"1\"}"}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(TwoTexts.self, from: Data(json.utf8))
        #expect(value == TwoTexts(a: Inner(n: 1), b: Inner(n: 1)))
        #expect(report.issues.map(\.path) == ["a", "a.n", "b", "b.n"])
    }

    @Test func aDiscriminatorReadThroughTwoContainersIsReportedOnce() throws {
        let json = #"{"type":7,"radius":"3"}"#
        let (shape, report) = try LenientJSONDecoder().decodeWithReport(Shape.self, from: Data(json.utf8))
        #expect(shape == .square(side: 0))
        #expect(report.issues.map(\.path) == ["type", "side"])
        let circle = try LenientJSONDecoder().decodeWithReport(
            Shape.self, from: Data(#"{"type":"circle","radius":"3"}"#.utf8))
        #expect(circle.value == .circle(radius: 3))
        #expect(circle.report.issues.map(\.path) == ["radius"])
    }

    /// What the report handler received. `@unchecked Sendable`: every access to `lines` holds `lock`, and the
    /// test holds the box for as long as the decoder may call the handler.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []

        func append(_ report: DecodingReport) {
            lock.withLock { lines += report.issues.map { "\($0.path) \($0.kind)" } }
        }

        var all: [String] { lock.withLock { lines } }
    }

    @Test func theReportHandlerGetsEachValueOnce() throws {
        let received = Received()
        let decoder = LenientJSONDecoder()
        decoder.reportHandler = { _, report in received.append(report) }
        _ = try decoder.decode(Twice.self, from: Data(Self.json.utf8))
        #expect(received.all == ["id coerced", "missing defaulted", "items[1].id defaulted", "items[2].id defaulted"])
    }
}

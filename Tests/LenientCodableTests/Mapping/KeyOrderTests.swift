// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A mapped model's keyed container guesses each next key from the order in which the first
/// decode of the model asked for them. These tests ask for keys in other orders, in the decode
/// that learns and in the ones after it, and check that only speed depends on the guess.
///
/// Plans and orders are cached for the process, so each test uses a model type of its own
/// (`Shuffled<Tag>` is a new type for every tag) to control which decode is the first.
@Suite struct KeyOrderTests {
    @Test func keysAskedInAnotherOrderDecodeTheSame() throws {
        enum Strict {}
        enum Lenient {}
        try checkEveryOrder(of: Shuffled<Strict>.self, options: .strict)
        try checkEveryOrder(of: Shuffled<Lenient>.self, options: .lenient)
    }

    private func checkEveryOrder<Tag>(of type: Shuffled<Tag>.Type, options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        // The first decode learns the declaration order, then meets the reversed one.
        let first = try decoder.decode([Shuffled<Tag>].self, from: Shuffled<Tag>.json([false, true, false, true]))
        #expect(first == Shuffled<Tag>.expected([false, true, false, true]))
        // Later decodes follow the learned order, which the reversed objects break at every key.
        for pattern in [[true, true], [true, false, false], [false]] {
            let later = try decoder.decode([Shuffled<Tag>].self, from: Shuffled<Tag>.json(pattern))
            #expect(later == Shuffled<Tag>.expected(pattern))
        }
    }

    @Test func aFallbackIsReportedInEveryDecode() throws {
        enum Reported {}
        let json = #"[{"reversed":false,"t":"a","count":1,"stats":{"score":0.5}}]"#
        for _ in 0..<3 {
            let (values, report) = try LenientJSONDecoder().decodeWithReport([Shuffled<Reported>].self, from: json)
            #expect(values.first?.count == 1)
            #expect(report.issues.map(\.kind) == [.keyFallback])
            #expect(report.issues.map(\.path) == ["[0].count"])
        }
    }

    @Test func aMissingMappedKeyIsStillAnErrorAfterTheFirstDecode() throws {
        enum Missing {}
        let decoder = LenientJSONDecoder(.strict)
        _ = try decoder.decode([Shuffled<Missing>].self, from: Shuffled<Missing>.json([false]))
        let json = #"[{"reversed":false,"t":"a","stats":{"score":0.5}}]"#
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode([Shuffled<Missing>].self, from: json)
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("Expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "count")
        #expect(context.codingPath.map(\.stringValue) == ["Index 0"])
    }

    @Test func twoContainersOfOneObjectReadInTurn() throws {
        struct Pair: Decodable, Equatable, KeyMapping {
            var left: String
            var right: String
            var up: Int
            var down: Int

            static var keyMapping: [String: KeySource] { ["left": "l", "right": "r", "up": ["u", "upward"]] }

            enum CodingKeys: String, CodingKey { case left, right, up, down }

            init(left: String, right: String, up: Int, down: Int) {
                (self.left, self.right, self.up, self.down) = (left, right, up, down)
            }

            init(from decoder: any Decoder) throws {
                let first = try decoder.container(keyedBy: CodingKeys.self)
                let second = try decoder.container(keyedBy: CodingKeys.self)
                left = try first.decode(String.self, forKey: .left)
                up = try second.decode(Int.self, forKey: .up)
                right = try first.decode(String.self, forKey: .right)
                down = try second.decode(Int.self, forKey: .down)
            }
        }
        let json = #"[{"l":"a","r":"b","upward":1,"down":2},{"down":4,"u":3,"r":"d","l":"c"}]"#
        for _ in 0..<2 {
            let pairs = try LenientJSONDecoder(.strict).decode([Pair].self, from: json)
            #expect(
                pairs == [Pair(left: "a", right: "b", up: 1, down: 2), Pair(left: "c", right: "d", up: 3, down: 4)])
        }
    }

    @Test func aModelWithMoreKeysThanAnOrderHolds() throws {
        /// Reads `k0` … `k99` through a key type that accepts any name; `k7` is renamed.
        struct Wide: Decodable, KeyMapping {
            var values: [Int]

            static var keyMapping: [String: KeySource] { ["k7": "seven"] }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: NamedKey.self)
                values = try (0..<100).map { try container.decode(Int.self, forKey: NamedKey("k\($0)")) }
            }
        }
        var members = (0..<100).map { #""k\#($0)":\#($0)"# }
        members[7] = #""seven":7"#
        let json = "[{" + members.joined(separator: ",") + "},{" + members.reversed().joined(separator: ",") + "}]"
        for _ in 0..<3 {
            let wide = try LenientJSONDecoder(.strict).decode([Wide].self, from: json)
            #expect(wide.map(\.values) == [Array(0..<100), Array(0..<100)])
        }
    }

    @Test func aTypeStrategyAppliesAfterTheFirstDecode() throws {
        struct Profile: Decodable, Equatable, KeyMapping {
            var userName: String
            var avatarURL: String
            var nickname: String

            static var keyStrategy: KeyStrategy? { .snakeCase }
            static var keyMapping: [String: KeySource] { ["nickname": "nick"] }
        }
        let json = #"[{"user_name":"u","avatar_url":"a","nick":"n"},{"nick":"m","avatar_url":"b","user_name":"v"}]"#
        let expected = [
            Profile(userName: "u", avatarURL: "a", nickname: "n"),
            Profile(userName: "v", avatarURL: "b", nickname: "m"),
        ]
        for _ in 0..<3 {
            #expect(try LenientJSONDecoder(.strict).decode([Profile].self, from: json) == expected)
        }
    }

    @Test func aModelWhoseHookRewritesItsJSON() throws {
        /// Decoded through a decoder of its own over the JSON `willDecode` returns.
        struct Enveloped: Decodable, Equatable, KeyMapping, DecodingHooks {
            var title: String
            var count: Int

            static var keyMapping: [String: KeySource] { ["title": "t", "count": ["n", "count"]] }

            static func willDecode(_ json: JSONValue) throws -> JSONValue { json["data"] ?? json }
        }
        let json = #"[{"data":{"t":"a","n":1}},{"data":{"count":2,"t":"b"}},{"t":"c","n":3}]"#
        let expected = [
            Enveloped(title: "a", count: 1), Enveloped(title: "b", count: 2), Enveloped(title: "c", count: 3),
        ]
        for _ in 0..<3 {
            #expect(try LenientJSONDecoder(.strict).decode([Enveloped].self, from: json) == expected)
        }
    }

    @Test func aModelNestedInItself() throws {
        final class Node: Decodable, KeyMapping {
            let name: String
            let children: [Node]

            static var keyMapping: [String: KeySource] { ["name": "n", "children": ["kids", "children"]] }

            /// The tree as nested names, for comparison.
            var shape: String {
                name + (children.isEmpty ? "" : "(" + children.map(\.shape).joined(separator: " ") + ")")
            }
        }
        let json = #"{"n":"a","kids":[{"n":"b","kids":[{"kids":[],"n":"c"}]},{"children":[],"n":"d"}]}"#
        for _ in 0..<2 {
            #expect(try LenientJSONDecoder(.strict).decode(Node.self, from: json).shape == "a(b(c) d)")
        }
    }
}

/// A mapped model whose `init(from:)` asks for its keys in declaration order, or in reverse when
/// the object's `reversed` member says so. Every `Tag` makes a type with a plan of its own.
struct Shuffled<Tag>: Decodable, Equatable, KeyMapping {
    var reversed: Bool
    var title: String
    var count: Int
    var score: Double
    var note: String?

    static var keyMapping: [String: KeySource] { ["title": "t", "count": ["n", "count"], "score": "stats.score"] }

    enum CodingKeys: String, CodingKey { case reversed, title, count, score, note }

    init(reversed: Bool, title: String, count: Int, score: Double, note: String?) {
        (self.reversed, self.title, self.count, self.score, self.note) = (reversed, title, count, score, note)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reversed = try container.decode(Bool.self, forKey: .reversed)
        if reversed {
            note = try container.decodeIfPresent(String.self, forKey: .note)
            score = try container.decode(Double.self, forKey: .score)
            count = try container.decode(Int.self, forKey: .count)
            title = try container.decode(String.self, forKey: .title)
        } else {
            title = try container.decode(String.self, forKey: .title)
            count = try container.decode(Int.self, forKey: .count)
            score = try container.decode(Double.self, forKey: .score)
            note = try container.decodeIfPresent(String.self, forKey: .note)
        }
    }

    /// An array of objects, one per flag, whose members come in an order unlike either key order.
    static func json(_ reversedFlags: [Bool]) -> String {
        let objects = reversedFlags.enumerated().map { index, reversed in
            let note = index.isMultiple(of: 2) ? #","note":"n\#(index)""# : ""
            return
                #"{"stats":{"score":\#(index).5},"n":\#(index)\#(note),"reversed":\#(reversed),"t":"title \#(index)"}"#
        }
        return "[" + objects.joined(separator: ",") + "]"
    }

    /// The values of ``json(_:)``.
    static func expected(_ reversedFlags: [Bool]) -> [Shuffled] {
        reversedFlags.enumerated().map { index, reversed in
            Shuffled(
                reversed: reversed, title: "title \(index)", count: index, score: Double(index) + 0.5,
                note: index.isMultiple(of: 2) ? "n\(index)" : nil)
        }
    }
}

/// A coding key for any name.
private struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

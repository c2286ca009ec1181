// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Types that probe through keyed and unkeyed containers (`try? container.decode(Int.self, forKey: .value)`)
/// see Foundation's answers in `.lenient`, as types that probe a single-value container do: where
/// Foundation's `JSONDecoder` decodes a model, the lenient decoder gives the same value, with nothing in the
/// report; forgiveness starts where Foundation fails, and costs at most about one more decode of each value.
@Suite struct ContainerProbeTests {
    // MARK: Keyed probes

    /// An any-JSON member read by probing the keyed container, most specific type first.
    enum Probed: Codable, Equatable {
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        case list([Probed])
        case object([String: Probed])
        case absent

        enum CodingKeys: String, CodingKey { case value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let flag = try? container.decode(Bool.self, forKey: .value) {
                self = .bool(flag)
            } else if let number = try? container.decode(Int.self, forKey: .value) {
                self = .int(number)
            } else if let number = try? container.decode(Double.self, forKey: .value) {
                self = .double(number)
            } else if let text = try? container.decode(String.self, forKey: .value) {
                self = .string(text)
            } else if let list = try? container.decode([Probed].self, forKey: .value) {
                self = .list(list)
            } else if let object = try? container.decode([String: Probed].self, forKey: .value) {
                self = .object(object)
            } else {
                self = .absent
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .bool(let flag): try container.encode(flag, forKey: .value)
            case .int(let number): try container.encode(number, forKey: .value)
            case .double(let number): try container.encode(number, forKey: .value)
            case .string(let text): try container.encode(text, forKey: .value)
            case .list(let list): try container.encode(list, forKey: .value)
            case .object(let object): try container.encode(object, forKey: .value)
            case .absent: break
            }
        }
    }

    static let keyedInputs = [
        #"{"value":"5"}"#, #"{"value":5}"#, #"{"value":"true"}"#, #"{"value":1}"#, #"{"value":1.5}"#,
        #"{"value":"1.5"}"#, #"{"value":null}"#, #"{}"#, #"{"value":"null"}"#, #"{"value":""}"#,
        #"{"value":[{"value":"7"},{"value":7}]}"#, #"{"value":{"a":{"value":"x"},"b":{}}}"#,
        #"{"value":"[1,2]"}"#, #"{"value":[]}"#, #"{"value":{"value":"{\"value\":1}"}}"#,
    ]

    @Test(arguments: keyedInputs)
    func keyedProbesGetFoundationsAnswers(json: String) throws {
        let data = Data(json.utf8)
        let expected = try JSONDecoder().decode(Probed.self, from: data)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Probed.self, from: data)
        #expect(value == expected)
        #expect(report.isEmpty, "Foundation's value needs no forgiveness: \(report)")
        #expect(try LenientJSONDecoder(options: .strict).decode(Probed.self, from: data) == expected)
        let encoded = try LenientJSONEncoder().encode(value)
        #expect(try LenientJSONDecoder().decode(Probed.self, from: encoded) == value)
    }

    /// The `try?` of a model over a missing key is `nil`, not a made-up default.
    struct OptionalByProbe: Codable, Equatable {
        var id: Int?
        var name: String

        enum CodingKeys: String, CodingKey { case id, name }

        init(id: Int?, name: String) {
            self.id = id
            self.name = name
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try? container.decode(Int.self, forKey: .id)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    @Test(arguments: [
        (#"{"name":"a"}"#, OptionalByProbe(id: nil, name: "a")),
        (#"{"id":"5","name":"a"}"#, OptionalByProbe(id: nil, name: "a")),
        (#"{"id":5,"name":"a"}"#, OptionalByProbe(id: 5, name: "a")),
        (#"{"id":null,"name":"a"}"#, OptionalByProbe(id: nil, name: "a")),
    ])
    func aProbeOfAMissingOrMismatchedKeyIsNil(json: String, expected: OptionalByProbe) throws {
        let data = Data(json.utf8)
        #expect(try JSONDecoder().decode(OptionalByProbe.self, from: data) == expected)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(OptionalByProbe.self, from: data)
        #expect(value == expected)
        #expect(report.isEmpty)
        let encoded = try LenientJSONEncoder().encode(value)
        #expect(try LenientJSONDecoder().decode(OptionalByProbe.self, from: encoded) == value)
    }

    @Test func forgivenessStillAppliesWhereFoundationFails() throws {
        // `name` is a number: Foundation fails the whole model, so the lenient decoder forgives, and the
        // model's own probe of `id` then sees the forgiving answer too.
        let data = Data(#"{"id":"5","name":42}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OptionalByProbe.self, from: data) }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(OptionalByProbe.self, from: data)
        #expect(value == OptionalByProbe(id: 5, name: "42"))
        #expect(report.issues.map(\.path) == ["id", "name"])
        #expect(report.issues.allSatisfy { $0.kind == .coerced })
    }

    // MARK: Unkeyed probes

    /// A pair read from an array by probing its elements.
    struct Pair: Codable, Equatable {
        var first: Int?
        var rest: [String]

        init(first: Int?, rest: [String]) {
            self.first = first
            self.rest = rest
        }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try? container.decode(Int.self)
            var rest: [String] = []
            while !container.isAtEnd { rest.append(try container.decode(String.self)) }
            self.rest = rest
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if let first { try container.encode(first) }
            for text in rest { try container.encode(text) }
        }
    }

    @Test(arguments: [
        (#"["5","a"]"#, Pair(first: nil, rest: ["5", "a"])),
        (#"[5,"a"]"#, Pair(first: 5, rest: ["a"])),
        (#"["x"]"#, Pair(first: nil, rest: ["x"])),
    ])
    func unkeyedProbesGetFoundationsAnswers(json: String, expected: Pair) throws {
        let data = Data(json.utf8)
        #expect(try JSONDecoder().decode(Pair.self, from: data) == expected)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Pair.self, from: data)
        #expect(value == expected)
        #expect(report.isEmpty)
        #expect(try LenientJSONDecoder().decode(Pair.self, from: try LenientJSONEncoder().encode(value)) == value)
    }

    // MARK: Probes of models and collections

    struct Inner: Codable, Equatable {
        var count: Int
    }

    /// Reads `inner` as a model if it can, else keeps its text.
    struct Outer: Decodable, Equatable {
        var inner: Inner?
        var ids: [Int]?
        var tags: [String]?

        enum CodingKeys: String, CodingKey { case inner, ids }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inner = try? container.decode(Inner.self, forKey: .inner)
            if let ids = try? container.decode([Int].self, forKey: .ids) {
                self.ids = ids
            } else {
                tags = try? container.decode([String].self, forKey: .ids)
            }
        }

    }

    @Test(arguments: [
        #"{"inner":{"count":"3"},"ids":["1","2"]}"#, #"{"inner":{"count":3},"ids":[1,"x",3]}"#,
        #"{"inner":{},"ids":"1"}"#, #"{"inner":[{"count":1}],"ids":[1,2]}"#, #"{"inner":"{\"count\":1}"}"#,
    ])
    func probesOfModelsAndCollectionsGetFoundationsAnswers(json: String) throws {
        let data = Data(json.utf8)
        let expected = try JSONDecoder().decode(Outer.self, from: data)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Outer.self, from: data)
        #expect(value == expected)
        #expect(report.isEmpty)
    }

    // MARK: Wrappers and hooks inside the first pass

    struct Page: Codable, Equatable {
        @Coerced var number: Int
        var title: String
    }

    @Test func aWrapperForgivesInsideTheFirstPassOnce() throws {
        let data = Data(#"{"number":"42","title":"t"}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Page.self, from: data)
        #expect(value.number == 42)
        #expect(report.issues.count == 1)
        #expect(report.issues.first?.path == "number")
        // Under Foundation's decoder the wrapper forgives the same way.
        #expect(try JSONDecoder().decode(Page.self, from: data) == value)
        #expect(try LenientJSONDecoder().decode(Page.self, from: try LenientJSONEncoder().encode(value)) == value)
    }

    /// Counts its decodes and validates after them.
    struct Checked: Codable, Equatable, DecodingHooks {
        var count: Int
        var label: String?

        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var json = json
            if json["label"] == nil { json["label"] = "none" }
            return json
        }
    }

    @Test func aHookedTypeProbedInsideAProbingTypeGetsFoundationsAnswer() throws {
        struct Holder: Decodable, Equatable {
            var checked: Checked?
            enum CodingKeys: String, CodingKey { case checked }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                checked = try? container.decode(Checked.self, forKey: .checked)
            }
        }
        let strict = try LenientJSONDecoder().decode(Holder.self, from: Data(#"{"checked":{"count":"1"}}"#.utf8))
        #expect(strict.checked == nil)
        let clean = try LenientJSONDecoder().decode(Holder.self, from: Data(#"{"checked":{"count":1}}"#.utf8))
        #expect(clean.checked == Checked(count: 1, label: "none"))
    }

    // MARK: Cost

    final class Counter: @unchecked Sendable {
        // Only one decode at a time touches it, on the thread of its test.
        var inits = 0
    }

    static let counterKey = CodingUserInfoKey(rawValue: "ContainerProbeTests.counter")!

    /// A chain of levels, each with a value that only forgiveness reads, after its child: every level's
    /// Foundation-like pass fails after decoding everything below it.
    final class Level: Decodable {
        let child: Level?
        let number: Int

        enum CodingKeys: String, CodingKey { case child, number }

        required init(from decoder: any Decoder) throws {
            (decoder.userInfo[ContainerProbeTests.counterKey] as? Counter)?.inits += 1
            let container = try decoder.container(keyedBy: CodingKeys.self)
            child = try container.decodeIfPresent(Level.self, forKey: .child)
            number = try container.decode(Int.self, forKey: .number)
        }

        var depth: Int { child.map { $0.depth + 1 } ?? 1 }
    }

    @Test(arguments: [10, 120])
    func failingPassesAtEveryLevelDecodeEachValueAtMostTwice(levels: Int) throws {
        var json = #"{"number":"0"}"#
        for level in 1..<levels { json = #"{"child":\#(json),"number":"\#(level)"}"# }
        let counter = Counter()
        let decoder = LenientJSONDecoder()
        decoder.userInfo[Self.counterKey] = counter
        let (root, report) = try decoder.decodeWithReport(Level.self, from: Data(json.utf8))
        #expect(root.depth == levels)
        #expect(root.number == levels - 1)
        #expect(report.issues.count == levels)
        #expect(counter.inits <= 2 * levels, "\(counter.inits) decodes for \(levels) levels")
    }

    /// Probes its child as itself, then as a list of itself, then as a dictionary of itself, with a value after it
    /// that only forgiveness reads: the shape that makes naive retries exponential.
    final class Prober: Decodable {
        let child: Prober?
        let number: Int

        enum CodingKeys: String, CodingKey { case child, number }

        required init(from decoder: any Decoder) throws {
            (decoder.userInfo[ContainerProbeTests.counterKey] as? Counter)?.inits += 1
            let container = try decoder.container(keyedBy: CodingKeys.self)
            child =
                (try? container.decode(Prober.self, forKey: .child))
                ?? (try? container.decode([Prober].self, forKey: .child))?.first
                ?? (try? container.decode([String: Prober].self, forKey: .child))?.values.first
            number = try container.decode(Int.self, forKey: .number)
        }

        var depth: Int { child.map { $0.depth + 1 } ?? 1 }
    }

    @Test(arguments: [8, 16, 100])
    func probesOfEveryShapeAtEveryLevelStayLinear(levels: Int) throws {
        var json = #"{"number":"0"}"#
        for level in 1..<levels { json = #"{"child":\#(json),"number":"\#(level)"}"# }
        let counter = Counter()
        let decoder = LenientJSONDecoder()
        decoder.userInfo[Self.counterKey] = counter
        let root = try decoder.decode(Prober.self, from: Data(json.utf8))
        #expect(root.number == levels - 1)
        #expect(root.depth == levels)
        #expect(counter.inits <= 3 * levels, "\(counter.inits) decodes for \(levels) levels")
    }

    // MARK: Found by an attacker

    class Base: Decodable {
        var x: Int
        var y: [Int]?

        enum CodingKeys: String, CodingKey { case x, y, base }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            x = try container.decode(Int.self, forKey: .x)
            y = try? container.decode([Int].self, forKey: .y)
        }
    }

    final class Sub: Base {
        required init(from decoder: any Decoder) throws {
            try super.init(from: try decoder.container(keyedBy: CodingKeys.self).superDecoder())
        }
    }

    final class SubForKey: Base {
        required init(from decoder: any Decoder) throws {
            try super.init(from: try decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .base))
        }
    }

    @Test(arguments: [#"{"super":{"x":2}}"#, #"{"super":{"x":2,"y":[1,2]}}"#, #"{"super":{"x":2,"y":"1"}}"#])
    func aSuperclassDecodedThroughASuperDecoderGetsFoundationsAnswer(json: String) throws {
        let data = Data(json.utf8)
        let expected = try JSONDecoder().decode(Sub.self, from: data)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Sub.self, from: data)
        #expect(value.x == expected.x)
        #expect(value.y == expected.y)
        #expect(report.isEmpty)
    }

    @Test func whatASuperDecoderForgivesIsReported() throws {
        let data = Data(#"{"super":{"x":"2"},"base":{}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Sub.self, from: data) }
        // Foundation fails `x`, so the superclass decodes again with forgiveness, and its probe of the
        // missing `y` then sees the forgiving answer too: an empty list, reported.
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Sub.self, from: data)
        #expect(value.x == 2)
        #expect(value.y == [])
        #expect(report.issues.map(\.path) == ["super.x", "super.y"])
        #expect(report.issues.map(\.kind) == [.coerced, .defaulted])
        let (keyed, keyedReport) = try LenientJSONDecoder().decodeWithReport(SubForKey.self, from: data)
        #expect(keyed.x == 0)
        #expect(keyedReport.issues.map(\.path) == ["base.x", "base.y"])
        #expect(keyedReport.issues.map(\.kind) == [.defaulted, .defaulted])
    }

    struct Flat: Decodable, Equatable {
        var a: Int
        var d: Bool
    }

    struct HoldsFlats: Decodable {
        var b: [Flat]?
    }

    @Test func aWrappedValueReportsWhatWasForgivenInsideIt() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            HoldsFlats.self, from: Data(#"{"b":{"a":1}}"#.utf8))
        #expect(value.b == [Flat(a: 1, d: false)])
        // The value is the array's first element: its coding path says so, its JSON path says
        // where the JSON has it.
        #expect(report.issues.map(\.path) == ["b", "b[0].d"])
        #expect(report.issues.map(\.jsonPath) == ["b", "b.d"])
        #expect(report.issues.map(\.kind) == [.coerced, .defaulted])
    }

    struct Leaf: Decodable, Equatable {
        var a: Int
        var b: Int
    }

    enum LeafOrOther: Decodable, Equatable {
        case leaf(Leaf)
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let leaf = try? container.decode(Leaf.self) {
                self = .leaf(leaf)
            } else {
                self = .other
            }
        }
    }

    @Test func aFailedProbeLeavesNothingInTheReport() throws {
        // `A` matches `a` loosely; `b` is missing, so the probe fails in both passes.
        let data = Data(#"{"A":1,"b":null}"#.utf8)
        #expect(try JSONDecoder().decode(LeafOrOther.self, from: data) == .other)
        let (value, report) = try LenientJSONDecoder(options: .lenient).decodeWithReport(LeafOrOther.self, from: data)
        #expect(value == .leaf(Leaf(a: 1, b: 0)) || value == .other)
        if value == .other { #expect(report.isEmpty, "\(report)") }
    }

    struct ValidationFailed: Error {}

    /// Asks for its child twice, and rejects every level in `didDecode`.
    struct Rejecting: Decodable, DecodingHooks {
        var child: [Rejecting]
        var bad: Int

        enum CodingKeys: String, CodingKey { case child, bad }

        init(from decoder: any Decoder) throws {
            (decoder.userInfo[ContainerProbeTests.counterKey] as? Counter)?.inits += 1
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let child = try? container.decode(Rejecting.self, forKey: .child) {
                self.child = [child]
            } else {
                self.child = (try container.decodeIfPresent(Rejecting.self, forKey: .child)).map { [$0] } ?? []
            }
            bad = try container.decode(Int.self, forKey: .bad)
        }

        mutating func didDecode(from json: JSONValue) throws {
            if json["reject"] != nil { throw ValidationFailed() }
        }
    }

    @Test(arguments: [8, 24])
    func aRejectedValueAskedForTwiceIsRejectedOnce(levels: Int) throws {
        var json = #"{"bad":1,"reject":1}"#
        for _ in 1..<levels { json = #"{"child":\#(json),"bad":1,"reject":1}"# }
        let counter = Counter()
        let decoder = LenientJSONDecoder()
        decoder.userInfo[Self.counterKey] = counter
        #expect(throws: DecodingError.self) { try decoder.decode(Rejecting.self, from: Data(json.utf8)) }
        #expect(counter.inits <= 4 * levels, "\(counter.inits) decodes for \(levels) levels")
    }

    class Grand: Decodable {
        var a: Int
        enum CodingKeys: String, CodingKey { case a }
        required init(from decoder: any Decoder) throws {
            a = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .a)
        }
    }

    class Parent: Grand {
        var b: Int
        enum ParentKeys: String, CodingKey { case b }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ParentKeys.self)
            b = try container.decode(Int.self, forKey: .b)
            try super.init(from: container.superDecoder())
        }
    }

    final class Child: Parent {
        var c: Int
        enum ChildKeys: String, CodingKey { case c, parent }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ChildKeys.self)
            c = try container.decode(Int.self, forKey: .c)
            try super.init(from: container.superDecoder(forKey: .parent))
        }
    }

    @Test func aValueTwoSuperDecodersDownIsForgivenAndReported() throws {
        let data = Data(#"{"c":3,"parent":{"b":2,"super":{"a":"1"}}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Child.self, from: data) }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Child.self, from: data)
        #expect(value.a == 1 && value.b == 2 && value.c == 3)
        #expect(report.issues.map(\.path) == ["parent.super.a"])
        let clean = Data(#"{"c":3,"parent":{"b":2,"super":{"a":1}}}"#.utf8)
        let (cleanValue, cleanReport) = try LenientJSONDecoder().decodeWithReport(Child.self, from: clean)
        #expect(cleanValue.a == 1 && cleanValue.b == 2 && cleanValue.c == 3)
        #expect(cleanReport.isEmpty)
    }
}

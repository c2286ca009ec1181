// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A type whose Foundation-like pass fails only on what loose key matching found is decoded
/// again: its probes keep Foundation's answers, and what only loose matching found is forgiven
/// and reported. The same model gives the same value wherever it sits, however many such types
/// a document holds.
struct LooseRetryTests {
    /// Probes `v` as `Int`, then reads it as `String`; one more probe of `v` runs only when
    /// `userName` is found, which only loose matching finds.
    struct ExtraProbe: Codable, Equatable {
        var v: String
        var count: Int?
        enum CodingKeys: String, CodingKey { case userName, v, count }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.userName) { _ = try? container.decode(Int.self, forKey: .v) }
            if let number = try? container.decode(Int.self, forKey: .v) {
                v = "int \(number)"
            } else {
                v = "str \(try container.decode(String.self, forKey: .v))"
            }
            count = try container.decodeIfPresent(Int.self, forKey: .count)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(String(v.dropFirst(4)), forKey: .v)
            try container.encodeIfPresent(count, forKey: .count)
        }
    }

    struct Holds<Inner: Codable & Equatable>: Codable, Equatable {
        var inner: Inner
    }

    struct Probes<Inner: Codable & Equatable>: Decodable, Equatable {
        var inner: Inner?
        init(from decoder: any Decoder) throws {
            inner = try? decoder.container(keyedBy: CodingKeys.self).decode(Inner.self, forKey: .inner)
        }
        enum CodingKeys: String, CodingKey { case inner }
    }

    /// The value of `Inner` at the top of a decode, nested, behind a `try?` and in an array.
    static func everyPlace<Inner: Codable & Equatable>(_ type: Inner.Type, _ json: String) throws -> [Inner?] {
        let decoder = LenientJSONDecoder()
        return [
            try decoder.decode(Inner.self, from: Data(json.utf8)),
            try decoder.decode(Holds<Inner>.self, from: Data(#"{"inner":\#(json)}"#.utf8)).inner,
            try decoder.decode(Probes<Inner>.self, from: Data(#"{"inner":\#(json)}"#.utf8)).inner,
            try decoder.decode([Inner].self, from: Data("[\(json)]".utf8)).first,
        ]
    }

    /// A probe the model makes only because loose matching found a key does not use up the
    /// answer of the model's own probe of the same value: `"5"` stays a string, as Foundation
    /// reads it, wherever the model sits.
    @Test func aProbeMadeOnlyUnderLooseMatchingLeavesTheModelsProbeAlone() throws {
        let json = #"{"v":"5","user_name":1,"Count":"7"}"#
        let foundation = try JSONDecoder().decode(ExtraProbe.self, from: Data(json.utf8))
        #expect(foundation.v == "str 5" && foundation.count == nil)
        for value in try Self.everyPlace(ExtraProbe.self, json) {
            #expect(value?.v == "str 5")
            #expect(value?.count == 7)
        }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(ExtraProbe.self, from: Data(json.utf8))
        #expect(report.issues.map(\.jsonPath).sorted() == ["Count", "user_name"])
        #expect(report.issues.allSatisfy { $0.kind == .keyFallback })

        let encoded = try LenientJSONEncoder().encode(value)
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(ExtraProbe.self, from: encoded)
        #expect(again == value)
        #expect(againReport.issues.isEmpty)
    }

    /// Probes a key only loose matching finds, as `String` and as `Int`, beside a property that
    /// needs forgiving under another spelling.
    struct ProbesLooseKey: Codable, Equatable {
        var text: String?
        var number: Int?
        var count: Int?
        enum CodingKeys: String, CodingKey { case userName, count }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try? container.decode(String.self, forKey: .userName)
            number = try? container.decode(Int.self, forKey: .userName)
            count = try container.decodeIfPresent(Int.self, forKey: .count)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(number, forKey: .userName)
            try container.encodeIfPresent(count, forKey: .count)
        }
    }

    /// A probe of a value found under another spelling answers as it would had the key been
    /// spelled as the model spells it, not forgiven: `5` is an `Int` and no `String`, and `"abc"`
    /// no `Int` (never a made-up `0`). The answer is the same with or without a sibling that
    /// needs forgiving, and in every place the model sits.
    @Test(
        arguments: [
            (#""user_name":5"#, nil, 5),
            (#""user_name":"abc""#, "abc", nil),
            (#""user_name":"5""#, "5", nil),
        ] as [(String, String?, Int?)])
    func aProbeOfALooselyFoundValueAnswersAsIfSpelledRight(member: String, text: String?, number: Int?) throws {
        let alone = try LenientJSONDecoder().decode(ProbesLooseKey.self, from: Data("{\(member)}".utf8))
        #expect(alone.text == text && alone.number == number)
        let json = "{\(member),\"Count\":\"7\"}"
        for value in try Self.everyPlace(ProbesLooseKey.self, json) {
            #expect(value?.text == text)
            #expect(value?.number == number)
            #expect(value?.count == 7)
        }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(ProbesLooseKey.self, from: Data(json.utf8))
        #expect(!report.issues.contains { $0.kind == .defaulted || $0.kind == .coerced })
        // The one probe that read it says so once.
        #expect(report.issues.filter { $0.jsonPath == "user_name" }.map(\.kind) == [.keyFallback])

        let again = try LenientJSONDecoder().decode(ProbesLooseKey.self, from: LenientJSONEncoder().encode(value))
        #expect(again.number == value.number && again.count == value.count)
    }

    /// A link of a chain: probes the next link, then `v` as `Int`, and reads `count`.
    struct Link: Codable, Equatable {
        /// The next link, if any (in an array: a struct cannot hold itself).
        private var following: [Link]
        var v: String
        var count: Int?
        enum CodingKeys: String, CodingKey { case next, v, count }

        var next: Link? { following.first }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            following = (try? container.decode(Link.self, forKey: .next)).map { [$0] } ?? []
            if let number = try? container.decode(Int.self, forKey: .v) {
                v = "int \(number)"
            } else {
                v = "str \(try container.decode(String.self, forKey: .v))"
            }
            count = try container.decodeIfPresent(Int.self, forKey: .count)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(next, forKey: .next)
            try container.encode(String(v.dropFirst(4)), forKey: .v)
            try container.encodeIfPresent(count, forKey: .count)
        }

        var links: [Link] { [self] + (next?.links ?? []) }
    }

    struct Chains: Codable, Equatable {
        var items: [Link]
    }

    /// Every link of every chain in an array keeps Foundation's branch at its probe, however
    /// many chains come before it: the retries of one chain do not spend the others'.
    @Test(arguments: [(10, 20), (3, 100), (200, 3)])
    func everyChainOfAnArrayKeepsFoundationsBranch(chains: Int, depth: Int) throws {
        var chain = #"{"v":"5","Count":"7"}"#
        for _ in 1..<depth { chain = #"{"next":\#(chain),"v":"5","Count":"7"}"# }
        let json = Data(#"{"items":[\#(Array(repeating: chain, count: chains).joined(separator: ","))]}"#.utf8)
        let foundation = try JSONDecoder().decode(Chains.self, from: json)
        #expect(foundation.items.flatMap(\.links).allSatisfy { $0.v == "str 5" && $0.count == nil })

        let (value, report) = try LenientJSONDecoder().decodeWithReport(Chains.self, from: json)
        let links = value.items.flatMap(\.links)
        #expect(links.count == chains * depth)
        #expect(links.allSatisfy { $0.v == "str 5" && $0.count == 7 })
        #expect(report.issues.count == chains * depth)
        #expect(report.issues.allSatisfy { $0.kind == .keyFallback && $0.jsonPath.hasSuffix("Count") })

        let again = try LenientJSONDecoder().decodeWithReport(Chains.self, from: LenientJSONEncoder().encode(value))
        #expect(again.value == value)
        #expect(again.report.issues.isEmpty)
    }

    /// `Link` as a class.
    final class ClassLink: Decodable {
        var next: ClassLink?
        var v: String
        var count: Int?
        /// The links that decoded this one as their next.
        var parents: [String] = []
        enum CodingKeys: String, CodingKey { case next, v, count }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            next = try? container.decode(ClassLink.self, forKey: .next)
            next?.parents.append("link")
            if let number = try? container.decode(Int.self, forKey: .v) {
                v = "int \(number)"
            } else {
                v = "str \(try container.decode(String.self, forKey: .v))"
            }
            count = try container.decodeIfPresent(Int.self, forKey: .count)
        }

        var links: [ClassLink] { [self] + (next?.links ?? []) }
    }

    struct ClassChains: Decodable {
        var items: [ClassLink]
    }

    /// Chains of class instances keep Foundation's branch too, and each instance is made for
    /// its own value: a link that changes its next link (`next?.parents.append(…)`) changes it
    /// once, as under Foundation, though the retry of a link decodes the next link again.
    @Test func chainsOfClassInstancesKeepFoundationsBranchAndEachInstanceItsOwn() throws {
        var chain = #"{"v":"5","Count":"7"}"#
        for _ in 1..<20 { chain = #"{"next":\#(chain),"v":"5","Count":"7"}"# }
        let json = Data(#"{"items":[\#(Array(repeating: chain, count: 10).joined(separator: ","))]}"#.utf8)
        let foundation = try JSONDecoder().decode(ClassChains.self, from: json)
        #expect(foundation.items.flatMap(\.links).allSatisfy { $0.v == "str 5" && $0.parents.count <= 1 })

        let value = try LenientJSONDecoder().decode(ClassChains.self, from: json)
        let links = value.items.flatMap(\.links)
        #expect(links.count == 200)
        #expect(links.allSatisfy { $0.v == "str 5" && $0.count == 7 })
        #expect(links.map(\.parents) == foundation.items.flatMap(\.links).map(\.parents))
    }

    final class Counted: Decodable {
        var count: Int?
        var tag = 0
        enum CodingKeys: String, CodingKey { case count }
    }

    struct ReadsTwice: Decodable {
        var first: Counted
        var second: Counted
        enum CodingKeys: String, CodingKey { case x }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            first = try container.decode(Counted.self, forKey: .x)
            second = try container.decode(Counted.self, forKey: .x)
            second.tag = 1
        }
    }

    /// A model that decodes one value twice as a class gets two instances, as under Foundation,
    /// also where the class needed a retry for what loose matching found.
    @Test func aClassDecodedTwiceFromOneValueIsTwoInstances() throws {
        let json = Data(#"{"x":{"Count":"7"}}"#.utf8)
        let foundation = try JSONDecoder().decode(ReadsTwice.self, from: json)
        #expect(foundation.first !== foundation.second && foundation.first.tag == 0)
        for value in [
            try LenientJSONDecoder().decode(ReadsTwice.self, from: json),
            try LenientJSONDecoder().decode(HoldsReadsTwice.self, from: Data(#"{"inner":{"x":{"Count":"7"}}}"#.utf8))
                .inner,
        ] {
            #expect(value.first !== value.second)
            #expect(value.first.tag == 0 && value.second.tag == 1)
            #expect(value.first.count == 7 && value.second.count == 7)
        }
    }

    struct HoldsReadsTwice: Decodable {
        var inner: ReadsTwice
    }

    /// Keeps the coding path it was decoded at.
    struct KnowsItsPath: Decodable {
        var path: String
        var count: Int?
        enum CodingKeys: String, CodingKey { case count }

        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            count = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .count)
        }
    }

    /// Two properties read from one member.
    struct TwoNamesForOneMember: Decodable, KeyMapping {
        var a: KnowsItsPath
        var b: KnowsItsPath
        static let keyMapping: [String: KeySource] = ["a": "x", "b": "x"]
    }

    /// A type retried for what loose matching found is decoded for each property that reads
    /// it: each gets the value made at its own coding path. The member is one value forgiven,
    /// reported once.
    @Test func eachPropertyOfOneMemberGetsTheValueMadeAtItsOwnPath() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            TwoNamesForOneMember.self, from: Data(#"{"x":{"Count":"7"}}"#.utf8))
        #expect(value.a.path == "a" && value.b.path == "b")
        #expect(value.a.count == 7 && value.b.count == 7)
        #expect(report.issues.map(\.jsonPath) == ["x.Count"])
    }

    /// A chain whose links keep the members they do not read: a member read under another
    /// spelling is not kept, at any level, and the chain encodes back to what it read.
    struct KeepingLink: Codable, Equatable {
        var next: [KeepingLink]?
        var v: String
        var count: Int?
        var extras = UnknownKeys()
        enum CodingKeys: String, CodingKey { case next, v, count, extras }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            next = try? container.decode([KeepingLink].self, forKey: .next)
            if let number = try? container.decode(Int.self, forKey: .v) {
                v = "int \(number)"
            } else {
                v = "str \(try container.decode(String.self, forKey: .v))"
            }
            count = try container.decodeIfPresent(Int.self, forKey: .count)
            extras = try container.decodeIfPresent(UnknownKeys.self, forKey: .extras) ?? UnknownKeys()
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(next, forKey: .next)
            try container.encode(String(v.dropFirst(4)), forKey: .v)
            try container.encodeIfPresent(count, forKey: .count)
            try container.encode(extras, forKey: .extras)
        }

        var links: [KeepingLink] { [self] + (next?.first?.links ?? []) }
    }

    @Test func aChainThatKeepsUnknownKeysKeepsNoneItReadUnderAnotherSpelling() throws {
        var json = #"{"v":"5","Count":"7","z":1}"#
        for _ in 1..<12 { json = #"{"next":[\#(json)],"v":"5","Count":"7","z":1}"# }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(KeepingLink.self, from: Data(json.utf8))
        let links = value.links
        #expect(links.count == 12)
        #expect(links.allSatisfy { $0.v == "str 5" && $0.count == 7 && $0.extras.map(\.key) == ["z"] })
        #expect(report.issues.count == 12)

        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let reporting = try LenientJSONDecoder(options: options).decodeWithReport(
            KeepingLink.self, from: Data(json.utf8))
        #expect(!reporting.report.issues.contains { $0.kind == .unknownKey })

        let again = try LenientJSONDecoder().decode(KeepingLink.self, from: LenientJSONEncoder().encode(value))
        #expect(again == value)
    }

    /// Reads `meta` through a nested container when it is present, which a string under
    /// another spelling cannot give.
    struct NestedWhenPresent: Codable, Equatable {
        var meta: String?
        enum CodingKeys: String, CodingKey { case meta }
        enum MetaKeys: String, CodingKey { case v }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.meta) {
                meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta).decode(
                    String.self, forKey: .v)
            }
        }
    }

    /// Where the decode with what loose matching found fails, Foundation's value stands, and
    /// the report holds nothing of the failed attempt, nested as at the top.
    @Test func aLooseMatchThatCannotBeUsedLeavesNothingInTheReport() throws {
        let json = #"{"Meta":"str"}"#
        let top = try LenientJSONDecoder().decodeWithReport(NestedWhenPresent.self, from: Data(json.utf8))
        #expect(top.value.meta == nil && top.report.issues.isEmpty)
        let nested = try LenientJSONDecoder().decodeWithReport(
            Holds<NestedWhenPresent>.self, from: Data(#"{"inner":\#(json)}"#.utf8))
        #expect(nested.value.inner.meta == nil)
        #expect(nested.report.issues.isEmpty)
        for value in try Self.everyPlace(NestedWhenPresent.self, json) { #expect(value?.meta == nil) }
    }

    /// `NestedWhenPresent` with a bag for the members it does not read.
    struct KeepsWhatItCannotRead: Codable, Equatable {
        var meta: String?
        var extras = UnknownKeys()
        enum CodingKeys: String, CodingKey { case meta, extras }
        enum MetaKeys: String, CodingKey { case v }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.meta) {
                meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta).decode(
                    String.self, forKey: .v)
            }
            extras = try container.decodeIfPresent(UnknownKeys.self, forKey: .extras) ?? UnknownKeys()
        }
    }

    /// A member under another spelling that the type could not read is kept, and written back
    /// as it came, without a `null` under the property's own key that the type would fail on:
    /// decoded again, the value is the same, at the top as nested.
    @Test func aKeptMemberTheTypeCouldNotReadRoundTrips() throws {
        let json = #"{"Meta":"str","z":1}"#
        let value = try LenientJSONDecoder().decode(KeepsWhatItCannotRead.self, from: Data(json.utf8))
        #expect(value.meta == nil && value.extras.keys == ["Meta", "z"])
        let encoded = try LenientJSONEncoder().encode(value)
        #expect(try JSONSerialization.jsonObject(with: encoded) as? NSDictionary == ["Meta": "str", "z": 1])
        #expect(try LenientJSONDecoder().decode(KeepsWhatItCannotRead.self, from: encoded) == value)

        let nested = try LenientJSONDecoder().decode(
            Holds<KeepsWhatItCannotRead>.self, from: Data(#"{"inner":\#(json)}"#.utf8))
        #expect(nested.inner == value)
        let again = try LenientJSONDecoder().decode(
            Holds<KeepsWhatItCannotRead>.self, from: LenientJSONEncoder().encode(nested))
        #expect(again == nested)
    }

    /// Reads the inner model, then the inner model's `v` itself, as `Int`.
    struct ReadsTheProbedValue: Decodable {
        var inner: ExtraProbe
        var v: Int
        enum CodingKeys: String, CodingKey { case inner }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inner = try container.decode(ExtraProbe.self, forKey: .inner)
            let nested = try container.nestedContainer(keyedBy: ExtraProbe.CodingKeys.self, forKey: .inner)
            v = try nested.decode(Int.self, forKey: .v)
        }
    }

    /// Reads the inner model, then probes the inner model's `v` itself, as `Int`; `n` may need
    /// forgiving.
    struct ProbesTheProbedValue: Decodable {
        var inner: ExtraProbe
        var v: Int?
        var n: Int
        enum CodingKeys: String, CodingKey { case inner, n }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inner = try container.decode(ExtraProbe.self, forKey: .inner)
            let nested = try container.nestedContainer(keyedBy: ExtraProbe.CodingKeys.self, forKey: .inner)
            v = try? nested.decode(Int.self, forKey: .v)
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    /// A type around a retried one that probes the same value as the same type gets Foundation's
    /// answer, as the retried type's own probe does: `"5"` is no `Int` for either, also in the
    /// forgiving pass of the type around it (`"n": "6"`).
    @Test(arguments: [#"{"inner":{"v":"5","Count":"7"},"n":6}"#, #"{"inner":{"v":"5","Count":"7"},"n":"6"}"#])
    func aProbeOfTheSameValueByTheTypeAroundItKeepsFoundationsAnswer(json: String) throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            ProbesTheProbedValue.self, from: Data(json.utf8))
        #expect(value.v == nil)
        #expect(value.inner.v == "str 5")
        #expect(value.inner.count == 7)
        #expect(value.n == 6)
        #expect(!report.issues.contains { $0.jsonPath == "inner.v" })
        let clean = Data(#"{"inner":{"v":"5"},"n":6}"#.utf8)
        let foundation = try JSONDecoder().decode(ProbesTheProbedValue.self, from: clean)
        #expect(foundation.v == nil && foundation.inner.v == "str 5")
    }

    /// The answers kept for a retried type's probes are its own: a type around it that reads
    /// the same value as the same type, after it, is forgiven as any reader is, and the inner
    /// type keeps the value it has alone.
    @Test func aProbesAnswerIsNotGivenToTheTypeAroundIt() throws {
        let json = #"{"inner":{"v":"5","Count":"x"}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReadsTheProbedValue.self, from: Data(json.utf8))
        }
        let alone = try LenientJSONDecoder().decode(ExtraProbe.self, from: Data(#"{"v":"5","Count":"x"}"#.utf8))
        #expect(alone.v == "str 5" && alone.count == nil)

        let (value, report) = try LenientJSONDecoder().decodeWithReport(ReadsTheProbedValue.self, from: Data(json.utf8))
        #expect(value.inner == alone)
        #expect(value.v == 5)
        #expect(report.issues.contains { $0.jsonPath == "inner.v" && $0.kind == .coerced })
        #expect(report.issues.contains { $0.jsonPath == "inner.Count" })

        // In an array, each element is read so: none is dropped, the thousandth neither.
        let elements = Array(repeating: json, count: 1_000).joined(separator: ",")
        let (array, arrayReport) = try LenientJSONDecoder().decodeWithReport(
            [ReadsTheProbedValue].self, from: Data("[\(elements)]".utf8))
        #expect(array.map(\.v) == Array(repeating: 5, count: 1_000))
        #expect(array.allSatisfy { $0.inner == alone })
        #expect(!arrayReport.issues.contains { $0.kind == .droppedElement })
    }

    /// Probes `m` as `Int` and `ids` as `[Int]`; `count` may be found only as `Count`.
    struct ProbingChild: Codable, Equatable {
        var m: Int?
        var ids: [Int]?
        var count: Int?
        enum CodingKeys: String, CodingKey { case m, ids, count }

        init(m: Int?, ids: [Int]?, count: Int?) {
            self.m = m
            self.ids = ids
            self.count = count
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            m = try? container.decode(Int.self, forKey: .m)
            ids = try? container.decode([Int].self, forKey: .ids)
            count = try container.decodeIfPresent(Int.self, forKey: .count)
        }
    }

    /// Decodes its child through `superDecoder(forKey:)`, and through an unkeyed container's
    /// `superDecoder()`.
    struct ThroughSuperDecoders: Codable, Equatable {
        var child: ProbingChild
        var listed: ProbingChild
        var count: Int?
        enum CodingKeys: String, CodingKey { case child, list, count }

        init(child: ProbingChild, listed: ProbingChild, count: Int?) {
            self.child = child
            self.listed = listed
            self.count = count
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            child = try ProbingChild(from: container.superDecoder(forKey: .child))
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            listed = try ProbingChild(from: list.superDecoder())
            count = try container.decodeIfPresent(Int.self, forKey: .count)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try child.encode(to: container.superEncoder(forKey: .child))
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try listed.encode(to: list.superEncoder())
            try container.encodeIfPresent(count, forKey: .count)
        }
    }

    class ProbingBase: Decodable {
        var m: Int?
        enum CodingKeys: String, CodingKey { case m }
        required init(from decoder: any Decoder) throws {
            m = try? decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .m)
        }
    }

    final class NamedSubclass: ProbingBase {
        var name: String?
        enum SubclassKeys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: SubclassKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            try super.init(from: container.superDecoder())
        }
    }

    /// A model decoded through a super decoder, by a type whose pass fails on what loose
    /// matching found beside it, keeps Foundation's answers to its probes, as it does decoded
    /// directly: no made-up `0` for a missing key, no coerced `"3"`, no element dropped from a
    /// list that Foundation's probe refuses. Only what loose matching found is forgiven.
    @Test(arguments: [
        (#"{"Count":"5","child":{"m":"3","ids":[1,"x",3]},"list":[{}]}"#, nil as Int?),
        (#"{"Count":"5","child":{},"list":[{"m":"3","Count":"2"}]}"#, 2),
    ])
    func probesThroughASuperDecoderKeepFoundationsAnswers(json: String, listedCount: Int?) throws {
        let data = Data(json.utf8)
        let foundation = try JSONDecoder().decode(ThroughSuperDecoders.self, from: data)
        #expect(foundation.child == ProbingChild(m: nil, ids: nil, count: nil))
        #expect(foundation.listed == ProbingChild(m: nil, ids: nil, count: nil))

        let (value, report) = try LenientJSONDecoder().decodeWithReport(ThroughSuperDecoders.self, from: data)
        #expect(value.child == ProbingChild(m: nil, ids: nil, count: nil))
        #expect(value.listed == ProbingChild(m: nil, ids: nil, count: listedCount))
        #expect(value.count == 5)
        #expect(report.issues.allSatisfy { $0.kind == .keyFallback })

        let again = try LenientJSONDecoder().decode(
            ThroughSuperDecoders.self, from: LenientJSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test func aSuperclassProbeKeepsFoundationsAnswerBesideALooseSubclassKey() throws {
        for json in [#"{"Name":5,"super":{}}"#, #"{"Name":5,"super":{"m":"3"}}"#] {
            let foundation = try JSONDecoder().decode(NamedSubclass.self, from: Data(json.utf8))
            #expect(foundation.m == nil && foundation.name == nil)
            let (value, report) = try LenientJSONDecoder().decodeWithReport(NamedSubclass.self, from: Data(json.utf8))
            #expect(value.m == nil)
            #expect(value.name == "5")
            #expect(report.issues.map(\.jsonPath) == ["Name"])
        }
    }

    /// Reads `count` only, which may be found only as `Count`.
    struct Kid: Codable, Equatable {
        var count: Int?
    }

    /// Calls `Kid`'s `init(from:)` directly behind `try?`: through `superDecoder(forKey:)`,
    /// through an unkeyed container's `superDecoder()`, and on its own decoder (flattened).
    struct CallsInitsDirectly: Decodable {
        var kid: Kid?
        var kids: [Kid] = []
        var flat: Kid?
        enum CodingKeys: String, CodingKey { case kid, kids }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kid = try? Kid(from: container.superDecoder(forKey: .kid))
            var list = try container.nestedUnkeyedContainer(forKey: .kids)
            while !list.isAtEnd {
                if let kid = try? Kid(from: list.superDecoder()) { kids.append(kid) }
            }
            flat = try? Kid(from: decoder)
        }
    }

    /// A model's own `init(from:)` called directly behind `try?`, failing its pass only on what
    /// loose matching found, is no lost value: Foundation, which does not see the key, decodes
    /// it, and so does the lenient decoder, with what loose matching found forgiven and reported.
    @Test(arguments: [("2", 2 as Int?), ("x", nil)])
    func aModelsInitCalledDirectlyBehindTryIsNotLost(count: String, expected: Int?) throws {
        let json = #"{"kid":{"Count":"\#(count)"},"kids":[{"Count":"\#(count)"},{"count":1}],"Count":"\#(count)"}"#
        let foundation = try JSONDecoder().decode(CallsInitsDirectly.self, from: Data(json.utf8))
        #expect(foundation.kid == Kid(count: nil))
        #expect(foundation.kids == [Kid(count: nil), Kid(count: 1)])
        #expect(foundation.flat == Kid(count: nil))

        let (value, report) = try LenientJSONDecoder().decodeWithReport(CallsInitsDirectly.self, from: Data(json.utf8))
        #expect(value.kid == Kid(count: expected))
        #expect(value.kids == [Kid(count: expected), Kid(count: 1)])
        #expect(value.flat == Kid(count: expected))
        #expect(!report.issues.isEmpty)
        #expect(report.issues.allSatisfy { $0.jsonPath.hasSuffix("Count") })

        // Nested in a model, the outermost type of the pass answers for it.
        struct Around: Decodable { var inner: CallsInitsDirectly }
        let around = try LenientJSONDecoder().decode(Around.self, from: Data(#"{"inner":\#(json)}"#.utf8))
        #expect(around.inner.kid == value.kid && around.inner.kids == value.kids && around.inner.flat == value.flat)

        // Nested in an array, each element the same.
        let array = try LenientJSONDecoder().decode([CallsInitsDirectly].self, from: Data("[\(json),\(json)]".utf8))
        #expect(array.count == 2)
        #expect(array.allSatisfy { $0.kid == Kid(count: expected) && $0.kids == value.kids && $0.flat == value.flat })
    }

    /// Calls `Kid`'s `init(from:)` directly behind `try?`, through `superDecoder(forKey:)`.
    struct HoldsAKidDirectly: Codable, Equatable {
        var kid: Kid?
        enum CodingKeys: String, CodingKey { case kid }
        init(from decoder: any Decoder) throws {
            kid = try? Kid(from: decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .kid))
        }
    }

    /// Decoded through a container, between two direct calls.
    struct Box: Codable, Equatable {
        var inner: HoldsAKidDirectly?
    }

    /// Calls `Box`'s `init(from:)` directly behind `try?`, through `superDecoder(forKey:)`.
    struct HoldsABoxDirectly: Codable, Equatable {
        var box: Box?
        enum CodingKeys: String, CodingKey { case box }
        init(from decoder: any Decoder) throws {
            box = try? Box(from: decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .box))
        }
    }

    /// Calls `Box`'s `init(from:)` directly behind `try?` for each element of a list.
    struct ListsBoxesDirectly: Codable, Equatable {
        var boxes: [Box]
        init(from decoder: any Decoder) throws {
            var list = try decoder.unkeyedContainer()
            boxes = []
            while !list.isAtEnd {
                if let box = try? Box(from: list.superDecoder()) { boxes.append(box) }
            }
        }
        func encode(to encoder: any Encoder) throws { try boxes.encode(to: encoder) }
    }

    /// A direct call inside a type that a direct call decodes through a container: the type in
    /// the middle takes passes of its own in the super decoder of the outer call, and the inner
    /// call's failure on what loose matching found is answered for there.
    @Test(arguments: [("2", 2 as Int?), ("x", nil)])
    func aDirectCallInsideATypeInsideADirectCallIsNotLost(count: String, expected: Int?) throws {
        let nested = #"{"box":{"inner":{"kid":{"Count":"\#(count)"}}}}"#
        let foundation = try JSONDecoder().decode(HoldsABoxDirectly.self, from: Data(nested.utf8))
        #expect(foundation.box?.inner?.kid == Kid(count: nil))
        let (value, report) = try LenientJSONDecoder().decodeWithReport(HoldsABoxDirectly.self, from: Data(nested.utf8))
        #expect(value.box?.inner?.kid == Kid(count: expected))
        #expect(report.issues.count == 1)
        #expect(report.issues.allSatisfy { $0.jsonPath == "box.inner.kid.Count" })
        let again = try LenientJSONDecoder().decode(
            HoldsABoxDirectly.self, from: try LenientJSONEncoder().encode(value))
        #expect(again == value)

        let listed = #"[{"inner":{"kid":{"Count":"\#(count)"}}},{"inner":{"kid":{"count":1}}}]"#
        let foundations = try JSONDecoder().decode(ListsBoxesDirectly.self, from: Data(listed.utf8))
        #expect(foundations.boxes.map { $0.inner?.kid } == [Kid(count: nil), Kid(count: 1)])
        let list = try LenientJSONDecoder().decode(ListsBoxesDirectly.self, from: Data(listed.utf8))
        #expect(list.boxes.map { $0.inner?.kid } == [Kid(count: expected), Kid(count: 1)])
        let listAgain = try LenientJSONDecoder().decode(
            ListsBoxesDirectly.self, from: try LenientJSONEncoder().encode(list))
        #expect(listAgain == list)
    }

    /// Keeps its container, to read `HoldsAKidDirectly` from it after the decode.
    final class KeepsItsContainer: Decodable, @unchecked Sendable {
        // Read by the test's thread only, after the decode returned.
        let container: KeyedDecodingContainer<CodingKeys>
        enum CodingKeys: String, CodingKey { case inner }
        init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: CodingKeys.self) }
    }

    /// Calls `KeepsItsContainer`'s `init(from:)` directly behind `try?`, through a super decoder.
    struct HoldsAKeptContainer: Decodable {
        var kept: KeepsItsContainer?
        enum CodingKeys: String, CodingKey { case k }
        init(from decoder: any Decoder) throws {
            kept = try? KeepsItsContainer(from: decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .k))
        }
    }

    /// A kept container's read after the decode runs passes of its own, as the decode did: a
    /// direct call inside the value it reads, failing only on what loose matching found, is
    /// answered for there too, and its value is Foundation's, or forgiven where loose matching
    /// found a usable one.
    @Test(arguments: [("2", 2 as Int?), ("x", nil)])
    func aDirectCallReadThroughAKeptContainerIsNotLost(count: String, expected: Int?) throws {
        let json = Data(#"{"inner":{"kid":{"Count":"\#(count)"}}}"#.utf8)
        let foundation = try JSONDecoder().decode(KeepsItsContainer.self, from: json)
        #expect(try foundation.container.decode(HoldsAKidDirectly.self, forKey: .inner).kid == Kid(count: nil))
        let kept = try LenientJSONDecoder().decode(KeepsItsContainer.self, from: json)
        // The same container, of a super decoder: the model that keeps it is called directly.
        let held = try #require(
            try LenientJSONDecoder().decode(
                HoldsAKeptContainer.self, from: Data(#"{"k":\#(String(decoding: json, as: UTF8.self))}"#.utf8)
            ).kept)
        for container in [kept.container, held.container] {
            let inner = try container.decode(HoldsAKidDirectly.self, forKey: .inner)
            #expect(inner.kid == Kid(count: expected))
            #expect(
                try LenientJSONDecoder().decode(HoldsAKidDirectly.self, from: LenientJSONEncoder().encode(inner))
                    == inner)
        }
    }

    // MARK: Past the retry budget

    /// Reads its next level first, then its tags where it has them: `Tags` in the JSON is another
    /// key, which only loose matching finds, and a string there fails `nestedUnkeyedContainer`.
    struct Level: Decodable, Equatable {
        final class Box: Decodable, Equatable {
            let level: Level
            init(from decoder: any Decoder) throws { level = try Level(from: decoder) }
            static func == (lhs: Box, rhs: Box) -> Bool { lhs.level == rhs.level }
        }
        var next: Box?
        var tags: [String]?
        enum CodingKeys: String, CodingKey { case next, tags }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            next = try container.decodeIfPresent(Box.self, forKey: .next)
            if container.contains(.tags) {
                var list = try container.nestedUnkeyedContainer(forKey: .tags)
                var tags: [String] = []
                while !list.isAtEnd { tags.append(try list.decode(String.self)) }
                self.tags = tags
            } else {
                tags = nil
            }
        }

        var depth: Int { 1 + (next?.level.depth ?? 0) }
    }

    /// Picks its case by probes, as Foundation's decoder answers them.
    enum Number: Decodable, Equatable {
        case int(Int)
        case double(Double)
        case text(String)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else if let value = try? container.decode(Double.self) {
                self = .double(value)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    struct Levels: Decodable, Equatable {
        var levels: [Level]
        var number: Number
    }

    static func chain(depth: Int) -> String {
        var chain = #"{"Tags":"x"}"#
        for _ in 1..<depth { chain = #"{"next":\#(chain),"Tags":"x"}"# }
        return chain
    }

    /// Foundation decodes every chain (`contains(.tags)` is `false`); so does `.lenient`, whose
    /// retries of the levels that loose matching failed outgrow the budget: past it, each type
    /// takes Foundation's value, and loose matching stops, instead of failing the level.
    @Test(arguments: [(1, 7), (1, 40), (1, 480), (30, 4), (50, 5), (200, 3)])
    func chainsPastTheRetryBudgetKeepFoundationsValue(chains: Int, depth: Int) throws {
        let text =
            #"{"levels":[\#(Array(repeating: Self.chain(depth: depth), count: chains).joined(separator: ","))],"number":920.5}"#
        let json = Data(text.utf8)
        let foundation = try JSONDecoder().decode(Levels.self, from: json)
        #expect(foundation.levels.count == chains)
        #expect(foundation.number == .double(920.5))

        let (value, report) = try LenientJSONDecoder().decodeWithReport(Levels.self, from: json)
        #expect(value.levels.count == chains)
        #expect(value.levels.allSatisfy { $0.depth == depth })
        #expect(value.number == .double(920.5))
        // What loose matching found before the budget ran out is forgiven and reported, and
        // nothing else: no element is dropped, no number truncated.
        #expect(report.issues.allSatisfy { $0.kind == .keyFallback || $0.jsonPath.hasSuffix("Tags") })
        #expect(!report.issues.contains { $0.kind == .droppedElement })
        // A chain alone at the top of a decode, too.
        let top = try LenientJSONDecoder().decode(Level.self, from: Data(Self.chain(depth: depth).utf8))
        #expect(top.depth == depth)
    }

    struct Member: Codable, Equatable {
        var userName: String
        var age: Int?
    }

    struct LevelsThenMembers: Decodable, Equatable {
        var levels: [Level]
        var members: [Member]
    }

    /// A chain that spends the retry budget takes Foundation's value for itself alone: what
    /// comes after it is still found under other spellings, and reported.
    @Test(arguments: [7, 20, 30])
    func whatFollowsAChainPastTheBudgetKeepsLooseMatching(depth: Int) throws {
        let text =
            #"{"levels":[\#(Self.chain(depth: depth))],"members":[{"user_name":"bob","Age":3},{"userName":"amy","AGE":4}]}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(LevelsThenMembers.self, from: Data(text.utf8))
        #expect(value.levels.map(\.depth) == [depth])
        #expect(value.members == [Member(userName: "bob", age: 3), Member(userName: "amy", age: 4)])
        let fallbacks = report.issues.filter { $0.kind == .keyFallback }.map(\.jsonPath)
        #expect(fallbacks.contains { $0.hasSuffix("members[0].user_name") })
        #expect(fallbacks.contains { $0.hasSuffix("members[0].Age") })
        #expect(fallbacks.contains { $0.hasSuffix("members[1].AGE") })
        #expect(!report.issues.contains { $0.kind == .droppedElement })
    }

    /// A chain so deep that its retries spend the second budget too: loose matching then stops
    /// for the rest of the decode, which stays linear, and what follows gets Foundation's value.
    @Test func pastBothBudgetsWhatFollowsGetsFoundationsValue() throws {
        let text = #"{"levels":[\#(Self.chain(depth: 480))],"members":[{"userName":"amy","AGE":4}]}"#
        let json = Data(text.utf8)
        let foundation = try JSONDecoder().decode(LevelsThenMembers.self, from: json)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(LevelsThenMembers.self, from: json)
        #expect(value == foundation)
        #expect(value.members == [Member(userName: "amy", age: nil)])
        #expect(!report.issues.contains { $0.jsonPath.contains("members") })
    }
}

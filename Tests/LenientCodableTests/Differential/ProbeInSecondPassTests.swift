// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A type whose own `init(from:)` probes with `try?` and also has a property that needs forgiving: its first,
/// Foundation-like pass fails on that property, and its second pass, which forgives, must still answer each probe as
/// Foundation did, so that the model takes Foundation's branch and only the property is forgiven.
@Suite struct ProbeInSecondPassTests {
    struct Item: Codable, Equatable {
        var name: String
    }

    /// Probes `v` as `Bool`, then `Int`; `n` needs forgiving when it is a string.
    struct BoolOrInt: Decodable, Equatable {
        var v: String
        var n: Int
        enum CodingKeys: String, CodingKey { case v, n }

        init(v: String, n: Int) {
            self.v = v
            self.n = n
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let flag = try? container.decode(Bool.self, forKey: .v) {
                v = "bool \(flag)"
            } else {
                v = "int \(try container.decode(Int.self, forKey: .v))"
            }
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    /// A list or one item; a number or a string; an optional probe of a value no other call reads; a probe for a
    /// missing key.
    struct Shapes: Decodable, Equatable {
        var items: [Item]
        var code: String
        var count: Int?
        var hasFlag: Bool
        var n: Int
        enum CodingKeys: String, CodingKey { case items, code, count, flag, n }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let list = try? container.decode([Item].self, forKey: .items) {
                items = list
            } else {
                items = [try container.decode(Item.self, forKey: .items)]
            }
            if let number = try? container.decode(Int.self, forKey: .code) {
                code = "number \(number)"
            } else {
                code = "text " + (try container.decode(String.self, forKey: .code))
            }
            count = (try? container.decodeIfPresent(Int.self, forKey: .count)) ?? nil
            hasFlag = (try? container.decode(Bool.self, forKey: .flag)) != nil
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    /// Goes on past a failed probe of a nested type, then decodes a nested type that probes and fails its own pass.
    struct Outer: Decodable, Equatable {
        var optionalInner: BoolOrInt?
        var inner: BoolOrInt
        var m: Int
        enum CodingKeys: String, CodingKey { case optionalInner, inner, m }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            optionalInner = try? container.decode(BoolOrInt.self, forKey: .optionalInner)
            inner = try container.decode(BoolOrInt.self, forKey: .inner)
            m = try container.decode(Int.self, forKey: .m)
        }
    }

    /// A wrapper that decodes its value through a single value container: a failure inside it is not a probe.
    struct Wrapped: Decodable, Equatable {
        var value: Int
        init(value: Int) { self.value = value }
        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    struct WithWrapped: Decodable, Equatable {
        var w: Wrapped
        var n: Int
    }

    @Test func aProbeTakesFoundationsBranchWhenAnotherPropertyIsForgiven() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            BoolOrInt.self, from: Data(#"{"v":1,"n":"5"}"#.utf8))
        // Foundation, on the same document with `n` a number, takes the `Int` branch.
        let foundation = try JSONDecoder().decode(BoolOrInt.self, from: Data(#"{"v":1,"n":5}"#.utf8))
        #expect(foundation.v == "int 1")
        #expect(value == BoolOrInt(v: "int 1", n: 5))
        #expect(report.issues.map(\.path) == ["n"])
        #expect(report.issues.first?.kind == .coerced)
    }

    @Test func everyProbeKindKeepsFoundationsAnswer() throws {
        let json = #"{"items":{"name":"one"},"code":"42","count":"7","n":"5"}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Shapes.self, from: Data(json.utf8))
        let clean = try JSONDecoder().decode(
            Shapes.self, from: Data(#"{"items":{"name":"one"},"code":"42","count":"7","n":5}"#.utf8))
        #expect(clean.items == [Item(name: "one")])
        #expect(clean.code == "text 42")
        #expect(clean.count == nil)
        #expect(!clean.hasFlag)
        #expect(value.items == clean.items)
        #expect(value.code == clean.code)
        // Read by no other call: answering as Foundation would drop "7" unreported; it is forgiven and reported.
        #expect(value.count == 7)
        #expect(value.hasFlag == clean.hasFlag)
        #expect(value.n == 5)
        #expect(report.issues.map(\.path) == ["count", "n"])
    }

    @Test func probesThatAllFailAreForgivenAsAnyValueIs() throws {
        // `v` is neither: no branch reads it in Foundation's terms, so the first probe is forgiven as any value is
        // (an invalid value takes its type's default), and reported.
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            BoolOrInt.self, from: Data(#"{"v":"x","n":"5"}"#.utf8))
        #expect(value == BoolOrInt(v: "bool false", n: 5))
        #expect(report.issues.first?.kind == .defaulted)
        #expect(report.issues.map(\.path) == ["v", "n"])
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(BoolOrInt.self, from: Data(#"{"v":"x","n":"5"}"#.utf8))
        }
    }

    @Test func nestedProbesKeepFoundationsAnswersAndCaughtValuesAreKept() throws {
        let json = #"{"optionalInner":{"v":true,"n":"6"},"inner":{"v":1,"n":"5"},"m":"7"}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Outer.self, from: Data(json.utf8))
        #expect(value.inner == BoolOrInt(v: "int 1", n: 5))
        // Foundation fails `optionalInner` (its `n` is a string) and the model goes on with `nil`; no other call reads
        // it, so it is forgiven, as a value is, rather than lost.
        #expect(value.optionalInner == BoolOrInt(v: "bool true", n: 6))
        #expect(value.m == 7)
        #expect(report.issues.map(\.path) == ["optionalInner.n", "inner.n", "m"])
    }

    @Test func aFailureInsideAWrapperIsForgivenNotTakenForAProbe() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            WithWrapped.self, from: Data(#"{"w":"3","n":"4"}"#.utf8))
        #expect(value == WithWrapped(w: Wrapped(value: 3), n: 4))
        #expect(report.issues.map(\.path) == ["w", "n"])
    }

    /// A string, read through a single value container.
    struct Text: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            text = try decoder.singleValueContainer().decode(String.self)
        }
    }

    /// Reads its value as a `Text` first, then as the `Int` it keeps.
    struct ReadsTwice: Decodable, Equatable {
        var value: Int
        init(value: Int) { self.value = value }
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            _ = try? container.decode(Text.self)
            value = try container.decode(Int.self)
        }
    }

    /// A probe that fails first, so that the pass logs what follows: a nested type whose failure ends the pass.
    struct ProbeThenNested: Decodable, Equatable {
        var flag: Bool?
        var nested: ReadsTwice
        enum CodingKeys: String, CodingKey { case flag, nested }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            flag = try? container.decode(Bool.self, forKey: .flag)
            nested = try container.decode(ReadsTwice.self, forKey: .nested)
        }
    }

    @Test func aNestedTypeThatReadsItsValueTwiceAndFailsIsForgivenNotTakenForAProbe() throws {
        // The nested type's own read of its value happens inside the call that fails the pass, not after it.
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            ProbeThenNested.self, from: Data(#"{"flag":2,"nested":"3"}"#.utf8))
        #expect(value.nested == ReadsTwice(value: 3))
        #expect(report.issues.map(\.path).contains("nested"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ProbeThenNested.self, from: Data(#"{"flag":2,"nested":"3"}"#.utf8))
        }
    }

    /// A pair read through an unkeyed container: the first element probed as `Bool`, then read as `Int`.
    struct Pair: Decodable, Equatable {
        var first: String
        var second: Int
        init(first: String, second: Int) {
            self.first = first
            self.second = second
        }
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            if let flag = try? container.decode(Bool.self) {
                first = "bool \(flag)"
            } else {
                first = "int \(try container.decode(Int.self))"
            }
            second = try container.decode(Int.self)
        }
    }

    @Test func aProbeThroughAnUnkeyedContainerKeepsFoundationsBranch() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Pair.self, from: Data(#"[0,"7"]"#.utf8))
        #expect(try JSONDecoder().decode(Pair.self, from: Data("[0,7]".utf8)) == Pair(first: "int 0", second: 7))
        #expect(value == Pair(first: "int 0", second: 7))
        #expect(report.issues.map(\.path) == ["[1]"])
    }

    /// Probes `v` as `Int`, reads it as `String`, then reads it as `Int` for good.
    struct ProbeThenRead: Decodable, Equatable {
        var isText: Bool
        var text: String
        var value: Int
        enum CodingKeys: String, CodingKey { case v }

        init(isText: Bool, text: String, value: Int) {
            self.isText = isText
            self.text = text
            self.value = value
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isText = (try? container.decode(Int.self, forKey: .v)) == nil
            text = try container.decode(String.self, forKey: .v)
            value = try container.decode(Int.self, forKey: .v)
        }
    }

    @Test func onlyTheProbeIsAnsweredAsFoundationNotALaterReadOfTheSameValue() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            ProbeThenRead.self, from: Data(#"{"v":"3"}"#.utf8))
        #expect(value == ProbeThenRead(isText: true, text: "3", value: 3))
        #expect(report.issues.map(\.path) == ["v"])
        #expect(report.issues.first?.kind == .coerced)
    }

    class Base: Decodable {
        let value: Int
        enum CodingKeys: String, CodingKey { case v }
        required init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .v)
        }
    }

    /// Probes the value its superclass then reads as the same type.
    final class Sub: Base {
        let probed: Int?
        required init(from decoder: any Decoder) throws {
            probed = try? decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .v)
            try super.init(from: decoder)
        }
    }

    @Test func aSubclassProbeOfWhatItsSuperclassReadsDoesNotFailTheDecode() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Sub.self, from: Data(#"{"v":"3"}"#.utf8))
        #expect(value.value == 3)
        #expect(report.issues.map(\.path) == ["v"])
        // In a lossy array, such an element is decoded, not dropped.
        let list = try LenientJSONDecoder().decode([Sub].self, from: Data(#"[{"v":"3"},{"v":4}]"#.utf8))
        #expect(list.map(\.value) == [3, 4])
    }

    /// Logs the raw value when a property fails, then rethrows.
    struct LogsAndRethrows: Decodable, Equatable {
        var n: Int
        enum CodingKeys: String, CodingKey { case n }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            do {
                n = try container.decode(Int.self, forKey: .n)
            } catch {
                _ = try? container.decode(String.self, forKey: .n)
                throw error
            }
        }
    }

    @Test func aModelThatRethrowsAfterReadingTheRawValueIsStillForgiven() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            LogsAndRethrows.self, from: Data(#"{"n":"5"}"#.utf8))
        #expect(value.n == 5)
        #expect(report.issues.map(\.path) == ["n"])
    }

    /// A lossy list of probing elements, each of which fails its own first pass, beside a property that fails the
    /// outer type's.
    struct LossyOfProbes: Decodable {
        @LossyArray var items: [BoolOrInt]
        var n: Int
    }

    /// The same list read twice.
    struct LossyTwice: Decodable {
        var first: [BoolOrInt]
        var second: [BoolOrInt]
        enum CodingKeys: String, CodingKey { case items }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            first = try container.decode(LossyArray<BoolOrInt>.self, forKey: .items).wrappedValue
            second = try container.decode(LossyArray<BoolOrInt>.self, forKey: .items).wrappedValue
        }
    }

    @Test func aValueDecodedAgainAnswersItsProbesAgain() throws {
        let expected = [BoolOrInt(v: "int 1", n: 5)]
        let outer = try LenientJSONDecoder().decode(
            LossyOfProbes.self, from: Data(#"{"items":[{"v":1,"n":"5"}],"n":"5"}"#.utf8))
        #expect(outer.items == expected)
        let twice = try LenientJSONDecoder().decode(LossyTwice.self, from: Data(#"{"items":[{"v":1,"n":"5"}]}"#.utf8))
        #expect(twice.first == expected)
        #expect(twice.second == expected)
    }

    /// Picks a schema by a probe: a forgiven probe takes the branch in which a call that was a probe before is a
    /// plain read.
    struct Versioned: Decodable, Equatable {
        var version: Int?
        var flag: Bool?
        var number: Int?
        var n: Int
        enum CodingKeys: String, CodingKey { case version, v, n }

        init(version: Int?, flag: Bool?, number: Int?, n: Int) {
            self.version = version
            self.flag = flag
            self.number = number
            self.n = n
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try? container.decode(Int.self, forKey: .version)
            if version != nil {
                flag = try container.decode(Bool.self, forKey: .v)
            } else {
                flag = try? container.decode(Bool.self, forKey: .v)
                number = try container.decode(Int.self, forKey: .v)
            }
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    @Test func aBranchThatAForgivenProbeChoseIsForgivenAllTheWay() throws {
        // The version probe is forgiven ("7" read by nothing else), which leads to the branch where `v` is read as a
        // `Bool` outright: that pass runs again forgiving every call, as before probes were answered.
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            Versioned.self, from: Data(#"{"version":"7","v":1,"n":"5"}"#.utf8))
        #expect(value == Versioned(version: 7, flag: true, number: nil, n: 5))
        #expect(report.issues.map(\.path) == ["version", "v", "n"])
    }

    struct Point: Decodable {
        var x: Bool
    }

    /// Probes `p` as a `Point`, else reads an optional `legacy` inside it.
    struct PointOrLegacy: Decodable {
        var point: Point?
        var legacy: Int?
        var n: Int
        enum CodingKeys: String, CodingKey { case p, legacy, n }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let point = try? container.decode(Point.self, forKey: .p) {
                self.point = point
            } else {
                let nested = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .p)
                legacy = try? nested.decode(Int.self, forKey: .legacy)
            }
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    @Test func aFallbackThatReadsTheProbedObjectKeepsFoundationsBranch() throws {
        let value = try LenientJSONDecoder().decode(PointOrLegacy.self, from: Data(#"{"p":{"x":1},"n":"5"}"#.utf8))
        let foundation = try JSONDecoder().decode(PointOrLegacy.self, from: Data(#"{"p":{"x":1},"n":5}"#.utf8))
        #expect(foundation.point == nil)
        #expect(value.point == nil)
        #expect(value.legacy == nil)
        #expect(value.n == 5)
    }

    @Test func aDecoderKeptAcrossDecodesAnswersEachAsItsOwn() throws {
        let decoder = LenientJSONDecoder()
        // The first decode leaves caught calls behind; the next decodes start clean.
        #expect(try decoder.decode(BoolOrInt.self, from: Data(#"{"v":1,"n":"5"}"#.utf8)).v == "int 1")
        #expect(try decoder.decode(BoolOrInt.self, from: Data(#"{"v":true,"n":5}"#.utf8)).v == "bool true")
        #expect(
            try decoder.decode([BoolOrInt].self, from: Data(#"[{"v":1,"n":"5"},{"v":false,"n":"6"}]"#.utf8))
                == [BoolOrInt(v: "int 1", n: 5), BoolOrInt(v: "bool false", n: 6)])
    }

    /// Probes a key that may be missing; `n` needs forgiving when it is a string.
    struct ProbesMissingKey: Codable, Equatable {
        var a: Int?
        var n: Int
        enum CodingKeys: String, CodingKey { case a, n }

        init(a: Int?, n: Int) {
            self.a = a
            self.n = n
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            a = try? container.decode(Int.self, forKey: .a)
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    /// Reads one member twice as the same type, the second time behind a `try?`.
    struct ReadsAMemberTwice: Decodable {
        var first: ProbesMissingKey
        var second: ProbesMissingKey?
        enum CodingKeys: String, CodingKey { case x }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            first = try container.decode(ProbesMissingKey.self, forKey: .x)
            second = try? container.decode(ProbesMissingKey.self, forKey: .x)
        }
    }

    /// The same value read twice by the same type inside the forgiving pass of the type around
    /// it makes the same calls twice, and gets the same answers: the probe of the missing key is
    /// `nil` both times, never a made-up `0`, and nothing is reported for it.
    @Test(arguments: [#"{"x":{"n":"5"}}"#, #"{"n":"5","x":{"n":"5"}}"#])
    func aValueReadTwiceByOneTypeGetsTheSameAnswersTwice(json: String) throws {
        let expected = ProbesMissingKey(a: nil, n: 5)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(ReadsAMemberTwice.self, from: Data(json.utf8))
        #expect(value.first == expected)
        #expect(value.second == expected)
        #expect(report.issues.map { "\($0.jsonPath) \($0.kind)" } == ["x.n coerced"])

        let elements = try LenientJSONDecoder().decode([ReadsAMemberTwice].self, from: Data("[\(json),\(json)]".utf8))
        #expect(elements.count == 2)
        #expect(elements.allSatisfy { $0.first == expected && $0.second == expected })

        let encoded = try LenientJSONEncoder().encode(expected)
        #expect(try LenientJSONDecoder().decode(ProbesMissingKey.self, from: encoded) == expected)
    }

    /// Decodes its child through `superDecoder(forKey:)`.
    struct ChildThroughSuperDecoder: Decodable, Equatable {
        var child: BoolOrInt
        enum CodingKeys: String, CodingKey { case child }

        init(from decoder: any Decoder) throws {
            child = try BoolOrInt(from: decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .child))
        }
    }

    /// A model decoded through a super decoder whose probe's value is then read as another
    /// type, and whose own property fails the first pass, keeps Foundation's branch in the second
    /// pass, as it does decoded through `decode(_:forKey:)`.
    @Test func aProbeThroughASuperDecoderKeepsFoundationsBranch() throws {
        for (json, v) in [(#"{"child":{"v":1,"n":"5"}}"#, "int 1"), (#"{"child":{"v":true,"n":"5"}}"#, "bool true")] {
            let (value, report) = try LenientJSONDecoder().decodeWithReport(
                ChildThroughSuperDecoder.self, from: Data(json.utf8))
            #expect(value.child == BoolOrInt(v: v, n: 5))
            #expect(report.issues.map(\.jsonPath) == ["child.n"])
        }
    }
}

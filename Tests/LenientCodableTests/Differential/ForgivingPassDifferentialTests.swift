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

    /// A loose match inside a model that a probe catches: the model decodes as it does at the top
    /// of a decode, so the probe takes Foundation's branch. Where the value under the other
    /// spelling cannot be read, the optional stays `nil`, reported (the documented exception);
    /// where it can, it fills the optional, reported.
    @Test func aLooseMatchThatFailsANestedModelLeavesTheProbesBranchAlone() throws {
        let unreadable = Data(#"{"user_name":"abc"}"#.utf8)
        let foundation = try JSONDecoder().decode(ProbesForInner.self, from: unreadable)
        #expect(foundation.branch == "inner" && foundation.inner?.userName == nil)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(ProbesForInner.self, from: unreadable)
        #expect(lenient.branch == "inner" && lenient.inner?.userName == nil)
        let (top, topReport) = try LenientJSONDecoder().decodeWithReport(Inner.self, from: unreadable)
        #expect(lenient.inner == top)
        #expect(report.issues.map(\.kind) == [.defaulted] && report.issues.map(\.kind) == topReport.issues.map(\.kind))
        #expect(report.issues.map(\.jsonPath) == ["user_name"])

        let readable = Data(#"{"user_name":5}"#.utf8)
        let (filled, filledReport) = try LenientJSONDecoder().decodeWithReport(ProbesForInner.self, from: readable)
        #expect(filled.branch == "inner" && filled.inner?.userName == 5)
        #expect(filledReport.issues.map(\.kind) == [.keyFallback])
    }

    struct Account: Codable, Equatable {
        var userName: String?
        var count: Int?
    }

    struct Envelope: Codable, Equatable {
        var inner: Account
        var n: Int
    }

    /// A model nested in another decodes what it holds under other spellings as it does at the
    /// top of a decode, whether a sibling anywhere needs forgiving or not, alone or in an array;
    /// and decoding what the encoder wrote gives the same value back, with nothing to forgive.
    @Test(arguments: [#"1"#, #""1""#])
    func aNestedModelFindsItsOtherSpellingsAsAtTheTop(sibling: String) throws {
        let inner = #"{"user_name":"bob","Count":"7"}"#
        let top = try LenientJSONDecoder().decode(Account.self, from: Data(inner.utf8))
        #expect(top == Account(userName: "bob", count: 7))
        let json = Data(#"{"inner":\#(inner),"n":\#(sibling)}"#.utf8)
        let (nested, report) = try LenientJSONDecoder().decodeWithReport(Envelope.self, from: json)
        #expect(nested == Envelope(inner: top, n: 1))
        let expected = ["inner.userName", "inner.count"] + (sibling == "1" ? [] : ["n"])
        #expect(report.issues.map(\.path) == expected)
        let list = Data("[\(String(decoding: json, as: UTF8.self)),\(String(decoding: json, as: UTF8.self))]".utf8)
        let (elements, listReport) = try LenientJSONDecoder().decodeWithReport([Envelope].self, from: list)
        #expect(elements == [nested, nested])
        #expect(listReport.issues.count == 2 * expected.count)
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(
            Envelope.self, from: LenientJSONEncoder().encode(nested))
        #expect(again == nested && againReport.isEmpty)
    }

    struct Defaulted: Codable, Equatable, DeclaredDefaults {
        var userName: Int = -1
        var age: Int = 0
        init() {}
        init(userName: Int, age: Int) {
            self.userName = userName
            self.age = age
        }
    }

    struct HoldsDefaulted: Codable, Equatable {
        var inner: Defaulted
    }

    /// A value present under another spelling is decoded, not replaced by a declared default, in
    /// a nested model as at the top; Foundation fails on it (its keys are missing).
    @Test func aDeclaredDefaultDoesNotReplaceAValueFoundUnderAnotherSpelling() throws {
        let inner = #"{"user_name":"5","Age":30}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Defaulted.self, from: Data(inner.utf8)) }
        let top = try LenientJSONDecoder().decode(Defaulted.self, from: Data(inner.utf8))
        #expect(top == Defaulted(userName: 5, age: 30))
        let (nested, report) = try LenientJSONDecoder().decodeWithReport(
            HoldsDefaulted.self, from: Data(#"{"inner":\#(inner)}"#.utf8))
        #expect(nested.inner == top)
        #expect(report.issues.map(\.kind) == [.keyFallback, .keyFallback])
        let again = try LenientJSONDecoder().decode(HoldsDefaulted.self, from: LenientJSONEncoder().encode(nested))
        #expect(again == nested)
    }

    class Base: Codable {
        var userName: Int?
    }

    final class Derived: Base {
        var x = 0
        enum Keys: String, CodingKey { case x }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            x = try container.decode(Int.self, forKey: .x)
            try super.init(from: container.superDecoder())
        }
    }

    struct ProbesForDerived: Decodable {
        var branch: String

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let derived = try? container.decode(Derived.self) {
                branch = "derived \(derived.x) \(String(describing: derived.userName))"
            } else {
                branch = "fallback"
            }
        }
    }

    /// A loose match through a super decoder counts for the model that asked for it: a probe
    /// around that model takes Foundation's branch.
    @Test func aLooseMatchThroughASuperDecoderLeavesTheProbesBranchAlone() throws {
        let json = Data(#"{"x":1,"super":{"user_name":"abc"}}"#.utf8)
        let foundation = try JSONDecoder().decode(ProbesForDerived.self, from: json)
        #expect(foundation.branch == "derived 1 nil")
        let lenient = try LenientJSONDecoder().decode(ProbesForDerived.self, from: json)
        #expect(lenient.branch == foundation.branch)
    }

    final class Link: Codable {
        var next: Link?
        var userName: Int?

        var depth: Int { 1 + (next?.depth ?? 0) }
    }

    struct ProbesForLink: Decodable {
        var depth: Int?

        init(from decoder: any Decoder) throws {
            depth = (try? decoder.singleValueContainer().decode(Link.self))?.depth
        }
    }

    /// Every level of a chain holds a value under another spelling that no level can read: the
    /// probe around it takes Foundation's branch, each level's value reported once.
    @Test(arguments: [3, 10])
    func aChainOfLooseMatchesLeavesTheProbesBranchAlone(depth: Int) throws {
        var json = #"{"user_name":"abc"}"#
        for _ in 1..<depth { json = #"{"next":\#(json),"user_name":"abc"}"# }
        let foundation = try JSONDecoder().decode(ProbesForLink.self, from: Data(json.utf8))
        #expect(foundation.depth == depth)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(ProbesForLink.self, from: Data(json.utf8))
        #expect(lenient.depth == depth)
        #expect(report.issues.count == depth && report.issues.allSatisfy { $0.kind == .defaulted })
    }

    struct HoldsPlain: Codable {
        struct Plain: Codable {
            var userName: Int?
        }
        var inner: Plain
    }

    /// With unknown keys reported, a member found under another spelling that a nested model
    /// could not read is named in the report, as at the top of a decode.
    @Test func aMemberANestedModelCouldNotReadIsReported() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let (value, report) = try decoder.decodeWithReport(
            HoldsPlain.self, from: Data(#"{"inner":{"user_name":"abc","x":1}}"#.utf8))
        #expect(value.inner.userName == nil)
        #expect(report.issues.map(\.jsonPath).sorted() == ["inner.user_name", "inner.x"])
    }

    struct Probing: Decodable, Equatable {
        var userName: Int?
        var flag: Bool?
        var isOn: Bool?
        var v: String
        enum Keys: String, CodingKey { case userName, flag, isOn, v }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            isOn = try? container.decode(Bool.self, forKey: .isOn)
            userName = try container.decodeIfPresent(Int.self, forKey: .userName)
            flag = try? container.decode(Bool.self, forKey: .flag)
            if let bool = try? container.decode(Bool.self, forKey: .v) {
                v = "bool \(bool)"
            } else {
                v = "int \(try container.decode(Int.self, forKey: .v))"
            }
        }
    }

    struct HoldsProbing: Decodable, Equatable {
        var m: Probing
    }

    /// A nested model that fails its pass only on what loose matching found keeps Foundation's
    /// answer at every probe it makes, before and after that property: a missing key stays
    /// missing, a value of another type is not coerced for a probe.
    @Test func probesOfANestedModelKeepFoundationsAnswers() throws {
        let json = Data(#"{"m":{"isOn":"0","user_name":"abc","v":1}}"#.utf8)
        let foundation = try JSONDecoder().decode(HoldsProbing.self, from: json)
        #expect(foundation.m.isOn == nil && foundation.m.flag == nil && foundation.m.v == "int 1")
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(HoldsProbing.self, from: json)
        #expect(lenient == foundation)
        #expect(report.issues.map(\.jsonPath) == ["m.user_name"])
        let list = Data("[\(String(decoding: json, as: UTF8.self))]".utf8)
        #expect(try LenientJSONDecoder().decode([HoldsProbing].self, from: list) == [foundation])

        // The same model at the top of a decode.
        let inner = Data(#"{"isOn":"0","user_name":"abc","v":1}"#.utf8)
        let (top, topReport) = try LenientJSONDecoder().decodeWithReport(Probing.self, from: inner)
        #expect(top == foundation.m)
        #expect(topReport.issues.map(\.jsonPath) == ["user_name"])
        let readable = Data(#"{"user_name":"7","v":1}"#.utf8)
        let (filled, filledReport) = try LenientJSONDecoder().decodeWithReport(Probing.self, from: readable)
        #expect(filled.userName == 7 && filled.flag == nil && filled.isOn == nil && filled.v == "int 1")
        #expect(filledReport.issues.map(\.kind) == [.keyFallback])
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A single value wrapped in an array, JSON text parsed from a string, and both at once: the
/// element's coding path names its index, one value is one issue, and a hook's refusal is a
/// rejection however the value arrived.
@Suite struct WrappedAndParsedValueTests {
    /// Records the coding path its decoder was given.
    struct Located: Codable, Equatable {
        var path: String
        var n: Int

        enum CodingKeys: String, CodingKey { case n }

        init(path: String = "", n: Int) {
            self.path = path
            self.n = n
        }

        init(from decoder: any Decoder) throws {
            path = CodingPathNodeText.text(of: decoder.codingPath)
            n = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .n)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(n, forKey: .n)
        }
    }

    enum CodingPathNodeText {
        static func text(of path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
    }

    struct Plain: Codable { var items: [Located] }
    struct Lossy: Codable { @LossyArray var items: [Located] }
    struct Elements: Codable { var items: Set<Int> }

    struct Checked: Codable, Equatable, DecodingHooks {
        struct Refused: Error {}
        var name: String
        mutating func didDecode(from json: JSONValue) throws {
            if name == "bad" { throw Refused() }
        }
    }

    struct Holder: Codable {
        var items: [Checked]
        var one: Checked?
    }

    @Test func aWrappedValueIsTheFirstElementAndItsPathSaysSo() throws {
        let json = #"{"items": {"n": "1"}}"#
        let (plain, plainReport) = try LenientJSONDecoder().decodeWithReport(Plain.self, from: json)
        #expect(plain.items == [Located(path: ".items[0]", n: 1)])
        #expect(plainReport.issues.map(\.path) == ["items", "items[0].n"])
        #expect(plainReport.issues.map(\.jsonPath) == ["items", "items.n"])

        let (lossy, lossyReport) = try LenientJSONDecoder().decodeWithReport(Lossy.self, from: json)
        #expect(lossy.items == [Located(path: ".items[0]", n: 1)])
        #expect(lossyReport.issues.map(\.path) == ["items", "items[0].n"])

        // Written back as the array it now is, and read back without forgiving anything.
        let written = try LenientJSONEncoder().encode(plain)
        #expect(String(decoding: written, as: UTF8.self) == #"{"items":[{"n":1}]}"#)
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(Plain.self, from: written)
        #expect(again.items.map(\.n) == [1])
        #expect(againReport.issues.isEmpty)
    }

    @Test func aWrappedValueThatFailsIsDroppedAtTheElementsPath() throws {
        let (lossy, report) = try LenientJSONDecoder().decodeWithReport(Lossy.self, from: #"{"items": {"x": 1}}"#)
        #expect(lossy.items.isEmpty)
        #expect(report.issues.map(\.path) == ["items[0]"])
        #expect(report.issues.map(\.kind) == [.droppedElement])
        // Strict mode wraps nothing.
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Plain.self, from: #"{"items": {"n": 1}}"#)
        }
        let set = try LenientJSONDecoder().decode(Elements.self, from: #"{"items": 5}"#)
        #expect(set.items == [5])
    }

    @Test func jsonTextWrappedInAnArrayIsOneValueAndOneIssue() throws {
        let json = #"{"items": "{\"name\": \"solo\"}"}"#
        let holder = try LenientJSONDecoder().decodeWithReport(Holder.self, from: json)
        #expect(holder.value.items == [Checked(name: "solo")])
        let issues = holder.report.issues
        #expect(issues.count == 1)
        #expect(issues.first?.path == "items")
        #expect(issues.first?.kind == .coerced)
        #expect(issues.first?.message.hasPrefix("Parsed the JSON text in a string as Array<") == true)
        #expect(issues.first?.message.contains("wrapped an object in Array<") == true)
        let back = try LenientJSONDecoder().decodeWithReport(
            Holder.self, from: try LenientJSONEncoder().encode(holder.value))
        #expect(back.value.items == holder.value.items)
        #expect(back.report.issues.isEmpty)
    }

    struct Prices: Codable, Equatable { @LossyDictionary var prices: [String: Decimal] }
    struct Items: Codable, Equatable { @LossyDictionary var byName: [String: Checked] }
    struct MyDecodingAttempt<Value: Codable & Equatable>: Codable, Equatable { var value: Value }
    struct OwnAttempt: Codable, Equatable { var value: MyDecodingAttempt<Int> }

    /// A message names the types a model declares, never the package's internal ones.
    @Test func jsonTextForALossyDictionaryNamesItsType() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            Prices.self, from: #"{"prices": "{\"a\": 1, \"b\": \"x\"}"}"#)
        #expect(value.prices == ["a": 1])
        #expect(report.issues.map(\.kind) == [.coerced, .droppedElement])
        #expect(report.issues.first?.message == "Parsed the JSON text in a string as Dictionary<String, Decimal>.")
        #expect(!report.description.contains("DecodingAttempt"), "\(report)")
        // A dropped member names the member's type.
        let (items, itemReport) = try LenientJSONDecoder().decodeWithReport(
            Items.self, from: #"{"byName": {"a": {"zz": 1}, "b": {"name": "b"}}}"#)
        #expect(items.byName == ["b": Checked(name: "b")])
        #expect(itemReport.issues.map(\.kind) == [.droppedElement])
        #expect(itemReport.issues.first?.message.contains("properties of Checked is present") == true, "\(itemReport)")
        // A type of the model's own whose name ends the same way is named as it is.
        let (own, ownReport) = try LenientJSONDecoder().decodeWithReport(
            OwnAttempt.self, from: #"{"value": "{\"value\": 1}"}"#)
        #expect(own.value.value == 1)
        #expect(ownReport.issues.first?.message == "Parsed the JSON text in a string as MyDecodingAttempt<Int>.")
        let back = try LenientJSONDecoder().decodeWithReport(Prices.self, from: try LenientJSONEncoder().encode(value))
        #expect(back.value == value && back.report.isEmpty)
    }

    /// A message says a fraction was truncated only when there was one: an integer written
    /// with an exponent past `Double`'s precision is read exactly, and reported without it.
    @Test(arguments: [
        ("[9223372036854775807e0]", [Int.max], "Coerced number 9223372036854775807e0 to Int 9223372036854775807."),
        (
            "[9223372036854775806.5e0]", [Int.max - 1],
            "Coerced number 9223372036854775806.5e0 to Int 9223372036854775806 (fraction truncated)."
        ),
        ("[15e-1]", [1], "Coerced number 15e-1 to Int 1 (fraction truncated)."),
        (
            #"["9223372036854775807e0"]"#, [Int.max],
            #"Coerced string "9223372036854775807e0" to Int 9223372036854775807."#
        ),
    ])
    func aTruncationIsSaidOnlyWhenAFractionWasDropped(json: String, expected: [Int], message: String) throws {
        #expect((try? JSONDecoder().decode([Int].self, from: Data(json.utf8))) == nil)
        let (value, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: json)
        #expect(value == expected)
        #expect(report.issues.map(\.message) == [message])
        let back = try LenientJSONDecoder().decodeWithReport([Int].self, from: try LenientJSONEncoder().encode(value))
        #expect(back.value == value && back.report.isEmpty)
    }

    struct Numbers: Codable, Equatable { var v: [Int] }
    struct Nested: Codable { var items: [[Located]] }
    struct Lists: Codable { var h: [Checked] }
    struct Grouped: Codable { var m: [String: [Checked]] }

    @Test(arguments: [
        (
            #"{"v": 5.5}"#, [5],
            "Wrapped number 5.5 in Array<Int>; then coerced number 5.5 to Int 5 (fraction truncated)."
        ),
        (#"{"v": "5"}"#, [5], #"Wrapped string "5" in Array<Int>; then coerced string "5" to Int 5."#),
        (#"{"v": true}"#, [1], "Wrapped bool true in Array<Int>; then coerced bool true to Int 1."),
    ])
    func aWrappedScalarsOwnCoercionIsInTheWrapsIssue(json: String, expected: [Int], message: String) throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Numbers.self, from: json)
        #expect(value.v == expected)
        #expect(report.issues.map(\.message) == [message])
        #expect(report.issues.map(\.path) == ["v"])
        let back = try LenientJSONDecoder().decodeWithReport(Numbers.self, from: try LenientJSONEncoder().encode(value))
        #expect(back.value == value && back.report.issues.isEmpty)
        // Nothing is made up for a value that is no element either.
        let (none, noneReport) = try LenientJSONDecoder().decodeWithReport(Numbers.self, from: #"{"v": "abc"}"#)
        #expect(none.v.isEmpty)
        #expect(noneReport.issues.map(\.kind) == [.defaulted])
    }

    @Test func aWrapInsideAWrapIsOneIssueWithOrWithoutJSONText() throws {
        for json in [#"{"items": {"n": "1"}}"#, #"{"items": "{\"n\": \"1\"}"}"#] {
            let (value, report) = try LenientJSONDecoder().decodeWithReport(Nested.self, from: json)
            #expect(value.items.map { $0.map(\.n) } == [[1]], "\(json)")
            #expect(value.items.first?.first?.path == ".items[0][0]", "\(json)")
            #expect(report.issues.map(\.path) == ["items", "items[0][0].n"], "\(json)")
            #expect(report.issues.first?.message.hasSuffix("; then wrapped an object in Array<Located>.") == true)
        }
    }

    @Test func aWrappedValueThatItsHookRefusesIsARejectedValueAndNoList() throws {
        let (list, listReport) = try LenientJSONDecoder().decodeWithReport(Lists.self, from: #"{"h": {"name": "bad"}}"#)
        #expect(list.h.isEmpty)
        #expect(listReport.issues.map(\.kind) == [.rejected])
        #expect(listReport.issues.map(\.path) == ["h"])
        #expect(listReport.issues.first?.message.contains("as the one element of Array<") == true)
        let (grouped, groupedReport) = try LenientJSONDecoder().decodeWithReport(
            Grouped.self, from: #"{"m": {"b": {"name": "bad"}, "c": {"name": "ok"}}}"#)
        #expect(grouped.m == ["c": [Checked(name: "ok")]])
        #expect(groupedReport.issues.map(\.kind) == [.rejected, .coerced])
        #expect(groupedReport.issues.map(\.path) == ["m.b", "m.c"])
        let back = try LenientJSONDecoder().decodeWithReport(
            Grouped.self, from: try LenientJSONEncoder().encode(grouped))
        #expect(back.value.m == grouped.m && back.report.issues.isEmpty)
    }

    struct Label: Codable, Equatable {
        var id: Int
        var name: String
    }

    struct Labels: Codable { var items: [Label] }

    struct Required: Codable, KeyMapping {
        var id: Int
        var name: String
        static let requiredProperties: Set<String> = ["id"]
    }

    struct RequiredList: Codable { var items: [Required] }

    /// A union that probes for a list first, as real models do.
    enum Content: Decodable, Equatable {
        case list([Label])
        case other([String: Int])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([Label].self) {
                self = .list(list)
            } else {
                self = .other(try container.decode([String: Int].self))
            }
        }
    }

    struct Envelope: Decodable {
        var content: Content
        var count: Int
    }

    @Test func anObjectIsWrappedOnlyWhenItDecodesAsAnElement() throws {
        // No element of defaults: the list is empty, and the report says why the object is none.
        let (labels, report) = try LenientJSONDecoder().decodeWithReport(Labels.self, from: #"{"items": {"x": true}}"#)
        #expect(labels.items.isEmpty)
        #expect(report.issues.map(\.kind) == [.defaulted])
        #expect(report.issues.first?.message.contains("As the one element of Array<Label>") == true)
        let (required, requiredReport) = try LenientJSONDecoder().decodeWithReport(
            RequiredList.self, from: #"{"items": {"name": "x"}}"#)
        #expect(required.items.isEmpty)
        #expect(requiredReport.issues.first?.message.contains(#"no value for key "id""#) == true)
        // A probe for a list still fails on an object that is no element, and the union takes its
        // other branch while the rest of the value is forgiven.
        let (envelope, _) = try LenientJSONDecoder().decodeWithReport(
            Envelope.self, from: #"{"content": {"x": 1}, "count": "5"}"#)
        #expect(envelope.content == .other(["x": 1]))
        #expect(envelope.count == 5)
    }

    struct Chain: Codable, Equatable {
        var n: Int
        var c: [Chain]?
    }

    /// Each wrap decodes its object again as the element type, which the decode's retry budget
    /// pays for (so that probing for a list at every level stays linear). A chain of objects each
    /// wrapped in a list spends it level after level: past a few levels the rest of the chain is
    /// not wrapped, and the report says why rather than blaming the JSON.
    @Test(arguments: [2, 9, 40])
    func aChainOfWrapsIsWrappedWhileTheBudgetLastsAndTheRestSaysWhy(levels: Int) throws {
        var json = #"{"n": 0}"#
        for level in 1..<levels { json = #"{"n": \#(level), "c": \#(json)}"# }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Chain.self, from: json)
        var depth = 1
        var node = value
        while let next = node.c?.first {
            depth += 1
            node = next
        }
        #expect(depth >= min(levels, 3))
        #expect(report.issues.prefix(depth - 1).allSatisfy { $0.kind == .coerced })
        if depth < levels {
            #expect(node.c == nil)
            #expect(report.issues.count == depth)
            #expect(report.issues.last?.kind == .defaulted)
            #expect(report.issues.last?.message.contains("spent the work it may spend decoding values again") == true)
        } else {
            #expect(report.issues.count == levels - 1)
        }
        let back = try LenientJSONDecoder().decodeWithReport(Chain.self, from: try LenientJSONEncoder().encode(value))
        #expect(back.value == value && back.report.issues.isEmpty)
    }

    struct Kid: Codable, Equatable { var v: Int }

    /// Probes a key as a list and then as one value, as many models do.
    struct OneOrMany: Decodable {
        var list: [Kid]?
        var one: Kid?
        var n: Int
        enum CodingKeys: String, CodingKey { case x, n }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            list = try? container.decode([Kid].self, forKey: .x)
            one = try? container.decode(Kid.self, forKey: .x)
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    @Test func aValueInJSONTextDecodedTwiceIsReportedOnce() throws {
        for json in [#"{"n": "3", "x": "{\"v\":\"2\"}"}"#, #"{"n": "3", "x": {"v": "2"}}"#] {
            let (value, report) = try LenientJSONDecoder().decodeWithReport(OneOrMany.self, from: json)
            #expect(value.list == [Kid(v: 2)] && value.one == Kid(v: 2) && value.n == 3, "\(json)")
            #expect(report.issues.filter { $0.jsonPath == "x.v" }.count == 1, "\(report)")
        }
    }

    struct LossyChain: Codable, Equatable {
        var n: Int
        @LossyArray var c: [LossyChain]
    }

    @Test func aChainOfLossyArraysIsWrappedAtEveryLevel() throws {
        var json = #"{"n": 0, "c": []}"#
        for level in 1..<40 { json = #"{"n": \#(level), "c": \#(json)}"# }
        let value = try LenientJSONDecoder().decode(LossyChain.self, from: json)
        var depth = 1
        var node = value
        while let next = node.c.first {
            depth += 1
            node = next
        }
        #expect(depth == 40)
        #expect(try LenientJSONDecoder().decode(LossyChain.self, from: try LenientJSONEncoder().encode(value)) == value)
    }

    enum Status: String, Codable, CaseFallback {
        case active, unknown
        static let fallbackCase = Status.unknown
    }

    struct Statuses: Codable { var s: [Status] }
    struct LossyNumbers: Codable { @LossyArray var v: [Int] }

    struct Paged: Codable, Equatable, DeclaredDefaults {
        var pageSize = 20
        var name = "x"
        init() {}
    }

    struct Pages: Codable { var items: [Paged] }

    @Test func aDeclaredDefaultInsideAWrappedObjectNamesWhereTheJSONHasIt() throws {
        let (pages, report) = try LenientJSONDecoder().decodeWithReport(Pages.self, from: #"{"items": {"name": "q"}}"#)
        #expect(pages.items.map(\.name) == ["q"])
        #expect(report.issues.map(\.path) == ["items", "items[0].pageSize"])
        #expect(report.issues.map(\.jsonPath) == ["items", "items.pageSize"])
    }

    @Test func stepsOfOneValueAreOneIssueUnderEveryWrap() throws {
        let (statuses, statusReport) = try LenientJSONDecoder().decodeWithReport(
            Statuses.self, from: #"{"s": "archived"}"#)
        #expect(statuses.s == [.unknown])
        #expect(statusReport.issues.map(\.kind) == [.defaulted])
        #expect(statusReport.issues.first?.message.contains("; then unknown value") == true)
        let (lossy, lossyReport) = try LenientJSONDecoder().decodeWithReport(LossyNumbers.self, from: #"{"v": 5.5}"#)
        #expect(lossy.v == [5])
        #expect(
            lossyReport.issues.map(\.message) == [
                "Wrapped number 5.5 in Array<Int>; then coerced number 5.5 to Int 5 (fraction truncated)."
            ])
    }

    @Test func aHookRefusingJSONTextIsARejectionAsForTheSameJSONGivenDirectly() throws {
        let inText = #"{"items": [], "one": "{\"name\": \"bad\"}"}"#
        let direct = #"{"items": [], "one": {"name": "bad"}}"#
        for json in [inText, direct] {
            let (value, report) = try LenientJSONDecoder().decodeWithReport(Holder.self, from: json)
            #expect(value.one == nil, "\(json)")
            #expect(report.issues.map(\.kind) == [.rejected], "\(json)")
            #expect(report.issues.map(\.path) == ["one"], "\(json)")
        }
        // In a list, the refused element is left out as a rejection too.
        let list = #"{"items": ["{\"name\": \"bad\"}", {"name": "ok"}]}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Holder.self, from: list)
        #expect(value.items == [Checked(name: "ok")])
        #expect(report.issues.map(\.kind) == [.rejected])
        #expect(report.issues.map(\.path) == ["items[0]"])
    }
}

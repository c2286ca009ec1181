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

    @Test func aWrappedValueThatItsHookRefusesIsARejectedElement() throws {
        let (list, listReport) = try LenientJSONDecoder().decodeWithReport(Lists.self, from: #"{"h": {"name": "bad"}}"#)
        #expect(list.h.isEmpty)
        #expect(listReport.issues.map(\.kind) == [.rejected])
        #expect(listReport.issues.map(\.path) == ["h[0]"])
        let (grouped, groupedReport) = try LenientJSONDecoder().decodeWithReport(
            Grouped.self, from: #"{"m": {"b": {"name": "bad"}, "c": {"name": "ok"}}}"#)
        #expect(grouped.m == ["b": [], "c": [Checked(name: "ok")]])
        #expect(groupedReport.issues.map(\.kind) == [.rejected, .coerced])
        #expect(groupedReport.issues.map(\.path) == ["m.b[0]", "m.c"])
        // The same as for an array given as one: its refused element is left out.
        let (plain, plainReport) = try LenientJSONDecoder().decodeWithReport(
            Lists.self, from: #"{"h": [{"name": "bad"}]}"#)
        #expect(plain.h.isEmpty)
        #expect(plainReport.issues.map(\.path) == ["h[0]"])
        let back = try LenientJSONDecoder().decodeWithReport(
            Grouped.self, from: try LenientJSONEncoder().encode(grouped))
        #expect(back.value.m == grouped.m && back.report.issues.isEmpty)
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

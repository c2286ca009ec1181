// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A dictionary with `Int` or `CodingKeyRepresentable` keys: in `.lenient`, a member whose key or
/// value fails is left out and reported, as for `[String: Value]` — never the whole dictionary
/// defaulted, and never a member's value invented from its type's default. Elsewhere, and for
/// valid input, exactly Foundation's decoding.
@Suite struct NonStringKeyedDictionaryTests {
    enum Color: String, Codable, CodingKeyRepresentable, Hashable {
        case red
        case blue
    }

    struct Model: Codable, Equatable {
        var byID: [Int: Int]
        var byColor: [Color: String]
    }

    @Test func badMembersAreLeftOutAndReported() throws {
        let document = #"""
            {"byID":{"1":1,"x":2,"3":"3","4":null,"5":"five"},"byColor":{"red":"r","green":"g"}}
            """#
        let (model, report) = try LenientJSONDecoder().decodeWithReport(Model.self, from: document)
        #expect(model == Model(byID: [1: 1, 3: 3], byColor: [.red: "r"]))
        let issues = report.issues.map { "\($0.kind) \($0.path)" }.sorted()
        #expect(
            issues == [
                "coerced byID.3", "droppedElement byColor.green", "droppedElement byID.4", "droppedElement byID.5",
                "droppedElement byID.x",
            ])
        // Foundation and `.strict` refuse the document.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Model.self, from: Data(document.utf8)) }
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Model.self, from: document)
        }
        // Round trip: what the encoder writes decodes to the same value, forgiving nothing.
        let again = try LenientJSONDecoder().decodeWithReport(Model.self, from: LenientJSONEncoder().encode(model))
        #expect(again.value == model)
        #expect(again.report.issues.isEmpty)
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func validInputDecodesAsFoundationDecodesIt(options: LenientJSONDecoder.Options) throws {
        let document = #"{"byID":{"1":10,"04":4,"-2":-2},"byColor":{"blue":"b","red":"r"}}"#
        let foundations = try JSONDecoder().decode(Model.self, from: Data(document.utf8))
        let (ours, report) = try LenientJSONDecoder(options: options).decodeWithReport(Model.self, from: document)
        #expect(ours == foundations)
        #expect(report.issues.isEmpty)
    }

    @Test func nestedDictionariesDropOnlyTheirOwnBadMembers() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            [Int: [Int: String]].self, from: #"{"1":{"2":"a","b":"c"},"z":{}}"#)
        #expect(value == [1: [2: "a"]])
        #expect(report.issues.map(\.path).sorted() == ["1.b", "z"])
        #expect(report.issues.allSatisfy { $0.kind == .droppedElement })
    }

    @Test func theDictionaryIsStillDefaultedWhenItIsNotAnObject() throws {
        let (model, report) = try LenientJSONDecoder().decodeWithReport(
            Model.self, from: #"{"byID":[1,2],"byColor":{}}"#)
        #expect(model.byID.isEmpty)
        #expect(report.issues.map(\.kind) == [.defaulted])
        #expect(report.issues.map(\.path) == ["byID"])
    }

    /// `"4"` and `"04"` are the same `Int` key. Valid input decodes as `Dictionary`'s own
    /// decoding does, the later member winning (Foundation's choice depends on its hash order);
    /// when the dictionary is read member by member for a bad member, the later wins too, and the
    /// earlier ones are reported, never lost without a word.
    @Test func anotherSpellingOfAnEarlierKeyIsDroppedAndReported() throws {
        let clean = try LenientJSONDecoder().decodeWithReport(
            Model.self, from: #"{"byID":{"4":1,"04":2,"5":5},"byColor":{}}"#)
        #expect(clean.value.byID == [4: 2, 5: 5])
        #expect(
            try LenientJSONDecoder(options: .strict).decode(Model.self, from: #"{"byID":{"4":1,"04":2},"byColor":{}}"#)
                .byID == [4: 2])
        let (model, report) = try LenientJSONDecoder().decodeWithReport(
            Model.self, from: #"{"byID":{"4":1,"04":2,"004":3,"5":5,"x":0},"byColor":{}}"#)
        #expect(model.byID == [4: 3, 5: 5])
        #expect(report.issues.map(\.path).sorted() == ["byID.04", "byID.4", "byID.x"])
        #expect(report.issues.filter { $0.message.contains("has the same key") }.count == 2)
    }

    /// A member that another spelling of its key replaced is reported wherever the dictionary
    /// is: at the top level, as a property and as an element, also when nothing else in it needed
    /// forgiving (Foundation's own decoding replaced it, silently). The same key spelled the same
    /// way is read as the first, as in any object, and a later spelling whose value is left out
    /// replaces nothing.
    @Test func aReplacedMemberIsReportedAtEveryLevel() throws {
        let decoder = LenientJSONDecoder()
        let object = #"{"4":1,"04":2,"5":5}"#
        let top = try decoder.decodeWithReport([Int: Int].self, from: object)
        let property = try decoder.decodeWithReport(Model.self, from: #"{"byID":\#(object),"byColor":{}}"#)
        let element = try decoder.decodeWithReport([[Int: Int]].self, from: "[\(object)]")
        #expect(top.value == [4: 2, 5: 5] && property.value.byID == [4: 2, 5: 5] && element.value == [[4: 2, 5: 5]])
        // A member of a dictionary keyed by numbers is written as the key it is in the JSON.
        for (report, path) in [(top.report, "4"), (property.report, "byID.4"), (element.report, "[0].4")] {
            #expect(report.issues.map(\.path) == [path])
            #expect(report.issues.map(\.kind) == [.droppedElement])
            #expect(report.issues.first?.message == #"Dropped member "4": a later member, "04", has the same key."#)
        }
        let sameSpelling = try decoder.decodeWithReport(Model.self, from: #"{"byID":{"4":1,"4":2},"byColor":{}}"#)
        #expect(sameSpelling.value.byID == [4: 1] && sameSpelling.report.issues.isEmpty)
        let failedLater = try decoder.decodeWithReport(Model.self, from: #"{"byID":{"4":1,"04":"x"},"byColor":{}}"#)
        #expect(failedLater.value.byID == [4: 1])
        #expect(failedLater.report.issues.map(\.path) == ["byID.04"])
        // What the lenient decoder kept is what it writes back, and reads again without a word.
        let encoded = try LenientJSONEncoder().encode(property.value)
        let again = try decoder.decodeWithReport(Model.self, from: encoded)
        #expect(again.value == property.value && again.report.issues.isEmpty)
    }

    /// A replaced member whose value was forgiven is reported once, as dropped: not also for what was forgiven in a
    /// value the result does not hold. What was forgiven in the members kept stays reported; so under `@LossyDictionary`.
    @Test func aReplacedMemberIsReportedOnceWhateverWasForgivenInIt() throws {
        struct Lossy: Codable, Equatable {
            @LossyDictionary var m: [Int: String]
        }
        let (strings, report) = try LenientJSONDecoder().decodeWithReport(
            [Int: String].self, from: #"{"1":255,"01":"x","2":3}"#)
        #expect(strings == [1: "x", 2: "3"])
        #expect(report.issues.map(\.path) == ["1", "2"])
        #expect(report.issues.map(\.kind) == [.droppedElement, .coerced])
        let (lists, listsReport) = try LenientJSONDecoder().decodeWithReport(
            [Int: [Int]].self, from: #"{"1":["5",{}],"01":[3],"2":["4"]}"#)
        #expect(lists == [1: [3], 2: [4]])
        #expect(listsReport.issues.map(\.path) == ["1", "2[0]"])
        let (lossy, lossyReport) = try LenientJSONDecoder().decodeWithReport(
            Lossy.self, from: #"{"m":{"1":255,"01":"x","2":3}}"#)
        #expect(lossy.m == [1: "x", 2: "3"])
        #expect(lossyReport.issues.map(\.path) == ["m.1", "m.2"])
        #expect(lossyReport.issues.map(\.kind) == [.droppedElement, .coerced])
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(
            Lossy.self, from: LenientJSONEncoder().encode(lossy))
        #expect(again == lossy && againReport.isEmpty)
    }

    /// A dictionary read member by member owns its storage: it outlives the decoder, is copied
    /// on write, and is read from many tasks at once.
    @Test func aDictionaryReadMemberByMemberOutlivesItsDecoder() async throws {
        var model: Model?
        do {
            let decoder = LenientJSONDecoder()
            model = try decoder.decode(Model.self, from: #"{"byID":{"1":1,"x":2,"3":"3"},"byColor":{"red":"r"}}"#)
        }
        let kept = try #require(model)
        var changed = kept
        changed.byID[9] = 9
        #expect(kept.byID == [1: 1, 3: 3])
        #expect(changed.byID == [1: 1, 3: 3, 9: 9])
        let sums = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { kept.byID.values.reduce(0, +) } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(sums == Array(repeating: 4, count: 8))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Under `LenientJSONDecoder` in `.lenient` mode, a wrapped property gives the value and the
/// report that the same property gives plain: the wrapper never lets one of the decoder's own
/// coercions stand in for its table (`1e400` is not `true`, and so not `1`), and whatever either
/// of them changes is reported once.
@Suite struct WrappersUnderTheLenientDecoderTests {
    struct Plain<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value
        var other: Int
    }

    struct Wrapped<Value: CoercibleValue & Codable & Equatable>: Codable, Equatable {
        @Coerced var value: Value
        var other: Int
    }

    struct OptionalWrapped<Value: CoercibleValue & Codable & Equatable>: Codable, Equatable {
        @Coerced var value: Value?
        var other: Int
    }

    struct PlainOptional<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value?
        var other: Int
    }

    /// A property's JSON (`nil` for a missing key).
    struct Fragment: Sendable, CustomTestStringConvertible {
        let json: String?
        init(_ json: String?) { self.json = json }
        var document: String { json.map { #"{"value":\#($0),"other":1}"# } ?? #"{"other":1}"# }
        var data: Data { Data(document.utf8) }
        var testDescription: String { json ?? "missing" }
    }

    static let fragments: [Fragment] = [
        "42", #""42""#, #"" 42 ""#, "4.5", "-0", "true", "false", "1e400", "1e-400", "-1e400", #""1e400""#,
        #""abc""#, #""2""#, #""-1""#, #""1.0""#, #""0.0""#, #""yes""#, #""OFF""#, "null", #""<null>""#, "{}", "[1]",
        "9223372036854775808", "1e-50", #"" https://example.com/a ""#, #""https://example.com/a""#, #""""#, nil,
    ].map(Fragment.init)

    /// What a decode gave: the value or that it failed, and the report's kinds and paths.
    struct Outcome<Value: Equatable>: Equatable {
        var value: Value?
        var kinds: [DecodingIssue.Kind]
        var paths: [String]

        init<Model>(_ result: (Model, DecodingReport)?, _ value: (Model) -> Value) {
            self.value = result.map { value($0.0) }
            kinds = result?.1.issues.map(\.kind) ?? []
            paths = result?.1.issues.map(\.path) ?? []
        }
    }

    /// Under `.lenient`, the wrapped property gives what Foundation's decoder gives the same
    /// model; where Foundation's fails, the decoder's own reading or the default, reported once,
    /// at the property.
    ///
    /// One reading differs on purpose: `1e-400` is a number that is not zero, so `true` by the
    /// `Bool` table, where the wrapper under Foundation's decoder can only see it as the integer
    /// 0. (`String` is not compared: under `LenientJSONDecoder` a number keeps its text as
    /// written, which Foundation's decoder does not show.)
    func expectFoundationsValue<Value: CoercibleValue & Codable & Equatable & DefaultValue>(
        _ type: Value.Type, _ fragment: Fragment
    ) throws {
        let lenient = LenientJSONDecoder()
        let (model, report) = try lenient.decodeWithReport(Wrapped<Value>.self, from: fragment.document)
        #expect(report.issues.count <= 1 && report.issues.allSatisfy { $0.path == "value" }, "\(Value.self): \(report)")
        let isBoolUnderflow = Value.self == Bool.self && fragment.json == "1e-400"
        if let foundations = try? JSONDecoder().decode(Wrapped<Value>.self, from: fragment.data) {
            if !isBoolUnderflow { #expect(model.value == foundations.value, "\(Value.self)") }
        } else {
            #expect(report.issues.count == 1, "\(Value.self): forgiven silently: \(model.value)")
        }
        let (optional, optionalReport) = try lenient.decodeWithReport(
            OptionalWrapped<Value>.self, from: fragment.document)
        let foundationsOptional = try JSONDecoder().decode(OptionalWrapped<Value>.self, from: fragment.data)
        if !isBoolUnderflow && !(foundationsOptional.value == nil && optionalReport.issues.count == 1) {
            #expect(optional.value == foundationsOptional.value, "\(Value?.self)")
        }
        #expect(optionalReport.issues.count <= 1, "\(Value?.self): \(optionalReport)")
        // What the encoder writes decodes to the same value, forgiving nothing.
        let again = try lenient.decodeWithReport(Wrapped<Value>.self, from: LenientJSONEncoder().encode(model))
        #expect(again.value == model, "\(Value.self)")
        #expect(again.report.issues.isEmpty, "\(Value.self)")
    }

    /// Where the wrapper's table and the decoder's agree (the scalars), the wrapped property and
    /// the plain one give the same value and the same report. They differ in one place: a
    /// `Decimal` from a number too small for it (`1e-400`), which the decoder refuses and the
    /// wrapper, as under Foundation's decoder, reads as the integer 0 (reported as coerced).
    func expectSameAsPlain<Value: CoercibleValue & Codable & Equatable>(_ type: Value.Type, _ fragment: Fragment) {
        if Value.self == Decimal.self && fragment.json == "1e-400" { return }
        let decoder = LenientJSONDecoder()
        let wrapped = Outcome(try? decoder.decodeWithReport(Wrapped<Value>.self, from: fragment.document), \.value)
        let plain = Outcome(try? decoder.decodeWithReport(Plain<Value>.self, from: fragment.document), \.value)
        #expect(wrapped == plain, "\(Value.self)")
        let optional = Outcome(
            try? decoder.decodeWithReport(OptionalWrapped<Value>.self, from: fragment.document), \.value)
        let plainOptional = Outcome(
            try? decoder.decodeWithReport(PlainOptional<Value>.self, from: fragment.document), \.value)
        #expect(optional == plainOptional, "\(Value?.self)")
    }

    @Test(arguments: fragments)
    func wrappedPropertiesGiveFoundationsValue(_ fragment: Fragment) throws {
        try expectFoundationsValue(Int.self, fragment)
        try expectFoundationsValue(UInt8.self, fragment)
        try expectFoundationsValue(Int64.self, fragment)
        try expectFoundationsValue(Bool.self, fragment)
        try expectFoundationsValue(Double.self, fragment)
        try expectFoundationsValue(Float.self, fragment)
        try expectFoundationsValue(Decimal.self, fragment)
    }

    @Test(arguments: fragments)
    func wrappedScalarsDecodeAsPlainOnes(_ fragment: Fragment) {
        expectSameAsPlain(Int.self, fragment)
        expectSameAsPlain(UInt8.self, fragment)
        expectSameAsPlain(Int64.self, fragment)
        expectSameAsPlain(Bool.self, fragment)
        expectSameAsPlain(Double.self, fragment)
        expectSameAsPlain(Float.self, fragment)
        expectSameAsPlain(Decimal.self, fragment)
        expectSameAsPlain(String.self, fragment)
    }

    /// The defects this suite was written for, by name.
    @Test func aNumberOutOfRangeIsNeverReadThroughBool() throws {
        let decoder = LenientJSONDecoder()
        let (optional, report) = try decoder.decodeWithReport(
            OptionalWrapped<Int>.self, from: #"{"value":1e400,"other":1}"#)
        #expect(optional.value == nil)
        #expect(report.issues.map(\.kind) == [.defaulted])
        let (integer, integerReport) = try decoder.decodeWithReport(
            Wrapped<Int>.self, from: #"{"value":1e400,"other":1}"#)
        #expect(integer.value == 0)
        #expect(integerReport.issues.map(\.kind) == [.defaulted])
        for text in [#""2""#, #""1.0""#, #""-1""#] {
            let (flag, flagReport) = try decoder.decodeWithReport(
                Wrapped<Bool>.self, from: #"{"value":\#(text),"other":1}"#)
            #expect(flag.value == false, "\(text)")
            #expect(flagReport.issues.map(\.kind) == [.defaulted], "\(text)")
        }
        // Foundation's decoder: the wrapper's own table, which has no such reading either.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Wrapped<Bool>.self, from: Data(#"{"value":"2","other":1}"#.utf8))
        }
        let foundations = try JSONDecoder().decode(
            OptionalWrapped<Int>.self, from: Data(#"{"value":1e400,"other":1}"#.utf8))
        #expect(foundations.value == nil)
    }

    @Test func aFloatThatWouldBecomeZeroIsRefusedUnderEveryDecoder() throws {
        let document = #"{"value":1e-50,"other":1}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Wrapped<Float>.self, from: Data(document.utf8)) }
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Wrapped<Float>.self, from: document)
        }
        let (model, report) = try LenientJSONDecoder().decodeWithReport(Wrapped<Float>.self, from: document)
        #expect(model.value == 0)
        #expect(report.issues.map(\.kind) == [.defaulted])
        // A number that fits, however small, is kept.
        let subnormal = try JSONDecoder().decode(Wrapped<Float>.self, from: Data(#"{"value":"1e-40","other":1}"#.utf8))
        #expect(subnormal.value == Float("1e-40"))
    }

    /// What the wrapper's table changes under a `.strict` decoder, which reads nothing itself, is
    /// reported; a value in its own form is not.
    @Test func theWrappersOwnCoercionsAreReportedOnce() throws {
        struct Mixed: Codable, Equatable {
            @Coerced var count: Int
            @Coerced var flag: Bool
            @Coerced var link: URL
            @Coerced var bytes: Data
            @Coerced var name: String
            @Coerced var clean: URL
        }
        let document = #"""
            {"count":"42","flag":"yes","link":" https://a.b/c ","bytes":" AQID ","name":1.10,"clean":"https://a.b/"}
            """#
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let decoder = LenientJSONDecoder(options: options)
            let (model, report) = try decoder.decodeWithReport(Mixed.self, from: document)
            #expect(model.count == 42)
            #expect(model.flag)
            #expect(model.link == URL(string: "https://a.b/c"))
            #expect(model.bytes == Data([1, 2, 3]))
            #expect(model.name == "1.10")
            #expect(report.issues.map(\.path) == ["count", "flag", "link", "bytes", "name"], "\(options)")
            #expect(report.issues.allSatisfy { $0.kind == .coerced }, "\(options)")
            // Round trip: what the encoder writes decodes to the same value, forgiving nothing.
            let (again, againReport) = try decoder.decodeWithReport(
                Mixed.self, from: LenientJSONEncoder().encode(model))
            #expect(again == model)
            #expect(againReport.issues.isEmpty)
        }
    }

    // MARK: Lossy collections

    struct Lossy: Codable, Equatable {
        @LossyArray var list: [Int]
        @LossyDictionary var map: [Int: Int]
    }

    struct PlainCollections: Codable, Equatable {
        var list: [Int]
        var map: [Int: Int]
    }

    @Test(arguments: [
        #"{"list":7,"map":{}}"#, #"{"list":null,"map":null}"#, #"{}"#,
        #"{"list":[1,"2",null],"map":{"1":"1"}}"#,
    ])
    func lossyWrappersReportWhatAPlainCollectionReports(_ document: String) throws {
        let decoder = LenientJSONDecoder()
        let (lossy, lossyReport) = try decoder.decodeWithReport(Lossy.self, from: document)
        let (plain, plainReport) = try decoder.decodeWithReport(PlainCollections.self, from: document)
        #expect(lossy.list == plain.list)
        #expect(lossy.map == plain.map)
        #expect(lossyReport.issues.map(\.kind) == plainReport.issues.map(\.kind))
        #expect(lossyReport.issues.map(\.path) == plainReport.issues.map(\.path))
        let again = try decoder.decodeWithReport(Lossy.self, from: LenientJSONEncoder().encode(lossy))
        #expect(again.value == lossy)
        #expect(again.report.issues.isEmpty)
    }

    @Test func lossyDictionaryReportsEveryMemberItLeavesOut() throws {
        let document = #"{"list":[],"map":{"1":1,"x":2,"3":"y","04":4," 5":5}}"#
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(Lossy.self, from: document)
            #expect(model.map == [1: 1, 4: 4])
            let dropped = report.issues.filter { $0.kind == .droppedElement }.map(\.path).sorted()
            #expect(dropped == ["map. 5", "map.3", "map.x"], "\(options)")
        }
        // Foundation's decoder leaves out the same members.
        let foundations = try JSONDecoder().decode(Lossy.self, from: Data(document.utf8))
        #expect(foundations.map == [1: 1, 4: 4])
    }

    @Test func lossyWrappersAtTheTopLevelReportNull() throws {
        let decoder = LenientJSONDecoder()
        let (array, arrayReport) = try decoder.decodeWithReport(LossyArray<Int>.self, from: "null")
        #expect(array.wrappedValue.isEmpty)
        #expect(arrayReport.issues.map(\.kind) == [.defaulted])
        let (dictionary, dictionaryReport) = try decoder.decodeWithReport(
            LossyDictionary<String, Int>.self, from: "null")
        #expect(dictionary.wrappedValue.isEmpty)
        #expect(dictionaryReport.issues.map(\.kind) == [.defaulted])
        let (wrapped, wrappedReport) = try decoder.decodeWithReport([LossyArray<Int>].self, from: #"[7,[1]]"#)
        #expect(wrapped.map(\.wrappedValue) == [[7], [1]])
        #expect(wrappedReport.issues.map(\.kind) == [.coerced])
        #expect(wrappedReport.issues.map(\.path) == ["[0]"])
        // A single value that is not an element either is left out, as a dropped element.
        let (dropped, droppedReport) = try decoder.decodeWithReport(LossyArray<Int>.self, from: #""x""#)
        #expect(dropped.wrappedValue.isEmpty)
        #expect(droppedReport.issues.map(\.kind) == [.droppedElement])
    }

    // MARK: Defaulted outside a property

    struct DefaultedList: Codable, Equatable {
        var values: [Defaulted<Int>]
        var byName: [String: Defaulted<Int>]
    }

    /// A `Defaulted` element, dictionary value or top-level value that is `null` takes the default,
    /// reported at its own path as a property's is, in either preset; the round trip is clean.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func defaultedValuesOutsideAPropertyReportTheirDefault(options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        let (list, listReport) = try decoder.decodeWithReport(
            DefaultedList.self, from: #"{"values":[null,1],"byName":{"a":null,"b":2}}"#)
        #expect(list.values.map(\.wrappedValue) == [0, 1])
        #expect(list.byName.mapValues(\.wrappedValue) == ["a": 0, "b": 2])
        #expect(listReport.issues.map { "\($0.kind) \($0.path)" } == ["defaulted values[0]", "defaulted byName.a"])
        let (top, topReport) = try decoder.decodeWithReport(Defaulted<Int>.self, from: "null")
        #expect(top.wrappedValue == 0)
        #expect(topReport.issues.map(\.kind) == [.defaulted])
        let again = try decoder.decodeWithReport(DefaultedList.self, from: LenientJSONEncoder().encode(list))
        #expect(again.value == list)
        #expect(again.report.isEmpty)
        // Foundation's decoder gives the same values.
        let foundations = try JSONDecoder().decode(
            DefaultedList.self, from: Data(#"{"values":[null,1],"byName":{"a":null,"b":2}}"#.utf8))
        #expect(foundations == list)
    }

    /// A number too large for any numeric type is named by its text when the table refuses it.
    @Test func aRefusedNumberIsNamedByItsText() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Wrapped<Bool>.self, from: #"{"value":1e400,"other":1}"#)
        }
        #expect(String(describing: error).contains("number 1e400"), "\(error)")
    }
}

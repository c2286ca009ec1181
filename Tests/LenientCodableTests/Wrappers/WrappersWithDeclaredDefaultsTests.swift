// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The package's defaulting wrappers (`@Defaulted`, `@LossyArray`, `@LossyDictionary`) in a
/// `DeclaredDefaults` type: a missing or null value takes the property's declared value, not the
/// wrapper's empty default, and is reported once, in both modes.
@Suite struct WrappersWithDeclaredDefaultsTests {
    struct Declared: Codable, Equatable, DeclaredDefaults {
        @Defaulted var tags: [String] = ["a"]
        @LossyArray var ids: [Int] = [1]
        @LossyDictionary var counts: [String: Int] = ["k": 1]
        @LossyDictionary var byYear: [Int: String] = [2025: "now"]
    }

    /// The same wrappers without `DeclaredDefaults`: their own defaults, as before.
    struct Undeclared: Codable, Equatable {
        @Defaulted var tags: [String] = ["a"]
        @LossyArray var ids: [Int] = [1]
        @LossyDictionary var counts: [String: Int] = ["k": 1]
    }

    /// A property declared as an optional of a wrapper: an optional, whatever its initial value.
    struct OptionalWrapper: Codable, Equatable, DeclaredDefaults {
        var count: Defaulted<Int>? = Defaulted(wrappedValue: 3)
    }

    static let modes: [LenientJSONDecoder.Options] = [.lenient, .strict]
    static let paths = ["byYear", "counts", "ids", "tags"]

    @Test(arguments: modes)
    func aMissingWrappedPropertyTakesItsDeclaredValue(_ options: LenientJSONDecoder.Options) throws {
        let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(Declared.self, from: "{}")
        #expect(model == Declared())
        #expect(report.issues.map(\.path).sorted() == Self.paths)
        #expect(report.issues.allSatisfy { $0.kind == .defaulted })
        let messages = Dictionary(uniqueKeysWithValues: report.issues.map { ($0.path, $0.message) })
        #expect(messages["tags"] == #"Missing value; used the declared default ["a"]."#)
        #expect(messages["ids"] == "Missing value; used the declared default [1].")
        #expect(messages["counts"] == #"Missing value; used the declared default ["k": 1]."#)
        #expect(messages["byYear"] == #"Missing value; used the declared default [2025: "now"]."#)
        #expect(try LenientJSONDecoder(options: options).decode(Declared.self, from: "{}") == Declared())
    }

    @Test(arguments: modes)
    func aNullWrappedPropertyTakesItsDeclaredValue(_ options: LenientJSONDecoder.Options) throws {
        let document = #"{"tags":null,"ids":null,"counts":null,"byYear":null}"#
        let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(Declared.self, from: document)
        #expect(model == Declared())
        #expect(report.issues.map(\.path).sorted() == Self.paths)
        #expect(
            report.issues.allSatisfy {
                $0.kind == .defaulted && $0.message.hasPrefix("Found null; used the declared default ")
            })
    }

    @Test func anInvalidWrappedValueTakesItsDeclaredValueInLenientMode() throws {
        let document = #"{"tags":{"x":1},"ids":[2],"counts":[1],"byYear":{"2024":"then"}}"#
        let (model, report) = try LenientJSONDecoder().decodeWithReport(Declared.self, from: document)
        #expect(model.tags == ["a"])
        #expect(model.counts == ["k": 1])
        #expect(model.ids == [2])
        #expect(model.byYear == [2024: "then"])
        #expect(report.issues.map(\.path).sorted() == ["counts", "tags"])
        #expect(report.issues.allSatisfy { $0.kind == .defaulted })
        let counts = try #require(report.issues.first { $0.path == "counts" })
        #expect(counts.message.hasSuffix(#"; used the declared default ["k": 1]."#), "\(counts.message)")
        #expect(!counts.message.contains("used nil"))
        // `.strict` forgives no invalid value, as for a plain property of the type.
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Declared.self, from: #"{"counts":[1]}"#)
        }
    }

    @Test(arguments: modes)
    func presentValuesAndDroppedElementsAreUnchanged(_ options: LenientJSONDecoder.Options) throws {
        let document = #"{"tags":["b"],"ids":[3,"x"],"counts":{"j":2,"bad":"y"},"byYear":{"2024":"then"}}"#
        let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(Declared.self, from: document)
        #expect(model.tags == ["b"])
        #expect(model.counts == ["j": 2])
        #expect(model.byYear == [2024: "then"])
        // Neither mode coerces "x" to Int or "y" to Int inside a lossy wrapper: both are left out.
        #expect(model.ids == [3])
        #expect(report.issues.map(\.path).sorted() == ["counts.bad", "ids[1]"])
        #expect(report.issues.allSatisfy { $0.kind == .droppedElement })
    }

    @Test(arguments: modes)
    func anOptionalOfAWrapperKeepsFoundationsNil(_ options: LenientJSONDecoder.Options) throws {
        for document in ["{}", #"{"count":null}"#] {
            let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                OptionalWrapper.self, from: document)
            #expect(model.count == nil, "\(document)")
            #expect(report.issues.isEmpty, "\(document): \(report)")
        }
        let present = try LenientJSONDecoder(options: options).decode(OptionalWrapper.self, from: #"{"count":5}"#)
        #expect(present.count?.wrappedValue == 5)
    }

    /// Optionals of the wrappers in a type without declared defaults.
    struct OptionalWrappers: Codable, Equatable {
        var count: Defaulted<Int>?
        var ids: LossyArray<Int>?
        var prices: LossyDictionary<String, Double>?
    }

    /// An optional of a wrapper is an ordinary optional in any type: `nil` for a missing key or
    /// `null`, as Foundation's decoder gives, with no report entry for a default it did not give;
    /// an invalid value becomes `nil` in `.lenient`, reported as such, under the wrapper's name.
    @Test(arguments: modes)
    func optionalsOfWrappersAreOrdinaryOptionals(_ options: LenientJSONDecoder.Options) throws {
        for document in ["{}", #"{"count": null, "ids": null, "prices": null}"#] {
            let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                OptionalWrappers.self, from: document)
            #expect(model == OptionalWrappers(), "\(document)")
            #expect(report.issues.isEmpty, "\(document): \(report)")
            #expect(try JSONDecoder().decode(OptionalWrappers.self, from: Data(document.utf8)) == model)
        }
        let present = #"{"count": 5, "ids": [1, "x", 2], "prices": {"a": 1.5, "b": "x"}}"#
        let model = try LenientJSONDecoder(options: options).decode(OptionalWrappers.self, from: present)
        #expect(model.count?.wrappedValue == 5)
        #expect(model.ids?.wrappedValue == [1, 2])
        #expect(model.prices?.wrappedValue == ["a": 1.5])
        #expect(try JSONDecoder().decode(OptionalWrappers.self, from: Data(present.utf8)) == model)
        #expect(
            try LenientJSONDecoder(options: options).decode(
                OptionalWrappers.self, from: LenientJSONEncoder().encode(model)) == model)

        if options == .lenient {
            let (invalid, report) = try LenientJSONDecoder().decodeWithReport(
                OptionalWrappers.self, from: #"{"count": "abc"}"#)
            #expect(invalid.count == nil)
            #expect(
                report.issues.map(\.message) == [
                    #"Cannot decode string "abc" as Defaulted<Int> (Cannot coerce string "abc" to Int); used nil."#
                ])
        }
    }

    /// An optional of a wrapper under a renamed key, in a type with declared defaults.
    struct RenamedOptional: Codable, Equatable, DeclaredDefaults {
        var x: Defaulted<Int>? = Defaulted(wrappedValue: 3)
        enum CodingKeys: String, CodingKey { case x = "x_value" }
    }

    @Test(arguments: modes)
    func anOptionalOfAWrapperUnderARenamedKeyIsNil(_ options: LenientJSONDecoder.Options) throws {
        for document in ["{}", #"{"x_value": null}"#] {
            let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                RenamedOptional.self, from: document)
            #expect(model.x == nil, "\(document)")
            #expect(report.issues.isEmpty, "\(document): \(report)")
        }
    }

    /// Wrappers whose property has a decoding transform, in a type with declared defaults.
    struct Transformed: Codable, Equatable, DeclaredDefaults, KeyMapping {
        @LossyArray var ids: [Int] = [1]
        var plain: [Int] = [2]
        static var keyMapping: [String: KeySource] { [:] }
        static var decodingTransforms: [String: JSONTransform] { ["ids": .member("v"), "plain": .member("v")] }
    }

    /// A transformed wrapper that gets no value takes its declared value, reported once, as a
    /// transformed plain property does.
    @Test(arguments: modes)
    func aTransformedWrapperTakesItsDeclaredValue(_ options: LenientJSONDecoder.Options) throws {
        for document in ["{}", #"{"ids": {"v": null}, "plain": {"v": null}}"#] {
            let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                Transformed.self, from: document)
            #expect(model.ids == [1] && model.plain == [2], "\(document)")
            #expect(report.issues.map(\.path).sorted() == ["ids", "plain"], "\(document): \(report)")
            #expect(report.issues.allSatisfy { $0.kind == .defaulted })
            #expect(
                report.issues.first { $0.path == "ids" }?.message.hasSuffix("used the declared default [1].") == true)
        }
        let present = try LenientJSONDecoder(options: options).decode(
            Transformed.self, from: #"{"ids": {"v": [4, 5]}, "plain": {"v": [6]}}"#)
        #expect(present.ids == [4, 5] && present.plain == [6])
    }

    /// A transformed wrapper found under a fallback key that gives no value: the fallback and
    /// the default are both said.
    struct FallbackTransformed: Codable, KeyMapping {
        @Defaulted var d: Int
        static var keyMapping: [String: KeySource] { ["d": ["d1", "d2"]] }
        static var decodingTransforms: [String: JSONTransform] { ["d": JSONTransform { $0["v"] ?? .null }] }
    }

    @Test(arguments: modes)
    func aTransformedWrapperUnderAFallbackKeyReportsItsDefault(_ options: LenientJSONDecoder.Options) throws {
        for document in [#"{"d2": {}}"#, #"{"d2": {"v": null}}"#] {
            let (model, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                FallbackTransformed.self, from: document)
            #expect(model.d == 0)
            #expect(report.issues.map(\.kind) == [.keyFallback, .defaulted], "\(document): \(report)")
        }
    }

    struct Boom: Error {}

    /// Transformed plain properties in a type with declared defaults: a transform that throws,
    /// or gives a value of the wrong type, gives the declared value in `.lenient`.
    struct TransformedPlain: Codable, Equatable, DeclaredDefaults, KeyMapping {
        struct Inner: Codable, Equatable { var v: Int }
        var thrown: Int = 11
        var p: Int = 5
        var nested = Inner(v: 14)
        static var keyMapping: [String: KeySource] { [:] }
        static var decodingTransforms: [String: JSONTransform] {
            ["thrown": JSONTransform { _ in throw Boom() }, "p": .member("v"), "nested": .member("v")]
        }
    }

    @Test func unusableTransformedValuesTakeTheDeclaredValue() throws {
        let (model, report) = try LenientJSONDecoder().decodeWithReport(
            TransformedPlain.self, from: #"{"thrown": 1, "p": {"v": "bad"}, "nested": {"v": "bad"}}"#)
        #expect(model == TransformedPlain())
        #expect(report.issues.map(\.path).sorted() == ["nested", "p", "thrown"])
        #expect(report.issues.allSatisfy { $0.kind == .defaulted && $0.message.contains("used the declared default") })
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(TransformedPlain.self, from: #"{"p": {"v": "bad"}}"#)
        }
    }

    @Test func theDeclaredValuesRoundTrip() throws {
        let model = Declared(tags: ["z"], ids: [], counts: ["some_key": 3], byYear: [:])
        let (again, report) = try LenientJSONDecoder().decodeWithReport(
            Declared.self, from: LenientJSONEncoder().encode(model))
        #expect(again == model)
        #expect(report.issues.isEmpty)
        let defaults = try LenientJSONDecoder().decode(Declared.self, from: LenientJSONEncoder().encode(Declared()))
        #expect(defaults == Declared())
    }

    @Test func withoutDeclaredDefaultsTheWrappersKeepTheirOwnDefaults() throws {
        let (model, report) = try LenientJSONDecoder().decodeWithReport(Undeclared.self, from: "{}")
        #expect(model.tags.isEmpty)
        #expect(model.ids.isEmpty)
        #expect(model.counts.isEmpty)
        #expect(
            report.issues.map(\.message).sorted() == [
                "Missing value; used the default [:].", "Missing value; used the default [].",
                "Missing value; used the default [].",
            ])
    }

    /// Foundation's decoders do not read `DeclaredDefaults`: under them the wrappers give their own
    /// defaults, as they always have.
    @Test func foundationsDecoderKeepsTheWrappersOwnDefaults() throws {
        let model = try JSONDecoder().decode(Declared.self, from: Data(#"{"tags":null}"#.utf8))
        #expect(model.tags.isEmpty)
        #expect(model.ids.isEmpty)
        #expect(model.counts.isEmpty)
        #expect(model.byYear.isEmpty)
    }
}

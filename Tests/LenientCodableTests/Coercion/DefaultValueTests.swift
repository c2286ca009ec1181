// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// DESIGN.md's last coercion row: a non-optional property that is missing, `null` or invalid takes its type's default
/// and is reported as defaulted; a type with no default keeps failing — thrown at the top level, dropped from a
/// collection, `nil` in an optional.
@Suite struct DefaultValueTests {
    /// A struct with its own default.
    struct Theme: Codable, Equatable, Sendable, DefaultValue {
        var name: String
        static let defaultValue = Theme(name: "light")
    }

    /// A struct without one.
    struct Point: Codable, Equatable, Sendable {
        var x: Int
        var y: Int
    }

    /// An enum without fallback or default.
    enum Level: Int, Codable, Sendable {
        case low = 1
        case high = 2
    }

    /// The same three ways to have no usable value, for each type with a default.
    static let defaultsCases: [CoercionCase] =
        [nil, "null", #"{"k":"an object"}"#].flatMap { (fragment: String?) in
            [
                CoercionCase(String.self, fragment, .forgiven("", .defaulted)),
                CoercionCase(Int.self, fragment, .forgiven(0, .defaulted)),
                CoercionCase(UInt8.self, fragment, .forgiven(0, .defaulted)),
                CoercionCase(Double.self, fragment, .forgiven(0, .defaulted)),
                CoercionCase(Float.self, fragment, .forgiven(0, .defaulted)),
                CoercionCase(Bool.self, fragment, .forgiven(false, .defaulted)),
                CoercionCase(
                    Theme.self, fragment == nil ? nil : fragment == "null" ? "null" : "42",
                    .forgiven(Theme.defaultValue, .defaulted)),
            ]
        } + [
            CoercionCase([Int].self, #"{"k":1}"#, .forgiven([], .defaulted), note: "an object is no array"),
            CoercionCase([String: Int].self, "[1,2]", .forgiven([:], .defaulted), note: "an array is no dictionary"),
            CoercionCase(Set<String>.self, nil, .forgiven([], .defaulted)),
        ]

    @Test(arguments: defaultsCases)
    func typesWithADefault(_ testCase: CoercionCase) {
        testCase.check()
    }

    /// Types without a default fail where they stand, and are `nil` (reported) in an optional.
    static let noDefaultCases: [CoercionCase] = [
        CoercionCase(Point.self, nil, .fails),
        CoercionCase(Point.self, "null", .fails),
        CoercionCase(Point.self, "42", .fails),
        CoercionCase(Level.self, "null", .fails),
        CoercionCase(Date.self, "null", .fails),
        CoercionCase(Point?.self, "42", .forgiven(nil, .defaulted)),
        CoercionCase(Level?.self, #""x""#, .forgiven(nil, .defaulted)),
        CoercionCase(Int?.self, #""abc""#, .forgiven(nil, .defaulted), messageContains: ["abc"]),
        CoercionCase(String?.self, "[1]", .forgiven(nil, .defaulted)),
        CoercionCase(Int?.self, nil, .clean(nil), note: "a missing optional is not forgiven"),
        CoercionCase(Int?.self, "null", .clean(nil), note: "a null optional is not forgiven"),
        CoercionCase(Point?.self, nil, .clean(nil)),
    ]

    @Test(arguments: noDefaultCases)
    func typesWithoutADefault(_ testCase: CoercionCase) {
        testCase.check()
    }

    struct Order: Codable, Equatable, Sendable {
        var id: Int
        var note: String
        var shipTo: Point
        var items: [Item]
        var gift: Point?
    }

    struct Item: Codable, Equatable, Sendable {
        var sku: String
        var quantity: Int
        var at: Point
    }

    /// Several properties defaulted at once, each reported at its own path, in the order of the model.
    @Test func severalDefaultsInOneModel() throws {
        let json = #"""
            {"id":null,"shipTo":{"x":1,"y":2},"items":[{"sku":"a","quantity":"x","at":{"x":0,"y":0}}],"gift":"none"}
            """#
        let (order, report) = try LenientJSONDecoder().decodeWithReport(Order.self, from: json)
        #expect(
            order
                == Order(
                    id: 0, note: "", shipTo: Point(x: 1, y: 2),
                    items: [Item(sku: "a", quantity: 0, at: Point(x: 0, y: 0))],
                    gift: nil))
        #expect(
            report.issues.map(IssueSummary.init) == [
                IssueSummary(.defaulted, "id"), IssueSummary(.defaulted, "note"),
                IssueSummary(.defaulted, "items[0].quantity"), IssueSummary(.defaulted, "gift"),
            ], "\(report)")
    }

    /// A nested struct that fails at the top level throws, with the path of the failing value; inside a collection the
    /// element is dropped instead.
    @Test func structWithoutDefaultThrowsAtTopAndIsDroppedInCollection() throws {
        let broken = #"{"id":1,"note":"n","shipTo":"nowhere","items":[]}"#
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Order.self, from: broken)
        }
        #expect(DecodingErrorSummary(error).codingPath.map(\.stringValue).starts(with: ["shipTo"]), "\(error)")

        let json = #"""
            {"id":1,"note":"n","shipTo":{"x":1,"y":2},"items":[
              {"sku":"a","quantity":1,"at":{"x":0,"y":0}},
              {"sku":"b","quantity":2,"at":[0,0]},
              {"sku":"c","quantity":3,"at":{"x":5,"y":5}}]}
            """#
        let (order, report) = try LenientJSONDecoder().decodeWithReport(Order.self, from: json)
        #expect(order.items.map(\.sku) == ["a", "c"])
        #expect(report.issues.map(IssueSummary.init) == [IssueSummary(.droppedElement, "items[1]")], "\(report)")
    }

    struct Flag: Codable, Equatable {
        var on: Bool
    }

    /// `null` where a `Bool` is expected, through each container: `.strict` throws Foundation's error, live.
    @Test(arguments: ["keyed", "keyed generic", "unkeyed", "single value"])
    func strictNullBoolIsFoundationsError(container: String) {
        let json = Data(
            (container == "unkeyed" ? "[null]" : container == "single value" ? "null" : #"{"on":null}"#).utf8)
        switch container {
        case "keyed": expectSameOutcome(DifferentialOutcome(Flag.self, from: json), "\(container)")
        case "keyed generic":
            expectSameOutcome(DifferentialOutcome(Box<Bool>.self, from: Data(#"{"value":null}"#.utf8)), "\(container)")
        case "unkeyed": expectSameOutcome(DifferentialOutcome([Bool].self, from: json), "\(container)")
        default: expectSameOutcome(DifferentialOutcome(Bool.self, from: json), "\(container)")
        }
    }

    /// `.strict` never defaults: Foundation's error, live.
    @Test func strictDoesNotDefault() {
        let json = Data(#"{"id":null,"shipTo":{"x":1,"y":2},"items":[]}"#.utf8)
        let outcome = DifferentialOutcome(Order.self, from: json)
        #expect(outcome.foundation.error != nil)
        expectSameOutcome(outcome)
    }
}

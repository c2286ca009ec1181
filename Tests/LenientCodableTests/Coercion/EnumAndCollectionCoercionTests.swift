// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The enum, array and nested-object rows of DESIGN.md's coercion table, in `.lenient` with the report and in
/// `.strict` against Foundation's `JSONDecoder`.
@Suite struct EnumAndCollectionCoercionTests {
    /// A `String` enum with a fallback case.
    enum Status: String, Codable, Sendable, CaseFallback {
        case active, suspended, unknown
        static let fallbackCase = Status.unknown
    }

    /// An `Int` enum with neither fallback nor default.
    enum Level: Int, Codable, Sendable {
        case low = 1
        case high = 2
    }

    /// A `String` enum with a default but no fallback.
    enum Plan: String, Codable, Sendable, DefaultValue {
        case free, pro
        static let defaultValue = Plan.free
    }

    /// A nested object with no default.
    struct Point: Codable, Equatable, Sendable {
        var x: Int
        var y: Int
    }

    static let enumsCases: [CoercionCase] = [
        CoercionCase(Status.self, #""active""#, .clean(.active)),
        // Foundation decodes these as the fallback case, so every mode gives that: no spelling is
        // matched where Foundation succeeds.
        CoercionCase(
            Status.self, #""ACTIVE""#, .forgiven(.unknown, .defaulted), messageContains: ["ACTIVE"],
            foundationTakesTheFallbackCase: true),
        CoercionCase(
            Status.self, #""Suspended""#, .forgiven(.unknown, .defaulted), foundationTakesTheFallbackCase: true),
        CoercionCase(
            Status.self, "3", .forgiven(.unknown, .defaulted), note: "another JSON type: coerced, then the fallback"),
        CoercionCase(
            Status.self, #""banned""#, .forgiven(.unknown, .defaulted), messageContains: ["banned"],
            foundationTakesTheFallbackCase: true),
        CoercionCase(Level.self, "2", .clean(.high)),
        CoercionCase(Level.self, #""2""#, .forgiven(.high, .coerced), messageContains: [#""2""#]),
        CoercionCase(Level.self, #"" 1 ""#, .forgiven(.low, .coerced)),
        CoercionCase(Level.self, "true", .forgiven(.low, .coerced), note: "raw value through Bool to Int"),
        CoercionCase(Level.self, "2.0", .clean(.high), note: "integral float, as Foundation"),
        CoercionCase(Level.self, "7", .fails, note: "no fallback, no default"),
        CoercionCase(Level.self, #""high""#, .fails),
        CoercionCase(Level.self, nil, .fails),
        CoercionCase(Level?.self, "7", .forgiven(nil, .defaulted)),
        CoercionCase([Level].self, "[1,7,2]", .forgiven([.low, .high], .droppedElement), path: "value[1]"),
        CoercionCase(Plan.self, #""PRO""#, .forgiven(.pro, .coerced)),
        CoercionCase(Plan.self, #""enterprise""#, .forgiven(.free, .defaulted), note: "DefaultValue, no fallback"),
        CoercionCase(Plan.self, nil, .forgiven(.free, .defaulted)),
        CoercionCase(Plan.self, "null", .forgiven(.free, .defaulted)),
    ]

    @Test(arguments: enumsCases)
    func enums(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let arraysCases: [CoercionCase] = [
        CoercionCase([Int].self, "3", .forgiven([3], .coerced), note: "a single value"),
        CoercionCase([String].self, #""swift""#, .forgiven(["swift"], .coerced)),
        CoercionCase([Point].self, #"{"x":1,"y":2}"#, .forgiven([Point(x: 1, y: 2)], .coerced)),
        CoercionCase([Int].self, "null", .forgiven([], .defaulted)),
        CoercionCase([Int].self, nil, .forgiven([], .defaulted)),
        CoercionCase([Int].self, "[]", .clean([])),
        CoercionCase([Int].self, #"[1,"x",3]"#, .forgiven([1, 3], .droppedElement), path: "value[1]"),
        CoercionCase([Int].self, "[1,2,3,null]", .forgiven([1, 2, 3], .droppedElement), path: "value[3]"),
        CoercionCase([Int].self, #"[1,"2",3]"#, .forgiven([1, 2, 3], .coerced), path: "value[1]"),
        CoercionCase(
            [Point].self, #"[{"x":1,"y":2},"nowhere"]"#, .forgiven([Point(x: 1, y: 2)], .droppedElement),
            path: "value[1]", note: "a struct has no default"),
        CoercionCase(Set<Int>.self, #"[1,"x"]"#, .forgiven([1], .droppedElement), path: "value[1]"),
        CoercionCase(Set<Int>.self, "5", .forgiven([5], .coerced)),
        CoercionCase(Set<Int>.self, "null", .forgiven([], .defaulted)),
        CoercionCase(
            [String: Int].self, #"{"a":1,"abc":"x"}"#, .forgiven(["a": 1], .droppedElement), path: "value.abc"),
        CoercionCase([String: Int].self, "null", .forgiven([:], .defaulted)),
        CoercionCase([String: Int].self, nil, .forgiven([:], .defaulted)),
        CoercionCase([[Int]].self, #"[[1],[2,"x"]]"#, .forgiven([[1], [2]], .droppedElement), path: "value[1][1]"),
        CoercionCase([Int]?.self, "null", .clean(nil), note: "an optional array stays nil"),
        CoercionCase([Int]?.self, #""x""#, .forgiven(nil, .defaulted)),
    ]

    @Test(arguments: arraysCases)
    func arrays(_ testCase: CoercionCase) {
        testCase.check()
    }

    static let jsonInStringsCases: [CoercionCase] = [
        CoercionCase(Point.self, #""{\"x\":1,\"y\":2}""#, .forgiven(Point(x: 1, y: 2), .coerced)),
        CoercionCase([Int].self, #""[1,2]""#, .forgiven([1, 2], .coerced)),
        CoercionCase([String: Int].self, #""{\"a\":1}""#, .forgiven(["a": 1], .coerced)),
        CoercionCase(Point?.self, #""{\"x\":1,\"y\":2}""#, .forgiven(Point(x: 1, y: 2), .coerced)),
        CoercionCase(Point.self, #""{not json}""#, .fails, note: "a struct has no default"),
        CoercionCase(Point?.self, #""{not json}""#, .forgiven(nil, .defaulted)),
        CoercionCase(Point.self, "null", .fails),
        CoercionCase(Point.self, nil, .fails),
        CoercionCase(Point?.self, "[]", .forgiven(nil, .defaulted)),
    ]

    @Test(arguments: jsonInStringsCases)
    func jsonTextInStrings(_ testCase: CoercionCase) {
        testCase.check()
    }

    /// Issues inside a JSON text in a string keep the path of the value they are in.
    @Test func issuesInsideJSONTextHaveTheOuterPath() throws {
        let (box, report) = try LenientJSONDecoder().decodeWithReport(
            Box<Point>.self, from: #"{"value":"{\"x\":\"1\",\"y\":2}"}"#)
        #expect(box.value == Point(x: 1, y: 2))
        #expect(
            report.issues.map(IssueSummary.init).sorted() == [
                IssueSummary(.coerced, "value"), IssueSummary(.coerced, "value.x"),
            ],
            "\(report)")
    }
}

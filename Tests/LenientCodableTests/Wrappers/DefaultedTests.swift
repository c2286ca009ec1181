// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct DefaultedTests {
    enum Plan: String, Codable, Sendable, DefaultValue {
        case free, pro
        static let defaultValue = Plan.free
    }

    struct Account: Codable, Equatable, Sendable {
        @Defaulted var name: String
        @Defaulted var count: Int
        @Defaulted var ratio: Double
        @Defaulted var isActive: Bool
        @Defaulted var tags: [String]
        @Defaulted var scores: [String: Int]
        @Defaulted var ids: Set<Int>
        @Defaulted var plan: Plan
        @Defaulted @Coerced var age: Int
    }

    static let defaults = Account(
        name: "", count: 0, ratio: 0, isActive: false, tags: [], scores: [:], ids: [], plan: .free, age: 0)

    /// A document for ``Account`` and the account it decodes to.
    struct DocumentCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let expected: Account

        var testDescription: String { name }
    }

    static let documents: [DocumentCase] = [
        .init(name: "every key missing", json: "{}", expected: defaults),
        .init(
            name: "every value null",
            json: #"""
                {"name":null,"count":null,"ratio":null,"isActive":null,"tags":null,"scores":null,"ids":null,
                 "plan":null,"age":null}
                """#,
            expected: defaults),
        .init(
            name: "every value present",
            json: #"""
                {"name":"Ann","count":3,"ratio":0.5,"isActive":true,"tags":["a","b"],"scores":{"x":1},"ids":[7],
                 "plan":"pro","age":"42"}
                """#,
            expected: Account(
                name: "Ann", count: 3, ratio: 0.5, isActive: true, tags: ["a", "b"], scores: ["x": 1], ids: [7],
                plan: .pro, age: 42)),
        .init(
            name: "some missing, some null",
            json: #"{"name":"Bo","count":null,"tags":["t"],"plan":null,"age":7}"#,
            expected: Account(
                name: "Bo", count: 0, ratio: 0, isActive: false, tags: ["t"], scores: [:], ids: [], plan: .free, age: 7)
        ),
    ]

    @Test(arguments: documents, WrapperDecoder.allCases)
    func missingAndNullTakeTheDefault(_ document: DocumentCase, decoder: WrapperDecoder) throws {
        #expect(try decoder.decode(Account.self, from: document.json) == document.expected)
    }

    /// A present value of the wrong type is an error: only `@Coerced` forgives the form.
    struct InvalidCase: Sendable, CustomTestStringConvertible {
        let json: String
        let key: String

        var testDescription: String { json }
    }

    static let invalidValues: [InvalidCase] = [
        .init(json: #"{"count":"3"}"#, key: "count"),
        .init(json: #"{"tags":"a"}"#, key: "tags"),
        .init(json: #"{"plan":"gold"}"#, key: "plan"),
        .init(json: #"{"age":"abc"}"#, key: "age"),
    ]

    @Test(arguments: invalidValues, WrapperDecoder.allCases)
    func presentValueOfTheWrongTypeIsStillAnError(_ invalid: InvalidCase, decoder: WrapperDecoder) throws {
        let error = #expect(throws: DecodingError.self) { try decoder.decode(Account.self, from: invalid.json) }
        switch error {
        case .typeMismatch(_, let context)?, .dataCorrupted(let context)?:
            #expect(context.codingPath.map(\.stringValue) == [invalid.key])
        case let other?:
            Issue.record("Unexpected error \(other)")
        case nil:
            break
        }
    }

    @Test func encodesPlainValuesIncludingDefaults() throws {
        struct Small: Codable {
            @Defaulted var tags: [String]
            @Defaulted var plan: Plan
            @Defaulted @Coerced var age: Int
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let small = try JSONDecoder().decode(Small.self, from: Data("{}".utf8))
        #expect(String(decoding: try encoder.encode(small), as: UTF8.self) == #"{"age":0,"plan":"free","tags":[]}"#)
    }

    @Test func wrapperStartsAtTheDefaultAndComparesByValue() {
        #expect(Defaulted<[Int]>.defaultValue.wrappedValue == [])
        #expect(Defaulted<Plan>.defaultValue.wrappedValue == .free)
        #expect(Defaulted(wrappedValue: 3) == Defaulted(wrappedValue: 3))
        #expect(Set([Defaulted(wrappedValue: "a"), Defaulted(wrappedValue: "a")]).count == 1)
    }
}

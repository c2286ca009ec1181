// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

extension CoercedTests {
    /// An optional property's JSON (`nil` for a missing key) and what it decodes to.
    struct OptionalCase<Value: Sendable>: Sendable, CustomTestStringConvertible {
        let json: String?
        let expected: Value?

        init(_ json: String?, _ expected: Value?) {
            self.json = json
            self.expected = expected
        }

        var document: String { json.map { #"{"value":\#($0),"other":1}"# } ?? #"{"other":1}"# }
        var testDescription: String { "\(json ?? "missing") -> \(expected.map { "\($0)" } ?? "nil")" }
    }

    struct OptionalBox<Value: CoercibleValue & Sendable>: Decodable, Sendable {
        @Coerced var value: Value?
        var other: Int
    }

    static let optionalIntRows: [OptionalCase<Int>] = [
        .init(nil, nil), .init("null", nil), .init(#""null""#, nil), .init(#""<null>""#, nil), .init(#""nil""#, nil),
        .init(#""(null)""#, nil), .init(#""NULL""#, nil), .init(#""abc""#, nil), .init("{}", nil),
        .init("1e30", nil), .init("42", 42), .init(#""42""#, 42), .init("4.5", 4), .init("true", 1),
    ]

    @Test(arguments: optionalIntRows, WrapperDecoder.allCases)
    func optionalInt(_ row: OptionalCase<Int>, decoder: WrapperDecoder) throws {
        let box = try decoder.decode(OptionalBox<Int>.self, from: row.document)
        #expect(box.value == row.expected)
        #expect(box.other == 1)
    }

    static let optionalStringRows: [OptionalCase<String>] = [
        .init(nil, nil), .init("null", nil), .init(#""null""#, "null"), .init(#""<null>""#, "<null>"),
        .init("42", "42"), .init("[]", nil),
    ]

    @Test(arguments: optionalStringRows, WrapperDecoder.allCases)
    func optionalStringKeepsNullLikeText(_ row: OptionalCase<String>, decoder: WrapperDecoder) throws {
        let box = try decoder.decode(OptionalBox<String>.self, from: row.document)
        #expect(box.value == row.expected)
    }

    static let optionalURLRows: [OptionalCase<URL>] = [
        .init(nil, nil), .init(#""<null>""#, nil), .init(#""nil""#, nil), .init(#""""#, nil),
        .init(#"" https://example.com ""#, URL(string: "https://example.com")),
    ]

    @Test(arguments: optionalURLRows, WrapperDecoder.allCases)
    func optionalURL(_ row: OptionalCase<URL>, decoder: WrapperDecoder) throws {
        let box = try decoder.decode(OptionalBox<URL>.self, from: row.document)
        #expect(box.value == row.expected)
    }

    @Test func missingOptionalKeysUnderFoundationsSynthesizedDecodable() throws {
        struct Profile: Decodable {
            @Coerced var age: Int?
            @Coerced var score: Double?
            @Coerced var joined: Date?
            @Coerced var homepage: URL?
            @Coerced var nickname: String?
            var name: String
        }
        let profile = try JSONDecoder().decode(Profile.self, from: Data(#"{"name":"Ann","age":"31"}"#.utf8))
        #expect(profile.age == 31)
        #expect(profile.score == nil)
        #expect(profile.joined == nil)
        #expect(profile.homepage == nil)
        #expect(profile.nickname == nil)
        #expect(profile.name == "Ann")
    }

    // MARK: Encoding

    struct Book: Codable, Equatable {
        @Coerced var page: Int
        @Coerced var price: Decimal
        @Coerced var rating: Double
        @Coerced var isVIP: Bool
        @Coerced var title: String
        @Coerced var published: Date
        @Coerced var link: URL
        @Coerced var subtitle: String?
        @Coerced var edition: Int?
    }

    @Test func encodesPlainValuesAndLeavesOutNilOptionals() throws {
        let book = Book(
            page: 42, price: Decimal(string: "9.99") ?? 0, rating: 4.5, isVIP: true, title: "Dune",
            published: Date(timeIntervalSince1970: 0),
            link: URL(string: "https://example.com") ?? URL(fileURLWithPath: "/"),
            subtitle: nil, edition: 2)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        let json = String(decoding: try encoder.encode(book), as: UTF8.self)
        #expect(
            json
                == #"{"edition":2,"isVIP":true,"link":"https:\/\/example.com","page":42,"price":9.99,"published":"1970-01-01T00:00:00Z","rating":4.5,"title":"Dune"}"#
        )
    }

    @Test(arguments: WrapperDecoder.allCases)
    func messyJSONDecodesToTheSameModelAsCleanJSON(decoder: WrapperDecoder) throws {
        let messy = #"""
            {"page":" 42 ","price":"9.99","rating":"4.5","isVIP":"yes","title":1984,
             "published":"1970-01-01T00:00:00Z","link":" https://example.com ","subtitle":null,"edition":"<null>"}
            """#
        let book = try decoder.decode(Book.self, from: messy)
        let expected = Book(
            page: 42, price: Decimal(string: "9.99") ?? 0, rating: 4.5, isVIP: true, title: "1984",
            published: Date(timeIntervalSince1970: 0),
            link: URL(string: "https://example.com") ?? URL(fileURLWithPath: "/"),
            subtitle: nil, edition: nil)
        #expect(book == expected)
    }

    @Test func roundTripsThroughJSONEncoderAndDecoder() throws {
        let book = Book(
            page: -3, price: Decimal(string: "0.1") ?? 0, rating: 0.25, isVIP: false, title: "",
            published: Date(timeIntervalSince1970: 1_795_167_000), link: URL(string: "/a") ?? URL(fileURLWithPath: "/"),
            subtitle: "Part 1", edition: nil)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoded = try JSONDecoder().decode(Book.self, from: encoder.encode(book))
        #expect(decoded == book)
    }

    @Test func wrapperIsEquatableHashableAndSendableLikeItsValue() {
        let a = Coerced(wrappedValue: 1)
        let b = Coerced(wrappedValue: 1)
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        let sendable: any Sendable = a
        #expect(sendable is Coerced<Int>)
    }
}

extension CoercedTests {
    @Test func lenientDecoderAndWrapperAgree() throws {
        let messy =
            #"{"page":" 42 ","price":"9.99","rating":"4.5","isVIP":"yes","title":1.10,"published":1795167000,"link":"/a"}"#
        let book = try LenientJSONDecoder().decode(Book.self, from: messy)
        #expect(book.page == 42)
        #expect(book.price == Decimal(string: "9.99"))
        #expect(book.isVIP)
        #expect(book.title == "1.10")
        #expect(book.published == Date(timeIntervalSince1970: 1_795_167_000))
        #expect(book.subtitle == nil)
    }
}

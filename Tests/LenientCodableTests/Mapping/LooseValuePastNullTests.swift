// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A `null` is no value found. Where `.lenient` would forgive it (a non-optional property's
/// default) or where a list of fallbacks goes on past it, a value that loose matching finds under
/// another spelling wins over it, reported as a fallback. An optional property read under its one
/// spelling keeps the `nil` that Foundation's decoder gives it; `.strict` matches nothing loosely.
@Suite struct LooseValuePastNullTests {
    struct Order: Codable, Equatable, KeyMapping {
        var orderID: Int
        static var keyMapping: [String: KeySource] { ["orderID": ["order_id", "id"]] }
    }

    struct OptionalOrder: Codable, Equatable, KeyMapping {
        var orderID: Int?
        static var keyMapping: [String: KeySource] { ["orderID": ["order_id", "id"]] }
    }

    struct User: Codable, Equatable {
        var userName: String
        var age: Int
    }

    struct OptionalUser: Codable, Equatable {
        var userName: String?
    }

    struct KeptUser: Codable, Equatable {
        var userName: String
        var extras: UnknownKeys
    }

    static func summary(_ report: DecodingReport) -> [String] {
        report.issues.map { "\($0.path) (\($0.jsonPath)) \($0.kind): \($0.message)" }
    }

    /// Decodes what the encoder writes for `value`: the same value, with nothing forgiven.
    static func expectRoundTrip<T: Codable & Equatable>(
        _ value: T, decoder: LenientJSONDecoder = LenientJSONDecoder(),
        encoder: LenientJSONEncoder = LenientJSONEncoder(), sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = try encoder.encode(value)
        let (again, report) = try decoder.decodeWithReport(T.self, from: data)
        #expect(again == value, sourceLocation: sourceLocation)
        #expect(report.isEmpty, "\(summary(report))", sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        (#"{"order_id":null,"ID":17}"#, "ID"),
        (#"{"id":null,"Order_ID":17}"#, "Order_ID"),
        (#"{"ID":17,"order_id":null}"#, "ID"),
    ])
    func aFallbackListTakesAValueUnderAnotherSpellingPastANull(json: String, spelling: String) throws {
        let fallback = #"orderID (\#(spelling)) keyFallback: Found orderID under "\#(spelling)" instead of "order_id"."#
        let (optional, optionalReport) = try LenientJSONDecoder().decodeWithReport(OptionalOrder.self, from: json)
        #expect(optional == OptionalOrder(orderID: 17))
        #expect(Self.summary(optionalReport) == [fallback])
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Order.self, from: json)
        #expect(value == Order(orderID: 17))
        #expect(Self.summary(report) == [fallback])
        try Self.expectRoundTrip(value)
        try Self.expectRoundTrip(optional)
    }

    @Test(arguments: [
        // Nulls only: the first found exactly is the one read.
        (#"{"ORDER_ID":null,"id":null}"#, "id"),
        // A repeated key is no other spelling: of duplicate keys the first wins.
        (#"{"id":null,"id":17}"#, "id"),
        (#"{"order_id":null,"order_id":17}"#, "order_id"),
    ])
    func aNullWithNoValueUnderAnotherSpellingStaysANull(json: String, nullAt: String) throws {
        let (optional, optionalReport) = try LenientJSONDecoder().decodeWithReport(OptionalOrder.self, from: json)
        #expect(optional == OptionalOrder(orderID: nil))
        #expect(optionalReport.isEmpty)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Order.self, from: json)
        #expect(value == Order(orderID: 0))
        #expect(Self.summary(report) == ["orderID (\(nullAt)) defaulted: Found null; used the default 0."])
    }

    @Test func strictReadsTheNullAsFoundationDoes() throws {
        let json = #"{"order_id":null,"ID":17}"#
        #expect(try LenientJSONDecoder(options: .strict).decode(OptionalOrder.self, from: json).orderID == nil)
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Order.self, from: json)
        }
        guard case .valueNotFound(_, let context) = error else {
            Issue.record("expected valueNotFound, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["orderID"])
    }

    @Test func aNonOptionalPropertyTakesAValueUnderAnotherSpellingBeforeItsDefault() throws {
        let json = #"{"userName":null,"user_name":"ann","age":null,"AGE":"7"}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(User.self, from: json)
        #expect(value == User(userName: "ann", age: 7))
        #expect(
            Self.summary(report) == [
                #"userName (user_name) keyFallback: Found userName under "user_name" instead of "userName"."#,
                #"age (AGE) keyFallback: Found age under "AGE" instead of "age"."#,
                #"age (AGE) coerced: Coerced string "7" to Int 7."#,
            ])
        try Self.expectRoundTrip(value)
    }

    @Test func theSameUnderTheDecodersSnakeCaseStrategy() throws {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = #"{"user_name":null,"UserName":"ann","age":3}"#
        let (value, report) = try decoder.decodeWithReport(User.self, from: json)
        #expect(value == User(userName: "ann", age: 3))
        #expect(
            Self.summary(report) == [
                #"userName (UserName) keyFallback: Found userName under "UserName" instead of "userName"."#
            ])
        try Self.expectRoundTrip(value, decoder: decoder, encoder: encoder)
    }

    /// An optional read under its one spelling gives `nil` for its `null`, as Foundation's
    /// decoder does, whatever another spelling holds.
    @Test func anOptionalUnderItsOneSpellingKeepsFoundationsNil() throws {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let json = #"{"user_name":null,"UserName":"ann"}"#
        let expected = try foundation.decode(OptionalUser.self, from: Data(json.utf8))
        let (value, report) = try decoder.decodeWithReport(OptionalUser.self, from: json)
        #expect(expected == OptionalUser(userName: nil))
        #expect(value == expected)
        #expect(report.isEmpty)
    }

    @Test func theMemberReadIsNoUnknownKeyAndIsNotKept() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let json = #"{"userName":null,"USER_NAME":"ann","age":1,"z":true}"#
        let (_, report) = try LenientJSONDecoder(options: options).decodeWithReport(User.self, from: json)
        #expect(report.issues(ofKind: .unknownKey).map(\.path) == ["z"])

        let (kept, keptReport) = try LenientJSONDecoder().decodeWithReport(KeptUser.self, from: json)
        #expect(kept.userName == "ann")
        #expect(Array(kept.extras.keys).sorted() == ["age", "z"])
        #expect(Self.summary(keptReport).count == 1)
        try Self.expectRoundTrip(kept)
    }

    /// Inside a lossy array and a nested model, where the first, Foundation-like pass refuses
    /// the `null` and the lenient pass takes the other spelling.
    @Test func insideNestedModelsAndLossyArrays() throws {
        struct Page: Codable, Equatable {
            var users: [User]
            @LossyArray var orders: [Order]
        }
        let json = #"""
            {"users":[{"userName":"a","age":1},{"userName":null,"UserName":"b","age":2}],
             "orders":[{"order_id":null,"Id":5},{"order_id":"x"},{"id":6}]}
            """#
        let (page, report) = try LenientJSONDecoder().decodeWithReport(Page.self, from: json)
        #expect(page.users == [User(userName: "a", age: 1), User(userName: "b", age: 2)])
        #expect(page.orders.map(\.orderID) == [5, 0, 6])
        #expect(
            Self.summary(report).filter { $0.contains("keyFallback") } == [
                #"users[1].userName (users[1].UserName) keyFallback: Found userName under "UserName" instead of "userName"."#,
                #"orders[0].orderID (orders[0].Id) keyFallback: Found orderID under "Id" instead of "order_id"."#,
                #"orders[2].orderID (orders[2].id) keyFallback: Found orderID under "id" instead of "order_id"."#,
            ])
        try Self.expectRoundTrip(page)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A collection element of which no property was present is left out and reported, never made
/// up of defaults — whatever form the element object takes: written as JSON text in a string,
/// or as the payload of a tagged enum (whose tag and content key are none of its properties).
@Suite struct NoInventedElementsTests {
    struct Card: Codable, Equatable {
        var number: String
    }

    struct Cash: Codable, Equatable {
        var amount: Int
    }

    enum Payment: TaggedCodable, Equatable {
        case card(Card)
        case cash(Cash)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Payment>] = [
            .init("card", Card.self, Payment.card), .init("cash", Cash.self, Payment.cash),
        ]
    }

    enum Adjacent: TaggedCodable, Equatable {
        case card(Card)

        static let tagKey = "type"
        static let contentKey: String? = "data"
        static let variants: [TaggedVariant<Adjacent>] = [.init("card", Card.self, Adjacent.card)]
    }

    @Test func anEmptyObjectInAStringIsNoElement() throws {
        let (cards, report) = try LenientJSONDecoder().decodeWithReport(
            [Card].self, from: #"["{\"number\":\"1\"}", "{}", "{\"q\":1}", {"number":"2"}]"#)
        #expect(cards == [Card(number: "1"), Card(number: "2")])
        #expect(report.issues.filter { $0.kind == .droppedElement }.map(\.path) == ["[1]", "[2]"])
        // The same in a dictionary's values.
        let (byID, byIDReport) = try LenientJSONDecoder().decodeWithReport(
            [String: Card].self, from: #"{"a":"{}","b":"{\"number\":\"3\"}"}"#)
        #expect(byID == ["b": Card(number: "3")])
        #expect(byIDReport.issues.map(\.kind).contains(.droppedElement))
    }

    @Test func aTaggedElementWithNoPayloadPropertyIsNoElement() throws {
        let (payments, report) = try LenientJSONDecoder().decodeWithReport(
            [Payment].self, from: #"[{"type":"card"},{"type":"cash","zz":1},{"type":"cash","amount":"5"}]"#)
        #expect(payments == [.cash(Cash(amount: 5))])
        #expect(report.issues.filter { $0.kind == .droppedElement }.map(\.path) == ["[0]", "[1]"])
        let (adjacent, adjacentReport) = try LenientJSONDecoder().decodeWithReport(
            [Adjacent].self, from: #"[{"type":"card","data":{}},{"type":"card","data":{"number":"7"}}]"#)
        #expect(adjacent == [.card(Card(number: "7"))])
        #expect(adjacentReport.issues.filter { $0.kind == .droppedElement }.map(\.path) == ["[0]"])
        // Round trip of what was kept.
        let again = try LenientJSONDecoder().decodeWithReport(
            [Payment].self, from: LenientJSONEncoder().encode(payments))
        #expect(again.value == payments)
        #expect(again.report.issues.isEmpty)
    }

    /// Not an element: a tagged property whose payload lacks a property gets that property's
    /// default, reported, as any model property does.
    @Test func aTaggedPropertyStillDefaultsItsPayloadsProperties() throws {
        struct Order: Codable { var payment: Payment }
        let (order, report) = try LenientJSONDecoder().decodeWithReport(
            Order.self, from: #"{"payment":{"type":"card"}}"#)
        #expect(order.payment == .card(Card(number: "")))
        #expect(report.issues.map(\.kind) == [.defaulted])
        #expect(report.issues.map(\.path) == ["payment.number"])
    }
}

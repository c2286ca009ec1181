// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// The envelope example (`lenient-demo --envelope`): a list of orders inside an API envelope,
// decoded at a path, with a tagged enum, declared defaults, a required property and kept unknown
// keys, then encoded back.

struct Card: Codable, Sendable {
    var number: String
}

struct Cash: Codable, Sendable {
    var change: Double
}

/// Chosen by the `type` member that sits beside the payload's own members.
enum Payment: TaggedCodable, Sendable {
    case card(Card)
    case cash(Cash)

    static let tagKey = "type"
    static let variants: [TaggedVariant<Payment>] = [
        .init("card", Card.self, Payment.card),
        .init("cash", Cash.self, Payment.cash),
    ]
}

/// An order line: its initial values are its defaults, its `id` is never invented, and the keys
/// it does not model are kept for the round trip.
struct Order: Codable, KeyMapping, DeclaredDefaults {
    var id = 0
    var sku = "unknown"
    var quantity = 1
    var payment = Payment.cash(Cash(change: 0))
    var extras = UnknownKeys()

    static let requiredProperties: Set<String> = ["id"]
}

let envelopeJSON = #"""
    {"code": 0, "message": "ok", "data": {"list": [
        {"id": 7, "sku": "b-1", "quantity": "3", "payment": {"type": "card", "number": "4242"}, "gift_wrap": true},
        {"id": "8", "payment": {"type": "cash", "change": "2.5"}, "quantity": null, "note": "leave at door"},
        {"sku": "no-id", "payment": {"type": "card", "number": "1111"}}
    ]}}
    """#

/// Decodes the orders at `data.list`, prints them and the report, and encodes them back.
func showEnvelope(decoder: LenientJSONDecoder) throws {
    let (orders, report) = try decoder.decodeWithReport([Order].self, from: envelopeJSON, at: "data.list")
    print("Decoded \(orders.count) orders at data.list:")
    for order in orders {
        let payment =
            switch order.payment {
            case .card(let card): "card \(card.number)"
            case .cash(let cash): "cash, change \(cash.change)"
            }
        let extras = order.extras.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
        print("  #\(order.id) \(order.sku) x\(order.quantity), \(payment); unknown keys: [\(extras)]")
    }
    print("\nDecoding report (\(report.issues.count) forgiven):")
    for line in reportTable(report) { print("  " + line) }

    let encoder = LenientJSONEncoder()
    print("\nEncoded back with LenientJSONEncoder (unknown keys after the properties):")
    for order in orders { print("  " + String(decoding: try encoder.encode(order), as: UTF8.self)) }
}

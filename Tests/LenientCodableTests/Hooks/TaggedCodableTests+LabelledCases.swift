// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Cases whose associated value has a label, `case card(card: Card)`, encode as the unlabelled ones do.
extension TaggedCodableTests {
    enum Labelled: TaggedCodable, Equatable {
        case card(card: Card)
        case cash(Cash)

        static let tagKey = "t"
        static let variants: [TaggedVariant<Labelled>] = [
            .init("card", Card.self, Labelled.card), .init("cash", Cash.self, Labelled.cash),
        ]
    }

    /// Labelled payloads under a content key: a scalar, an optional and an indirect case among them.
    indirect enum LabelledContent: TaggedCodable, Equatable {
        case card(card: Card)
        case count(count: Int)
        case note(text: String?)
        case nested(inner: LabelledContent)

        static let tagKey = "t"
        static let contentKey: String? = "data"
        static let variants: [TaggedVariant<LabelledContent>] = [
            .init("card", Card.self, LabelledContent.card),
            .init("count", Int.self, LabelledContent.count),
            .init("note", String?.self, LabelledContent.note),
            .init("nested", LabelledContent.self, LabelledContent.nested),
        ]
    }

    @Test(arguments: Coder.allCases)
    func labelledCaseRoundTripsInternallyTagged(_ coder: Coder) throws {
        let values: [Labelled] = [.card(card: Card(number: "1")), .cash(Cash(currency: "EUR"))]
        let encoded = try Self.encode(values, with: coder)
        #expect(encoded == #"[{"number":"1","t":"card"},{"currency":"EUR","t":"cash"}]"#)
        for decoder in Coder.allCases { #expect(try Self.decode([Labelled].self, encoded, with: decoder) == values) }
    }

    @Test(arguments: Coder.allCases)
    func labelledCasesRoundTripAdjacentlyTagged(_ coder: Coder) throws {
        let values: [LabelledContent] = [
            .card(card: Card(number: "1")), .count(count: 3), .note(text: "hi"), .note(text: nil),
            .nested(inner: .count(count: 4)),
        ]
        let encoded = try Self.encode(values, with: coder)
        let expected =
            #"[{"data":{"number":"1"},"t":"card"},{"data":3,"t":"count"},{"data":"hi","t":"note"},"#
            + #"{"data":null,"t":"note"},{"data":{"data":4,"t":"count"},"t":"nested"}]"#
        #expect(encoded == expected)
        for decoder in Coder.allCases {
            #expect(try Self.decode([LabelledContent].self, encoded, with: decoder) == values)
        }
    }

    @Test func labelledCaseRoundTripsThroughAPropertyList() throws {
        let values: [Labelled] = [.card(card: Card(number: "1")), .cash(Cash(currency: "EUR"))]
        let data = try PropertyListEncoder().encode(values)
        #expect(try PropertyListDecoder().decode([Labelled].self, from: data) == values)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// An internally tagged variant (no `contentKey`) writes its payload's members beside the tag.
/// A payload that is not an object, or that writes the tag key itself, would replace the tag or
/// lose itself: both encoders refuse it with an error — Foundation's too, which would otherwise
/// trap when the payload asks for a single value container after the tag's keyed one.
@Suite struct TaggedPayloadTests {
    enum Scalar: TaggedCodable, Equatable {
        case number(Int)
        case list([Int])

        static let tagKey = "type"
        static let variants: [TaggedVariant<Scalar>] = [
            .init("number", Int.self, Scalar.number), .init("list", [Int].self, Scalar.list),
        ]
    }

    /// A payload with a member of its own named as the tag.
    struct Labelled: Codable, Equatable {
        var type: String
        var amount: Int
    }

    enum Clashing: TaggedCodable, Equatable {
        case labelled(Labelled)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Clashing>] = [.init("labelled", Labelled.self, Clashing.labelled)]
    }

    /// The same payloads, each under a key of its own, which they need.
    enum Adjacent: TaggedCodable, Equatable {
        case number(Int)
        case labelled(Labelled)

        static let tagKey = "type"
        static let contentKey: String? = "data"
        static let variants: [TaggedVariant<Adjacent>] = [
            .init("number", Int.self, Adjacent.number), .init("labelled", Labelled.self, Adjacent.labelled),
        ]
    }

    static func expectRefused<T: Encodable>(_ value: T, saying text: String) {
        for (name, encode) in [
            ("LenientJSONEncoder", { try LenientJSONEncoder().encode(value) }),
            ("JSONEncoder", { try JSONEncoder().encode(value) }),
        ] as [(String, () throws -> Data)] {
            do {
                let data = try encode()
                Issue.record("\(name) wrote \(String(decoding: data, as: UTF8.self)) for \(value)")
            } catch EncodingError.invalidValue(_, let context) {
                #expect(context.debugDescription.contains(text), "\(name): \(context.debugDescription)")
            } catch {
                Issue.record("\(name) threw \(error)")
            }
        }
    }

    @Test func aPayloadThatIsNotAnObjectIsRefusedByBothEncoders() {
        Self.expectRefused(Scalar.number(5), saying: "does not encode as an object")
        Self.expectRefused(Scalar.list([1, 2]), saying: "set contentKey")
        // Inside arrays, where Foundation's encoder trapped.
        Self.expectRefused([Scalar.number(1), Scalar.number(2)], saying: "does not encode as an object")
    }

    @Test func aPayloadThatWritesTheTagKeyIsRefusedByBothEncoders() {
        Self.expectRefused(Clashing.labelled(Labelled(type: "gold", amount: 3)), saying: #"writes the key "type""#)
    }

    @Test func underAContentKeyTheSamePayloadsRoundTrip() throws {
        let values: [Adjacent] = [.number(5), .labelled(Labelled(type: "gold", amount: 3))]
        for data in [try LenientJSONEncoder().encode(values), try JSONEncoder().encode(values)] {
            #expect(try LenientJSONDecoder(options: .strict).decode([Adjacent].self, from: data) == values)
            #expect(try JSONDecoder().decode([Adjacent].self, from: data) == values)
        }
    }
}

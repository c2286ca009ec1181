// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Decoding what the encoder wrote gives back the same value, for random values of models that use every feature:
/// nesting, optionals, key mapping with transforms, hooks, dates, `Decimal`, a class hierarchy and a tagged enum.
@Suite struct RandomModelRoundTripTests {
    /// A small deterministic generator (SplitMix64), so that a failure names a seed that reproduces it.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    struct Address: Codable, Equatable {
        var street: String
        var zip: String?
    }

    /// Key paths, fallback lists and transforms both ways.
    struct Item: Codable, Equatable, KeyMapping {
        var id: Int
        var title: String
        var grams: Double
        var price: Decimal
        var note: String?

        static let keyMapping: [String: KeySource] = [
            "id": ["item_id", "id"], "title": "info.title", "grams": "info.weight_kg",
        ]
        static let decodingTransforms: [String: JSONTransform] = [
            "grams": JSONTransform { json in json.doubleValue.map { JSONValue($0 * 1000) } ?? json }
        ]
        static let encodingTransforms: [String: JSONTransform] = [
            "grams": JSONTransform { json in json.doubleValue.map { JSONValue($0 / 1000) } ?? json }
        ]
    }

    /// A hook that unwraps an envelope, which the encoder does not write: its own output reads back unchanged.
    struct Owner: Codable, Equatable, DecodingHooks {
        var name: String
        var since: Date
        static func willDecode(_ json: JSONValue) throws -> JSONValue { json["owner"] ?? json }
    }

    class Animal: Codable, PolymorphicDecodable {
        var kind: String
        var name: String
        init(kind: String, name: String) {
            self.kind = kind
            self.name = name
        }
        class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
            json["kind"]?.stringValue == "dog" ? Dog.self : nil
        }
        func isEqual(to other: Animal) -> Bool {
            type(of: self) == type(of: other) && kind == other.kind && name == other.name
        }
    }

    final class Dog: Animal {
        var goodBoy: Bool
        init(name: String, goodBoy: Bool) {
            self.goodBoy = goodBoy
            super.init(kind: "dog", name: name)
        }
        private enum CodingKeys: String, CodingKey { case goodBoy }
        required init(from decoder: any Decoder) throws {
            goodBoy = try decoder.container(keyedBy: CodingKeys.self).decode(Bool.self, forKey: .goodBoy)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(goodBoy, forKey: .goodBoy)
        }
        override func isEqual(to other: Animal) -> Bool {
            super.isEqual(to: other) && (other as? Dog)?.goodBoy == goodBoy
        }
    }

    enum Payment: TaggedCodable, Equatable {
        case card(Address)
        case cash(Decimal)
        static let tagKey = "type"
        static let contentKey: String? = "value"
        static let variants: [TaggedVariant<Payment>] = [
            .init("card", Address.self, Payment.card), .init("cash", Decimal.self, Payment.cash),
        ]
    }

    struct Order: Codable {
        var id: Int
        var placedAt: Date
        var updatedAt: Date?
        var address: Address
        var items: [Item]
        var owner: Owner?
        var pets: [Animal]
        var payments: [Payment]
        var totals: [String: Decimal]
        var flags: Set<Int>

        /// The properties whose values differ from another order's; empty when they are equal.
        func differences(from other: Order) -> [String] {
            var names: [String] = []
            if id != other.id { names.append("id") }
            if placedAt != other.placedAt { names.append("placedAt \(placedAt.timeIntervalSinceReferenceDate)") }
            if updatedAt != other.updatedAt { names.append("updatedAt") }
            if address != other.address { names.append("address") }
            if items != other.items { names.append("items \(items) \(other.items)") }
            if owner != other.owner { names.append("owner") }
            if pets.count != other.pets.count || !zip(pets, other.pets).allSatisfy({ $0.isEqual(to: $1) }) {
                names.append("pets")
            }
            if payments != other.payments { names.append("payments \(payments) \(other.payments)") }
            if totals != other.totals { names.append("totals \(totals) \(other.totals)") }
            if flags != other.flags { names.append("flags") }
            return names
        }
    }

    static func text(_ generator: inout Generator) -> String {
        let alphabet = Array("abcXYZ 09-_\"\\/\n\té😀")
        return String(
            (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
    }

    static func decimal(_ generator: inout Generator) -> Decimal {
        let digits = String(Int64.random(in: -99_999_999...99_999_999, using: &generator))
        let scale = Int.random(in: 0...6, using: &generator)
        return Decimal(sign: .plus, exponent: -scale, significand: Decimal(string: digits)!)
    }

    /// Any instant from year 1 to 9999, with any fraction of a second.
    static func date(_ generator: inout Generator) -> Date {
        Date(timeIntervalSinceReferenceDate: Double.random(in: -63_113_904_000...252_423_993_599, using: &generator))
    }

    static func address(_ generator: inout Generator) -> Address {
        Address(street: text(&generator), zip: Bool.random(using: &generator) ? text(&generator) : nil)
    }

    static func order(_ generator: inout Generator) -> Order {
        Order(
            id: Int.random(in: Int.min...Int.max, using: &generator),
            placedAt: date(&generator),
            updatedAt: Bool.random(using: &generator) ? date(&generator) : nil,
            address: address(&generator),
            items: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                Item(
                    id: Int.random(in: -1000...1000, using: &generator), title: text(&generator),
                    // Multiples of 125 g: eighths of a kilogram, which divide by 1000 and multiply back exactly.
                    grams: Double(Int.random(in: 0...80_000, using: &generator) * 125),
                    price: decimal(&generator), note: Bool.random(using: &generator) ? text(&generator) : nil)
            },
            owner: Bool.random(using: &generator) ? Owner(name: text(&generator), since: date(&generator)) : nil,
            pets: (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                Bool.random(using: &generator)
                    ? Dog(name: text(&generator), goodBoy: Bool.random(using: &generator))
                    : Animal(kind: "cat", name: text(&generator))
            },
            payments: (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                Bool.random(using: &generator) ? .card(address(&generator)) : .cash(decimal(&generator))
            },
            totals: Dictionary(
                uniqueKeysWithValues: (0..<Int.random(in: 0...3, using: &generator)).map { index in
                    ("\(text(&generator))\(index)", decimal(&generator))
                }),
            flags: Set(
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in Int.random(in: -9...9, using: &generator) }))
    }

    static let seeds: [UInt64] = Array(1...40)

    @Test(arguments: seeds)
    func strictWithFoundationsDateStrategyRoundTrips(seed: UInt64) throws {
        var generator = Generator(state: seed)
        for _ in 0..<10 {
            let order = Self.order(&generator)
            let encoder = LenientJSONEncoder()
            encoder.dateEncodingStrategy = .deferredToDate
            let decoder = LenientJSONDecoder(options: .strict)
            decoder.dateDecodingStrategy = .deferredToDate
            let data = try encoder.encode(order)
            let decoded = try decoder.decode(Order.self, from: data)
            #expect(decoded.differences(from: order) == [], "seed \(seed): \(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test(arguments: seeds)
    func bothDefaultsRoundTrip(seed: UInt64) throws {
        var generator = Generator(state: seed)
        for _ in 0..<10 {
            let order = Self.order(&generator)
            let data = try LenientJSONEncoder().encode(order)
            let (decoded, report) = try LenientJSONDecoder().decodeWithReport(Order.self, from: data)
            #expect(decoded.differences(from: order) == [], "seed \(seed): \(String(decoding: data, as: UTF8.self))")
            #expect(report.isEmpty, "seed \(seed): \(report)")
        }
    }
}

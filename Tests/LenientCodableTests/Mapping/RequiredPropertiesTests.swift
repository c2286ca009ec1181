// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `KeyMapping.requiredProperties`: values a lenient decoder must never invent.
@Suite struct RequiredPropertiesTests {
    struct Item: Codable, Equatable, KeyMapping {
        var sku: String
        var price: Int
        var note: String

        static let requiredProperties: Set<String> = ["sku", "price"]
    }

    struct User: Codable, Equatable, KeyMapping {
        var id: Int
        var name: String

        static let keyMapping: [String: KeySource] = ["id": ["id", "user_id"]]
        static let requiredProperties: Set<String> = ["id"]
    }

    struct Holder: Codable, Equatable {
        var a: Item
    }

    struct Order: Codable, Equatable {
        var items: [Item]
        var gift: Item?
    }

    /// A required optional property: present and not null, or the value fails.
    struct Token: Codable, Equatable, KeyMapping {
        var value: String?
        var scope: String?

        static let requiredProperties: Set<String> = ["value"]
    }

    struct Renamed: Codable, Equatable, KeyMapping {
        var identifier: Int
        enum CodingKeys: String, CodingKey { case identifier = "id" }
        static let requiredProperties: Set<String> = ["id"]
    }

    struct Misnamed: Codable, KeyMapping {
        var id: Int
        static let requiredProperties: Set<String> = ["identifier"]
    }

    struct Trimmed: Codable, Equatable, KeyMapping {
        var code: Int
        static let requiredProperties: Set<String> = ["code"]
        static let decodingTransforms: [String: JSONTransform] = ["code": .member("value")]
    }

    static let modes: [LenientJSONDecoder.Options] = [.lenient, .strict]

    @Test func aPresentValidValueDecodesAndIsCoercedAsUsual() throws {
        let (item, report) = try LenientJSONDecoder().decodeWithReport(
            Item.self, from: #"{"sku":"b","price":"12"}"#)
        #expect(item == Item(sku: "b", price: 12, note: ""))
        #expect(report.issues.map(\.kind) == [.coerced, .defaulted])
        #expect(report.issues.map(\.path) == ["price", "note"])
    }

    @Test(arguments: [
        #"{"sku":"b","price":"twelve"}"#, #"{"sku":"b"}"#, #"{"sku":"b","price":null}"#,
        #"{"sku":"b","price":"null"}"#, #"{"sku":null,"price":1}"#, #"{"price":1}"#,
    ])
    func aMissingNullOrInvalidRequiredValueFailsAtTheTopLevel(_ json: String) throws {
        for options in Self.modes {
            #expect(throws: DecodingError.self, "\(options)") {
                try LenientJSONDecoder(options: options).decode(Item.self, from: json)
            }
        }
    }

    @Test func theErrorsNameTheRequiredProperty() throws {
        let decoder = LenientJSONDecoder()
        let missing = try #require(throws: DecodingError.self) {
            try decoder.decode(User.self, from: #"{"error":"rate limited"}"#)
        }
        guard case .keyNotFound(let key, let context) = missing else {
            Issue.record("expected keyNotFound, got \(missing)")
            return
        }
        #expect(key.stringValue == "id")
        #expect(context.debugDescription.contains("tried \"id\", \"user_id\""))
        #expect(context.debugDescription.hasSuffix("The property is required."))

        let null = try #require(throws: DecodingError.self) {
            try decoder.decode(Holder.self, from: #"{"a":{"sku":"b","price":null}}"#)
        }
        guard case .valueNotFound(_, let nullContext) = null else {
            Issue.record("expected valueNotFound, got \(null)")
            return
        }
        #expect(nullContext.codingPath.map(\.stringValue) == ["a", "price"])

        let invalid = try #require(throws: DecodingError.self) {
            try decoder.decode(Item.self, from: #"{"sku":"b","price":"twelve"}"#)
        }
        guard case .typeMismatch(_, let invalidContext) = invalid else {
            Issue.record("expected typeMismatch, got \(invalid)")
            return
        }
        #expect(invalidContext.codingPath.map(\.stringValue) == ["price"])
    }

    @Test func aFailingElementIsDroppedAndReportedAndAnOptionalBecomesNil() throws {
        let json = #"""
            {"items":[{"sku":"a","price":3},{"sku":"b","price":"twelve"},{"sku":"c"}],
             "gift":{"sku":"d","price":null}}
            """#
        let (order, report) = try LenientJSONDecoder().decodeWithReport(Order.self, from: json)
        #expect(order == Order(items: [Item(sku: "a", price: 3, note: "")], gift: nil))
        #expect(report.issues(ofKind: .droppedElement).map(\.path) == ["items[1]", "items[2]"])
        #expect(report.issues.contains { $0.path == "gift" && $0.kind == .defaulted })
        #expect(report.issues.contains { $0.path == "items[0].note" && $0.kind == .defaulted })
    }

    @Test func requiredMapsThroughTheCodingKeyAndItsFallbacks() throws {
        #expect(try LenientJSONDecoder().decode(User.self, from: #"{"user_id":"7"}"#) == User(id: 7, name: ""))
        #expect(try LenientJSONDecoder().decode(Renamed.self, from: #"{"id":1}"#) == Renamed(identifier: 1))
        #expect(throws: DecodingError.self) { try LenientJSONDecoder().decode(Renamed.self, from: #"{}"#) }
    }

    @Test func aRequiredOptionalMustBePresentAndNotNull() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            #expect(try decoder.decode(Token.self, from: #"{"value":"x"}"#) == Token(value: "x", scope: nil))
            #expect(throws: DecodingError.self) { try decoder.decode(Token.self, from: #"{"scope":"x"}"#) }
            #expect(throws: DecodingError.self) { try decoder.decode(Token.self, from: #"{"value":null}"#) }
            #expect(throws: DecodingError.self) { try decoder.decode(Token.self, from: #"{"value":{}}"#) }
        }
        // Not required: an invalid optional is nil in `.lenient`, as before.
        #expect(try LenientJSONDecoder().decode(Token.self, from: #"{"value":"x","scope":{}}"#).scope == nil)
    }

    /// The decoder refuses a required optional that is missing or `null`, so the encoder does not
    /// write one: it throws, naming the property, under either `nilEncodingStrategy`.
    @Test(arguments: [LenientJSONEncoder.NilEncodingStrategy.omitKey, .writeNull])
    func aRequiredOptionalThatIsNilIsNotEncoded(strategy: LenientJSONEncoder.NilEncodingStrategy) throws {
        let encoder = LenientJSONEncoder()
        encoder.nilEncodingStrategy = strategy
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode([Token(value: "a", scope: nil), Token(value: nil, scope: "s")])
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 1", "value"])
        #expect(context.debugDescription.contains("requiredProperties"))
        // A value that holds it, and an optional that is not required, are written as before.
        let written = try encoder.encode(Token(value: "a", scope: nil))
        #expect(
            try LenientJSONDecoder(options: .strict).decode(Token.self, from: written) == Token(value: "a", scope: nil))
    }

    struct NullWriting: Encodable, KeyMapping {
        var nested: Int??
        var json: JSONValue?
        var explicit: Bool
        static let requiredProperties: Set<String> = ["nested", "json", "explicit"]

        enum CodingKeys: String, CodingKey { case nested, json, explicit }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(nested, forKey: .nested)
            try container.encodeIfPresent(json, forKey: .json)
            if explicit {
                try container.encodeNil(forKey: .explicit)
            } else {
                try container.encode(1, forKey: .explicit)
            }
        }
    }

    /// A required property whose value writes `null` is refused as its `nil` is: `Int??.some(nil)`,
    /// `JSONValue.null`, or an explicit `encodeNil`. The value that writes something else is kept.
    @Test(arguments: [
        (NullWriting(nested: .some(nil), json: 1, explicit: false), "nested"),
        (NullWriting(nested: 1, json: .null, explicit: false), "json"),
        (NullWriting(nested: 1, json: 2, explicit: true), "explicit"),
    ])
    func aRequiredValueThatWritesNullIsNotEncoded(value: NullWriting, property: String) throws {
        let encoder = LenientJSONEncoder()
        let error = try #require(throws: EncodingError.self) { try encoder.encode(value) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == [property])
        let written = try encoder.encode(NullWriting(nested: 1, json: 2, explicit: false))
        #expect(try JSONValue(parsing: written) == ["nested": 1, "json": 2, "explicit": 1])
    }

    @Test func aTransformedRequiredValueIsNotDefaulted() throws {
        let decoder = LenientJSONDecoder()
        #expect(try decoder.decode(Trimmed.self, from: #"{"code":{"value":"4"}}"#) == Trimmed(code: 4))
        #expect(throws: DecodingError.self) { try decoder.decode(Trimmed.self, from: #"{"code":{"other":4}}"#) }
        #expect(throws: DecodingError.self) { try decoder.decode(Trimmed.self, from: #"{}"#) }
    }

    @Test func aNameThatIsNoCodingKeyIsAKeyMappingError() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Misnamed.self, from: #"{"id":1}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        let mappingError = try #require(context.underlyingError as? KeyMappingError)
        #expect(mappingError.propertyName == "identifier")
    }

    @Test func foundationIgnoresTheSetAndTheEncoderRoundTrips() throws {
        let item = Item(sku: "b", price: 12, note: "n")
        let data = try LenientJSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(Item.self, from: data) == item)
        for options in Self.modes {
            let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(Item.self, from: data)
            #expect(value == item)
            #expect(report.isEmpty)
        }
        let token = Token(value: "v", scope: nil)
        #expect(
            try LenientJSONDecoder(options: .strict).decode(Token.self, from: LenientJSONEncoder().encode(token))
                == token)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The models of Docs/ decode, encode and decode again to the same value: encoding is the inverse of decoding.
@Suite struct DocumentedModelRoundTripTests {
    /// KeyMapping.md's `Product`.
    struct Product: Codable, Equatable, KeyMapping {
        var title: String
        var weightInGrams: Double
        var price: Double?

        static let keyMapping: [String: KeySource] = ["weightInGrams": "weight_kg"]
        static let decodingTransforms: [String: JSONTransform] = [
            "title": .trimmingWhitespace,
            "weightInGrams": JSONTransform { json in
                guard let kilograms = json.doubleValue else { return json }
                return JSONValue(kilograms * 1000)
            },
            "price": .member("value"),
        ]
        static let encodingTransforms: [String: JSONTransform] = [
            "weightInGrams": JSONTransform { json in
                guard let grams = json.doubleValue else { return json }
                return JSONValue(grams / 1000)
            }
        ]
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func productWithTransformsRoundTrips(_ options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        let product = try decoder.decode(
            Product.self, from: #"{"title": "  Tea ", "weight_kg": 0.25, "price": {"value": 4.5}}"#)
        #expect(product == Product(title: "Tea", weightInGrams: 250, price: 4.5))
        let encoded = try LenientJSONEncoder().encode(product)
        #expect(try JSONValue(parsing: encoded) == ["title": "Tea", "weight_kg": 0.25, "price": 4.5])
        #expect(try decoder.decode(Product.self, from: encoded) == product)
        // Twice over, nothing drifts.
        let again = try decoder.decode(
            Product.self, from: LenientJSONEncoder().encode(decoder.decode(Product.self, from: encoded)))
        #expect(again == product)
    }

    struct Failing: Error {}

    struct Strict: Codable, KeyMapping {
        var value: Int
        static let encodingTransforms: [String: JSONTransform] = ["value": JSONTransform { _ in throw Failing() }]
    }

    @Test func encodingTransformThatThrowsFailsTheEncodeAtItsPath() throws {
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(Strict(value: 1)) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["value"])
        #expect(context.underlyingError is Failing)
    }

    struct Mistyped: Codable, KeyMapping {
        var value: Int
        static let encodingTransforms: [String: JSONTransform] = ["nothing": .trimmingWhitespace]
    }

    @Test func encodingTransformForNoPropertyIsAKeyMappingError() throws {
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(Mistyped(value: 1)) }
        #expect(String(describing: error).contains("nothing"))
    }

    /// Hooks.md's `Shape` and `Circle`.
    class Shape: Codable, PolymorphicDecodable {
        var type: String
        var name: String

        class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
            switch json["type"]?.stringValue {
            case "circle": Circle.self
            default: nil
            }
        }
    }

    final class Circle: Shape {
        var radius: Double

        private enum CodingKeys: String, CodingKey { case radius }

        required init(from decoder: any Decoder) throws {
            radius = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .radius)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(radius, forKey: .radius)
        }
    }

    static func describe(_ shapes: [Shape]) -> [String] {
        shapes.map { shape in
            (shape as? Circle).map { "circle \($0.name) \($0.radius)" } ?? "\(shape.type) \(shape.name)"
        }
    }

    @Test func polymorphicHierarchyWritesItsTypeFieldAndRoundTrips() throws {
        let document = #"[{"type": "circle", "name": "c", "radius": 2}, {"type": "blob", "name": "b"}]"#
        let shapes = try LenientJSONDecoder().decode([Shape].self, from: document)
        #expect(Self.describe(shapes) == ["circle c 2.0", "blob b"])
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let encoded = try encoder.encode(shapes)
        #expect(
            String(decoding: encoded, as: UTF8.self)
                == #"[{"name":"c","radius":2,"type":"circle"},{"name":"b","type":"blob"}]"#)
        #expect(Self.describe(try LenientJSONDecoder().decode([Shape].self, from: encoded)) == Self.describe(shapes))
        #expect(
            Self.describe(try LenientJSONDecoder(.strict).decode([Shape].self, from: encoded)) == Self.describe(shapes))
    }
}

extension DocumentedModelRoundTripTests {
    /// README's `Book`, with README's decoder and encoder settings: the 1965 date comes back as 1965, to the bit.
    struct ReadmeBook: Codable, Equatable, KeyMapping {
        var name: String
        var page: Int
        var desc: String
        var publishedAt: Date

        static let keyMapping: [String: KeySource] = ["name": ["title", "name"], "desc": "ext.desc"]
    }

    @Test func readmeBookKeepsItsDate() throws {
        let json = #"{"title": "Dune", "page": "412", "ext": {"desc": "Spice."}, "published_at": "1965-08-01"}"#
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let book = try decoder.decode(ReadmeBook.self, from: json)
        #expect(book.publishedAt == Date(timeIntervalSince1970: -139_449_600))
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = try encoder.encode(book)
        #expect(try JSONValue(parsing: data)["published_at"] == "1965-08-01T00:00:00Z")
        let (again, report) = try decoder.decodeWithReport(ReadmeBook.self, from: data)
        #expect(again == book)
        #expect(report.isEmpty, "\(report)")
    }
}

extension DocumentedModelRoundTripTests {
    /// KeyMapping.md's `Book` of "Unknown keys": what its nested keys do not read is kept and comes back in place.
    struct UnknownKeysBook: Codable, Equatable, KeyMapping {
        var id: Int
        var desc: String
        var zone: String
        var extras = UnknownKeys()

        static let keyMapping: [String: KeySource] = ["desc": "ext.desc", "zone": "info[1].zone"]
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func unknownKeysBookComesBackAsTheGuideShows(_ options: LenientJSONDecoder.Options) throws {
        let json = #"{"id": 1, "ext": {"desc": "d", "other": 1}, "info": [{"a": 1}, {"zone": "z", "b": 2}, 3]}"#
        let decoder = LenientJSONDecoder(options: options)
        let (book, report) = try decoder.decodeWithReport(UnknownKeysBook.self, from: json)
        #expect(report.isEmpty, "\(report)")
        #expect(book.extras == ["ext": ["other": 1], "info": [["a": 1], ["b": 2], 3]])
        let data = try LenientJSONEncoder().encode(book)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"id":1,"ext":{"desc":"d","other":1},"info":[{"a":1},{"zone":"z","b":2},3]}"#)
        #expect(try decoder.decode(UnknownKeysBook.self, from: data) == book)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The decoders every wrapper is tested under: the wrappers must do their own forgiving there.
enum WrapperDecoder: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case jsonDecoder
    case propertyListDecoder
    case strictLenientJSONDecoder

    var testDescription: String { rawValue }

    /// Decodes a JSON object, or for property lists the same tree written by `PropertyListEncoder`
    /// (integers as integers, other numbers as reals, `null` as the encoder's null marker).
    func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> T {
        switch self {
        case .jsonDecoder:
            return try JSONDecoder().decode(type, from: Data(json.utf8))
        case .propertyListDecoder:
            let data = try PropertyListEncoder().encode(PropertyListTree(value: try JSONValue(parsing: json)))
            return try PropertyListDecoder().decode(type, from: data)
        case .strictLenientJSONDecoder:
            return try LenientJSONDecoder(options: .strict).decode(type, from: json)
        }
    }
}

/// A JSON tree written with the property list's own types.
struct PropertyListTree: Encodable {
    let value: JSONValue

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(PropertyListTree(value: element)) }
        case .object(let object):
            var container = encoder.container(keyedBy: PropertyListTreeKey.self)
            for (key, member) in object {
                try container.encode(PropertyListTree(value: member), forKey: PropertyListTreeKey(key))
            }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try container.encode(integer)
            } else if let integer = UInt64(text) {
                try container.encode(integer)
            } else if let double = Double(text) {
                try container.encode(double)
            } else {
                throw EncodingError.invalidValue(
                    text, .init(codingPath: encoder.codingPath, debugDescription: "Bad number."))
            }
        }
    }
}

private struct PropertyListTreeKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil

    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}

/// One row of a coercion table: the JSON of a property's value, and what it decodes to.
struct CoercionCase<Value: Sendable>: Sendable, CustomTestStringConvertible {
    /// The JSON text of the value.
    let json: String
    /// The decoded value, or `nil` when the value must be refused.
    let expected: Value?

    init(_ json: String, _ expected: Value?) {
        self.json = json
        self.expected = expected
    }

    var testDescription: String { "\(json) -> \(expected.map { "\($0)" } ?? "refused")" }
}

/// A model with one coerced property, for the table tests.
struct CoercedBox<Value: CoercibleValue & Sendable>: Decodable, Sendable {
    @Coerced var value: Value
}

/// Decodes `{"value": <json>}` into a ``CoercedBox`` and checks the value, or that it is refused
/// with `typeMismatch` (`valueNotFound` for `null`) at the path `value`.
func expectCoercion<Value: CoercibleValue & Sendable>(
    _ row: CoercionCase<Value>, under decoder: WrapperDecoder, matches: (Value, Value) -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let json = #"{"value":\#(row.json)}"#
    guard let expected = row.expected else {
        let error = #expect(throws: DecodingError.self, sourceLocation: sourceLocation) {
            try decoder.decode(CoercedBox<Value>.self, from: json)
        }
        switch error {
        case .typeMismatch(_, let context)?:
            #expect(row.json != "null", "null must be valueNotFound", sourceLocation: sourceLocation)
            #expect(context.codingPath.map(\.stringValue) == ["value"], sourceLocation: sourceLocation)
        case .valueNotFound(_, let context)?:
            #expect(row.json == "null", "only null is valueNotFound", sourceLocation: sourceLocation)
            #expect(context.codingPath.map(\.stringValue) == ["value"], sourceLocation: sourceLocation)
        case let other?:
            Issue.record("Unexpected error \(other)", sourceLocation: sourceLocation)
        case nil:
            break
        }
        return
    }
    let box = try decoder.decode(CoercedBox<Value>.self, from: json)
    #expect(matches(box.value, expected), "decoded \(box.value), expected \(expected)", sourceLocation: sourceLocation)
}

func expectCoercion<Value: CoercibleValue & Sendable & Equatable>(
    _ row: CoercionCase<Value>, under decoder: WrapperDecoder, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    try expectCoercion(row, under: decoder, matches: ==, sourceLocation: sourceLocation)
}

/// Equality for floating point that counts NaN equal to NaN.
func sameFloatingPoint<F: FloatingPoint>(_ lhs: F, _ rhs: F) -> Bool { lhs == rhs || (lhs.isNaN && rhs.isNaN) }

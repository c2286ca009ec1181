// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value from any decoder.
    ///
    /// Under ``LenientJSONDecoder`` the value is built straight from the parsed document, so
    /// numbers keep their literal text and objects their member order. Under other decoders it
    /// is rebuilt through their containers: numbers then carry the text of the decoded
    /// `Int64`, `UInt64` or `Double`. Under either, object keys are converted by the decoder's
    /// key strategy, as a keyed container's are (`{"a_b": 1}` is `{"aB": 1}` with
    /// `.convertFromSnakeCase`); `JSONValue(parsing:)` keeps them as written.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.dataCorrupted` when the decoder holds no JSON-like value.
    public init(from decoder: any Decoder) throws {
        if let treeDecoder = decoder as? TreeDecoder {
            self = try treeDecoder.decodedJSONValue(at: treeDecoder.nodeIndex, path: treeDecoder.codingPathNode)
            return
        }
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let value = try? container.decode(Bool.self) {
                self = .bool(value)
                return
            }
            if let value = try? container.decode(Int64.self) {
                self = .number(String(value))
                return
            }
            if let value = try? container.decode(UInt64.self) {
                self = .number(String(value))
                return
            }
            if let value = try? container.decode(Double.self) {
                self = .number(JSONValue.literal(for: value))
                return
            }
            if let value = try? container.decode(String.self) {
                self = .string(value)
                return
            }
        }
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [(key: String, value: JSONValue)] = []
            for key in container.allKeys {
                members.append((key: key.stringValue, value: try container.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
            return
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd {
                elements.append(try container.decode(JSONValue.self))
            }
            self = .array(elements)
            return
        }
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath, debugDescription: "The decoder holds no JSON value."))
    }

    /// Encodes the value into any encoder.
    ///
    /// Under ``LenientJSONEncoder`` numbers are written with their literal text. Under other
    /// encoders a number is encoded as an `Int64` or `UInt64` when its text is an integer that
    /// fits, and otherwise as a `Double`.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError.invalidValue` for number text that is not a JSON number, and for
    ///   arrays and objects nested 512 levels deep, which JSON text cannot hold.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .string(let value):
            var container = encoder.singleValueContainer()
            try container.encode(value)
        case .number(let text):
            var container = encoder.singleValueContainer()
            // Swift reads more than JSON numbers (`0x10`, `+1`, `.5`): only JSON's grammar is a number here.
            guard JSONNumberSyntax.isValid(text) else {
                throw EncodingError.invalidValue(
                    self, .init(codingPath: encoder.codingPath, debugDescription: "\"\(text)\" is not a JSON number."))
            }
            if let value = Int64(text) {
                try container.encode(value)
            } else if let value = UInt64(text) {
                try container.encode(value)
            } else if let value = Double(text) {
                try container.encode(value)
            } else {
                throw EncodingError.invalidValue(
                    self, .init(codingPath: encoder.codingPath, debugDescription: "\"\(text)\" is not a JSON number."))
            }
        case .array(let elements):
            try Self.checkDepth(of: encoder, value: self)
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let object):
            try Self.checkDepth(of: encoder, value: self)
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in object { try container.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

extension JSONValue {
    /// Refuses to go deeper than JSON text can be written, before a foreign encoder's recursion
    /// outgrows the stack. The depth is the encoder's coding path, read at most 512 keys long.
    fileprivate static func checkDepth(of encoder: any Encoder, value: JSONValue) throws {
        let depth = encoder.codingPath.count
        guard depth >= JSONWriter.maximumDepth else { return }
        throw EncodingError.invalidValue(
            value,
            .init(
                codingPath: encoder.codingPath,
                debugDescription: "The value is nested more than \(JSONWriter.maximumDepth) levels deep."))
    }
}

/// The coding key of a member of a string-keyed dictionary: two words, so that a path built
/// with it is stored inline.
struct MemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A coding key for any string or index.
struct AnyCodingKey: CodingKey, Hashable, Sendable {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(stringValue: String) { self.init(stringValue) }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key Foundation uses for an element of an unkeyed container: "Index 3".
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    /// The key Foundation uses for `superDecoder()` and `superEncoder()`.
    static let `super` = AnyCodingKey("super")
}

// MARK: - Description

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON text.
    public var description: String {
        String(decoding: JSONValueWriter.compactUTF8(self), as: UTF8.self)
    }
}

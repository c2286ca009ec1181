// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension JSONValue: Codable {
    /// Decodes any JSON value from any decoder.
    ///
    /// Under ``LenientJSONDecoder`` the value is built straight from the parsed document, so
    /// numbers keep their literal text and objects their member order. Under other decoders it
    /// is rebuilt through their containers: numbers then carry the text of the decoded
    /// `Int64`, `UInt64` or `Double`. Each value is asked first for the shape of the one before
    /// it (or, for the first inside a container, of its grandparent), so values nested alike, or
    /// arrays and objects taking turns, decode without a failed attempt; under Foundation's
    /// decoder each failed attempt costs more than its depth, and a document that changes shape
    /// unpredictably at every level of a deep chain still pays one at each level there. Under either, object keys are converted by the decoder's
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
        self = try JSONValue.decodeThroughContainers(from: decoder, guess: .object, parent: nil)
    }

    /// The shapes ``JSONValue``'s decoding through containers tells apart, to guess a value's.
    fileprivate enum Shape {
        case array, object, scalar

        /// The shape of a decoded value; `nil` for `null`, which is found first and guesses nothing.
        init?(of value: JSONValue) {
            switch value {
            case .array: self = .array
            case .object: self = .object
            case .null: return nil
            default: self = .scalar
            }
        }
    }

    /// A value from a decoder other than ``LenientJSONDecoder``'s, through its containers.
    ///
    /// The shape the value most likely has is tried first: the shape of the sibling before it;
    /// for a first member or element, its grandparent's, which is its parent's where values nest
    /// alike and the right guess where arrays and objects take turns. Under Foundation's decoder
    /// each failed attempt builds an error with the whole coding path and costs more the deeper
    /// it is, so a value tried as five scalars and an object before it was found to be an array
    /// cost the cube of its depth (an 800-byte array 400 levels deep took half a second). An empty
    /// container is checked against the scalars too, for decoders that hand out a container for
    /// any value; scalars are tried in the same order as ever (`Bool`, then the integers, `Double`
    /// and `String`).
    fileprivate static func decodeThroughContainers(
        from decoder: any Decoder, guess: Shape, parent: Shape?
    ) throws -> JSONValue {
        let single = try? decoder.singleValueContainer()
        if let single, single.decodeNil() { return .null }
        if guess == .scalar, let scalar = scalar(in: single) { return scalar }
        if guess == .array, let array = try decodeArray(from: decoder, single: single, firstGuess: parent ?? .array) {
            return array
        }
        if let container = try? decoder.container(keyedBy: AnyCodingKey.self) {
            let keys = container.allKeys
            // No keys: an empty object, unless the decoder gave a keyed view of a scalar or of an
            // array that has elements.
            if !keys.isEmpty || (scalar(in: single) == nil && !holdsElements(decoder)) {
                var members: [(key: String, value: JSONValue)] = []
                members.reserveCapacity(keys.count)
                var guess = parent ?? .object
                for key in keys {
                    let value: JSONValue
                    switch guess {
                    case .array:
                        value = try container.decode(ShapeGuess<ArrayShape, ObjectShape>.self, forKey: key).value
                    case .object:
                        value = try container.decode(ShapeGuess<ObjectShape, ObjectShape>.self, forKey: key).value
                    case .scalar:
                        value = try container.decode(ShapeGuess<ScalarShape, ObjectShape>.self, forKey: key).value
                    }
                    guess = Shape(of: value) ?? guess
                    members.append((key: key.stringValue, value: value))
                }
                return .object(JSONObject(members))
            }
        }
        if guess != .array, let array = try decodeArray(from: decoder, single: single, firstGuess: parent ?? .array) {
            return array
        }
        if guess != .scalar, let scalar = scalar(in: single) { return scalar }
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath, debugDescription: "The decoder holds no JSON value."))
    }

    /// The value as an array, when the decoder gives an unkeyed container for it (an empty one
    /// only when the value is no scalar); its first element is guessed to have `firstGuess`'s
    /// shape.
    private static func decodeArray(
        from decoder: any Decoder, single: (any SingleValueDecodingContainer)?, firstGuess: Shape
    ) throws -> JSONValue? {
        // An empty array only when the value is no scalar and has no keyed view: a decoder may give
        // an unkeyed view of anything, and say its count (0) or not (`nil`, then `isAtEnd` tells).
        // Where it gives both views of an empty value, the value is taken for an empty object.
        guard var container = try? decoder.unkeyedContainer(),
            !(container.count.map { $0 == 0 } ?? container.isAtEnd)
                || (scalar(in: single) == nil && (try? decoder.container(keyedBy: AnyCodingKey.self)) == nil)
        else { return nil }
        var elements: [JSONValue] = []
        if let count = container.count { elements.reserveCapacity(count) }
        var guess = firstGuess
        while !container.isAtEnd {
            let value: JSONValue
            switch guess {
            case .array: value = try container.decode(ShapeGuess<ArrayShape, ArrayShape>.self).value
            case .object: value = try container.decode(ShapeGuess<ObjectShape, ArrayShape>.self).value
            case .scalar: value = try container.decode(ShapeGuess<ScalarShape, ArrayShape>.self).value
            }
            guess = Shape(of: value) ?? guess
            elements.append(value)
        }
        return .array(elements)
    }

    /// Whether the decoder gives an unkeyed container with elements for the value.
    private static func holdsElements(_ decoder: any Decoder) -> Bool {
        guard let container = try? decoder.unkeyedContainer() else { return false }
        return !(container.count.map { $0 == 0 } ?? container.isAtEnd)
    }

    /// The scalar a single value container holds, tried as each JSON scalar in turn, or `nil`.
    fileprivate static func scalar(in container: (any SingleValueDecodingContainer)?) -> JSONValue? {
        guard let container else { return nil }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if let value = try? container.decode(Int64.self) { return .number(String(value)) }
        if let value = try? container.decode(UInt64.self) { return .number(String(value)) }
        if let value = try? container.decode(Double.self) { return .number(JSONValue.literal(for: value)) }
        if let value = try? container.decode(String.self) { return .string(value) }
        return nil
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

/// A shape, as a type: what ``JSONValue``'s decoding through containers guesses of a member or
/// element, and what its parent is (its own first member or element is guessed to have its
/// grandparent's shape).
private protocol ShapeMarker {
    static var shape: JSONValue.Shape { get }
}

private enum ArrayShape: ShapeMarker {
    static var shape: JSONValue.Shape { .array }
}

private enum ObjectShape: ShapeMarker {
    static var shape: JSONValue.Shape { .object }
}

private enum ScalarShape: ShapeMarker {
    static var shape: JSONValue.Shape { .scalar }
}

/// A member or element of a ``JSONValue`` decoded through a decoder's containers, the shape
/// `Guess` tried first, inside a parent of shape `Parent`.
private struct ShapeGuess<Guess: ShapeMarker, Parent: ShapeMarker>: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        if decoder is TreeDecoder {
            value = try JSONValue(from: decoder)
        } else {
            value = try JSONValue.decodeThroughContainers(from: decoder, guess: Guess.shape, parent: Parent.shape)
        }
    }
}

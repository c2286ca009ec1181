// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// The features a model opts into, fuzzed together in `.lenient` and `.strict`: hooks that rewrite the JSON (deeper,
// into number text that must be refused, into a loop the nesting budget must stop), hooks that reject, polymorphic
// class hierarchies, key paths, fallback lists and transforms, JSON inside strings, lossy arrays of hooked types and
// recursive models. Any `DecodingError` is fine; a crash, trap, hang or sanitizer report is a finding. A value that
// decodes is encoded with `LenientJSONEncoder` and decoded again, which must succeed.

/// The first byte of the input chooses the settings; the rest is the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFeatures(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    FeatureChecks.run(flags: bytes[0], document: Data(bytes.dropFirst()))
    return 0
}

/// A recursive hooked type. `willDecode` turns a number into `{"a": n}`, a string `"#text"` into
/// `{"a": .number(text)}` (text from the input: refused unless it is a JSON number), other strings into `{"s": …}`, an
/// array into `{"kids": …}`, an object with `"wrap": n` into itself wrapped n levels deeper, and an object with
/// `"loop"` into `{"kids": [itself]}` forever (the nesting budget must stop it). `didDecode` rejects `a == 13`.
struct Node: Codable, Hashable, Sendable, DecodingHooks {
    struct Thirteen: Error {}

    var a: Int?
    var s: String?
    var kids: [Node]?
    var shape: Shape?
    var mapped: Mapped?
    var v: JSONValue?

    static func willDecode(_ json: JSONValue) throws -> JSONValue {
        switch json {
        case .number: return ["a": json]
        case .string(let text) where text.hasPrefix("#"): return ["a": .number(String(text.dropFirst()))]
        case .string: return ["s": json]
        case .array: return ["kids": json]
        case .object(let object):
            if object["loop"] != nil { return ["kids": [json]] }
            if let depth = object["wrap"]?.intValue, depth > 0 {
                var inner = json
                inner["wrap"] = nil
                // Kept under 20 000 levels: releasing a deeper JSONValue recurses in the Swift runtime.
                for _ in 0..<min(depth, 20_000) { inner = ["kids": [inner]] }
                return inner
            }
            return json
        default: return json
        }
    }

    mutating func didDecode(from json: JSONValue) throws {
        if a == 13 { throw Thirteen() }
    }
}

/// A polymorphic class hierarchy: `"kind"` chooses the subclass; `"bad"` a type that is not a subclass (an error);
/// `"self"` the base class again (through the subclass's inherited `decodingType` too).
class Shape: Codable, Hashable, @unchecked Sendable, PolymorphicDecodable {
    var id: Int?
    var next: Shape?

    class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
        switch json["kind"]?.stringValue {
        case "circle": return Circle.self
        case "square": return Square.self
        case "bad": return Node.self
        case "self": return Shape.self
        default: return nil
        }
    }

    private enum CodingKeys: String, CodingKey { case id, next, kind }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decodeIfPresent(Int.self, forKey: .id)
        next = try container.decodeIfPresent(Shape.self, forKey: .next)
    }

    var kind: String { "shape" }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encodeIfPresent(next, forKey: .next)
        try container.encode(kind, forKey: .kind)
    }

    static func == (lhs: Shape, rhs: Shape) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

final class Circle: Shape, @unchecked Sendable {
    var radius: Double = 0

    private enum CodingKeys: String, CodingKey { case radius }

    required init(from decoder: any Decoder) throws {
        radius = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .radius)
        try super.init(from: decoder)
    }

    override var kind: String { "circle" }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(radius, forKey: .radius)
    }
}

final class Square: Shape, @unchecked Sendable {
    var sides: [Node] = []

    private enum CodingKeys: String, CodingKey { case sides }

    required init(from decoder: any Decoder) throws {
        sides = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([Node].self, forKey: .sides) ?? []
        try super.init(from: decoder)
    }

    override var kind: String { "square" }

    override func encode(to encoder: any Encoder) throws {
        try super.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(sides, forKey: .sides)
    }
}

/// Key paths, fallback lists, an ignored property, decoding and encoding transforms (one of which wraps its value
/// deeper, one of which turns a string into number text), and recursion through a mapped key.
struct Mapped: Codable, Hashable, Sendable, KeyMapping {
    var name: String?
    var code: Int?
    var deep: Int?
    var tags: [String]?
    var skipped: Int?
    var inner: [Mapped]?
    var node: [Node]?

    static var keyMapping: [String: KeySource] {
        [
            "name": ["n", "title", "a.b.c"], "code": .path(["meta", "code"]), "deep": "x.y.z.w",
            "skipped": .ignored, "inner": .firstOf(["inner", .path(["more", "inner"])]), "node": ["node", "n2"],
        ]
    }

    static var keyStrategy: KeyStrategy? { .snakeCase }

    static var decodingTransforms: [String: JSONTransform] {
        [
            "name": .trimmingWhitespace,
            "code": JSONTransform { json in
                // Undoes the encoding transform; number text from the input is refused unless it is a JSON number.
                let inner = json["value"] ?? json
                if case .string(let text) = inner { return .number(text) }
                return inner
            },
            "tags": JSONTransform { json in
                if case .string = json { return [json] }
                return json
            },
            "node": JSONTransform { json in
                if case .array(let elements) = json, elements.count > 2 { return [["kids": [json]]] }
                return json
            },
            "deep": .member("value"),
        ]
    }

    static var encodingTransforms: [String: JSONTransform] {
        ["name": JSONTransform { json in json }, "code": JSONTransform { json in ["value": json] }]
    }
}

/// Lossy arrays of hooked, polymorphic and mapped types, JSON inside strings at any level.
struct Envelope: Codable, Hashable, Sendable {
    var nodes: [Node]?
    var shapes: [Shape]?
    var mapped: [String: Mapped]?
    var payload: Node?
    var value: JSONValue?
}

enum FeatureChecks {
    static func run(flags: UInt8, document: Data) {
        var options: LenientJSONDecoder.Options = flags & 1 == 0 ? .lenient : .strict
        if flags & 2 != 0 { options.parsesJSONInStrings = true }
        if flags & 4 != 0 { options.dropsInvalidElements.toggle() }
        if flags & 8 != 0 { options.defaultsInvalidValues.toggle() }
        if flags & 16 != 0 { options.wrapsSingleValuesInArrays.toggle() }
        let decoder = LenientJSONDecoder(options: options)
        decoder.allowsJSON5 = flags & 32 != 0
        let withReport = flags & 64 != 0
        let fromValue = flags & 128 != 0

        check(Envelope.self, document, decoder, withReport: withReport, fromValue: fromValue)
        check(Node.self, document, decoder, withReport: withReport, fromValue: fromValue)
        check([Node].self, document, decoder, withReport: false, fromValue: fromValue)
        check(Shape.self, document, decoder, withReport: false, fromValue: fromValue)
        check([Mapped].self, document, decoder, withReport: false, fromValue: fromValue)
    }

    static func check<Model: Codable>(
        _ model: Model.Type, _ document: Data, _ decoder: LenientJSONDecoder, withReport: Bool, fromValue: Bool
    ) {
        let value: Model
        do {
            if fromValue {
                guard let json = try? JSONValue(parsing: document, allowsJSON5: true) else { return }
                value = try decoder.decode(model, from: json)
            } else if withReport {
                value = try decoder.decodeWithReport(model, from: document).0
            } else {
                value = try decoder.decode(model, from: document)
            }
        } catch {
            accept(error)
            return
        }
        // Round trip: what decodes encodes (or is refused with an EncodingError, past 511 levels or for a
        // non-finite number) and decodes again.
        let encoded: Data
        do {
            encoded = try LenientJSONEncoder().encode(value)
        } catch is EncodingError {
            return
        } catch {
            fatalError("Fuzz invariant broken: encoding threw \(type(of: error)), not EncodingError: \(error)")
        }
        // A decode counts levels inside hooks and JSON-in-strings against one budget of 512; the encoded form of a
        // value may sit deeper in the text than any one part of the input did, so only shallow output is required to
        // decode again.
        guard nesting(of: encoded) < 256 else { return }
        do {
            _ = try decoder.decode(model, from: encoded)
        } catch {
            let text = String(decoding: encoded, as: UTF8.self)
            fatalError("Fuzz invariant broken: \(Model.self) encoded as \(text.prefix(2000)) does not decode: \(error)")
        }
    }

    /// Errors a decode may throw: any `DecodingError`, or a model's own rejection.
    static func accept(_ error: any Error) {
        if error is DecodingError || error is Node.Thirteen { return }
        fatalError("Fuzz invariant broken: decoding threw \(type(of: error)), not DecodingError: \(error)")
    }

    /// The deepest nesting of brackets in JSON text (strings skipped).
    static func nesting(of data: Data) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}

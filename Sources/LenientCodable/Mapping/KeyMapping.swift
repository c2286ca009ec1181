// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Maps a model's properties to the JSON keys that hold them: renames, nested keys and lists
/// of fallback keys, in both directions.
///
/// Conform a `Codable` type and list the properties whose JSON key differs from their coding
/// key. The dictionary is keyed by the property's coding key (its `stringValue`):
///
/// ```swift
/// struct Book: Codable, KeyMapping {
///     var name: String
///     var page: Int
///     var desc: String
///     var bookID: String
///
///     static let keyMapping: [String: KeySource] = [
///         "name": "n",                          // a renamed key
///         "page": "p",
///         "desc": "ext.desc",                   // a nested key: {"ext": {"desc": …}}
///         "bookID": ["id", "ID", "book_id"],    // fallbacks, the first present non-null wins
///     ]
/// }
/// ```
///
/// Properties without an entry use the type's ``keyStrategy`` when it has one, and otherwise
/// the decoder's `keyDecodingStrategy` (the encoder's `keyEncodingStrategy`). The mapping is
/// read once per type and cached.
///
/// When encoding, each property is written to its first source, and nested keys that share a
/// parent are merged into one object. A member holds either one property's value or other
/// properties' nested keys: mapping one property to `"ext"` and another to `"ext.desc"` makes the
/// encode throw `EncodingError.invalidValue`, naming the type and both keys. Two properties
/// mapped to the same key are allowed; the last one encoded gives the value.
///
/// The mapping applies under ``LenientJSONDecoder`` and ``LenientJSONEncoder``; Foundation's
/// coders ignore it and use the coding keys as they are.
public protocol KeyMapping: _LenientDecodingMarker, _LenientEncodingMarker {
    /// Where each property's value is in the JSON, keyed by the property's coding key.
    static var keyMapping: [String: KeySource] { get }

    /// How the JSON spells the keys of the properties that have no entry in ``keyMapping``,
    /// overriding the coder's key strategy for this type only; `nil` (the default) keeps the
    /// coder's strategy.
    static var keyStrategy: KeyStrategy? { get }

    /// The only properties that are decoded and encoded, by coding key; `nil` (the default)
    /// codes them all.
    ///
    /// Every other property is treated as if its entry were ``KeySource/ignored``, in both
    /// directions: it is not read (it takes its missing-value treatment, without a report entry)
    /// and not written. Like YYModel's `modelPropertyWhitelist`:
    ///
    /// ```swift
    /// struct Profile: Codable, KeyMapping {
    ///     var id: Int
    ///     var name: String
    ///     var cachedAvatar: Data?          // neither read nor written
    ///
    ///     static let codedProperties: Set<String>? = ["id", "name"]
    /// }
    /// ```
    ///
    /// A name that is not a coding key of the type is a ``KeyMappingError``, as in ``keyMapping``.
    static var codedProperties: Set<String>? { get }

    /// Rules that rewrite one property's raw JSON before it is decoded, keyed by the property's
    /// coding key.
    ///
    /// The transform receives the JSON found for the property (after ``keyMapping`` and key
    /// matching have found it) and returns the JSON to decode instead: trim a string, change a
    /// unit, unwrap `{"value": …}`. Like MJExtension's `mj_newValueFromOldValue`, without
    /// writing `init(from:)`:
    ///
    /// ```swift
    /// struct Product: Codable, KeyMapping {
    ///     var title: String
    ///     var weightInGrams: Double
    ///
    ///     static let keyMapping: [String: KeySource] = ["weightInGrams": "weight_kg"]
    ///     static let decodingTransforms: [String: JSONTransform] = [
    ///         "title": .trimmingWhitespace,
    ///         "weightInGrams": JSONTransform { json in
    ///             guard let kilograms = json.doubleValue else { return json }
    ///             return JSONValue(kilograms * 1000)
    ///         },
    ///     ]
    /// }
    /// ```
    ///
    /// A transform runs only when the property's key is present (`null` included), applies to
    /// `decode(_:forKey:)` and `decodeIfPresent(_:forKey:)` (which synthesized conformances use),
    /// and only when decoding. It is the model's own rule, not forgiveness, so it is not reported;
    /// what the decoder then forgives in the transformed value is. A transform that throws makes
    /// the value invalid: a default or `nil` in `.lenient`, a `DecodingError.dataCorrupted` with
    /// the property's path in `.strict`. A name that is not a coding key of the type is a
    /// ``KeyMappingError``.
    static var decodingTransforms: [String: JSONTransform] { get }

    /// Rules that rewrite a property's JSON after it is encoded, by property name: the inverse of
    /// ``decodingTransforms``, so that a model encodes to the shape it was decoded from.
    ///
    /// ```swift
    /// static let encodingTransforms: [String: JSONTransform] = [
    ///     "weightInGrams": JSONTransform { json in      // 250 (g) -> 0.25 (kg)
    ///         guard let grams = json.doubleValue else { return json }
    ///         return JSONValue(grams / 1000)
    ///     },
    /// ]
    /// ```
    ///
    /// A transform receives what the property encoded (after the encoder's strategies) and
    /// returns the JSON to write at the property's key in its place. It applies to
    /// `encode(_:forKey:)` and `encodeIfPresent(_:forKey:)`, which synthesized conformances use,
    /// and only under ``LenientJSONEncoder``. A transform that throws fails the encode with
    /// `EncodingError.invalidValue` at the property's path. A name that is not a coding key of the
    /// type is a ``KeyMappingError``.
    static var encodingTransforms: [String: JSONTransform] { get }

    /// The properties that are never defaulted, by coding key: a lenient decoder must not invent
    /// their value.
    ///
    /// A required property that is missing, `null` (or a null-like string such as `"<null>"`), or
    /// invalid after every coercion makes its whole value fail, in every mode: the error is thrown
    /// at the top level, the element is dropped (and reported as
    /// ``DecodingIssue/Kind/droppedElement``) in a lenient collection, and an optional holding the
    /// value becomes `nil`. Coercions still apply: `"12"` decodes as `12`.
    ///
    /// ```swift
    /// struct Item: Codable, KeyMapping {
    ///     var sku: String
    ///     var price: Int
    ///
    ///     static let requiredProperties: Set<String> = ["sku", "price"]
    /// }
    /// // {"sku": "b", "price": "twelve"} throws instead of decoding a free item;
    /// // in [Item], that element is dropped and reported.
    /// ```
    ///
    /// A required optional property must be present and not `null` as well; an invalid value
    /// fails instead of becoming `nil`, and ``LenientJSONEncoder`` refuses to write one that is
    /// `nil` (`EncodingError.invalidValue`), since the decoder would refuse what it wrote.
    /// Required wins over ``DeclaredDefaults``. When decoding, the set applies only under
    /// ``LenientJSONDecoder``; a name that is not a coding key of the type is a ``KeyMappingError``.
    static var requiredProperties: Set<String> { get }
}

extension KeyMapping {
    /// No renamed properties.
    public static var keyMapping: [String: KeySource] { [:] }

    /// No per-type strategy: the coder's key strategy applies.
    public static var keyStrategy: KeyStrategy? { nil }

    /// Every property is coded.
    public static var codedProperties: Set<String>? { nil }

    /// No property's JSON is transformed.
    public static var decodingTransforms: [String: JSONTransform] { [:] }

    /// No property's encoded JSON is transformed.
    public static var encodingTransforms: [String: JSONTransform] { [:] }

    /// No property is required: every one may take its default in `.lenient`.
    public static var requiredProperties: Set<String> { [] }
}

/// A rule that rewrites a property's raw JSON before it is decoded; see
/// ``KeyMapping/decodingTransforms``.
///
/// Write your own with a closure, or use the common ones:
///
/// ```swift
/// static let decodingTransforms: [String: JSONTransform] = [
///     "name": .trimmingWhitespace,                  // "  Dune " -> "Dune"
///     "price": .member("value"),                    // {"value": 12} -> 12
///     "count": JSONTransform { json in json.isNull ? 0 : json },
/// ]
/// ```
public struct JSONTransform: Sendable {
    private let body: @Sendable (JSONValue) throws -> JSONValue

    /// Creates a transform from a closure.
    ///
    /// ```swift
    /// let cents = JSONTransform { json in
    ///     guard let amount = json.doubleValue else { return json }
    ///     return JSONValue(amount * 100)
    /// }
    /// ```
    ///
    /// - Parameter body: Returns the JSON to decode in place of the JSON found; throws when the
    ///   JSON found is unusable.
    public init(_ body: @escaping @Sendable (JSONValue) throws -> JSONValue) {
        self.body = body
    }

    /// Applies the transform.
    ///
    /// ```swift
    /// let trimmed = try JSONTransform.trimmingWhitespace(" a ")   // "a"
    /// ```
    ///
    /// - Parameter json: The JSON found for the property.
    /// - Returns: The JSON to decode instead.
    /// - Throws: What the transform's closure throws.
    public func callAsFunction(_ json: JSONValue) throws -> JSONValue {
        try body(json)
    }

    /// Trims white space and newlines around a string; leaves other JSON unchanged.
    ///
    /// ```swift
    /// static let decodingTransforms: [String: JSONTransform] = ["name": .trimmingWhitespace]
    /// ```
    public static let trimmingWhitespace = JSONTransform { json in
        guard case .string(let text) = json else { return json }
        return .string(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Replaces an object by one of its members (`null` when it has no such member); leaves other
    /// JSON unchanged, for servers that wrap a value only sometimes.
    ///
    /// ```swift
    /// static let decodingTransforms: [String: JSONTransform] = ["price": .member("value")]
    /// // {"price": {"value": 12.5}} and {"price": 12.5} both decode 12.5
    /// ```
    ///
    /// - Parameter key: The member's key.
    /// - Returns: The transform.
    public static func member(_ key: String) -> JSONTransform {
        JSONTransform { json in
            guard case .object = json else { return json }
            return json[key] ?? .null
        }
    }
}

/// Where a property's value is in the JSON.
///
/// Write it as a literal:
///
/// - `"n"` — the key `n`.
/// - `"ext.desc"` — a nested key: member `desc` of the object under `ext`. Dots separate levels;
///   use ``key(_:)`` for a key that contains a dot.
/// - `"info[1].time"` — a nested key through an array: member `time` of the second element of
///   `info`. `.key("a[1]")` is the literal key `a[1]`.
/// - `["id", "ID", "book_id"]` — fallbacks, tried in order; the first that is present and not
///   `null` wins. Elements may be nested keys too. When encoding, the first is written.
///
/// or with ``key(_:)``, ``path(_:)`` and ``ignored``.
public struct KeySource: Hashable, Sendable {
    /// Each candidate is a list of steps from the outer object inward: keys, and array indices.
    let candidates: [[KeyBytes]]
    /// Whether the property is neither decoded nor encoded.
    let isIgnored: Bool

    private init(candidates: [[KeyBytes]], isIgnored: Bool = false) {
        self.candidates = candidates
        self.isIgnored = isIgnored
    }

    /// A single key, used as it is even when it contains dots.
    ///
    /// ```swift
    /// "version": .key("v1.2")   // the member named "v1.2", not member "2" of "v1"
    /// ```
    ///
    /// - Parameter name: The JSON key.
    /// - Returns: The source.
    public static func key(_ name: String) -> KeySource { KeySource(candidates: [[KeyBytes(name)]]) }

    /// A nested key given as its levels, from the outer object inward.
    ///
    /// ```swift
    /// "city": .path(["address", "city.name"])   // {"address": {"city.name": …}}
    /// ```
    ///
    /// - Parameter keys: The keys, outermost first.
    /// - Returns: The source.
    public static func path(_ keys: [String]) -> KeySource { KeySource(candidates: [keys.map(KeyBytes.init)]) }

    /// Fallbacks, tried in order; the first present, non-null value wins.
    ///
    /// The same as an array literal.
    ///
    /// - Parameter sources: The sources to try.
    /// - Returns: The source.
    public static func firstOf(_ sources: [KeySource]) -> KeySource {
        KeySource(candidates: sources.flatMap(\.candidates), isIgnored: sources.contains(where: \.isIgnored))
    }

    /// The property is neither decoded nor encoded: it takes its missing-value treatment
    /// (`nil` for an optional, its default in `.lenient`, an error in `.strict` for a
    /// non-optional property).
    public static let ignored = KeySource(candidates: [], isIgnored: true)

    /// The steps of the first candidate, which encoding writes.
    var primaryPath: [KeyBytes]? { candidates.first }

    /// The steps of a dotted key path: each segment split on dots is a key, optionally followed
    /// by array indices (`info[1]`, `grid[0][2]`). A segment whose brackets do not make indices
    /// (`a[x]`, `a[`) is a key as written.
    static func steps(of text: String) -> [KeyBytes] {
        var steps: [KeyBytes] = []
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard let open = segment.firstIndex(of: "["), segment.last == "]" else {
                steps.append(KeyBytes(String(segment)))
                continue
            }
            var indices: [KeyBytes] = []
            var rest = segment[open...]
            while let close = rest.firstIndex(of: "]"), rest.first == "[" {
                let digits = rest[rest.index(after: rest.startIndex)..<close]
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int32(digits)
                else { break }
                indices.append(KeyBytes(index: Int(index)))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else {
                steps.append(KeyBytes(String(segment)))
                continue
            }
            if open != segment.startIndex { steps.append(KeyBytes(String(segment[..<open]))) }
            steps += indices
        }
        return steps
    }
}

extension KeySource: ExpressibleByStringLiteral {
    /// A key, or a nested key when the text contains dots (`"ext.desc"`) or array indices
    /// (`"info[1].time"`: member `time` of the second element of `info`).
    ///
    /// - Parameter value: The key or dotted path.
    public init(stringLiteral value: String) {
        self.init(candidates: [KeySource.steps(of: value)])
    }
}

extension KeySource: ExpressibleByArrayLiteral {
    /// Fallbacks, tried in order; the first present, non-null value wins.
    ///
    /// - Parameter elements: The sources to try.
    public init(arrayLiteral elements: KeySource...) {
        self = .firstOf(elements)
    }
}

extension KeySource: CustomStringConvertible {
    /// The source as it would be written: `"ext.desc"`, `["id", "ID"]`, `.ignored`.
    public var description: String {
        if isIgnored { return ".ignored" }
        let paths = candidates.map { "\"" + KeyBytes.spelled($0) + "\"" }
        return paths.count == 1 ? paths[0] : "[" + paths.joined(separator: ", ") + "]"
    }
}

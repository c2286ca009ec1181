// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

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
public protocol KeyMapping {
    /// Where each property's value is in the JSON, keyed by the property's coding key.
    static var keyMapping: [String: KeySource] { get }

    /// How the JSON spells the keys of the properties that have no entry in ``keyMapping``,
    /// overriding the coder's key strategy for this type only; `nil` (the default) keeps the
    /// coder's strategy.
    static var keyStrategy: KeyStrategy? { get }
}

extension KeyMapping {
    /// No renamed properties.
    public static var keyMapping: [String: KeySource] { [:] }

    /// No per-type strategy: the coder's key strategy applies.
    public static var keyStrategy: KeyStrategy? { nil }
}

/// Where a property's value is in the JSON.
///
/// Write it as a literal:
///
/// - `"n"` — the key `n`.
/// - `"ext.desc"` — a nested key: member `desc` of the object under `ext`. Dots separate levels;
///   use ``key(_:)`` for a key that contains a dot.
/// - `["id", "ID", "book_id"]` — fallbacks, tried in order; the first that is present and not
///   `null` wins. Elements may be nested keys too. When encoding, the first is written.
///
/// or with ``key(_:)``, ``path(_:)`` and ``ignored``.
public struct KeySource: Hashable, Sendable {
    /// Each candidate is a list of keys from the outer object inward.
    let candidates: [[String]]
    /// Whether the property is neither decoded nor encoded.
    let isIgnored: Bool

    private init(candidates: [[String]], isIgnored: Bool = false) {
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
    public static func key(_ name: String) -> KeySource { KeySource(candidates: [[name]]) }

    /// A nested key given as its levels, from the outer object inward.
    ///
    /// ```swift
    /// "city": .path(["address", "city.name"])   // {"address": {"city.name": …}}
    /// ```
    ///
    /// - Parameter keys: The keys, outermost first.
    /// - Returns: The source.
    public static func path(_ keys: [String]) -> KeySource { KeySource(candidates: [keys]) }

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

    /// The keys of the first candidate, which encoding writes.
    var primaryPath: [String]? { candidates.first }
}

extension KeySource: ExpressibleByStringLiteral {
    /// A key, or a nested key when the text contains dots (`"ext.desc"`).
    ///
    /// - Parameter value: The key or dotted path.
    public init(stringLiteral value: String) {
        self.init(candidates: [value.split(separator: ".", omittingEmptySubsequences: false).map(String.init)])
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
        let paths = candidates.map { "\"" + $0.joined(separator: ".") + "\"" }
        return paths.count == 1 ? paths[0] : "[" + paths.joined(separator: ", ") + "]"
    }
}

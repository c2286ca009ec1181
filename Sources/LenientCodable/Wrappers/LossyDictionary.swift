// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A dictionary property that leaves out the entries that fail to decode.
///
/// Under any decoder — Foundation's `JSONDecoder` and `PropertyListDecoder` included — each
/// value of the object is decoded on its own, and the entries whose value throws, or whose key
/// is not a `Key`, are skipped. A missing key or `null` is the empty dictionary.
///
/// The keys are any type that Swift's `Dictionary` writes as object keys: `String`, `Int`, or
/// a type of yours that conforms to `CodingKeyRepresentable`. `String` keys are data, read as a
/// plain `[String: V]` reads them: no key decoding strategy (`.convertFromSnakeCase`, `.custom`)
/// changes them, so they encode back as they came.
///
/// ```swift
/// struct Prices: Codable {
///     @LossyDictionary var byCurrency: [String: Double]
///     @LossyDictionary var byYear: [Int: Double]
/// }
///
/// let json = #"{"byCurrency":{"EUR":9.5,"USD":"n/a"},"byYear":{"2025":1.5,"soon":2}}"#
/// let prices = try JSONDecoder().decode(Prices.self, from: Data(json.utf8))
/// // prices.byCurrency == ["EUR": 9.5], prices.byYear == [2025: 1.5]
/// ```
///
/// The values are decoded as they are, with no coercion: wrap them (`[String: Coerced<Double>]`)
/// or decode with ``LenientJSONDecoder`` to forgive their form too. The property encodes as a plain
/// dictionary.
@propertyWrapper
public struct LossyDictionary<Key: Hashable & CodingKeyRepresentable, Value> {
    /// The entries that decoded.
    public var wrappedValue: [Key: Value]

    /// Wraps a dictionary, as a property declaration with an initial value does.
    ///
    /// ```swift
    /// let prices = LossyDictionary(wrappedValue: ["EUR": 9.5])
    /// ```
    ///
    /// - Parameter wrappedValue: The entries.
    public init(wrappedValue: [Key: Value]) {
        self.wrappedValue = wrappedValue
    }
}

extension LossyDictionary: Decodable where Key: Decodable, Value: Decodable {
    /// Decodes the entries of an object, leaving out those that fail.
    ///
    /// ```swift
    /// let counts = try JSONDecoder().decode(LossyDictionary<String, Int>.self, from: Data(#"{"a":1,"b":"x"}"#.utf8))
    /// // counts.wrappedValue == ["a": 1]
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the object.
    /// - Throws: `DecodingError.typeMismatch` when the value is neither an object nor `null`.
    public init(from decoder: any Decoder) throws {
        let treeDecoder = decoder as? TreeDecoder
        if let single = try? decoder.singleValueContainer(), single.decodeNil() {
            // Reported as a plain dictionary property's default would be.
            if let treeDecoder {
                treeDecoder.record(
                    .defaulted, path: treeDecoder.codingPathNode, found: treeDecoder.nodeIndex,
                    "Found null; used the default [:].")
            }
            wrappedValue = [:]
            return
        }
        if Key.self == String.self {
            // Read as a plain `[String: V]` is, through the single value container: decoders take
            // the keys of a string-keyed dictionary as data and leave them out of the key
            // strategy, where a keyed container would convert them.
            let members = try decoder.singleValueContainer().decode([String: DecodingAttempt<Value>].self)
            // `[String: Value]` is `[Key: Value]`, just checked.
            wrappedValue = unsafeBitCast(members.compactMapValues(\.value), to: [Key: Value].self)
            return
        }
        wrappedValue = try Self.decodeOtherKeys(from: decoder, treeDecoder: treeDecoder)
    }

    /// The entries of a dictionary whose keys are not strings, read through a keyed container as
    /// `Dictionary`'s own decoding reads them (so a key strategy applies to them as it does there).
    private static func decodeOtherKeys(from decoder: any Decoder, treeDecoder: TreeDecoder?) throws -> [Key: Value] {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var entries: [Key: Value] = [:]
        entries.reserveCapacity(container.allKeys.count)
        // Under the lenient decoder, each entry's key as the document spells it, for the report,
        // and the values of members a later spelling replaced.
        var spellings: [Key: String] = [:]
        var replaced: [Int] = []
        let mark = treeDecoder?.reportMark ?? 0
        for codingKey in container.allKeys {
            // Give the key its integer too, as Dictionary's own decoding does, so Int keys convert.
            var keyWithInteger = codingKey
            keyWithInteger.intValue = Int(codingKey.stringValue)
            guard let key = Key(codingKey: keyWithInteger) else {
                // Left out, and reported as a member whose value failed is.
                treeDecoder?.recordDroppedMember(key: codingKey.stringValue, reason: "not a key of type \(Key.self)")
                continue
            }
            // Asked with the integer too, so that a member's path is the one Dictionary's own
            // decoding gives it (`prices[2025]`).
            guard let attempt = try? container.decode(DecodingAttempt<Value>.self, forKey: keyWithInteger),
                let value = attempt.value
            else { continue }
            if let earlier = spellings[key] {
                // Another spelling of an earlier member's key (`"04"` after `"4"`) with a value: the
                // later one wins, as in `Dictionary`'s own decoding, and the earlier one is
                // reported, not lost without a word.
                if let earlierValue = treeDecoder?.recordDroppedMember(
                    key: earlier, reason: "a later member, \(codingKey.stringValue.debugDescription), has the same key")
                {
                    replaced.append(earlierValue)
                }
            }
            entries[key] = value
            if treeDecoder != nil { spellings[key] = codingKey.stringValue }
        }
        treeDecoder?.forgetIssues(since: mark, insideValuesAt: replaced)
        return entries
    }
}

extension LossyDictionary: Encodable where Key: Encodable, Value: Encodable {
    /// Writes the plain dictionary, with no nesting for the wrapper.
    ///
    /// ```swift
    /// struct Prices: Codable { @LossyDictionary var byCurrency: [String: Double] }
    /// try JSONEncoder().encode(Prices(byCurrency: ["EUR": 9.5]))  // {"byCurrency":{"EUR":9.5}}
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error for a value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension LossyDictionary: Equatable where Value: Equatable {}
extension LossyDictionary: Hashable where Value: Hashable {}
extension LossyDictionary: Sendable where Key: Sendable, Value: Sendable {}

extension LossyDictionary: DefaultValue {
    /// The empty dictionary, so that ``Defaulted`` and ``LenientJSONDecoder``'s defaults work
    /// through the wrapper.
    ///
    /// ```swift
    /// let empty = LossyDictionary<String, Int>.defaultValue.wrappedValue  // [:]
    /// ```
    public static var defaultValue: LossyDictionary<Key, Value> { LossyDictionary(wrappedValue: [:]) }
}

extension KeyedDecodingContainer {
    /// Decodes a ``LossyDictionary`` property, taking the empty dictionary when the key is missing.
    ///
    /// The compiler's code for `Decodable` calls `decode(_:forKey:)`, which would throw
    /// `keyNotFound`; this overload is more specific, so the compiler picks it:
    ///
    /// ```swift
    /// struct Prices: Decodable {
    ///     @LossyDictionary var byCurrency: [String: Double]
    /// }
    /// try JSONDecoder().decode(Prices.self, from: Data("{}".utf8)).byCurrency  // [:]
    /// ```
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, holding the entries that decoded.
    /// - Throws: `DecodingError.typeMismatch` when the value is neither an object nor `null`.
    public func decode<DictionaryKey: Decodable, Value: Decodable>(
        _ type: LossyDictionary<DictionaryKey, Value>.Type, forKey key: Key
    ) throws -> LossyDictionary<DictionaryKey, Value> {
        try decodeWrapperIfPresent(type, forKey: key) ?? LossyDictionary(wrappedValue: [:])
    }

    /// Decodes a property declared as an optional ``LossyDictionary``
    /// (`var prices: LossyDictionary<String, Double>?`): `nil` for a missing key or `null`, as
    /// any optional property.
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, or `nil` when the key is missing or its value is `null`.
    /// - Throws: `DecodingError.typeMismatch` when the value is neither an object nor `null`.
    public func decodeIfPresent<DictionaryKey: Decodable, Value: Decodable>(
        _ type: LossyDictionary<DictionaryKey, Value>.Type, forKey key: Key
    ) throws -> LossyDictionary<DictionaryKey, Value>? {
        try decodeWrapperIfPresent(OptionalWrapperProperty<LossyDictionary<DictionaryKey, Value>>.self, forKey: key)?
            .wrapper
    }
}

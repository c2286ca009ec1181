// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The members of a JSON object that no other property of the model reads, kept so that
/// decode → encode gives the server back every key it sent.
///
/// Declare a property of this type, with any name:
///
/// ```swift
/// struct Profile: Codable {
///     var id: Int
///     var name: String
///     var extras = UnknownKeys()
/// }
///
/// let profile = try LenientJSONDecoder().decode(
///     Profile.self, from: #"{"id": 1, "name": "Ada", "theme": "dark", "beta": true}"#)
/// profile.extras["theme"]       // "dark"
/// try LenientJSONEncoder().encode(profile)
/// // {"id":1,"name":"Ada","theme":"dark","beta":true}
/// ```
///
/// Under ``LenientJSONDecoder``, in every mode, the property receives everything in its object
/// that no other property reads, after key mapping and key strategies. A member is read when a
/// property's coding key spells it, when loose key matching gives it to a property, or when a
/// ``KeyMapping`` entry resolves to it: of a fallback list the candidate the decoder uses and
/// the `null`s it passed over before it (the other candidates present are kept), and of a
/// nested key only the value at its end. The
/// objects and arrays a nested key steps through are kept minus what is read in them:
///
/// ```swift
/// struct Book: Codable, KeyMapping {
///     var desc: String
///     var zone: String
///     var extras = UnknownKeys()
///     static let keyMapping: [String: KeySource] = ["desc": "ext.desc", "zone": "info[1].zone"]
/// }
/// // {"ext": {"desc": "d", "x": 1}, "info": [{"a": 1}, {"zone": "z", "b": 2}]}
/// // extras: {"ext": {"x": 1}, "info": [{"a": 1}, {"b": 2}]}
/// ```
///
/// An array keeps its positions, with `null` for an element read whole, up to its last kept
/// element. A container in which nothing is read is kept whole, one in which everything is read
/// not at all. The property's own key is not special: a member named like it is an unknown key
/// too, and a ``KeyMapping`` entry for the property has no effect but ``KeySource/ignored``
/// (which leaves it empty and unwritten). Members come in document order; of duplicate keys the
/// first is kept. What is kept counts as read: it is never reported as
/// ``DecodingIssue/Kind/unknownKey``.
///
/// ``LenientJSONEncoder`` writes the members back into the same object, after the properties,
/// and merges them into the objects and arrays the model writes for its nested keys (member by
/// member, element by element), so `extras` above comes back where it was. The model wins: a
/// kept value is left out where a property wrote its own value, or a container of another kind.
///
/// Under other decoders and encoders it is an ordinary property: it decodes from the object at
/// its own key (empty when that key is missing or `null`) and encodes as an object there.
/// It is collected when decoded through its static type — a synthesized conformance, or
/// `container.decode(UnknownKeys.self, forKey:)` in your own `init(from:)`. A property declared
/// optional (`var extras: UnknownKeys?`) is collected too, and is `nil` when there is nothing to
/// keep; the encoders write nothing for `nil`, whatever their `nilEncodingStrategy`, so that
/// `nil` and the kept members both come back.
public struct UnknownKeys: Sendable, Hashable {
    /// The members, in order.
    public var members: JSONObject

    /// Whether the members were kept by a decode that matched no key loosely: the type's decode
    /// with loose matching failed, and its value is the one Foundation's decoder gives. Written
    /// back, a member under another spelling of a `nil` property's key then needs no `null` under
    /// the property's own key to keep it from being read in its place: decoded again, the type
    /// fails on it as it did, and keeps it. Not part of the value (``==(_:_:)``).
    var keptWithoutLooseMatching = false

    /// No members.
    public init() { members = JSONObject() }

    /// The given members.
    ///
    /// ```swift
    /// let extras = UnknownKeys(JSONObject(["theme": "dark"]))
    /// ```
    ///
    /// - Parameter members: The members, in the order they are written.
    public init(_ members: JSONObject) { self.members = members }

    /// The value of a member, or `nil` when there is none; setting `nil` removes the member.
    ///
    /// ```swift
    /// profile.extras["theme"] = "light"
    /// ```
    ///
    /// - Complexity: O(*n*) in the number of members.
    public subscript(key: String) -> JSONValue? {
        get { members[key] }
        set { members[key] = newValue }
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether there are no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The keys, in order.
    public var keys: [String] { members.keys }

    /// Whether two bags hold the same members in the same order.
    ///
    /// - Parameters:
    ///   - lhs: A bag.
    ///   - rhs: Another bag.
    /// - Returns: `true` when their members are equal.
    public static func == (lhs: UnknownKeys, rhs: UnknownKeys) -> Bool { lhs.members == rhs.members }

    /// Hashes the members.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) { hasher.combine(members) }
}

extension UnknownKeys: Sequence {
    /// The members in order, as `(key, value)` pairs.
    ///
    /// ```swift
    /// for (key, value) in profile.extras { print(key, value) }
    /// ```
    ///
    /// - Returns: An iterator over the members.
    public func makeIterator() -> IndexingIterator<JSONObject> { members.makeIterator() }
}

extension UnknownKeys: ExpressibleByDictionaryLiteral {
    /// Members written as a dictionary literal, in order.
    ///
    /// ```swift
    /// let extras: UnknownKeys = ["theme": "dark", "beta": true]
    /// ```
    ///
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = JSONObject(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension UnknownKeys: Codable {
    /// Decodes an object's members; `null` gives no members.
    ///
    /// This is the property's own decoding, which decoders other than ``LenientJSONDecoder`` use.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError.typeMismatch` when the value is neither an object nor `null`.
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue(from: decoder)
        switch value {
        case .null: members = JSONObject()
        case .object(let object): members = object
        default:
            throw DecodingError.typeMismatch(
                UnknownKeys.self,
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "Expected an object of unknown keys but found \(value) instead."))
        }
    }

    /// Encodes the members as an object.
    ///
    /// ``LenientJSONEncoder`` does not call it for a property declared as ``UnknownKeys``: it
    /// writes the members into the property's enclosing object instead. A property that is
    /// ``UnknownKeys`` only through a generic parameter is written with it, at its key.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try JSONValue.object(members).encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// Decodes an ``UnknownKeys`` property: under ``LenientJSONDecoder``, what no other property
    /// reads of this container's object (see ``UnknownKeys``); under other decoders, the object at
    /// the property's own key, or no members when the key is missing or `null`.
    ///
    /// Synthesized conformances call it for a property declared `var extras = UnknownKeys()`.
    ///
    /// ```swift
    /// extras = try container.decode(UnknownKeys.self, forKey: .extras)
    /// ```
    ///
    /// - Parameters:
    ///   - type: ``UnknownKeys``.
    ///   - key: The property's key.
    /// - Returns: The members.
    /// - Throws: `DecodingError.typeMismatch` when, under another decoder, the value at the key is
    ///   not an object.
    public func decode(_ type: UnknownKeys.Type, forKey key: Key) throws -> UnknownKeys {
        // The lenient decoder's containers hand out a super decoder that can collect the members;
        // asking for it reads no member and reports nothing.
        if let decoder = try? superDecoder() as? TreeDecoder, let collect = decoder.unknownKeysCollector {
            return collect(key.stringValue)
        }
        return try decodeIfPresent(UnknownKeys.self, forKey: key) ?? UnknownKeys()
    }

    /// Decodes an optional ``UnknownKeys`` property: as ``decode(_:forKey:)`` does, and `nil`
    /// when there is nothing to keep.
    ///
    /// Synthesized conformances call it for a property declared `var extras: UnknownKeys?`.
    ///
    /// - Parameters:
    ///   - type: ``UnknownKeys``.
    ///   - key: The property's key.
    /// - Returns: The members, or `nil` when there are none.
    /// - Throws: `DecodingError.typeMismatch` when, under another decoder, the value at the key is
    ///   not an object.
    public func decodeIfPresent(_ type: UnknownKeys.Type, forKey key: Key) throws -> UnknownKeys? {
        if let decoder = try? superDecoder() as? TreeDecoder, let collect = decoder.unknownKeysCollector {
            let members = collect(key.stringValue)
            return members.isEmpty ? nil : members
        }
        return try decodeIfPresentAsDeclared(type, forKey: key)
    }

    /// The container's own `decodeIfPresent`, which the overload above stands in front of.
    private func decodeIfPresentAsDeclared<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }
}

extension KeyedEncodingContainer {
    /// Encodes an ``UnknownKeys`` property: under ``LenientJSONEncoder``, its members into the
    /// enclosing object, after the other properties; under other encoders, an object at the
    /// property's own key.
    ///
    /// Synthesized conformances call it for a property declared `var extras = UnknownKeys()`. A
    /// property whose declared type is a generic parameter (`var bag: B`, with `B` being
    /// ``UnknownKeys``) is encoded as any other property, at its key, as decoders read it.
    ///
    /// - Parameters:
    ///   - value: The members.
    ///   - key: The property's key.
    /// - Throws: What the encoder throws.
    public mutating func encode(_ value: UnknownKeys, forKey key: Key) throws {
        try encode(KeptMembers(keys: value), forKey: key)
    }

    /// Encodes an optional ``UnknownKeys`` property: its members when there is a value (under
    /// ``LenientJSONEncoder``, into the enclosing object), and nothing for `nil`, whatever the
    /// encoder's `nilEncodingStrategy`: `nil` means no members, never a `null` under the
    /// property's key.
    ///
    /// Synthesized conformances call it for a property declared `var extras: UnknownKeys?`.
    ///
    /// - Parameters:
    ///   - value: The members, or `nil`.
    ///   - key: The property's key.
    /// - Throws: What the encoder throws.
    public mutating func encodeIfPresent(_ value: UnknownKeys?, forKey key: Key) throws {
        guard let value else { return }
        try encode(value, forKey: key)
    }
}

/// The members of an ``UnknownKeys`` property on their way to an encoder's keyed container,
/// handed over by `KeyedEncodingContainer.encode(_:forKey:)` for a property declared as
/// ``UnknownKeys``: ``LenientJSONEncoder`` writes them into the enclosing object, other encoders
/// as the object they are. A value that is ``UnknownKeys`` only through a generic parameter
/// reaches the container as itself, and is written at its key, as decoders read it.
struct KeptMembers: Encodable {
    let keys: UnknownKeys

    func encode(to encoder: any Encoder) throws {
        try keys.encode(to: encoder)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// A model whose properties' initial values are their defaults: `var pageSize = 20` means 20
/// when the server leaves `pageSize` out.
///
/// Conform a type that can be made with `init()` — which a struct whose stored properties all
/// have initial values gets for free:
///
/// ```swift
/// struct Page: Codable, DeclaredDefaults {
///     var pageSize = 20
///     var sort = "newest"
///     var items: [String] = []
/// }
///
/// let page = try LenientJSONDecoder().decode(Page.self, from: #"{"items": ["a"]}"#)
/// // Page(pageSize: 20, sort: "newest", items: ["a"])
/// ```
///
/// Under ``LenientJSONDecoder``, a non-optional property that is missing or `null` takes the
/// value it has in `Self()`, in every mode: the default is the model's own declaration, not
/// forgiveness of the server. In `.lenient`, so does a property whose value is invalid after
/// every coercion. Each such value is reported as ``DecodingIssue/Kind/defaulted``. Optional
/// properties keep Foundation's treatment (`nil` when missing), and a property listed in
/// ``KeyMapping/requiredProperties`` is never defaulted.
///
/// The decoder makes `Self()` once per type and process, and keeps each property's value,
/// found by the coding key the property encodes under (so custom `CodingKeys` raw values and
/// property wrappers work), or else through `Mirror` by property name for a type that is only
/// `Decodable`. ``Defaulted``, ``LossyArray`` and ``LossyDictionary`` take the declared value
/// too, not their own empty default: `@LossyArray var ids = [1]` is `[1]` when `ids` is missing.
/// A default of a class type is that one instance, shared by every value decoded with it.
/// Foundation's decoders do not read this declaration: under them the wrappers give their own
/// defaults.
public protocol DeclaredDefaults: _LenientDecodingMarker, _LenientEncodingMarker {
    /// Makes the value whose properties hold the defaults.
    init()
}

/// The declared defaults of each ``DeclaredDefaults`` type, by coding key, made once per type
/// and process.
enum DeclaredDefaultsStore {
    /// Held while a type's defaults are made, so that `init()` runs once per type even when two
    /// decodes meet the type at once; recursive, because an `init()` may itself decode.
    private static let lock = NSRecursiveLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: [String: [Any]]] = [:]

    /// The defaults of a type by coding key, or `nil` when it does not conform. A key may have
    /// two candidates, the value encoded and the stored property (a wrapper whose container
    /// overload encodes its wrapped value), tried in that order against the type asked for.
    static func defaults(of type: Any.Type) -> [String: [Any]]? {
        guard let declaring = type as? any DeclaredDefaults.Type else { return nil }
        let id = ObjectIdentifier(type)
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[id] { return cached }
        let values = read(declaring.init())
        cache[id] = values
        return values
    }

    /// The values of an instance's properties by coding key: what its `encode(to:)` writes at
    /// the top level, then `Mirror`'s children by property name (`_name` for a wrapper).
    private static func read(_ instance: Any) -> [String: [Any]] {
        var values: [String: [Any]] = [:]
        if let encodable = instance as? any Encodable {
            let capture = DefaultsCapture()
            // A type whose encoding throws still has its Mirror.
            try? encodable.encode(to: capture)
            values = capture.values.mapValues { [$0] }
        }
        var mirror: Mirror? = Mirror(reflecting: instance)
        while let current = mirror {
            for child in current.children {
                guard var name = child.label, !name.contains("$") else { continue }
                if name.hasPrefix("_") { name.removeFirst() }
                values[name, default: []].append(child.value)
            }
            mirror = current.superclassMirror
        }
        return values
    }
}

/// An `Encoder` that keeps the values a type encodes into its top-level keyed containers, by
/// key, and discards everything nested.
private final class DefaultsCapture: Encoder {
    var values: [String: Any] = [:]
    let codingPath: [any CodingKey] = []
    let userInfo: [CodingUserInfoKey: Any] = [:]

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(Container(capture: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { Discarding() }
    func singleValueContainer() -> any SingleValueEncodingContainer { Discarding() }

    private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let capture: DefaultsCapture?
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil(forKey key: Key) throws {}

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            guard let capture, capture.values[key.stringValue] == nil else { return }
            capture.values[key.stringValue] = value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Container<NestedKey>(capture: nil))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { Discarding() }
        mutating func superEncoder() -> any Encoder { Discarding() }
        mutating func superEncoder(forKey key: Key) -> any Encoder { Discarding() }
    }

    /// Takes whatever it is given and keeps nothing.
    private struct Discarding: Encoder, UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        var count: Int { 0 }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Container(capture: nil))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { self }
        func singleValueContainer() -> any SingleValueEncodingContainer { self }
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            KeyedEncodingContainer(Container(capture: nil))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { self }
    }
}

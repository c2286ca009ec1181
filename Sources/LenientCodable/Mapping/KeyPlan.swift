// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// A type's key mapping resolved for one coding-key type: where each property's value is.
///
/// Plans are built once per (model type, coding-key type) pair, checked, and cached for the
/// life of the process; decoders and encoders share them. Each key is kept as UTF-8 bytes so
/// that a lookup compares bytes and allocates nothing.
final class KeyPlan: @unchecked Sendable {
    /// Where one property is.
    enum Entry {
        /// Neither decoded nor encoded.
        case ignored
        /// Candidates in order; each is a list of keys from the outer object inward.
        case sources([[KeyBytes]])
    }

    let typeName: String
    /// The entries of `keyMapping` that name a key of this coding-key type, by property name:
    /// an open-addressing table keyed by a cheap hash of the name's UTF-8 bytes, probed on every
    /// key lookup of the type (a `Dictionary` would run SipHash each time).
    private let entryNames: [[UInt8]]
    private let entryValues: [Entry]
    private let slots: [Int32]
    private let slotMask: Int
    private let entries: [String: Entry]
    /// The type's own strategy for properties without an entry.
    let strategy: KeyStrategy?
    /// The only properties coded, when the type names them; every other one is ignored.
    private let codedProperties: Set<String>?
    /// The transforms of properties' raw JSON before decoding, by property name.
    private let transforms: [String: JSONTransform]
    /// Whether any property has a transform; keyed containers of other types skip the lookup.
    let hasTransforms: Bool
    /// JSON keys derived from `strategy`, by property name; filled as properties are asked for.
    private var strategyKeys: [String: KeyBytes] = [:]
    private let lock = NSLock()

    private init(
        typeName: String, entries: [String: Entry], strategy: KeyStrategy?, codedProperties: Set<String>?,
        transforms: [String: JSONTransform]
    ) {
        self.typeName = typeName
        self.entries = entries
        self.strategy = strategy
        self.codedProperties = codedProperties
        self.transforms = transforms
        self.hasTransforms = !transforms.isEmpty
        let names = Array(entries.keys)
        entryNames = names.map { Array($0.utf8) }
        entryValues = names.map { entries[$0]! }
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        for (position, name) in entryNames.enumerated() {
            var slot = name.withUnsafeBufferPointer { Int(truncatingIfNeeded: KeyPlan.hash($0)) } & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(position)
        }
        self.slots = slots
        slotMask = capacity - 1
    }

    /// The entry for a property, or `nil` when the mapping does not name it; `.ignored` for a
    /// property left out of the type's coded properties.
    @inline(__always)
    func entry(for propertyName: String) -> Entry? {
        if let codedProperties, !codedProperties.contains(propertyName) { return .ignored }
        if entryNames.isEmpty { return nil }
        var name = propertyName
        guard let position = name.withUTF8({ position(of: $0) }) else { return nil }
        return entryValues[position]
    }

    /// The transform of a property's raw JSON, if the type declares one.
    func transform(for propertyName: String) -> JSONTransform? {
        transforms[propertyName]
    }

    private func position(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        var slot = Int(truncatingIfNeeded: KeyPlan.hash(name)) & slotMask
        while true {
            let position = Int(slots[slot])
            if position < 0 { return nil }
            let candidate = entryNames[position]
            if candidate.count == name.count
                && candidate.withUnsafeBufferPointer({ memoryEquals($0.baseAddress!, name.baseAddress, name.count) })
            {
                return position
            }
            slot = (slot + 1) & slotMask
        }
    }

    /// A cheap hash of a short name: its length and its first and last eight bytes, mixed.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        let count = bytes.count
        for index in 0..<min(8, count) { head = head << 8 | UInt64(bytes[index]) }
        for index in max(0, count - 8)..<count { tail = tail << 8 | UInt64(bytes[index]) }
        var mixed = head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(count)
        mixed ^= mixed >> 29
        return (mixed &* 0xBF58_476D_1CE4_E5B9) >> 32
    }

    /// The JSON key that the type's strategy gives a property.
    func strategyKey(for propertyName: String) -> KeyBytes? {
        guard let strategy else { return nil }
        lock.lock()
        defer { lock.unlock() }
        if let cached = strategyKeys[propertyName] { return cached }
        let key = KeyBytes(strategy.jsonKey(for: propertyName))
        strategyKeys[propertyName] = key
        return key
    }

    /// The property names that have an entry, for `allKeys`.
    var mappedPropertyNames: Dictionary<String, Entry>.Keys { entries.keys }

    // MARK: Cache

    private struct CacheKey: Hashable {
        let model: ObjectIdentifier
        let codingKeys: ObjectIdentifier
    }

    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [CacheKey: Result<KeyPlan?, KeyMappingError>] = [:]

    /// The plan of a model type for a coding-key type, or `nil` when the type does not conform
    /// to ``KeyMapping`` or maps nothing.
    ///
    /// - Throws: ``KeyMappingError`` when the mapping names a property the type does not have,
    ///   or an empty key.
    static func plan<Key: CodingKey>(for model: Any.Type, keys: Key.Type) throws(KeyMappingError) -> KeyPlan? {
        let cacheKey = CacheKey(model: ObjectIdentifier(model), codingKeys: ObjectIdentifier(keys))
        cacheLock.lock()
        let cached = cache[cacheKey]
        cacheLock.unlock()
        if let cached { return try cached.get() }
        let result = Result { () throws(KeyMappingError) -> KeyPlan? in try build(for: model, keys: keys) }
        cacheLock.lock()
        cache[cacheKey] = result
        cacheLock.unlock()
        return try result.get()
    }

    private static func build<Key: CodingKey>(for model: Any.Type, keys: Key.Type) throws(KeyMappingError) -> KeyPlan? {
        guard let mapped = model as? any KeyMapping.Type else { return nil }
        let mapping = mapped.keyMapping
        let strategy = mapped.keyStrategy
        let codedProperties = mapped.codedProperties
        let transforms = mapped.decodingTransforms
        if mapping.isEmpty && strategy == nil && codedProperties == nil && transforms.isEmpty { return nil }
        let typeName = String(reflecting: model)
        // Only the synthesized (or conventional) CodingKeys of the type itself list all its properties.
        let ownsKeys = isOwnCodingKeys(String(reflecting: keys), of: typeName)
        let inherited = inheritedMapping(of: model)
        var entries: [String: Entry] = [:]
        for (propertyName, source) in mapping {
            guard Key(stringValue: propertyName) != nil else {
                // Subclasses repeat their superclass's entries, whose properties live in the
                // superclass's coding keys; only a name that no coding key of the type knows is wrong.
                if ownsKeys && inherited[propertyName] == nil {
                    throw KeyMappingError(
                        typeName: typeName, propertyName: propertyName,
                        problem: "names no property of \(typeName) (no coding key \"\(propertyName)\")")
                }
                continue
            }
            if source.isIgnored {
                entries[propertyName] = .ignored
                continue
            }
            guard !source.candidates.isEmpty, source.candidates.allSatisfy({ !$0.isEmpty && !$0.contains("") }) else {
                throw KeyMappingError(
                    typeName: typeName, propertyName: propertyName, problem: "has an empty key in \(source)")
            }
            entries[propertyName] = .sources(source.candidates.map { $0.map(KeyBytes.init) })
        }
        // The coded properties and transforms must name properties too, checked by the same rule.
        var ownTransforms: [String: JSONTransform] = [:]
        for (propertyName, transform) in transforms {
            guard Key(stringValue: propertyName) != nil else {
                if ownsKeys && inherited[propertyName] == nil {
                    throw KeyMappingError(
                        typeName: typeName, propertyName: propertyName,
                        problem: "is a transform for no property of \(typeName) (no coding key \"\(propertyName)\")")
                }
                continue
            }
            ownTransforms[propertyName] = transform
        }
        if let codedProperties, ownsKeys {
            for propertyName in codedProperties.sorted()
            where Key(stringValue: propertyName) == nil && inherited[propertyName] == nil {
                throw KeyMappingError(
                    typeName: typeName, propertyName: propertyName,
                    problem:
                        "is a coded property but names no property of \(typeName) (no coding key \"\(propertyName)\")")
            }
        }
        return KeyPlan(
            typeName: typeName, entries: entries, strategy: strategy, codedProperties: codedProperties,
            transforms: ownTransforms)
    }

    /// Whether a coding-key type is the model's own `CodingKeys`. Private declarations print with
    /// an `(unknown context at $…)` segment (`Outer.Inner.(unknown context at $1f2e).CodingKeys`),
    /// which is left out of the comparison.
    static func isOwnCodingKeys(_ keysName: String, of typeName: String) -> Bool {
        let components = keysName.split(separator: ".").filter { !$0.hasPrefix("(unknown context at") }
        let cleaned = components.joined(separator: ".")
        let cleanedType = typeName.split(separator: ".").filter { !$0.hasPrefix("(unknown context at") }.joined(
            separator: ".")
        return cleaned == cleanedType + ".CodingKeys"
    }

    /// The mapping of the nearest superclass that conforms to ``KeyMapping``.
    private static func inheritedMapping(of model: Any.Type) -> [String: KeySource] {
        guard let modelClass = model as? AnyClass else { return [:] }
        var current: AnyClass? = _getSuperclass(modelClass)
        while let superclass = current {
            if let mapped = superclass as? any KeyMapping.Type { return mapped.keyMapping }
            current = _getSuperclass(superclass)
        }
        return [:]
    }
}

/// A JSON key as UTF-8 bytes, with its text for messages.
struct KeyBytes: Hashable {
    let text: String
    let utf8: [UInt8]

    init(_ text: String) {
        self.text = text
        self.utf8 = Array(text.utf8)
    }
}

/// A ``KeyMapping`` that cannot be used: it names a property the type does not have, or an
/// empty key.
///
/// Decoding and encoding throw it (inside `DecodingError.dataCorrupted` or
/// `EncodingError.invalidValue`) the first time they meet the type, naming the type and entry.
public struct KeyMappingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The type whose mapping is wrong.
    public let typeName: String
    /// The entry's property name.
    public let propertyName: String
    /// What is wrong with it.
    public let problem: String

    /// The error as a sentence.
    public var description: String {
        "The key mapping entry \"\(propertyName)\" of \(typeName) \(problem)."
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// An optional, as a declared default's stored property reveals it: a property declared optional
/// keeps `nil` when missing, whatever its initial value.
protocol DeclaredAsOptional {}

extension Optional: DeclaredAsOptional {}

/// A type's key mapping resolved for one coding-key type: where each property's value is.
///
/// Plans are built once per (model type, coding-key type) pair, checked, and cached for the
/// life of the process (never released: keyed containers refer to them without retaining
/// them); decoders and encoders share them. Each key is kept as UTF-8 bytes so that a lookup
/// compares bytes and allocates nothing.
final class KeyPlan: @unchecked Sendable {
    /// Where one property is.
    enum Entry {
        /// Neither decoded nor encoded.
        case ignored
        /// Candidates in order; each is a list of keys from the outer object inward.
        case sources([[KeyBytes]])
    }

    /// How a decoder finds a property, answered by ``lookup(_:)`` without retaining anything:
    /// the byte buffer points into storage the plan owns.
    enum Lookup {
        /// The mapping does not name the property: the type's strategy or the coding key applies.
        case unmapped
        /// Neither decoded nor encoded.
        case ignored
        /// One JSON key in the object itself, the most common entry.
        case rename(UnsafeBufferPointer<UInt8>)
        /// Several candidates or a key path: pass the value to ``resolve(_:in:objectIndex:)``.
        case candidates(Int)
    }

    let typeName: String
    private let entries: [String: Entry]
    /// The first key of each candidate of each mapped property, to the properties that read it:
    /// a member another property reads under its own key, which loose matching never takes
    /// (``propertyReads(jsonKey:besides:isCodingKey:)``).
    private let readersOfFirstKeys: [String: [String]]
    /// The type's own strategy for properties without an entry.
    let strategy: KeyStrategy?
    /// The transforms of properties' raw JSON before decoding, by property name.
    private let transforms: [String: JSONTransform]
    /// The transforms of properties' encoded JSON, by property name: the inverse of `transforms`.
    private let encodingTransforms: [String: JSONTransform]
    /// Whether any property has an encoding transform; encoding containers of other types skip the lookup.
    let hasEncodingTransforms: Bool
    /// The properties that are never defaulted, by property name.
    private let requiredProperties: Set<String>
    /// The values of the type's properties in `Self()`, by coding key, when it conforms to
    /// ``DeclaredDefaults``; shared with the process-wide store, read only on a missing, null or
    /// invalid value.
    private let declaredDefaults: [String: [Any]]
    /// Whether any property has a transform, is required or has a declared default: keyed
    /// containers of other types test this one Bool and take their usual path.
    let hasPropertyRules: Bool
    /// JSON keys derived from `strategy`, by property name; filled as properties are asked for,
    /// up to ``maximumCachedStrategyKeys`` (a coding key type that accepts any name would
    /// otherwise grow it with every key a server sends).
    private var strategyKeys: [String: KeyBytes] = [:]
    /// The names in `strategyKeys`, by their JSON key: what ``namesAskedFor(withStrategyKey:)``
    /// reads back.
    private var namesByStrategyKey: [String: [String]] = [:]
    static let maximumCachedStrategyKeys = 1024
    /// The order in which the first decode to finish asked for the keys; see ``KeyOrder``.
    private var sharedOrder: KeyOrder?
    private let lock = NSLock()
    /// The entries again, laid out for lookups that neither hash with SipHash nor retain, at an
    /// address that stays put for the plan's life (containers read it through the pointer).
    let table: UnsafePointer<KeyTable>

    private init(
        typeName: String, entries: [String: Entry], strategy: KeyStrategy?, codedProperties: Set<String>?,
        transforms: [String: JSONTransform], encodingTransforms: [String: JSONTransform],
        requiredProperties: Set<String>, declaredDefaults: [String: [Any]]
    ) {
        self.typeName = typeName
        self.requiredProperties = requiredProperties
        self.declaredDefaults = declaredDefaults
        self.hasPropertyRules = !transforms.isEmpty || !requiredProperties.isEmpty || !declaredDefaults.isEmpty
        self.entries = entries
        var readers: [String: [String]] = [:]
        for (propertyName, entry) in entries {
            guard case .sources(let candidates) = entry else { continue }
            for candidate in candidates where !(readers[candidate[0].text]?.contains(propertyName) ?? false) {
                readers[candidate[0].text, default: []].append(propertyName)
            }
        }
        self.readersOfFirstKeys = readers
        self.strategy = strategy
        self.transforms = transforms
        self.encodingTransforms = encodingTransforms
        self.hasEncodingTransforms = !encodingTransforms.isEmpty
        let table = UnsafeMutablePointer<KeyTable>.allocate(capacity: 1)
        table.initialize(to: KeyTable(entries: entries, codedProperties: codedProperties, hasStrategy: strategy != nil))
        self.table = UnsafePointer(table)
    }

    deinit {
        table.pointee.deallocate()
        UnsafeMutablePointer(mutating: table).deallocate()
    }

    /// Where a property is; see ``Lookup``.
    func lookup(_ propertyName: String) -> Lookup {
        propertyName.withUTF8Bytes { table.pointee.lookup($0) }
    }

    /// The entry for a property, or `nil` when the mapping does not name it; `.ignored` for a
    /// property left out of the type's coded properties.
    func entry(for propertyName: String) -> Entry? {
        switch lookup(propertyName) {
        case .unmapped: nil
        case .ignored: .ignored
        case .rename, .candidates: entries[propertyName]
        }
    }

    /// The transform of a property's raw JSON, if the type declares one.
    func transform(for propertyName: String) -> JSONTransform? {
        transforms[propertyName]
    }

    /// Whether a property is listed in the type's ``KeyMapping/requiredProperties``.
    func isRequired(_ propertyName: String) -> Bool {
        !requiredProperties.isEmpty && requiredProperties.contains(propertyName)
    }

    /// The value a property has in the type's `Self()`, when the type conforms to
    /// ``DeclaredDefaults`` and it is of the type asked for.
    func hasDeclaredDefault(_ propertyName: String) -> Bool {
        !declaredDefaults.isEmpty && declaredDefaults[propertyName] != nil
    }

    /// The value a property has in the type's `Self()`, cast to the type asked for: only when a
    /// value is missing, null or invalid.
    func declaredDefault<T>(for propertyName: String, as type: T.Type) -> T? {
        guard !declaredDefaults.isEmpty, let candidates = declaredDefaults[propertyName] else { return nil }
        for candidate in candidates {
            if let value = candidate as? T { return value }
        }
        return nil
    }

    /// Whether the type conforms to ``DeclaredDefaults`` and declares the property optional
    /// (`var x: Defaulted<Int>? = …`): its `decodeIfPresent` is an optional's, not a defaulting
    /// wrapper's, and keeps Foundation's `nil`.
    func isDeclaredOptional(_ propertyName: String) -> Bool {
        guard !declaredDefaults.isEmpty, let candidates = declaredDefaults[propertyName] else { return false }
        return candidates.contains { $0 is any DeclaredAsOptional }
    }

    /// The transform of a property's encoded JSON, if the type declares one.
    func encodingTransform(for propertyName: String) -> JSONTransform? {
        encodingTransforms[propertyName]
    }

    /// The JSON key that the type's strategy gives a property.
    func strategyKey(for propertyName: String) -> KeyBytes? {
        guard let strategy else { return nil }
        if let cached = lock.withLock({ strategyKeys[propertyName] }) { return cached }
        // The strategy is user code, run outside the lock: a `.custom` closure may decode, and
        // meet this plan again.
        let text = strategy.jsonKey(for: propertyName)
        let key = KeyBytes(text)
        lock.lock()
        defer { lock.unlock() }
        if let cached = strategyKeys[propertyName] { return cached }
        if strategyKeys.count < KeyPlan.maximumCachedStrategyKeys {
            strategyKeys[propertyName] = key
            namesByStrategyKey[text, default: []].append(propertyName)
        }
        return key
    }

    /// Property names that the type's strategy may spell as `jsonKey`, for telling whether a
    /// property reads a member (``UnknownKeys``): the names asked for so far whose key it is.
    /// Empty without a strategy. ``KeyStrategy/propertyNameCandidates(for:)`` adds the spellings
    /// a name usually has.
    func namesAskedFor(withStrategyKey jsonKey: String) -> [String] {
        guard strategy != nil else { return [] }
        lock.lock()
        defer { lock.unlock() }
        return namesByStrategyKey[jsonKey] ?? []
    }

    /// Whether a property other than `propertyName` reads the member `jsonKey` (as written in the
    /// JSON) under its own key: a key or the first key of a path its mapping names, or its coding
    /// key as the type's strategy spells it. `isCodingKey` tells the names of the type's coding
    /// keys: a strategy's spelling is traced back through the spellings a name usually has
    /// (``KeyStrategy/propertyNameCandidates(for:)``), so that the answer depends on the type
    /// alone, never on which properties earlier decodes asked for.
    func propertyReads(jsonKey: String, besides propertyName: String, isCodingKey: (String) -> Bool) -> Bool {
        if let readers = readersOfFirstKeys[jsonKey], readers.contains(where: { $0 != propertyName }) { return true }
        guard strategy != nil else { return false }
        return KeyStrategy.propertyNameCandidates(for: jsonKey).contains { name in
            name != propertyName && entries[name] == nil && isCodingKey(name) && strategyKey(for: name)?.text == jsonKey
        }
    }

    /// The key order for a decode: the shared one once a decode has finished learning it,
    /// otherwise a new one for this decode to learn.
    func keyOrder() -> KeyOrder {
        lock.lock()
        defer { lock.unlock() }
        return sharedOrder ?? KeyOrder(plan: self)
    }

    /// Shares an order that a finished decode learned, unless another decode's already is.
    func adopt(_ order: KeyOrder) {
        lock.lock()
        defer { lock.unlock() }
        guard sharedOrder == nil, !order.isFrozen else { return }
        order.freeze()
        sharedOrder = order
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

    /// The plan of a model type for a coding-key type, or `nil` when the type conforms to neither
    /// ``KeyMapping`` nor ``DeclaredDefaults``, or maps and declares nothing.
    ///
    /// - Throws: ``KeyMappingError`` when the mapping names a property the type does not have,
    ///   or an empty key.
    static func plan<Key: CodingKey>(for model: Any.Type, keys: Key.Type) throws(KeyMappingError) -> KeyPlan? {
        let cacheKey = CacheKey(model: ObjectIdentifier(model), codingKeys: ObjectIdentifier(keys))
        cacheLock.lock()
        let cached = cache[cacheKey]
        cacheLock.unlock()
        if let cached { return try cached.get() }
        let built = Result { () throws(KeyMappingError) -> KeyPlan? in try build(for: model, keys: keys) }
        // Two decodes may build the same plan at once. The first one cached is the one every
        // decode gets: a plan handed out is never released, which keyed containers, holding
        // their plan unretained, rely on.
        cacheLock.lock()
        let result = cache[cacheKey] ?? built
        cache[cacheKey] = result
        cacheLock.unlock()
        return try result.get()
    }

    private static func build<Key: CodingKey>(for model: Any.Type, keys: Key.Type) throws(KeyMappingError) -> KeyPlan? {
        let declaredDefaults = DeclaredDefaultsStore.defaults(of: model) ?? [:]
        let mapped = model as? any KeyMapping.Type
        guard mapped != nil || !declaredDefaults.isEmpty else { return nil }
        let mapping = mapped?.keyMapping ?? [:]
        let strategy = mapped?.keyStrategy
        let codedProperties = mapped?.codedProperties
        let transforms = mapped?.decodingTransforms ?? [:]
        let encodingTransforms = mapped?.encodingTransforms ?? [:]
        let requiredProperties = mapped?.requiredProperties ?? []
        if mapping.isEmpty && strategy == nil && codedProperties == nil && transforms.isEmpty
            && encodingTransforms.isEmpty && requiredProperties.isEmpty && declaredDefaults.isEmpty
        {
            return nil
        }
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
            guard
                !source.candidates.isEmpty,
                source.candidates.allSatisfy({ !$0.isEmpty && !$0.contains { $0.index == nil && $0.text.isEmpty } })
            else {
                throw KeyMappingError(
                    typeName: typeName, propertyName: propertyName, problem: "has an empty key in \(source)")
            }
            // The container is an object: a path starts with a key.
            guard source.candidates.allSatisfy({ $0[0].index == nil }) else {
                throw KeyMappingError(
                    typeName: typeName, propertyName: propertyName,
                    problem: "starts with an array index in \(source); a path starts with a key")
            }
            entries[propertyName] = .sources(source.candidates)
        }
        // The coded properties and transforms must name properties too, checked by the same rule.
        func ownTransforms(_ transforms: [String: JSONTransform]) throws(KeyMappingError) -> [String: JSONTransform] {
            var own: [String: JSONTransform] = [:]
            for (propertyName, transform) in transforms {
                guard Key(stringValue: propertyName) != nil else {
                    if ownsKeys && inherited[propertyName] == nil {
                        throw KeyMappingError(
                            typeName: typeName, propertyName: propertyName,
                            problem: "is a transform for no property of \(typeName) (no coding key \"\(propertyName)\")"
                        )
                    }
                    continue
                }
                own[propertyName] = transform
            }
            return own
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
        var ownRequired: Set<String> = []
        for propertyName in requiredProperties.sorted() {
            guard Key(stringValue: propertyName) != nil else {
                // A subclass may list its superclass's properties, which its own coding keys lack.
                if ownsKeys && inherited[propertyName] == nil && !(model is AnyClass) {
                    throw KeyMappingError(
                        typeName: typeName, propertyName: propertyName,
                        problem:
                            "is a required property but names no property of \(typeName) (no coding key \"\(propertyName)\")"
                    )
                }
                continue
            }
            ownRequired.insert(propertyName)
        }
        return KeyPlan(
            typeName: typeName, entries: entries, strategy: strategy, codedProperties: codedProperties,
            transforms: try ownTransforms(transforms), encodingTransforms: try ownTransforms(encodingTransforms),
            requiredProperties: ownRequired, declaredDefaults: declaredDefaults)
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

/// A plan's entries in flat, manually allocated tables: an open-addressing table of property
/// names keyed by a cheap hash of their UTF-8 bytes, and each entry's candidate key paths as
/// ranges of one byte buffer. A lookup runs no SipHash and retains nothing, so probing it for
/// every key of a mapped type costs little more than comparing the key itself.
///
/// Its buffers belong to one ``KeyPlan``, which frees them; plans live for the process.
struct KeyTable {
    /// A range of one of the tables.
    private struct Span {
        var start: Int32
        var count: Int32
    }

    /// One property name and where its entry's candidates are.
    private struct Slot {
        /// The property name's bytes.
        var name: Span
        /// Its candidates in `paths`; a count of 0 marks an ignored property.
        var paths: Span
        /// For a single one-key candidate (a plain rename): the key's bytes, or a count of -1.
        var rename: Span
        /// Whether the property is only listed among the coded properties, with no entry.
        var isUnmapped: Bool
    }

    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Candidate key paths, each a range of `keys`.
    private let paths: UnsafeMutableBufferPointer<Span>
    /// Keys, each a range of `bytes`.
    private let keys: UnsafeMutableBufferPointer<Span>
    private let slots: UnsafeMutableBufferPointer<Slot>
    /// The hash table: indices into `slots`, -1 for an empty place.
    private let table: UnsafeMutableBufferPointer<Int32>
    private let mask: Int
    /// Whether a property the table does not hold is ignored (the type lists its coded properties).
    private let ignoresUnlisted: Bool
    /// Whether the plan has a key strategy for the properties it does not map.
    let hasStrategy: Bool

    init(entries: [String: KeyPlan.Entry], codedProperties: Set<String>?, hasStrategy: Bool) {
        self.hasStrategy = hasStrategy
        var names = entries.keys.sorted()
        if let codedProperties {
            names += codedProperties.subtracting(entries.keys).sorted()
        }
        ignoresUnlisted = codedProperties != nil
        var byteStore: [UInt8] = []
        var pathStore: [Span] = []
        var keyStore: [Span] = []
        var slotStore: [Slot] = []
        func append(_ text: String) -> Span {
            let span = Span(start: Int32(byteStore.count), count: Int32(text.utf8.count))
            byteStore += text.utf8
            return span
        }
        for name in names {
            var slot = Slot(
                name: append(name), paths: Span(start: Int32(pathStore.count), count: 0),
                rename: Span(start: 0, count: -1), isUnmapped: false)
            // A property left out of the coded properties is ignored, whatever its entry says.
            let isCoded = codedProperties?.contains(name) ?? true
            switch isCoded ? entries[name] : .ignored {
            case nil:
                slot.isUnmapped = true
            case .ignored?:
                break
            case .sources(let sources)?:
                for path in sources {
                    pathStore.append(Span(start: Int32(keyStore.count), count: Int32(path.count)))
                    // An array index is a span of count -1 whose start is the index.
                    for key in path {
                        keyStore.append(key.index.map { Span(start: Int32($0), count: -1) } ?? append(key.text))
                    }
                }
                slot.paths.count = Int32(sources.count)
                if sources.count == 1 && sources[0].count == 1 { slot.rename = keyStore[keyStore.count - 1] }
            }
            slotStore.append(slot)
        }
        var capacity = 8
        while capacity < names.count * 2 { capacity *= 2 }
        mask = capacity - 1
        bytes = .allocate(capacity: max(1, byteStore.count))
        _ = bytes.initialize(from: byteStore)
        paths = .allocate(capacity: max(1, pathStore.count))
        _ = paths.initialize(from: pathStore)
        keys = .allocate(capacity: max(1, keyStore.count))
        _ = keys.initialize(from: keyStore)
        slots = .allocate(capacity: max(1, slotStore.count))
        _ = slots.initialize(from: slotStore)
        table = .allocate(capacity: capacity)
        table.initialize(repeating: -1)
        for (index, slot) in slotStore.enumerated() {
            var place = Int(truncatingIfNeeded: KeyTable.hash(buffer(slot.name))) & mask
            while table[place] >= 0 { place = (place + 1) & mask }
            table[place] = Int32(index)
        }
    }

    func deallocate() {
        bytes.deallocate()
        paths.deallocate()
        keys.deallocate()
        slots.deallocate()
        table.deallocate()
    }

    @inline(__always)
    private func buffer(_ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.baseAddress! + Int(span.start), count: Int(span.count))
    }

    /// Where a property is; see ``KeyPlan/Lookup``. Probed on every key lookup of a mapped type.
    @inline(__always)
    func lookup(_ name: UnsafeBufferPointer<UInt8>) -> KeyPlan.Lookup {
        var place = Int(truncatingIfNeeded: KeyTable.hash(name)) & mask
        while true {
            let index = Int(table[place])
            if index < 0 { return ignoresUnlisted ? .ignored : .unmapped }
            let slot = slots[index]
            if Int(slot.name.count) == name.count
                && memoryEquals(bytes.baseAddress! + Int(slot.name.start), name.baseAddress, name.count)
            {
                if slot.isUnmapped { return .unmapped }
                if slot.paths.count == 0 { return .ignored }
                if slot.rename.count >= 0 { return .rename(buffer(slot.rename)) }
                return .candidates(index)
            }
            place = (place + 1) & mask
        }
    }

    /// The first of an entry's candidates present in an object, for an entry that ``lookup(_:)``
    /// answered with ``KeyPlan/Lookup/candidates(_:)``: the value's node and the candidate's
    /// position. A `null` value is taken only when no candidate has another value.
    func resolve(_ entry: Int, in tree: JSONTree, objectIndex: Int) -> (index: Int, position: Int)? {
        let candidates = slots[entry].paths
        var firstNull: (index: Int, position: Int)?
        for position in 0..<Int(candidates.count) {
            let path = paths[Int(candidates.start) + position]
            var current = objectIndex
            var found = true
            for step in 0..<Int(path.count) {
                let key = keys[Int(path.start) + step]
                if key.count < 0 {
                    guard let element = tree.element(Int(key.start), of: current) else {
                        found = false
                        break
                    }
                    current = element
                    continue
                }
                // Another spelling of a key beyond ASCII too, as a plain coding key is found.
                guard tree[current].kind == .object,
                    let next = tree.findMember(in: current, key: buffer(key))
                        ?? tree.findMemberCanonically(in: current, key: buffer(key))
                else {
                    found = false
                    break
                }
                current = next
            }
            guard found else { continue }
            if tree[current].kind != .null { return (current, position) }
            if firstNull == nil { firstNull = (current, position) }
        }
        return firstNull
    }

    /// A cheap hash of a short name: its length and its first and last eight bytes, mixed.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let count = bytes.count
        var head: UInt64 = 0
        var tail: UInt64 = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            if count >= 8 {
                head = raw.loadUnaligned(as: UInt64.self)
                tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            } else if count >= 4 {
                head = UInt64(raw.loadUnaligned(as: UInt32.self))
                tail = UInt64(raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
            } else if count > 0 {
                head = UInt64(base[0]) | UInt64(base[count >> 1]) << 8 | UInt64(base[count - 1]) << 16
            }
        }
        var mixed = head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(count)
        mixed ^= mixed >> 29
        return (mixed &* 0xBF58_476D_1CE4_E5B9) >> 32
    }
}

/// One step of a key path: a JSON key as UTF-8 bytes, with its text for messages, or an index
/// into an array.
struct KeyBytes: Hashable, Sendable {
    let text: String
    let utf8: [UInt8]
    /// The array index of a step into an array; `nil` for a key.
    let index: Int?

    init(_ text: String) {
        self.text = text
        self.utf8 = Array(text.utf8)
        self.index = nil
    }

    init(index: Int) {
        self.text = "[\(index)]"
        self.utf8 = []
        self.index = index
    }

    /// A key path as it is written: `info[1].time`.
    static func spelled(_ path: some Collection<KeyBytes>) -> String {
        var text = ""
        for step in path {
            if step.index == nil && !text.isEmpty { text += "." }
            text += step.text
        }
        return text
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

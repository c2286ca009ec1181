// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/*
 Key mapping when encoding: each property is written to the first source of its `KeyMapping`
 entry. A nested key (`"ext.desc"`) creates the objects on the way and merges into the ones that
 other nested keys of the same object created, so

     "name": "n", "desc": "ext.desc", "tags": "ext.tags"

 writes {"n": …, "ext": {"desc": …, "tags": …}}. A property without an entry gets the type's own
 `keyStrategy` when it has one, and otherwise the encoder's `keyEncodingStrategy`; an entry's keys
 are written as they are, with no strategy. `.ignored` properties are not written.

 Conflicts. A member holds either the value of one property or the nested keys of others, never
 both: a property written at `"ext"` while another is written at `"ext.desc"` makes the encode throw
 `EncodingError.invalidValue`, naming the type and both keys, in whichever order the two are
 encoded. Merging the nested keys into the property's own encoded object instead would depend on
 the order of the properties, and silently drop one side when the property is not an object.
 Two properties written at the very same key are not a conflict: as for a key encoded twice
 without a mapping, the last value wins, in the first one's position.
 */

extension EncodingTree {
    /// The key plan of a model type for a coding-key type, or `nil` when it has none.
    ///
    /// Looked up when a keyed container is created, not per value: a table that the tree keeps
    /// from call to call serves the models it has seen, and ``KeyPlan`` caches plans for the life
    /// of the process. A mapping that cannot be used is recorded in ``pendingError`` (containers
    /// are created where `Encoder` cannot throw) and the container writes default keys until the
    /// error is thrown.
    @inline(__always)
    func plan<Key: CodingKey>(for model: Any.Type, keys: Key.Type, encoder: TreeEncoder) -> KeyPlan? {
        let modelAddress = UInt(bitPattern: ObjectIdentifier(model))
        let keysAddress = UInt(bitPattern: ObjectIdentifier(keys))
        let slot = Self.slot(modelAddress, keysAddress)
        if planSlots[slot].model == modelAddress, planSlots[slot].keys == keysAddress {
            return planSlots[slot].plan
        }
        return planSlowPath(for: model, keys: keys, encoder: encoder, slot: slot)
    }

    @inline(never)
    private func planSlowPath<Key: CodingKey>(
        for model: Any.Type, keys: Key.Type, encoder: TreeEncoder, slot: Int
    ) -> KeyPlan? {
        let plan: KeyPlan?
        do {
            plan = try KeyPlan.plan(for: model, keys: keys)
        } catch {
            // Not kept in the table: the table outlives the call when the tree is reused, and
            // every call must find, and throw, the error again.
            record(TreeEncoder.keyMappingError(error, type: model, codingPath: encoder.codingPath))
            return nil
        }
        planSlots[slot] = PlanSlot(
            model: UInt(bitPattern: ObjectIdentifier(model)), keys: UInt(bitPattern: ObjectIdentifier(keys)), plan: plan
        )
        return plan
    }

    /// Whether a type is an array or a `[String: Value]` dictionary, has hooks or a key plan; looked up
    /// once per type and call.
    @inline(__always)
    func traits(of type: Any.Type) -> TraitSlot {
        let address = UInt(bitPattern: ObjectIdentifier(type))
        let slot = Self.slot(address, 0)
        if traitSlots[slot].type == address { return traitSlots[slot] }
        return traitsSlowPath(of: type, slot: slot)
    }

    @inline(never)
    private func traitsSlowPath(of type: Any.Type, slot: Int) -> TraitSlot {
        var entry = TraitSlot.shared(for: type)
        // Converters belong to the call's configuration, so they stay out of the process-wide cache.
        if hasConverters && configuration.settings.converters.hasConverter(for: type) {
            entry.traits.insert(.converted)
        }
        traitSlots[slot] = entry
        return entry
    }

    /// The table slot of a pair of type addresses. Metadata is at least 8-byte aligned, so the
    /// low bits carry nothing.
    @inline(__always)
    private static func slot(_ first: UInt, _ second: UInt) -> Int {
        Int(truncatingIfNeeded: (first >> 4) ^ (first >> 9) ^ (second >> 3)) & (typeSlotCount - 1)
    }
}

extension EncodingTree {
    /// Records what a type's first value showed, here and process-wide: whether it keeps unknown
    /// keys, because it wrote an ``UnknownKeys`` property (`met`) or holds one that is `nil`
    /// (which ``KeyedEncodingContainer/encodeIfPresent(_:forKey:)`` leaves out before any encoder
    /// sees it). A type seen to keep unknown keys keeps that trait, also when a later value shows
    /// it after the first did not.
    @inline(never)
    func learnUnknownKeys(of type: Any.Type, from value: Any, met: Bool) {
        let kept = met || Self.holdsUnknownKeys(Mirror(reflecting: value))
        let learned: TypeTraits = kept ? .keepsUnknownKeys : .keepsNoUnknownKeys
        let address = UInt(bitPattern: ObjectIdentifier(type))
        let slot = Self.slot(address, 0)
        if traitSlots[slot].type == address {
            if kept { traitSlots[slot].traits.remove(.keepsNoUnknownKeys) }
            traitSlots[slot].traits.formUnion(learned)
        }
        TraitSlot.learn(learned, for: type)
    }

    /// Whether a value's stored properties, its superclasses' included, hold an ``UnknownKeys``,
    /// optional or not (a custom `encode(to:)` may leave an empty one out). Asked once per type.
    private static func holdsUnknownKeys(_ mirror: Mirror) -> Bool {
        var level: Mirror? = mirror
        while let current = level {
            if current.children.contains(where: {
                let type = Swift.type(of: $0.value)
                return type == UnknownKeys?.self || type == UnknownKeys.self
            }) {
                return true
            }
            level = current.superclassMirror
        }
        return false
    }
}

extension EncodingTree.TraitSlot {
    /// Adds what a value showed about its type to the process-wide cache: keeping unknown keys
    /// replaces keeping none (a type whose first value left its optional bag out).
    static func learn(_ traits: EncodingTree.TypeTraits, for type: Any.Type) {
        let id = ObjectIdentifier(type)
        lock.lock()
        defer { lock.unlock() }
        guard var entry = cache[id] else { return }
        if traits.contains(.keepsUnknownKeys) { entry.traits.remove(.keepsNoUnknownKeys) }
        if entry.traits.contains(.keepsUnknownKeys) { return }
        entry.traits.formUnion(traits)
        cache[id] = entry
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: EncodingTree.TraitSlot] = [:]

    /// The traits of a type from the process-wide cache, so that the runtime's conformance
    /// checks run once per type and process rather than once per encode.
    static func shared(for type: Any.Type) -> EncodingTree.TraitSlot {
        let id = ObjectIdentifier(type)
        lock.lock()
        let cached = cache[id]
        lock.unlock()
        if let cached { return cached }
        var entry = EncodingTree.TraitSlot(type: UInt(bitPattern: id))
        // One runtime question for a type that conforms to none of the package's protocols, and
        // none more for the package's own collections (see `LenientMarkers.swift`).
        if let marked = type as? any _LenientEncodingMarker.Type {
            switch marked._lenientEncodingRole.kind {
            case .adopter:
                if type is any EncodingHooks.Type { entry.traits.insert(.hooks) }
                if type is any KeyMapping.Type || type is any DeclaredDefaults.Type { entry.traits.insert(.keyPlan) }
            case .collection(let collection):
                entry.collection = collection
                entry.scalarElements = EncodingTree.ScalarElements(arrayType: type)
            }
        }
        lock.lock()
        cache[id] = entry
        lock.unlock()
        return entry
    }
}

extension TreeEncoder {
    /// What a member is wanted for, which decides what an existing member may be.
    enum MemberUse {
        /// A property's value: an existing member is emptied for it.
        case value
        /// A nested keyed container: an existing object is added to.
        case object
        /// A nested unkeyed container: an existing array is added to.
        case array
    }

    /// The member that a property of a type with a key plan is written to, or `nil` when the plan
    /// ignores the property.
    ///
    /// - Parameters:
    ///   - propertyName: The coding key's string value.
    ///   - object: The object node of the container.
    ///   - use: What the member is for.
    ///   - plan: The plan of the container's type.
    ///   - defaultKey: The key under the encoder's strategy, for a property with no entry when the
    ///     type has no strategy of its own.
    ///   - codingPath: The coding path of the property, for errors.
    /// - Throws: `EncodingError.invalidValue` when the member conflicts with a nested key.
    func mappedMember(
        propertyName: String, in object: Int32, use: MemberUse, plan: KeyPlan, defaultKey: () -> String,
        codingPath: () -> [any CodingKey]
    ) throws(EncodingError) -> Int32? {
        var record = EncodingTree.TakeBack()
        return try mappedMember(
            propertyName: propertyName, in: object, use: use, plan: plan, defaultKey: defaultKey,
            codingPath: codingPath, record: &record)
    }

    /// ``mappedMember(propertyName:in:use:plan:defaultKey:codingPath:)``, noting in `record` what
    /// to undo should the value written there fail (``EncodingTree/takeBack(_:_:)``).
    func mappedMember(
        propertyName: String, in object: Int32, use: MemberUse, plan: KeyPlan, defaultKey: () -> String,
        codingPath: () -> [any CodingKey], record: inout EncodingTree.TakeBack
    ) throws(EncodingError) -> Int32? {
        switch plan.entry(for: propertyName) {
        case .ignored?:
            return nil
        case .sources(let candidates)?:
            // The plan has checked that every candidate has at least one key.
            guard let path = candidates.first, let lastKey = path.last else { return nil }
            var parent = object
            try Self.checkIndices(of: path, plan: plan, propertyName: propertyName, codingPath: codingPath)
            for level in path.indices.dropLast() {
                let step = path[level]
                let before = tree.nodes[Int(parent)].childCount
                let (child, existed) =
                    step.index.map { (tree.element($0, of: parent), false) } ?? tree.member(step.text, of: parent)
                record.note(parent, had: before, now: tree.nodes[Int(parent)].childCount)
                let node = tree.nodes[Int(child)]
                let wantsArray = path[level + 1].index != nil
                if !existed && (node.kind == .unset || (node.kind == .null && node.holdsNestedKeys)) {
                    // A new member, a new element, or an element that only pads the array so far.
                    if wantsArray { tree.makeArray(child) } else { tree.makeObject(child) }
                    tree.nodes[Int(child)].holdsNestedKeys = true
                } else if !node.holdsNestedKeys || (node.kind == .array) != wantsArray {
                    throw Self.nestedKeyConflict(
                        plan: plan, propertyName: propertyName, path: path, conflictingLevel: level,
                        codingPath: codingPath())
                }
                parent = child
            }
            guard let position = lastKey.index else {
                return try member(lastKey.text, of: parent, use: use, record: &record) { () throws(EncodingError) in
                    throw Self.nestedKeyConflict(
                        plan: plan, propertyName: propertyName, path: path, conflictingLevel: path.count - 1,
                        codingPath: codingPath())
                }
            }
            let before = tree.nodes[Int(parent)].childCount
            let element = tree.element(position, of: parent)
            record.note(parent, had: before, now: tree.nodes[Int(parent)].childCount)
            if tree.nodes[Int(element)].holdsNestedKeys && tree.nodes[Int(element)].kind != .null && use != .object {
                throw Self.nestedKeyConflict(
                    plan: plan, propertyName: propertyName, path: path, conflictingLevel: path.count - 1,
                    codingPath: codingPath())
            }
            if use == .value {
                if record.keepsOld && record.grown < 0 {
                    record.saved = tree.setAside(element)
                } else {
                    tree.clear(element)
                }
            }
            return element
        case nil:
            let key = plan.strategyKey(for: propertyName)?.text ?? defaultKey()
            return try member(key, of: object, use: use, record: &record) { () throws(EncodingError) in
                throw Self.nestedKeyConflict(
                    plan: plan, propertyName: propertyName, path: [KeyBytes(key)], conflictingLevel: 0,
                    codingPath: codingPath())
            }
        }
    }

    /// The member of an object for a key, prepared for its use; calls `conflict` when the member
    /// holds nested keys and is wanted for anything but adding members to it.
    private func member(
        _ key: String, of object: Int32, use: MemberUse, record: inout EncodingTree.TakeBack,
        conflict: () throws(EncodingError) -> Void
    ) throws(EncodingError) -> Int32 {
        let before = tree.nodes[Int(object)].childCount
        let (member, existed) = tree.member(key, of: object)
        guard existed else {
            record.note(object, had: before, now: tree.nodes[Int(object)].childCount)
            return member
        }
        if tree.nodes[Int(member)].holdsNestedKeys {
            if use != .object { try conflict() }
        } else if use == .value {
            if record.keepsOld && record.grown < 0 { record.saved = tree.setAside(member) } else { tree.clear(member) }
        }
        return member
    }

    /// The error for a key mapping that cannot be used, as the decoder reports it but as an
    /// `EncodingError`.
    @inline(never)
    static func keyMappingError(_ error: KeyMappingError, type: Any.Type, codingPath: [any CodingKey])
        -> EncodingError
    {
        EncodingError.invalidValue(
            type, .init(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }

    /// The largest array index a key path may write: the encoder pads the elements before it
    /// with `null`, so an index of two billion would ask for two billion nodes.
    static let largestWrittenIndex = 65_535

    /// Refuses a key path with an index past ``largestWrittenIndex``, before anything is written.
    private static func checkIndices(
        of path: [KeyBytes], plan: KeyPlan, propertyName: String, codingPath: () -> [any CodingKey]
    ) throws(EncodingError) {
        guard let index = path.lazy.compactMap(\.index).first(where: { $0 > largestWrittenIndex }) else { return }
        let written = KeyBytes.spelled(path)
        let error = KeyMappingError(
            typeName: plan.typeName, propertyName: propertyName,
            problem:
                "writes \"\(written)\", whose index \(index) is past \(largestWrittenIndex), the largest index the encoder pads an array to"
        )
        throw EncodingError.invalidValue(
            written, .init(codingPath: codingPath(), debugDescription: error.description, underlyingError: error))
    }

    /// The error for a property written where another property's nested keys are, or through a
    /// member that holds another property's value.
    @inline(never)
    static func nestedKeyConflict(
        plan: KeyPlan, propertyName: String, path: [KeyBytes], conflictingLevel: Int, codingPath: [any CodingKey]
    ) -> EncodingError {
        let written = KeyBytes.spelled(path)
        let member = KeyBytes.spelled(path[...conflictingLevel])
        let problem =
            conflictingLevel == path.count - 1
            ? "writes \"\(written)\", where other properties of \(plan.typeName) write nested keys"
            : "writes \"\(written)\" inside \"\(member)\", which holds the value of another property of \(plan.typeName)"
        let error = KeyMappingError(typeName: plan.typeName, propertyName: propertyName, problem: problem)
        return EncodingError.invalidValue(
            written, .init(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }
}

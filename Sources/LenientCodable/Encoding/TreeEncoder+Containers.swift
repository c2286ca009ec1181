// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A keyed container: writes members of an object node.
///
/// Encoding a key twice keeps the member's first position and its last value, as Foundation
/// keeps the last value. Keys go through ``TreeEncoder/jsonKey(for:suffix:)``, or through the
/// key plan when the container's type has one (see `TreeEncoder+KeyMapping.swift`).
struct TreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let node: Int32
    let suffix: EncoderPathNode
    /// The key plan of the type that asked for the container; `nil` for types without one, which
    /// take the fast path.
    let plan: KeyPlan?
    /// Whether the scalars take the generic path: the encoder has converters to look up, or the
    /// type transforms what some property encodes.
    private let usesGenericPath: Bool

    init(encoder: TreeEncoder, node: Int32, suffix: EncoderPathNode, plan: KeyPlan? = nil) {
        self.encoder = encoder
        self.node = node
        self.suffix = suffix
        self.plan = plan
        usesGenericPath = encoder.tree.hasConverters || plan?.hasEncodingTransforms == true
    }

    var codingPath: [any CodingKey] { encoder.codingPath + suffix.keys }

    /// The member node for a key, emptied for a new value; `nil` when the key mapping ignores the
    /// property.
    @inline(__always)
    private func slotIfWritten(for key: Key) throws(EncodingError) -> Int32? {
        guard let plan else {
            let tree = encoder.tree
            let (member, existed) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
            if existed { tree.clear(member) }
            return member
        }
        return try mappedMemberSlowPath(for: key, use: .value, plan: plan)
    }

    /// The member node for a key, emptied for a new value; a detached node when the key mapping
    /// ignores the property, so that scalars need no extra branch.
    @inline(__always)
    private func slot(for key: Key) throws(EncodingError) -> Int32 {
        try slotIfWritten(for: key) ?? encoder.tree.detachedNode()
    }

    private func mappedMemberSlowPath(for key: Key, use: TreeEncoder.MemberUse, plan: KeyPlan) throws(EncodingError)
        -> Int32?
    {
        try encoder.mappedMember(
            propertyName: key.stringValue, in: node, use: use, plan: plan,
            defaultKey: { encoder.jsonKey(for: key, suffix: suffix) }, codingPath: { codingPath + [key] })
    }

    /// The member node for a key where the protocol cannot throw (nested containers and
    /// encoders): errors are recorded and thrown when the value returns, and an ignored
    /// property gets a detached node.
    private func memberNode(for key: Key, use: TreeEncoder.MemberUse) -> Int32 {
        let tree = encoder.tree
        guard let plan else {
            let (member, existed) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
            if existed && use == .value { tree.clear(member) }
            return member
        }
        do {
            return try mappedMemberSlowPath(for: key, use: use, plan: plan) ?? tree.detachedNode()
        } catch {
            tree.record(error)
            return tree.detachedNode()
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        if let plan, plan.isRequired(key.stringValue) { throw requiredPropertyIsNil(key, plan: plan) }
        try encoder.tree.setNull(slot(for: key))
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setBool(slot(for: key), value)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setString(slot(for: key), value)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setInt(slot(for: key), Int64(value))
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setInt(slot(for: key), Int64(value))
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setInt(slot(for: key), Int64(value))
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setInt(slot(for: key), Int64(value))
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setInt(slot(for: key), value)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setUInt(slot(for: key), UInt64(value))
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setUInt(slot(for: key), UInt64(value))
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setUInt(slot(for: key), UInt64(value))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setUInt(slot(for: key), UInt64(value))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setUInt(slot(for: key), value)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setLiteral(slot(for: key), value.description)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        try encoder.tree.setLiteral(slot(for: key), value.description)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        guard let slot = try slotTakenBackOnFailure(forKey: key) else { return }
        do { try encoder.setFloatingPoint(value, into: slot.node, key: key) } catch {
            takeBack(slot)
            throw error
        }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        if usesGenericPath { return try encodeThroughConverters(value, forKey: key) }
        guard let slot = try slotTakenBackOnFailure(forKey: key) else { return }
        do { try encoder.setFloatingPoint(value, into: slot.node, key: key) } catch {
            takeBack(slot)
            throw error
        }
    }

    /// The member a value that may fail is written into, with what it takes to leave the tree as
    /// it was should the value fail (``EncodingTree/takeBack(_:_:)``), as under `JSONEncoder`,
    /// where a model that catches the error finds no trace of the value.
    private struct Slot {
        let node: Int32
        let record: EncodingTree.TakeBack
    }

    /// The ``Slot`` for a key; `nil` when the key mapping ignores the property.
    @inline(__always)
    private func slotTakenBackOnFailure(forKey key: Key) throws(EncodingError) -> Slot? {
        let tree = encoder.tree
        var record = EncodingTree.TakeBack()
        guard let plan else {
            let before = tree.nodes[Int(node)].childCount
            let (member, existed) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
            if existed {
                record.saved = tree.setAside(member)
            } else {
                // Appended to this object (or to no object, for a detached node: nothing to drop).
                record.grown = node
                record.previousCount = before
            }
            return Slot(node: member, record: record)
        }
        record.keepsOld = true
        let member = try encoder.mappedMember(
            propertyName: key.stringValue, in: node, use: .value, plan: plan,
            defaultKey: { encoder.jsonKey(for: key, suffix: suffix) }, codingPath: { codingPath + [key] },
            record: &record)
        return member.map { Slot(node: $0, record: record) }
    }

    /// Leaves the tree as it was before a value failed in `slot`.
    @inline(never)
    private func takeBack(_ slot: Slot) {
        encoder.tree.takeBack(slot.node, slot.record)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if T.self == KeptMembers.self {
            // `T` is `KeptMembers` (checked above): a copy of the value as its own type, no memory reinterpreted.
            return noteUnknownKeys(unsafeBitCast(value, to: KeptMembers.self), forKey: key)
        }
        guard let slot = try slotTakenBackOnFailure(forKey: key) else { return }
        do {
            try encoder.encode(value, into: slot.node, key: key)
            if let plan { try finishMappedValue(value, forKey: key, in: slot.node, plan: plan) }
        } catch {
            takeBack(slot)
            throw error
        }
    }

    /// An `UnknownKeys` property (see `KeptMembers`): written into this object once its
    /// properties are (see `writeUnknownKeysSlowPath`). Out of line, so that the frame of
    /// `encode(_:forKey:)`, which every nesting level stacks, stays small.
    @inline(never)
    private func noteUnknownKeys(_ kept: KeptMembers, forKey key: Key) {
        encoder.metUnknownKeys = true
        if case .ignored? = plan?.entry(for: key.stringValue) { return }
        encoder.tree.pendingUnknownKeys.append((node, kept.keys.members, !kept.keys.keptWithoutLooseMatching))
        if !encoder.tree.superObjects.isEmpty { encoder.tree.objectsWithBags.insert(node) }
    }

    // `nil` is left out unless the encoder writes it as `null`; a value is encoded as by `encode`.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { return try encode(value, forKey: key) }
        try encodeAbsent(forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try encodeAbsent(forKey: key) }
    }
    /// A `nil` optional: `null` when the encoder writes nil that way, nothing otherwise but a
    /// note of it, for the members an ``UnknownKeys`` property writes back. A property the type
    /// lists in its ``KeyMapping/requiredProperties`` fails instead: the decoder refuses both.
    @inline(__always)
    private mutating func encodeAbsent(forKey key: Key) throws {
        if let plan, plan.isRequired(key.stringValue) { throw requiredPropertyIsNil(key, plan: plan) }
        if let payloadTag = encoder.tree.payloadTag, payloadTag.node == node { try checkAbsentIsNotTheTag(key) }
        if encoder.tree.writesNilAsNull { try encodeNil(forKey: key) }
        // Noted under `.writeNull` too: a kept value may take the place of the `null` written at
        // a nested key (`TreeEncoder.merge(kept:into:path:)`), and the `null` then goes elsewhere.
        if encoder.notesAbsentMembers {
            encoder.tree.absentMembers.append(
                (
                    node,
                    AbsentMember(
                        propertyName: key.stringValue, jsonKey: encoder.jsonKey(for: key, suffix: suffix), plan: plan)
                ))
        }
    }

    /// Refuses a `nil` optional of an internally tagged payload that the decoder would look for
    /// under a tag its members go beside (the payload's own, and an enclosing enum's when that
    /// enum is a payload too): left out, the decoder would read the tag in its place; written
    /// `null`, it would replace the tag. The property's key is the one the decoder looks up: its
    /// mapping's keys (none when it is ignored), else its coding key as the type's own key
    /// strategy spells it, or as written.
    @inline(never)
    private func checkAbsentIsNotTheTag(_ key: Key) throws {
        let tags = encoder.tree.payloadTags
        var host = node
        for tag in tags.reversed() {
            guard tag.node == host else { break }
            if absentPropertyReads(tag.key, key) { throw TaggedPayloadProblem.leavesNilAtATag(tag.key) }
            host = tag.host
        }
    }

    /// Whether the decoder looks up the JSON key `jsonKey` for the property of `key`.
    private func absentPropertyReads(_ jsonKey: String, _ key: Key) -> Bool {
        switch plan?.entry(for: key.stringValue) {
        case .ignored?:
            return false
        case .sources(let candidates)?:
            return candidates.contains { $0.count == 1 && $0[0].index == nil && $0[0].text == jsonKey }
        case nil:
            // The type's own key strategy spells the key the decoder looks up, where it has one.
            if let spelled = plan?.strategyKey(for: key.stringValue) { return spelled.text == jsonKey }
            return encoder.jsonKey(for: key, suffix: suffix) == jsonKey
        }
    }

    /// What a type with a key plan does after one of its values is written: its encoding
    /// transform, and the refusal of a required property whose value wrote `null`
    /// (`Int??.some(nil)`, `JSONValue.null`), as the decoder refuses it as it refuses `nil`. Apart
    /// from `encode(_:forKey:)`, whose frame every nesting level stacks.
    @inline(never)
    private func finishMappedValue<T: Encodable>(_ value: T, forKey key: Key, in slot: Int32, plan: KeyPlan) throws {
        if plan.hasEncodingTransforms { try applyEncodingTransform(of: key, value: value, to: slot, plan: plan) }
        if plan.isRequired(key.stringValue) && encoder.tree.nodes[Int(slot)].kind == .null {
            throw requiredPropertyIsNil(key, plan: plan)
        }
    }

    /// The error of a required property that is `nil`, or whose value writes `null`.
    @inline(never)
    private func requiredPropertyIsNil(_ key: Key, plan: KeyPlan) -> EncodingError {
        EncodingError.invalidValue(
            Optional<Any>.none as Any,
            .init(
                codingPath: codingPath + [key],
                debugDescription:
                    "\(key.stringValue) is nil, but \(plan.typeName) lists it in requiredProperties: the decoder would refuse the JSON, with the key left out or written null."
            ))
    }

    /// A scalar that has an overload of its own, when the encoder has converters or the type
    /// transforms encoded JSON: the generic path looks them up.
    private mutating func encodeThroughConverters<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encode(value, forKey: key)
    }

    /// Replaces what a property encoded with what the type's encoding transform for it returns.
    @inline(never)
    private func applyEncodingTransform<T>(of key: Key, value: T, to slot: Int32, plan: KeyPlan) throws {
        guard let transform = plan.encodingTransform(for: key.stringValue) else { return }
        let json: JSONValue
        do {
            json = try encoder.tree.jsonValue(at: slot, sortsKeys: false)
        } catch {
            throw TreeEncoder.writeError(error, topLevelValue: value)
        }
        var transformed: JSONValue
        do {
            transformed = try transform(json)
        } catch {
            throw EncodingError.invalidValue(
                json,
                .init(
                    codingPath: codingPath + [key],
                    debugDescription:
                        "The encoding transform of \(key.stringValue) in \(plan.typeName) failed: \(error)",
                    underlyingError: error))
        }
        encoder.tree.clear(slot)
        try encoder.insert(taking: &transformed, into: slot, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let member = memberNode(for: key, use: .object)
        encoder.tree.makeObject(member)
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, node: member, suffix: suffix.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let member = memberNode(for: key, use: .array)
        encoder.tree.makeArray(member)
        return TreeUnkeyedEncodingContainer(encoder: encoder, node: member, suffix: suffix.appending(key))
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyCodingKey.super
        let tree = encoder.tree
        let (member, existed) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
        if existed { tree.clear(member) }
        tree.superObjects.insert(member)
        return encoder.superEncoder(node: member, key: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.superEncoder(node: memberNode(for: key, use: .value), key: key)
    }
}

/// An unkeyed container: appends elements to an array node.
struct TreeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let node: Int32
    let suffix: EncoderPathNode

    var codingPath: [any CodingKey] { encoder.codingPath + suffix.keys }

    var count: Int { Int(encoder.tree.nodes[Int(node)].childCount) }

    /// A new element's node; a detached one when the node is no longer an array (a container kept
    /// by user code after its key was written over), as `JSONEncoder` drops what it writes.
    private func appendSlot() -> Int32 {
        let tree = encoder.tree
        // A hook's JSON written into the node (`json`) still takes the elements appended after it
        // when it is an array: expanded into nodes first.
        if tree.nodes[Int(node)].kind == .json { tree.expandIfJSONLeaf(node) }
        guard tree.nodes[Int(node)].kind == .array else { return tree.detachedNode() }
        return tree.appendElement(to: node)
    }

    mutating func encodeNil() throws { encoder.tree.setNull(appendSlot()) }
    mutating func encode(_ value: Bool) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setBool(appendSlot(), value)
    }
    mutating func encode(_ value: String) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setString(appendSlot(), value)
    }
    mutating func encode(_ value: Int) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setInt(appendSlot(), Int64(value))
    }
    mutating func encode(_ value: Int8) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setInt(appendSlot(), Int64(value))
    }
    mutating func encode(_ value: Int16) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setInt(appendSlot(), Int64(value))
    }
    mutating func encode(_ value: Int32) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setInt(appendSlot(), Int64(value))
    }
    mutating func encode(_ value: Int64) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setInt(appendSlot(), value)
    }
    mutating func encode(_ value: UInt) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setUInt(appendSlot(), UInt64(value))
    }
    mutating func encode(_ value: UInt8) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setUInt(appendSlot(), UInt64(value))
    }
    mutating func encode(_ value: UInt16) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setUInt(appendSlot(), UInt64(value))
    }
    mutating func encode(_ value: UInt32) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setUInt(appendSlot(), UInt64(value))
    }
    mutating func encode(_ value: UInt64) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setUInt(appendSlot(), value)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setLiteral(appendSlot(), value.description)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        encoder.tree.setLiteral(appendSlot(), value.description)
    }
    mutating func encode(_ value: Double) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        let index = count
        let slot = appendSlot()
        do { try encoder.setFloatingPoint(value, into: slot, key: IndexCodingKey(index)) } catch {
            takeBack(slot)
            throw error
        }
    }
    mutating func encode(_ value: Float) throws {
        if encoder.tree.hasConverters { return try encodeThroughConverters(value) }
        let index = count
        let slot = appendSlot()
        do { try encoder.setFloatingPoint(value, into: slot, key: IndexCodingKey(index)) } catch {
            takeBack(slot)
            throw error
        }
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        let slot = appendSlot()
        do { try encoder.encode(value, into: slot, key: IndexCodingKey(index)) } catch {
            takeBack(slot)
            throw error
        }
    }

    /// A scalar that has an overload of its own, when the encoder has converters: the generic
    /// path looks them up.
    private mutating func encodeThroughConverters<T: Encodable>(_ value: T) throws {
        try encode(value)
    }

    /// Takes back an element whose value failed, as `JSONEncoder` leaves no trace of it: it was
    /// the array's last, and nothing it wrote is reachable once it is dropped.
    @inline(never)
    private func takeBack(_ element: Int32) {
        // A detached element (the node is no longer an array) was never added.
        let array = encoder.tree.nodes[Int(node)]
        guard array.lastChild == element else { return }
        encoder.tree.truncateChildren(of: node, to: array.childCount - 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let index = count
        let element = appendSlot()
        encoder.tree.makeObject(element)
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(
                encoder: encoder, node: element, suffix: suffix.appending(IndexCodingKey(index))))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        let element = appendSlot()
        encoder.tree.makeArray(element)
        return TreeUnkeyedEncodingContainer(
            encoder: encoder, node: element, suffix: suffix.appending(IndexCodingKey(index)))
    }

    mutating func superEncoder() -> any Encoder {
        let index = count
        return encoder.superEncoder(node: appendSlot(), key: IndexCodingKey(index))
    }
}

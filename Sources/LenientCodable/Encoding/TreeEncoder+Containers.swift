// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A keyed container: writes members of an object node.
///
/// Encoding a key twice keeps the member's first position and its last value, as Foundation
/// keeps the last value. Keys go through ``TreeEncoder/jsonKey(for:suffix:)``.
struct TreeKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let node: Int32
    let suffix: EncoderPathNode

    var codingPath: [any CodingKey] { encoder.codingPath + suffix.keys }

    /// The member node for a key, emptied for a new value.
    private func slot(for key: Key) -> Int32 {
        let tree = encoder.tree
        let (member, existed) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
        if existed { tree.clear(member) }
        return member
    }

    mutating func encodeNil(forKey key: Key) throws { encoder.tree.setNull(slot(for: key)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoder.tree.setBool(slot(for: key), value) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoder.tree.setString(slot(for: key), value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoder.tree.setInt(slot(for: key), Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoder.tree.setInt(slot(for: key), Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoder.tree.setInt(slot(for: key), Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoder.tree.setInt(slot(for: key), Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoder.tree.setInt(slot(for: key), value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { encoder.tree.setUInt(slot(for: key), UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoder.tree.setUInt(slot(for: key), UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        encoder.tree.setUInt(slot(for: key), UInt64(value))
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        encoder.tree.setUInt(slot(for: key), UInt64(value))
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { encoder.tree.setUInt(slot(for: key), value) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128, forKey key: Key) throws {
        encoder.tree.setLiteral(slot(for: key), value.description)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128, forKey key: Key) throws {
        encoder.tree.setLiteral(slot(for: key), value.description)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try encoder.setFloatingPoint(value, into: slot(for: key), key: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try encoder.setFloatingPoint(value, into: slot(for: key), key: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.encode(value, into: slot(for: key), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let tree = encoder.tree
        let (member, _) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
        tree.makeObject(member)
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<NestedKey>(encoder: encoder, node: member, suffix: suffix.appending(key)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let tree = encoder.tree
        let (member, _) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
        tree.makeArray(member)
        return TreeUnkeyedEncodingContainer(encoder: encoder, node: member, suffix: suffix.appending(key))
    }

    mutating func superEncoder() -> any Encoder {
        let key = AnyCodingKey.super
        let tree = encoder.tree
        let (member, existed) = tree.member(encoder.jsonKey(for: key, suffix: suffix), of: node)
        if existed { tree.clear(member) }
        return TreeEncoder(tree: tree, node: member, parent: encoder, key: key)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(tree: encoder.tree, node: slot(for: key), parent: encoder, key: key)
    }
}

/// An unkeyed container: appends elements to an array node.
struct TreeUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let node: Int32
    let suffix: EncoderPathNode

    var codingPath: [any CodingKey] { encoder.codingPath + suffix.keys }

    var count: Int { Int(encoder.tree.nodes[Int(node)].childCount) }

    private func appendSlot() -> Int32 { encoder.tree.appendElement(to: node) }

    mutating func encodeNil() throws { encoder.tree.setNull(appendSlot()) }
    mutating func encode(_ value: Bool) throws { encoder.tree.setBool(appendSlot(), value) }
    mutating func encode(_ value: String) throws { encoder.tree.setString(appendSlot(), value) }
    mutating func encode(_ value: Int) throws { encoder.tree.setInt(appendSlot(), Int64(value)) }
    mutating func encode(_ value: Int8) throws { encoder.tree.setInt(appendSlot(), Int64(value)) }
    mutating func encode(_ value: Int16) throws { encoder.tree.setInt(appendSlot(), Int64(value)) }
    mutating func encode(_ value: Int32) throws { encoder.tree.setInt(appendSlot(), Int64(value)) }
    mutating func encode(_ value: Int64) throws { encoder.tree.setInt(appendSlot(), value) }
    mutating func encode(_ value: UInt) throws { encoder.tree.setUInt(appendSlot(), UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { encoder.tree.setUInt(appendSlot(), UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { encoder.tree.setUInt(appendSlot(), UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { encoder.tree.setUInt(appendSlot(), UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { encoder.tree.setUInt(appendSlot(), value) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: Int128) throws { encoder.tree.setLiteral(appendSlot(), value.description) }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encode(_ value: UInt128) throws { encoder.tree.setLiteral(appendSlot(), value.description) }
    mutating func encode(_ value: Double) throws {
        let index = count
        try encoder.setFloatingPoint(value, into: appendSlot(), key: IndexCodingKey(index))
    }
    mutating func encode(_ value: Float) throws {
        let index = count
        try encoder.setFloatingPoint(value, into: appendSlot(), key: IndexCodingKey(index))
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let index = count
        try encoder.encode(value, into: appendSlot(), key: IndexCodingKey(index))
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
        return TreeEncoder(tree: encoder.tree, node: appendSlot(), parent: encoder, key: IndexCodingKey(index))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

// An internally tagged variant's payload writes its members into the object that holds the tag.
// Under encoders other than LenientJSONEncoder that is the encoder's own keyed container, which
// cannot tell the payload's members from the tag, and which Foundation's encoder guards with a
// trap: a value that asked for a keyed container and then asks for a single value or unkeyed
// one stops the process. The payload therefore writes through `TaggedPayloadEncoder`, which
// hands out the encoder's keyed containers behind a check of the tag key, and in place of any
// other container one that refuses every value.

/// Why a payload cannot go beside its tag.
enum TaggedPayloadProblem: Error {
    /// The payload encodes as a single value or an array.
    case notAnObject
    /// The payload writes a member under the tag key.
    case writesTheTagKey
    /// The payload has a `nil` optional at this key, under which a tag its members go beside is
    /// written (its own enum's, or an enclosing one's): left out, decoding reads the tag into it.
    case leavesNilAtATag(String)
}

/// What a payload asked for that it may not have, for the containers that cannot throw when they
/// are asked (`nestedContainer(keyedBy:)`, `superEncoder()`).
final class TaggedPayloadRefusal {
    var problem: TaggedPayloadProblem?
}

/// The encoder a payload of an internally tagged variant writes to, under an encoder other than
/// LenientJSONEncoder.
struct TaggedPayloadEncoder: Encoder {
    let base: any Encoder
    let tagKey: String
    /// The tag's value: the payload may write it again under the tag key, which changes nothing.
    let tag: String
    /// Shared by the containers this encoder hands out, which record what they refused.
    let refusal: TaggedPayloadRefusal

    init(base: any Encoder, tagKey: String, tag: String, refusal: TaggedPayloadRefusal = TaggedPayloadRefusal()) {
        self.base = base
        self.tagKey = tagKey
        self.tag = tag
        self.refusal = refusal
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(TagGuardingContainer(base: base.container(keyedBy: type), encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if refusal.problem == nil { refusal.problem = .notAnObject }
        return RefusingContainer(base: base, refusal: refusal)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ForwardingSingleValueContainer(encoder: self)
    }
}

/// The single value container a payload gets: a value handed over whole (a wrapper forwarding to
/// the value it wraps, `try container.encode(user)`) encodes into this same encoder, so that an
/// object's members still go beside the tag, as under LenientJSONEncoder; a scalar or `nil` is
/// refused. The base encoder is only ever asked for keyed containers.
struct ForwardingSingleValueContainer: SingleValueEncodingContainer, RefusesScalars {
    let encoder: TaggedPayloadEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    func refuse() throws -> Never {
        if encoder.refusal.problem == nil { encoder.refusal.problem = .notAnObject }
        throw TaggedPayloadProblem.notAnObject
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // Foundation's encoders write these as single values, but their own `encode(to:)` writes
        // an object (`{"relative": …}`, a `Decimal`'s fields) that no decoder reads back as them.
        if T.self == URL.self || T.self == Decimal.self { try refuse() }
        try value.encode(to: encoder)
    }
}

/// The keyed container of the tag's object, refusing the tag key: a value under it (but the tag
/// itself), and any container or encoder for it, which cannot throw, so it records the refusal and
/// hands out one that writes nowhere that is kept.
struct TagGuardingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    let encoder: TaggedPayloadEncoder

    var codingPath: [any CodingKey] { base.codingPath }

    private func check(_ key: Key) throws {
        if key.stringValue == encoder.tagKey { throw TaggedPayloadProblem.writesTheTagKey }
    }

    /// Whether `key` is the tag key, recording the refusal when it is.
    private func refuses(_ key: Key) -> Bool {
        guard key.stringValue == encoder.tagKey else { return false }
        encoder.refusal.problem = .writesTheTagKey
        return true
    }

    mutating func encodeNil(forKey key: Key) throws {
        try check(key)
        try base.encodeNil(forKey: key)
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
        if value != encoder.tag { try check(key) }
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try check(key)
        try base.encode(value, forKey: key)
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if (value as? String) != encoder.tag { try check(key) }
        try base.encode(value, forKey: key)
    }

    // A `nil` under the tag key is refused too: left out, the decoder reads the tag in its place.
    // Handed on to the base container, which may guard an enclosing enum's tag.
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { return try encode(value, forKey: key) }
        try absent(value, forKey: key)
    }

    private mutating func absent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if key.stringValue == encoder.tagKey { throw TaggedPayloadProblem.leavesNilAtATag(encoder.tagKey) }
        try base.encodeIfPresent(value, forKey: key)
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: Int128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    mutating func encodeIfPresent(_ value: UInt128?, forKey key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try absent(value, forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        // Foundation's encoder traps when asked for a container under a key that holds a value.
        if refuses(key) { return encoder.base.container(keyedBy: keyType) }
        return base.nestedContainer(keyedBy: keyType, forKey: key)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        if refuses(key) { return RefusingContainer(base: encoder.base, refusal: encoder.refusal) }
        return base.nestedUnkeyedContainer(forKey: key)
    }

    mutating func superEncoder() -> any Encoder { base.superEncoder() }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        if refuses(key) { return encoder }
        return base.superEncoder(forKey: key)
    }
}

/// A container of a payload that refuses every scalar and `nil` with ``refuse()``: the payload's
/// members must go beside the tag, and a scalar has none.
protocol RefusesScalars {
    func refuse() throws -> Never
}

extension RefusesScalars {
    mutating func encodeNil() throws { try refuse() }
    mutating func encode(_ value: Bool) throws { try refuse() }
    mutating func encode(_ value: String) throws { try refuse() }
    mutating func encode(_ value: Double) throws { try refuse() }
    mutating func encode(_ value: Float) throws { try refuse() }
    mutating func encode(_ value: Int) throws { try refuse() }
    mutating func encode(_ value: Int8) throws { try refuse() }
    mutating func encode(_ value: Int16) throws { try refuse() }
    mutating func encode(_ value: Int32) throws { try refuse() }
    mutating func encode(_ value: Int64) throws { try refuse() }
    mutating func encode(_ value: UInt) throws { try refuse() }
    mutating func encode(_ value: UInt8) throws { try refuse() }
    mutating func encode(_ value: UInt16) throws { try refuse() }
    mutating func encode(_ value: UInt32) throws { try refuse() }
    mutating func encode(_ value: UInt64) throws { try refuse() }
}

/// The container a payload gets when it asks for anything but a keyed container: every value it
/// is given throws, and what it hands out writes nowhere that is kept (the encode fails).
struct RefusingContainer: SingleValueEncodingContainer, UnkeyedEncodingContainer, RefusesScalars {
    let base: any Encoder
    let refusal: TaggedPayloadRefusal

    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int { 0 }

    func refuse() throws -> Never { throw TaggedPayloadProblem.notAnObject }

    mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }

    // These cannot throw: they write into a keyed container of the base encoder's object, which is
    // harmless because the refusal is recorded and the payload's encoding then fails.
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        base.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

    mutating func superEncoder() -> any Encoder {
        TaggedPayloadEncoder(base: base, tagKey: "", tag: "", refusal: refusal)
    }
}

extension TreeEncoder {
    /// Encodes an internally tagged payload into a node of its own, then moves its members into
    /// this encoder's node, the tag's object, after the tag. The payload's ``EncodingHooks`` so see
    /// the payload's JSON alone, as they do under a content key. Returns why the members cannot go
    /// beside the tag, moving nothing: the payload is not an object, or it writes the tag key
    /// (other than the tag itself, as a payload with a `type` property of its own does).
    func encodeBesideTag(tag: String, tagKey: String, _ encodePayload: (TreeEncoder) throws -> Void) throws
        -> TaggedPayloadProblem?
    {
        let payloadNode = tree.detachedNode()
        let jsonTagKey = jsonKey(for: TagCodingKey(tagKey), suffix: .root)
        // The enum's own coding path: the same parent and key.
        var payloadEncoder = TreeEncoder(tree: tree, node: payloadNode, parent: parent, key: key)
        // A kept member under the tag key (the payload's `UnknownKeys` read the tag, maybe of
        // another case) is left out: the tag wins, as it did over kept members beside it.
        let enclosingPayloadTag = tree.payloadTag
        tree.payloadTag = (node: payloadNode, key: jsonTagKey)
        tree.payloadTags.append((node: payloadNode, key: jsonTagKey, host: node))
        defer {
            tree.payloadTag = enclosingPayloadTag
            tree.payloadTags.removeLast()
        }
        try encodePayload(payloadEncoder)
        // A payload that kept its encoder may write into the tree after the call.
        if !isKnownUniquelyReferenced(&payloadEncoder) { tree.hasOutsideEncoders = true }
        tree.expandIfJSONLeaf(payloadNode)
        switch tree.nodes[Int(payloadNode)].kind {
        case .object: break
        case .unset: return nil  // A payload that encodes nothing: the tag alone.
        default: return .notAnObject
        }
        var tagMember: Int32?
        var member = tree.nodes[Int(payloadNode)].firstChild
        while member >= 0 {
            // Into the tree's node storage, which owns the nodes and which nothing appends to (and
            // so moves) in this loop.
            let written = tree.nodes + Int(member)
            if written.pointee.key == jsonTagKey {
                guard tagMember == nil, written.pointee.kind == .string, written.pointee.text == tag else {
                    return .writesTheTagKey
                }
                tagMember = member
            }
            member = written.pointee.nextSibling
        }
        tree.makeObject(node)
        // The tag's object holds the tag alone, whose key no member left repeats: the members
        // are linked in as they are.
        if tree.nodes[Int(node)].childCount == 1 {
            tree.adoptMembers(of: payloadNode, into: node, skipping: tagMember)
            return nil
        }
        for member in tree.children(of: payloadNode) where member != tagMember {
            let (slot, existed) = tree.member(tree.nodes[Int(member)].key, of: node)
            if existed { tree.clear(slot) }
            tree.moveValue(of: member, to: slot)
        }
        return nil
    }
}

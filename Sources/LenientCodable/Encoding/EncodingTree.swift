// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 The encoder's intermediate tree: every JSON value an encode call produces is one `EncodedNode`
 in a single flat array, linked by 32-bit indices instead of references, so that encoding a
 model allocates no object per value and the writer walks the tree without chasing pointers.

 A container node keeps the indices of its first and last child and its child count; every
 node keeps the index of its next sibling; a member of an object keeps its key. Encoding

     {"id": 7, "tags": ["a"]}

 builds these nodes (indices on the left, -1 means none):

     0  object  first 1  last 2  count 2
     1  int 7                             key "id"    next 2
     2  array   first 3  last 3  count 1  key "tags"  next -1
     3  string "a"                                    next -1

 A node starts `unset` (a slot reserved for a value that has not been encoded yet) and becomes
 a scalar, an array or an object once encoded. Replacing a member's value resets its node;
 the old children stay in the array, unreachable, until the encode call ends. So do detached
 nodes, which no container links to: they take the values of properties that the key mapping
 ignores.

 A key mapping that writes a property under a nested key (`"ext.desc"`) creates the objects on
 the way (`ext`) and marks them `holdsNestedKeys`, so that other nested keys merge into them and
 a property written at `ext` itself is recognised as a conflict.
 */

/// One JSON value in an ``EncodingTree``.
struct EncodedNode {
    enum Kind: UInt8 {
        /// A reserved slot that no value has been encoded into yet.
        case unset
        case null
        case bool
        case int
        case uint
        case double
        case float
        /// A number written as its literal text (`Decimal`, `JSONValue.number`, `Int128`).
        case literal
        case string
        case array
        case object
    }

    // Declared in this order so that the struct packs into 64 bytes.
    /// The payload of `bool` (0 or 1), `int`, `uint`, `double` and `float` (bit patterns).
    var bits: UInt64
    /// The payload of `string` and `literal`.
    var text: String
    /// The member's key when the node is a member of an object; empty otherwise.
    var key: String
    var firstChild: Int32
    var lastChild: Int32
    var nextSibling: Int32
    var childCount: Int32
    /// A hash of ``key``, compared before the keys themselves when looking a member up.
    var keyHash: UInt32
    var kind: Kind
    /// Whether the node is an object created by the key mapping to hold nested keys, rather than
    /// the value of a property.
    var holdsNestedKeys: Bool

    init(key: String = "", keyHash: UInt32 = 0) {
        kind = .unset
        holdsNestedKeys = false
        self.keyHash = keyHash
        bits = 0
        text = ""
        self.key = key
        firstChild = -1
        lastChild = -1
        nextSibling = -1
        childCount = 0
    }
}

/// The nodes of one encode call, plus the settings the call runs with.
///
/// One instance is shared by every encoder and container of a call; nodes refer to each other
/// by index into ``nodes``.
final class EncodingTree {
    var nodes: [EncodedNode]
    /// Key lookup tables for objects with many members, built on demand, by object index.
    private var memberTables: [Int32: [String: Int32]] = [:]
    let settings: EncoderSettings
    let userInfo: [CodingUserInfoKey: Any]
    /// The key strategy, resolved once per call.
    let keyMode: KeyMode
    /// Keys already converted to snake case in this call: models repeat the same few keys.
    var snakeCaseKeys: [String: String] = [:]
    /// The key plans looked up in this call, in a direct-mapped table indexed by the types'
    /// addresses: a lookup is a few shifts and two compares, where hashing would cost more than
    /// the rest of a small container. Empty until the first keyed container.
    var planSlots: [PlanSlot] = []
    /// The traits of the types encoded in this call, in a table like ``planSlots``.
    var traitSlots: [TraitSlot] = []
    /// An error found where `Encoder` cannot throw (creating a container): thrown as soon as the
    /// value being encoded returns, and at the latest when the call ends.
    private(set) var pendingError: EncodingError?
    /// Whether ``pendingError`` is set: a plain flag, because testing the optional error itself
    /// goes through `EncodingError`'s value witnesses on every value.
    private(set) var hasPendingError = false
    /// Whether the settings register any converter; when not, no value looks for one.
    let hasConverters: Bool

    /// The size of ``planSlots`` and ``traitSlots``, a power of two.
    static let typeSlotCount = 32

    /// One entry of ``planSlots``; a `model` of 0 is empty.
    struct PlanSlot {
        var model: UInt = 0
        var keys: UInt = 0
        var plan: KeyPlan?
    }

    /// One entry of ``traitSlots``; a `type` of 0 is empty.
    struct TraitSlot {
        var type: UInt = 0
        var traits: TypeTraits = []
    }

    /// Keeps the first error found where the encoder cannot throw.
    func record(_ error: EncodingError) {
        guard !hasPendingError else { return }
        pendingError = error
        hasPendingError = true
    }

    /// What the encoder needs to know about a type beyond its `encode(to:)`, found once per call.
    struct TypeTraits: OptionSet {
        let rawValue: UInt8
        /// `[String: Value]`, whose keys are written as they are.
        static let stringKeyedDictionary = TypeTraits(rawValue: 1)
        /// Conforms to ``EncodingHooks``.
        static let hooks = TypeTraits(rawValue: 2)
        /// Has a converter in the settings.
        static let converted = TypeTraits(rawValue: 4)
    }

    /// Objects with more members than this get a hash table for key lookups; below it a linear
    /// scan over short keys is faster than hashing.
    private static let linearLookupLimit: Int32 = 24

    /// How keys are converted, as a closed enum so that the hot path switches without an
    /// `@unknown default`.
    enum KeyMode {
        case useDefaultKeys
        case snakeCase
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    init(settings: EncoderSettings) {
        self.settings = settings
        self.hasConverters = !settings.converters.isEmpty
        switch settings.keyEncodingStrategy {
        case .convertToSnakeCase: keyMode = .snakeCase
        case .custom(let convert): keyMode = .custom(convert)
        default: keyMode = .useDefaultKeys
        }
        var userInfo: [CodingUserInfoKey: Any] = [:]
        userInfo.reserveCapacity(settings.userInfo.count)
        for (key, value) in settings.userInfo { userInfo[key] = value }
        self.userInfo = userInfo
        nodes = []
        nodes.reserveCapacity(64)
        nodes.append(EncodedNode())
    }

    /// The root node, where the top-level value goes.
    static let root: Int32 = 0

    // MARK: Scalars

    func setNull(_ node: Int32) {
        nodes[Int(node)].kind = .null
    }

    func setBool(_ node: Int32, _ value: Bool) {
        let index = Int(node)
        nodes[index].kind = .bool
        nodes[index].bits = value ? 1 : 0
    }

    func setInt(_ node: Int32, _ value: Int64) {
        let index = Int(node)
        nodes[index].kind = .int
        nodes[index].bits = UInt64(bitPattern: value)
    }

    func setUInt(_ node: Int32, _ value: UInt64) {
        let index = Int(node)
        nodes[index].kind = .uint
        nodes[index].bits = value
    }

    func setDouble(_ node: Int32, _ value: Double) {
        let index = Int(node)
        nodes[index].kind = .double
        nodes[index].bits = value.bitPattern
    }

    func setFloat(_ node: Int32, _ value: Float) {
        let index = Int(node)
        nodes[index].kind = .float
        nodes[index].bits = UInt64(value.bitPattern)
    }

    func setLiteral(_ node: Int32, _ text: String) {
        let index = Int(node)
        nodes[index].kind = .literal
        nodes[index].text = text
    }

    func setString(_ node: Int32, _ text: String) {
        let index = Int(node)
        nodes[index].kind = .string
        nodes[index].text = text
    }

    // MARK: Containers

    /// Makes the node an empty array unless it already is an array; returns whether it was one.
    @discardableResult
    func makeArray(_ node: Int32) -> Bool {
        let index = Int(node)
        if nodes[index].kind == .array { return true }
        clear(node)
        nodes[index].kind = .array
        return false
    }

    /// Makes the node an empty object unless it already is an object.
    func makeObject(_ node: Int32) {
        let index = Int(node)
        if nodes[index].kind == .object { return }
        clear(node)
        nodes[index].kind = .object
    }

    /// Turns the node back into an unset slot, dropping its value and children.
    func clear(_ node: Int32) {
        let index = Int(node)
        if nodes[index].kind == .object, nodes[index].childCount > Self.linearLookupLimit {
            memberTables[node] = nil
        }
        nodes[index].kind = .unset
        nodes[index].holdsNestedKeys = false
        nodes[index].text = ""
        nodes[index].firstChild = -1
        nodes[index].lastChild = -1
        nodes[index].childCount = 0
    }

    private func appendChild(_ child: EncodedNode, to parent: Int32) -> Int32 {
        let childIndex = Int32(truncatingIfNeeded: nodes.count)
        nodes.append(child)
        let parentIndex = Int(parent)
        let last = nodes[parentIndex].lastChild
        if last < 0 {
            nodes[parentIndex].firstChild = childIndex
        } else {
            nodes[Int(last)].nextSibling = childIndex
        }
        nodes[parentIndex].lastChild = childIndex
        nodes[parentIndex].childCount += 1
        return childIndex
    }

    /// Appends an unset node that no container links to: the value written into it is dropped.
    func detachedNode() -> Int32 {
        let index = Int32(truncatingIfNeeded: nodes.count)
        nodes.append(EncodedNode())
        return index
    }

    /// Appends an unset element to an array node and returns it.
    func appendElement(to array: Int32) -> Int32 {
        appendChild(EncodedNode(), to: array)
    }

    /// Appends an unset member to an object node without looking for an existing member with the
    /// same key: for callers that know the key is new, such as a dictionary's keys.
    func appendMember(_ key: String, to object: Int32) -> Int32 {
        appendMember(key, hash: Self.hash(key), to: object)
    }

    private func appendMember(_ key: String, hash: UInt32, to object: Int32) -> Int32 {
        let member = appendChild(EncodedNode(key: key, keyHash: hash), to: object)
        if nodes[Int(object)].childCount > Self.linearLookupLimit {
            indexMember(member, key: key, of: object)
        }
        return member
    }

    /// The member of an object node with the given key, appended as an unset slot if there is
    /// none. An existing member keeps its place and its value; the caller decides whether to
    /// replace it.
    func member(_ key: String, of object: Int32) -> (node: Int32, existed: Bool) {
        let count = nodes[Int(object)].childCount
        if count > Self.linearLookupLimit {
            if let found = memberTables[object]?[key] { return (found, true) }
        } else if count > 0 {
            let hash = Self.hash(key)
            var child = nodes[Int(object)].firstChild
            while child >= 0 {
                if nodes[Int(child)].keyHash == hash && nodes[Int(child)].key == key { return (child, true) }
                child = nodes[Int(child)].nextSibling
            }
            return (appendMember(key, hash: hash, to: object), false)
        }
        return (appendMember(key, to: object), false)
    }

    /// FNV-1a over the key's UTF-8 bytes: cheaper than the string comparisons it saves.
    static func hash(_ key: String) -> UInt32 {
        var key = key
        return key.withUTF8 { utf8 in
            var hash: UInt32 = 2_166_136_261
            for byte in utf8 {
                hash = (hash ^ UInt32(byte)) &* 16_777_619
            }
            return hash
        }
    }

    private func indexMember(_ member: Int32, key: String, of object: Int32) {
        if memberTables[object] == nil {
            var table: [String: Int32] = [:]
            var child = nodes[Int(object)].firstChild
            while child >= 0 {
                table[nodes[Int(child)].key] = child
                child = nodes[Int(child)].nextSibling
            }
            memberTables[object] = table
        } else {
            memberTables[object]?[key] = member
        }
    }

    /// The children of a container node, in order.
    func children(of node: Int32) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(Int(nodes[Int(node)].childCount))
        var child = nodes[Int(node)].firstChild
        while child >= 0 {
            result.append(child)
            child = nodes[Int(child)].nextSibling
        }
        return result
    }
}

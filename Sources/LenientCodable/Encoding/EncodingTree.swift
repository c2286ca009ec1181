// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

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

 The JSON an `EncodingHooks` type returns is kept as one `json` node holding the `JSONValue`,
 not copied into nodes: a hooked type inside another hooked type then hands the outer hook its
 inner JSON as it is, and nested hooked types cost the size of the value, not its depth times
 its size. Whatever reads a node's members (a container opened on it again, a nested key, the
 writer) first expands such a node into ordinary nodes; that reading is rare, and each node is
 expanded at most once.
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
        /// An array or object that an ``EncodingHooks`` type returned, kept whole as a
        /// ``JSONValue`` in the tree's table until something needs its members as nodes (see
        /// ``EncodingTree/expandJSONLeaf(_:)``). Its `bits` let every key through, as an object's
        /// filter, so that looking a member up finds it on the slow path.
        case json

        /// Whether the node is a value of its own, not a container (nor unset, which is written
        /// as an empty object): the kinds declared between `unset` and `array`, told by one
        /// unsigned comparison (`unset` wraps around to the largest value).
        var isScalar: Bool { rawValue &- 1 < Kind.array.rawValue &- 1 }
    }

    // Declared in this order so that the struct packs into 64 bytes.
    /// The payload of `bool` (0 or 1), `int`, `uint`, `double` and `float` (bit patterns); for
    /// an object, a filter of its members' key hashes.
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
    /// Whether ``text`` or ``key`` was ever given a string: a node that was not holds only empty
    /// literals, which own nothing, and the tree skips it when it deinitializes its nodes.
    var ownsStrings: Bool

    /// An unset node without a key: an element, the root, or a detached node.
    init() {
        self.init(key: "", keyHash: 0, ownsStrings: false)
    }

    /// An unset member of an object.
    init(key: String, keyHash: UInt32) {
        self.init(key: key, keyHash: keyHash, ownsStrings: true)
    }

    private init(key: String, keyHash: UInt32, ownsStrings: Bool) {
        kind = .unset
        holdsNestedKeys = false
        self.ownsStrings = ownsStrings
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

/// The nodes of one encode call, plus the configuration the call runs with.
///
/// One instance is shared by every encoder and container of a call; nodes refer to each other
/// by index into ``nodes``. When the call ends and no code outside it holds the tree's root
/// encoder or any other (see ``hasOutsideEncoders``), the encoder empties the tree (``reset()``)
/// and gives it, with its root encoder, to its next call with the same configuration, which so
/// starts with node storage, an output buffer and tables of types already in place. No encoder
/// that user code was given is kept: one held only by a `weak` reference ends with its call
/// instead of reaching the next one (``TreeEncoder/encodeTree(with:for:_:)``).
///
/// The nodes and the other state that changes on every value live behind pointers that the
/// tree allocates itself: a class's `var` properties cost a dynamic exclusivity check on every
/// access, and an array property a uniqueness check on every write, which together used to
/// outweigh the work of storing a number.
final class EncodingTree {
    /// The members of ``UnknownKeys`` properties, by the object node they belong to, written
    /// once the object's value has encoded its properties; innermost last.
    ///
    /// Exempt from the dynamic exclusivity check that every value's encode would pay: it is only
    /// changed by single `append`, `removeLast` and `removeAll(where:)` calls, whose code (a
    /// comparison of node indices) calls nothing else, so accesses cannot overlap.
    @exclusivity(unchecked) var pendingUnknownKeys: [(node: Int32, members: JSONObject, readLoosely: Bool)] = []
    /// The `nil` optionals left out of the objects being written, with their object, in the
    /// order they were left out, until the value they belong to is finished: where the decoder
    /// would find one under another spelling once kept members are written, its key is written
    /// `null` (``TreeEncoder/writeUnknownKeysSlowPath(into:absentFrom:)``). Changed only by single
    /// `append`, `removeSubrange` and `removeAll(where:)` calls whose code (a comparison of node
    /// indices) calls nothing else, as ``pendingUnknownKeys``.
    @exclusivity(unchecked) var absentMembers: [(node: Int32, member: AbsentMember)] = []
    /// The node an internally tagged payload is being encoded into, and the tag's key as written:
    /// kept members under that key are not written there, as they were not beside the tag
    /// itself, where the tag wins (``TreeEncoder/encodeBesideTag(tag:tagKey:_:)``). Only
    /// assigned whole, so exempt from the dynamic exclusivity check.
    @exclusivity(unchecked) var payloadTag: (node: Int32, key: String)?
    /// The tags of the internally tagged payloads being encoded, outermost first: each payload's
    /// node, its tag key, and the node its members then move into (its enum's), which is the
    /// payload node of the tag before it when that enum is itself a payload. A `nil` optional of
    /// a payload is refused under any of the tags its members end up beside
    /// (``TreeEncoder/encodeBesideTag(tag:tagKey:_:)``).
    @exclusivity(unchecked) var payloadTags: [(node: Int32, key: String, host: Int32)] = []
    /// The `super` members that keyed containers' `superEncoder()` handed out: a superclass
    /// writes its object there, and a subclass's ``UnknownKeys`` kept `super` whole (the decoder
    /// cannot know what the superclass reads), so what was kept is merged into that object, the
    /// superclass's own members winning. Only changed by single `insert` calls.
    @exclusivity(unchecked) var superObjects: Set<Int32> = []
    /// The objects into which an ``UnknownKeys`` property of their own was encoded, while a
    /// `superEncoder()` object is about (``superObjects``): a superclass with a bag of its own
    /// keeps its unknown members itself. Only changed by single `insert` calls.
    @exclusivity(unchecked) var objectsWithBags: Set<Int32> = []
    /// Keeps the calls off the end of their thread's stack (``TreeEncoder/checkStack(_:depth:suffix:)``).
    /// It keeps nothing of a thread: each check asks the bounds of the thread it runs on
    /// (``StackGuard/stackOfCurrentThread()``), so a tree reused on another thread, even one
    /// whose stack lies where an ended thread's was, checks against its own stack. Only used by
    /// the encoders of the call under way, one at a time, so exempt from the dynamic exclusivity
    /// check.
    @exclusivity(unchecked) var stackGuard = StackGuard(maximumReserve: 64 * 1024)
    /// The mutable state of the call, in one allocation.
    private struct State {
        var nodes: UnsafeMutablePointer<EncodedNode>
        var count: Int
        var capacity: Int
        /// Whether ``pendingError`` is set: a plain flag, because testing the optional error
        /// itself goes through `EncodingError`'s value witnesses on every value.
        var hasPendingError: Bool
        var pendingError: EncodingError?
        /// Keys already converted to snake case by this tree's calls: models repeat the same few keys.
        var snakeCaseKeys: [String: String]
        /// Key lookup tables for objects with many members, built on demand, by object index.
        var memberTables: [Int32: [String: Int32]]
        /// The values of the `json` nodes, with the number of container levels of each, by node.
        /// Kept until the call ends.
        var jsonLeaves: [Int32: (value: JSONValue, height: Int)] = [:]
    }

    private let state: UnsafeMutablePointer<State>
    /// See ``outputBuffer()``. Only read and assigned whole, so exempt from the dynamic
    /// exclusivity check.
    @exclusivity(unchecked) private var output: ByteBuffer?
    /// Whether code outside the encode call may hold an encoder of this tree, other than the root:
    /// one that a value kept when it was given back, or one handed out by `superEncoder()`. Such
    /// an encoder could write into the tree after the call, so the tree is not reused. Only
    /// assigned whole, so exempt from the dynamic exclusivity check.
    @exclusivity(unchecked) var hasOutsideEncoders = false
    /// The key plans this tree's calls looked up, in a direct-mapped table indexed by the types'
    /// addresses: a lookup is a few shifts and two compares, where hashing would cost more than
    /// the rest of a small container.
    let planSlots: UnsafeMutablePointer<PlanSlot>
    /// The traits of the types this tree's calls encoded, in a table like ``planSlots``.
    let traitSlots: UnsafeMutablePointer<TraitSlot>
    /// The settings of the encoder when the call started, shared with the encoder's other calls.
    let configuration: EncoderConfiguration
    /// The key strategy (``EncoderConfiguration/keyMode``), kept here as well because every key reads it.
    let keyMode: KeyMode

    /// The nodes, valid until the next node is appended.
    @inline(__always)
    var nodes: UnsafeMutablePointer<EncodedNode> { state.pointee.nodes }

    /// The number of nodes.
    @inline(__always)
    var nodeCount: Int { state.pointee.count }

    /// An error found where `Encoder` cannot throw (creating a container): thrown as soon as the
    /// value being encoded returns, and at the latest when the call ends.
    var pendingError: EncodingError? { state.pointee.pendingError }

    /// Whether ``pendingError`` is set.
    @inline(__always)
    var hasPendingError: Bool { state.pointee.hasPendingError }

    /// A key already converted to snake case by this tree's calls.
    ///
    /// Only ASCII keys are remembered (``rememberSnakeCaseKey(_:for:)``), and a key is found only
    /// under its own bytes: the table's `String` keys compare by canonical equivalence, and
    /// `"é"` written decomposed must not take the spelling of `"é"` precomposed.
    func snakeCaseKey(for key: String) -> String? {
        guard let index = state.pointee.snakeCaseKeys.index(forKey: key) else { return nil }
        let (remembered, converted) = state.pointee.snakeCaseKeys[index]
        // The remembered key is ASCII: a key equal to it with as many bytes has the same bytes.
        return remembered.utf8.count == key.utf8.count ? converted : nil
    }

    /// Remembers a key's snake case, in the table itself: through a property's setter the table
    /// would be copied whole for each new key, a cost of the square of the distinct keys.
    func rememberSnakeCaseKey(_ converted: String, for key: String) {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return }
        state.pointee.snakeCaseKeys[key] = converted
    }

    /// Whether the settings register any converter; when not, no value looks for one. A copy of
    /// ``EncoderConfiguration/hasConverters``, one load away from every value.
    let hasConverters: Bool
    /// Whether a `nil` optional property is written as `null` rather than left out; a copy of
    /// ``EncoderConfiguration/writesNilAsNull``.
    let writesNilAsNull: Bool

    /// The size of ``planSlots`` and ``traitSlots``, a power of two.
    static let typeSlotCount = 256

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
        /// For `[Int]`, `[String]` and `[Double]`, their element type, which the encoder writes
        /// without an encoder of the array's own.
        var scalarElements: ScalarElements = .none
        /// The type's conformance when the encoder writes it itself: an array or `[String: T]`.
        var collection: (any EncodableCollection.Type)?
    }

    /// The element type of an array that the encoder writes straight into the tree.
    enum ScalarElements: UInt8 {
        case none, int, string, double

        init(arrayType type: Any.Type) {
            if type == [Int].self {
                self = .int
            } else if type == [String].self {
                self = .string
            } else if type == [Double].self {
                self = .double
            } else {
                self = .none
            }
        }
    }

    /// Keeps the first error found where the encoder cannot throw.
    func record(_ error: EncodingError) {
        guard !state.pointee.hasPendingError else { return }
        state.pointee.pendingError = error
        state.pointee.hasPendingError = true
    }

    /// What the encoder needs to know about a type beyond its `encode(to:)`, found once per tree.
    struct TypeTraits: OptionSet {
        let rawValue: UInt8
        /// Conforms to ``EncodingHooks``.
        static let hooks = TypeTraits(rawValue: 2)
        /// Has a converter in the settings.
        static let converted = TypeTraits(rawValue: 4)
        /// Conforms to ``KeyMapping`` or ``DeclaredDefaults``: its keyed containers look up a
        /// key plan.
        static let keyPlan = TypeTraits(rawValue: 8)
        /// Its values write an ``UnknownKeys`` property (learned from its first value).
        static let keepsUnknownKeys = TypeTraits(rawValue: 16)
        /// Its first value wrote no ``UnknownKeys`` property (learned from it).
        static let keepsNoUnknownKeys = TypeTraits(rawValue: 32)
    }

    /// Objects with more members than this get a hash table for key lookups; below it a filter
    /// of the members' hashes and a scan over them are faster than hashing.
    private static let linearLookupLimit: Int32 = 48

    /// How keys are converted, as a closed enum so that the hot path switches without an
    /// `@unknown default`.
    enum KeyMode {
        case useDefaultKeys
        case snakeCase
        case custom(@Sendable ([any CodingKey]) -> any CodingKey)
    }

    /// A tree with room for `size` (the size of the encoder's last call, so that a large value
    /// encoded again does not grow its storage step by step), and at least 64 nodes.
    init(configuration: EncoderConfiguration, size: Size = Size()) {
        self.configuration = configuration
        hasConverters = configuration.hasConverters
        writesNilAsNull = configuration.writesNilAsNull
        keyMode = configuration.keyMode
        outputCapacity = size.outputBytes
        let capacity = max(64, size.nodes)
        let nodes = Self.allocateNodes(capacity: capacity)
        nodes.initialize(to: EncodedNode())
        state = .allocate(capacity: 1)
        state.initialize(
            to: State(
                nodes: nodes, count: 1, capacity: capacity, hasPendingError: false, pendingError: nil,
                snakeCaseKeys: [:], memberTables: [:]))
        planSlots = .allocate(capacity: Self.typeSlotCount)
        planSlots.initialize(repeating: PlanSlot(), count: Self.typeSlotCount)
        traitSlots = .allocate(capacity: Self.typeSlotCount)
        traitSlots.initialize(repeating: TraitSlot(), count: Self.typeSlotCount)
    }

    deinit {
        if !state.pointee.jsonLeaves.isEmpty { Self.letGo(&state.pointee.jsonLeaves) }
        let nodes = state.pointee.nodes
        Self.deinitialize(nodes, count: state.pointee.count)
        free(nodes)
        state.deinitialize(count: 1)
        state.deallocate()
        planSlots.deinitialize(count: Self.typeSlotCount)
        planSlots.deallocate()
        traitSlots.deinitialize(count: Self.typeSlotCount)
        traitSlots.deallocate()
    }

    /// Deinitializes the first `count` nodes. Only the nodes that were given a string own
    /// memory; the others, most elements of a large array of numbers, need nothing done.
    /// `nodes` is the tree's own storage, every node below `count` initialized; the callers free
    /// or reinitialize it right after.
    private static func deinitialize(_ nodes: UnsafeMutablePointer<EncodedNode>, count: Int) {
        for index in 0..<count where nodes[index].ownsStrings {
            (nodes + index).deinitialize(count: 1)
        }
    }

    /// The root node, where the top-level value goes.
    static let root: Int32 = 0

    // MARK: Reuse

    /// How much a call used: its nodes and its output bytes.
    struct Size {
        var nodes = 0
        var outputBytes = 0
    }

    /// The output buffer's first capacity when it is created, from the encoder's last call.
    private let outputCapacity: Int

    /// What this tree's call used, once it has been written.
    var size: Size { Size(nodes: nodeCount, outputBytes: writtenByteCount) }

    /// The length of the JSON text the last call wrote.
    private(set) var writtenByteCount = 0

    /// Notes the length of the text the call wrote, for ``size``.
    func noteWritten(byteCount: Int) {
        writtenByteCount = byteCount
    }

    /// The buffer the call's JSON text is written into, kept with the tree so that the next call
    /// that reuses the tree writes into the same memory; empty.
    func outputBuffer() -> ByteBuffer {
        if let output {
            output.removeAll()
            return output
        }
        let buffer = ByteBuffer(capacity: max(nodeCount * 12 + 16, outputCapacity))
        output = buffer
        return buffer
    }

    /// The most nodes, and output bytes, that a tree keeps for the next call; a call that needed
    /// more gives its memory back rather than have an idle encoder hold it.
    static let reusableNodeLimit = 4096
    static let reusableOutputLimit = 256 * 1024
    /// The most converted keys kept from call to call; past it, the cache starts over.
    static let reusableSnakeCaseKeyLimit = 1024

    /// Empties the tree for another call with the same configuration: only the root node is left,
    /// unset. The node storage, the output buffer and what the tree learned about types and keys
    /// stay. Returns `false`, leaving the tree as it is, when it holds more memory than is worth
    /// keeping.
    func reset() -> Bool {
        guard state.pointee.capacity <= Self.reusableNodeLimit,
            (output?.capacity ?? 0) <= Self.reusableOutputLimit
        else { return false }
        let nodes = state.pointee.nodes
        Self.deinitialize(nodes, count: state.pointee.count)
        nodes.initialize(to: EncodedNode())
        state.pointee.count = 1
        if state.pointee.hasPendingError {
            state.pointee.hasPendingError = false
            state.pointee.pendingError = nil
        }
        if !state.pointee.memberTables.isEmpty { state.pointee.memberTables = [:] }
        if !state.pointee.jsonLeaves.isEmpty { Self.letGo(&state.pointee.jsonLeaves) }
        if state.pointee.snakeCaseKeys.count > Self.reusableSnakeCaseKeyLimit { state.pointee.snakeCaseKeys = [:] }
        if !pendingUnknownKeys.isEmpty { pendingUnknownKeys = [] }
        if !absentMembers.isEmpty { absentMembers = [] }
        payloadTag = nil
        if !payloadTags.isEmpty { payloadTags = [] }
        if !superObjects.isEmpty { superObjects = [] }
        if !objectsWithBags.isEmpty { objectsWithBags = [] }
        return true
    }

    // MARK: Scalars

    @inline(__always)
    func setNull(_ node: Int32) {
        nodes[Int(node)].kind = .null
    }

    @inline(__always)
    func setBool(_ node: Int32, _ value: Bool) {
        let node = nodes + Int(node)
        node.pointee.kind = .bool
        node.pointee.bits = value ? 1 : 0
    }

    @inline(__always)
    func setInt(_ node: Int32, _ value: Int64) {
        let node = nodes + Int(node)
        node.pointee.kind = .int
        node.pointee.bits = UInt64(bitPattern: value)
    }

    @inline(__always)
    func setUInt(_ node: Int32, _ value: UInt64) {
        let node = nodes + Int(node)
        node.pointee.kind = .uint
        node.pointee.bits = value
    }

    @inline(__always)
    func setDouble(_ node: Int32, _ value: Double) {
        let node = nodes + Int(node)
        node.pointee.kind = .double
        node.pointee.bits = value.bitPattern
    }

    @inline(__always)
    func setFloat(_ node: Int32, _ value: Float) {
        let node = nodes + Int(node)
        node.pointee.kind = .float
        node.pointee.bits = UInt64(value.bitPattern)
    }

    func setLiteral(_ node: Int32, _ text: String) {
        let node = nodes + Int(node)
        node.pointee.kind = .literal
        node.pointee.text = text
        node.pointee.ownsStrings = true
    }

    @inline(__always)
    func setString(_ node: Int32, _ text: String) {
        let node = nodes + Int(node)
        node.pointee.kind = .string
        node.pointee.text = text
        node.pointee.ownsStrings = true
    }

    // MARK: Containers

    /// Makes the node an empty array unless it already is an array; returns whether it was one.
    @discardableResult
    func makeArray(_ node: Int32) -> Bool {
        let index = Int(node)
        if nodes[index].kind == .array { return true }
        if nodes[index].kind != .unset {
            expandIfJSONLeaf(node)
            if nodes[index].kind == .array { return true }
            clear(node)
        }
        nodes[index].kind = .array
        return false
    }

    /// Makes the node an empty object unless it already is an object.
    func makeObject(_ node: Int32) {
        let index = Int(node)
        if nodes[index].kind == .object { return }
        if nodes[index].kind != .unset {
            expandIfJSONLeaf(node)
            if nodes[index].kind == .object { return }
            clear(node)
        }
        nodes[index].kind = .object
    }

    /// Turns the node back into an unset slot, dropping its value and children.
    func clear(_ node: Int32) {
        let current = nodes + Int(node)
        if current.pointee.kind == .object, current.pointee.childCount > Self.linearLookupLimit {
            state.pointee.memberTables[node] = nil
        }
        current.pointee.kind = .unset
        current.pointee.holdsNestedKeys = false
        current.pointee.text = ""
        current.pointee.bits = 0
        current.pointee.firstChild = -1
        current.pointee.lastChild = -1
        current.pointee.childCount = 0
        // Members kept for the value that was here (written through a super encoder, which ends
        // with the value around it) are that value's, not the next one's.
        if !pendingUnknownKeys.isEmpty { pendingUnknownKeys.removeAll { $0.node == node } }
        if !absentMembers.isEmpty { absentMembers.removeAll { $0.node == node } }
    }

    /// Appends a node to the storage and returns its index.
    @inline(__always)
    private func appendNode(_ node: consuming EncodedNode) -> Int32 {
        let count = state.pointee.count
        if count == state.pointee.capacity { grow() }
        (state.pointee.nodes + count).initialize(to: node)
        state.pointee.count = count + 1
        return Int32(truncatingIfNeeded: count)
    }

    /// Node storage comes from `malloc`, so that growing it is a `realloc`, which moves large
    /// blocks by remapping pages instead of copying them. Nodes may move bit for bit: their
    /// strings are the only references in them.
    private static func allocateNodes(capacity: Int) -> UnsafeMutablePointer<EncodedNode> {
        guard let memory = malloc(capacity * MemoryLayout<EncodedNode>.stride) else { fatalError("Out of memory") }
        return memory.bindMemory(to: EncodedNode.self, capacity: capacity)
    }

    @inline(never)
    private func grow() {
        let capacity = state.pointee.capacity * 2
        guard let memory = realloc(state.pointee.nodes, capacity * MemoryLayout<EncodedNode>.stride) else {
            fatalError("Out of memory")
        }
        state.pointee.nodes = memory.bindMemory(to: EncodedNode.self, capacity: capacity)
        state.pointee.capacity = capacity
    }

    @inline(__always)
    private func appendChild(_ child: consuming EncodedNode, to parent: Int32) -> Int32 {
        let childIndex = appendNode(child)
        let parentNode = nodes + Int(parent)
        let last = parentNode.pointee.lastChild
        if last < 0 {
            parentNode.pointee.firstChild = childIndex
        } else {
            nodes[Int(last)].nextSibling = childIndex
        }
        parentNode.pointee.lastChild = childIndex
        parentNode.pointee.childCount += 1
        return childIndex
    }

    /// Unlinks a member from its object, which then no longer writes it. The object's filter
    /// of key hashes keeps the member's bit, which only lets a later lookup compare keys.
    func removeMember(_ member: Int32, of object: Int32) {
        let objectNode = nodes + Int(object)
        var previous: Int32 = -1
        var child = objectNode.pointee.firstChild
        while child >= 0 && child != member {
            previous = child
            child = nodes[Int(child)].nextSibling
        }
        guard child == member else { return }
        let next = nodes[Int(member)].nextSibling
        if previous < 0 { objectNode.pointee.firstChild = next } else { nodes[Int(previous)].nextSibling = next }
        if objectNode.pointee.lastChild == member { objectNode.pointee.lastChild = previous }
        objectNode.pointee.childCount -= 1
        nodes[Int(member)].nextSibling = -1
        if state.pointee.memberTables[object]?[nodes[Int(member)].key] == member {
            state.pointee.memberTables[object]?[nodes[Int(member)].key] = nil
        }
    }

    /// Appends an unset node that no container links to: the value written into it is dropped.
    func detachedNode() -> Int32 {
        appendNode(EncodedNode())
    }

    /// The element of an array node at a position, for a key path that steps into the array:
    /// elements before it that nothing wrote yet are `null`, marked as holding nested keys so
    /// that a later path may still make them objects. The node must be an array.
    func element(_ position: Int, of array: Int32) -> Int32 {
        expandIfJSONLeaf(array)
        var child = nodes[Int(array)].firstChild
        var index = 0
        while child >= 0 {
            if index == position { return child }
            child = nodes[Int(child)].nextSibling
            index += 1
        }
        var element = appendElement(to: array)
        while index < position {
            setNull(element)
            nodes[Int(element)].holdsNestedKeys = true
            element = appendElement(to: array)
            index += 1
        }
        return element
    }

    // The arrays the encoder writes itself (`Array.encodeElements`, and arrays of scalars as
    // properties): each makes the node an array and appends the elements as the encoder would
    // write them one by one.

    @inline(__always)
    func appendInts(_ elements: [Int], to node: Int32) {
        makeArray(node)
        for element in elements { setInt(appendElement(to: node), Int64(element)) }
    }

    @inline(__always)
    func appendStrings(_ elements: [String], to node: Int32) {
        makeArray(node)
        for element in elements { setString(appendElement(to: node), element) }
    }

    /// Returns `false`, and writes nothing, when a number is one JSON cannot hold: the caller
    /// writes those elements through the encoder, for the strategy or the error.
    @inline(__always)
    func appendFiniteDoubles(_ elements: [Double], to node: Int32) -> Bool {
        guard elements.allSatisfy(\.isFinite) else { return false }
        makeArray(node)
        for element in elements { setDouble(appendElement(to: node), element) }
        return true
    }

    /// Appends an unset element to an array node and returns it.
    @inline(__always)
    func appendElement(to array: Int32) -> Int32 {
        appendChild(EncodedNode(), to: array)
    }

    /// Appends an unset member to an object node without looking for an existing member with the
    /// same key: for callers that know the key is new, such as a dictionary's keys.
    func appendMember(_ key: String, to object: Int32) -> Int32 {
        let hashed = Self.hash(key)
        return appendMember(key, hash: hashed.hash, beyondASCII: hashed.beyondASCII, to: object)
    }

    private func appendMember(_ key: String, hash: UInt32, beyondASCII: Bool, to object: Int32) -> Int32 {
        let member = appendChild(EncodedNode(key: key, keyHash: hash), to: object)
        let objectNode = nodes + Int(object)
        // An object's `bits` filter the hashes of its keys (see `member(_:of:)`). A key beyond
        // ASCII sets them all: it may equal another spelling (see `member(_:of:)`).
        objectNode.pointee.bits |= beyondASCII ? Self.everyKey : Self.filterBit(hash)
        if objectNode.pointee.childCount > Self.linearLookupLimit {
            indexMember(member, key: key, of: object)
        }
        return member
    }

    /// The bit of a key hash in its object's filter.
    @inline(__always)
    private static func filterBit(_ hash: UInt32) -> UInt64 {
        1 &<< UInt64(hash >> 26)
    }

    /// An object filter that lets every key through: the mark of an object with a member key
    /// beyond ASCII. (An object of at most `linearLookupLimit` members sets 48 bits at most
    /// through its hashes.)
    private static let everyKey = UInt64.max

    /// The member of an object node with the given key, appended as an unset slot if there is
    /// none. An existing member keeps its place and its value; the caller decides whether to
    /// replace it.
    ///
    /// Keys are equal as Swift's `String` compares them, by Unicode canonical equivalence, as
    /// `JSONEncoder`'s dictionary of members has them: `"café"` written precomposed and then
    /// decomposed is one member, under its first spelling. Bytes decide for ASCII keys in an
    /// object whose keys are all ASCII, where no other spelling is equivalent; a key beyond
    /// ASCII, or any key of an object that has one (U+212A, the Kelvin sign, is `K`), is
    /// compared as a `String`.
    ///
    /// A node that is no longer an object (a container kept by user code after its key was
    /// written over with another value) gets a detached node: what is written there is dropped,
    /// as `JSONEncoder` drops what such a container writes.
    func member(_ key: String, of object: Int32) -> (node: Int32, existed: Bool) {
        let objectNode = nodes + Int(object)
        guard objectNode.pointee.kind == .object || objectNode.pointee.kind == .json else {
            return (detachedNode(), false)
        }
        let count = objectNode.pointee.childCount
        let (hash, beyondASCII) = Self.hash(key)
        let filter = objectNode.pointee.bits
        // A key whose bit is not in the object's filter is not among its members.
        if filter & Self.filterBit(hash) == 0 && !beyondASCII {
            return (appendMember(key, hash: hash, beyondASCII: false, to: object), false)
        }
        if count > Self.linearLookupLimit {
            // The table's `String` keys compare by canonical equivalence.
            if let found = state.pointee.memberTables[object]?[key] { return (found, true) }
        } else if beyondASCII || filter == Self.everyKey {
            // A `json` node lets every key through its filter, so that it is expanded only here.
            if objectNode.pointee.kind == .json {
                expandJSONLeaf(object)
                return member(key, of: object)
            }
            var child = objectNode.pointee.firstChild
            while child >= 0 {
                if nodes[Int(child)].key == key { return (child, true) }
                child = nodes[Int(child)].nextSibling
            }
        } else {
            var child = objectNode.pointee.firstChild
            while child >= 0 {
                if nodes[Int(child)].keyHash == hash && nodes[Int(child)].key == key { return (child, true) }
                child = nodes[Int(child)].nextSibling
            }
        }
        return (appendMember(key, hash: hash, beyondASCII: beyondASCII, to: object), false)
    }

    /// A hash of the key's UTF-8 bytes, read a word at a time: cheaper than the string
    /// comparisons it saves. Its top bits choose the key's bit in the object's filter. Every
    /// byte is read, so the words read also tell whether any byte is beyond ASCII.
    static func hash(_ key: String) -> (hash: UInt32, beyondASCII: Bool) {
        key.withUTF8Bytes { utf8 in
            let count = utf8.count
            let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
            var hash = UInt64(truncatingIfNeeded: count) &* multiplier
            guard let base = utf8.baseAddress else { return (UInt32(truncatingIfNeeded: hash >> 32), false) }
            // The key's bytes, which `withUTF8Bytes` holds for this closure only; every read below
            // lies inside the first `count` of them.
            let bytes = UnsafeRawPointer(base)
            var seen: UInt64 = 0
            // Every byte is read once or twice: whole words, then the last eight bytes (which
            // may overlap the words before); a shorter key in two overlapping halves, or as its
            // first, middle and last byte.
            if count >= 8 {
                var offset = 0
                while offset + 8 < count {
                    let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    seen |= word
                    hash = (hash ^ word) &* multiplier
                    hash ^= hash >> 29
                    offset += 8
                }
                let last = bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                seen |= last
                hash ^= last
            } else if count >= 4 {
                let first = UInt64(bytes.loadUnaligned(as: UInt32.self))
                let last = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                seen = first | last
                hash ^= first &<< 32 | last
            } else if count > 0 {
                seen = UInt64(base[0]) | UInt64(base[count >> 1]) | UInt64(base[count - 1])
                hash ^= UInt64(base[0]) &<< 16 | UInt64(base[count >> 1]) &<< 8 | UInt64(base[count - 1])
            }
            hash = (hash ^ (hash >> 32)) &* multiplier
            return (UInt32(truncatingIfNeeded: hash >> 32), seen & 0x8080_8080_8080_8080 != 0)
        }
    }

    private func indexMember(_ member: Int32, key: String, of object: Int32) {
        if state.pointee.memberTables[object] == nil {
            var table: [String: Int32] = [:]
            var child = nodes[Int(object)].firstChild
            while child >= 0 {
                table[nodes[Int(child)].key] = child
                child = nodes[Int(child)].nextSibling
            }
            state.pointee.memberTables[object] = table
        } else {
            state.pointee.memberTables[object]?[key] = member
        }
    }

    /// The children of a container node, in order.
    func children(of node: Int32) -> [Int32] {
        expandIfJSONLeaf(node)
        var result: [Int32] = []
        result.reserveCapacity(Int(nodes[Int(node)].childCount))
        var child = nodes[Int(node)].firstChild
        while child >= 0 {
            result.append(child)
            child = nodes[Int(child)].nextSibling
        }
        return result
    }

    /// What to undo should the value written into a member fail: `JSONEncoder` leaves no trace of
    /// a value whose error the model catches (`try?`). Filled by the lookup of the member.
    struct TakeBack {
        /// The first container the lookup added children to (the object, or an object or array
        /// on a nested key's way), and how many it had before; -1 when it added none.
        var grown: Int32 = -1
        var previousCount: Int32 = 0
        /// The member's earlier value, set aside (``setAside(_:)``), when the member existed.
        var saved: Int32?
        /// Whether the lookup sets an existing member's value aside rather than clearing it.
        var keepsOld = false

        /// Notes that `container` had `count` children before the lookup, unless an earlier
        /// container on the way already grew.
        mutating func note(_ container: Int32, had count: Int32, now: Int32) {
            if grown < 0 && now > count {
                grown = container
                previousCount = count
            }
        }
    }

    /// Leaves the tree as it was before a value failed in `member`: its earlier value back, and
    /// the members and elements the lookup added dropped. The nodes stay in the storage,
    /// unreachable, as replaced values do.
    func takeBack(_ member: Int32, _ record: TakeBack) {
        if let saved = record.saved {
            clear(member)
            moveValue(of: saved, to: member)
        }
        if record.grown >= 0 { truncateChildren(of: record.grown, to: record.previousCount) }
    }

    /// Drops the children of a container past its first `count`.
    func truncateChildren(of container: Int32, to count: Int32) {
        let elements = children(of: container)
        guard count < elements.count else { return }
        let node = nodes + Int(container)
        if node.pointee.kind == .object, state.pointee.memberTables[container] != nil {
            for dropped in elements[Int(count)...] {
                let key = nodes[Int(dropped)].key
                if state.pointee.memberTables[container]?[key] == dropped {
                    state.pointee.memberTables[container]?[key] = nil
                }
            }
        }
        node.pointee.childCount = count
        if count == 0 {
            node.pointee.firstChild = -1
            node.pointee.lastChild = -1
        } else {
            node.pointee.lastChild = elements[Int(count) - 1]
            nodes[Int(elements[Int(count) - 1])].nextSibling = -1
        }
    }

    /// Moves a member's value into a detached node, for ``takeBack(_:_:)`` to restore should the
    /// value that replaces it fail; leaves the member unset.
    func setAside(_ member: Int32) -> Int32 {
        let saved = detachedNode()
        moveValue(of: member, to: saved)
        // What else `clear(_:)` resets, as for a member written over.
        clear(member)
        return saved
    }

    /// Moves the value of a node, with everything under it, into an unset node (a member of
    /// another object), leaving the source unset. The children stay where they are; the tables
    /// kept by node (large objects' key tables, `json` nodes' values) follow the value.
    func moveValue(of source: Int32, to target: Int32) {
        let moved = nodes[Int(source)]
        // Both pointers are into the node storage, which the tree owns and which nothing appends
        // to (and so moves) in this function.
        let slot = nodes + Int(target)
        slot.pointee.kind = moved.kind
        slot.pointee.bits = moved.bits
        slot.pointee.text = moved.text
        slot.pointee.ownsStrings = true
        slot.pointee.firstChild = moved.firstChild
        slot.pointee.lastChild = moved.lastChild
        slot.pointee.childCount = moved.childCount
        slot.pointee.holdsNestedKeys = moved.holdsNestedKeys
        if let table = state.pointee.memberTables.removeValue(forKey: source) {
            state.pointee.memberTables[target] = table
        }
        if let leaf = state.pointee.jsonLeaves.removeValue(forKey: source) { state.pointee.jsonLeaves[target] = leaf }
        emptyMovedNode(source)
    }

    /// Leaves a node whose value and children moved elsewhere an unset node without children.
    private func emptyMovedNode(_ node: Int32) {
        // Into the node storage, which the tree owns; the callers appended nothing to it.
        let moved = nodes + Int(node)
        moved.pointee.kind = .unset
        moved.pointee.bits = 0
        moved.pointee.firstChild = -1
        moved.pointee.lastChild = -1
        moved.pointee.childCount = 0
    }

    /// Moves the members of an object node, but `skipped`, to the end of another object whose
    /// keys none of them repeats, by linking the member nodes themselves: nothing is looked up
    /// or copied. The source is left an empty, unset node.
    func adoptMembers(of source: Int32, into object: Int32, skipping skipped: Int32?) {
        var child = nodes[Int(source)].firstChild
        while child >= 0 {
            let next = nodes[Int(child)].nextSibling
            if child != skipped {
                nodes[Int(child)].nextSibling = -1
                let last = nodes[Int(object)].lastChild
                if last < 0 {
                    nodes[Int(object)].firstChild = child
                } else {
                    nodes[Int(last)].nextSibling = child
                }
                nodes[Int(object)].lastChild = child
                nodes[Int(object)].childCount += 1
            }
            child = next
        }
        // The source's filter covers the keys that came from it.
        nodes[Int(object)].bits |= nodes[Int(source)].bits
        if nodes[Int(object)].childCount > Self.linearLookupLimit {
            state.pointee.memberTables[object] = nil
            var table: [String: Int32] = [:]
            var member = nodes[Int(object)].firstChild
            while member >= 0 {
                if table[nodes[Int(member)].key] == nil { table[nodes[Int(member)].key] = member }
                member = nodes[Int(member)].nextSibling
            }
            state.pointee.memberTables[object] = table
        }
        state.pointee.memberTables[source] = nil
        emptyMovedNode(source)
    }

    // MARK: JSON kept whole

    /// Makes an unset node hold a container that a hook returned, kept as it is. `height` is the
    /// number of container levels in it (1 for `[]`).
    func setJSONLeaf(_ node: Int32, _ value: JSONValue, height: Int) {
        state.pointee.jsonLeaves[node] = (value: value, height: height)
        nodes[Int(node)].kind = .json
        nodes[Int(node)].bits = Self.everyKey
    }

    /// Container levels past which a hook's JSON is let go one level at a time.
    static let deepLeafHeight = 32

    /// Lets go of the JSON that hooks returned. JSON nested more than ``deepLeafHeight`` levels
    /// is released one level at a time (``JSONValue/releaseIteratively(_:)``): releasing it by
    /// recursion could take more stack than the thread that ends the call has left.
    private static func letGo(_ leaves: inout [Int32: (value: JSONValue, height: Int)]) {
        for index in leaves.values.indices where leaves.values[index].height > deepLeafHeight {
            JSONValue.releaseIteratively(&leaves.values[index].value)
        }
        leaves = [:]
    }

    /// Whether any node of the call was a `json` node.
    var hasJSONLeaves: Bool { !state.pointee.jsonLeaves.isEmpty }

    /// The value and height of a `json` node.
    func jsonLeaf(at node: Int32) -> (value: JSONValue, height: Int) {
        state.pointee.jsonLeaves[node] ?? (value: [:], height: 1)
    }

    /// Expands a `json` node into ordinary nodes; does nothing for any other node. A branch on a
    /// byte already in cache wherever the encoder reads or adds a node's members.
    @inline(__always)
    func expandIfJSONLeaf(_ node: Int32) {
        if nodes[Int(node)].kind == .json { expandJSONLeaf(node) }
    }

    /// Turns a `json` node into the nodes of its value, as ``TreeEncoder/insert(_:into:key:)``
    /// would have made them (its numbers were checked when it was kept). The value was checked
    /// to nest at most ``JSONWriter/maximumDepth`` levels, which bounds the recursion.
    ///
    /// Elements appended to the node while it was a `json` node (by an unkeyed container that a
    /// model kept open on it while a hooked value was encoded into it) come after the value's own,
    /// as they would have had the value been copied into nodes at once.
    @inline(never)
    func expandJSONLeaf(_ node: Int32) {
        var (value, height) = state.pointee.jsonLeaves.removeValue(forKey: node) ?? (value: [:], height: 1)
        defer { if height > Self.deepLeafHeight { JSONValue.releaseIteratively(&value) } }
        let later = (first: nodes[Int(node)].firstChild, last: nodes[Int(node)].lastChild)
        let laterCount = nodes[Int(node)].childCount
        nodes[Int(node)].kind = .unset
        nodes[Int(node)].bits = 0
        nodes[Int(node)].firstChild = -1
        nodes[Int(node)].lastChild = -1
        nodes[Int(node)].childCount = 0
        build(value, into: node)
        guard later.first >= 0 else { return }
        if nodes[Int(node)].lastChild < 0 {
            nodes[Int(node)].firstChild = later.first
        } else {
            nodes[Int(nodes[Int(node)].lastChild)].nextSibling = later.first
        }
        nodes[Int(node)].lastChild = later.last
        nodes[Int(node)].childCount += laterCount
    }

    private func build(_ value: JSONValue, into node: Int32) {
        switch value {
        case .null: setNull(node)
        case .bool(let flag): setBool(node, flag)
        case .string(let text): setString(node, text)
        case .number(let text): setLiteral(node, text)
        case .array(let elements):
            makeArray(node)
            for element in elements { build(element, into: appendElement(to: node)) }
        case .object(let object):
            makeObject(node)
            for (key, member) in object {
                let (child, existed) = self.member(key, of: node)
                if existed { clear(child) }
                build(member, into: child)
            }
        }
    }

    /// Expands every `json` node that the root reaches, for the writer, which reads the nodes
    /// through a pointer that an expansion would move. An expanded node's children are visited
    /// too: those its value made hold no `json` node, but elements appended to it while it was
    /// one (see ``expandJSONLeaf(_:)``) may. Each node is visited once.
    func expandJSONLeavesForWriting() {
        guard hasJSONLeaves else { return }
        var pending: [Int32] = [Self.root]
        while let node = pending.popLast() {
            if nodes[Int(node)].kind == .json { expandJSONLeaf(node) }
            switch nodes[Int(node)].kind {
            case .array, .object:
                var child = nodes[Int(node)].firstChild
                while child >= 0 {
                    pending.append(child)
                    child = nodes[Int(child)].nextSibling
                }
            default:
                break
            }
        }
    }
}

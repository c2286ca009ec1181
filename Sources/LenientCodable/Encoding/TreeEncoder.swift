// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Implements Swift's `Encoder` on top of an ``EncodingTree``.
///
/// An encoder writes one node: the slot its value goes to. Encoding a nested value borrows a
/// sub-encoder (reused across siblings when nothing kept a reference to it) whose node is the
/// member or element reserved for that value. Scalars and the types Foundation treats
/// specially (`Date`, `Data`, `URL`, `Decimal`, `[String: T]`) and ``JSONValue`` are written
/// straight into the node, with no sub-encoder.
///
/// Coding paths follow Foundation's, quirks included: a value encoded through a container that
/// was itself nested with `nestedContainer(keyedBy:forKey:)` sees the path of the encoder that
/// owns the container plus its own key, without the nested container's keys.
final class TreeEncoder: Encoder {
    // The variables below opt out of Swift's dynamic exclusivity checks, which cost about a tenth
    // of encoding a small value: each of them is only ever read or assigned whole, never passed
    // `inout` or mutated in place across a call, so no two accesses to one of them can overlap and
    // the check could never fail.
    let tree: EncodingTree
    @exclusivity(unchecked) var node: Int32
    /// The type of the value being encoded into ``node``, whose key plan applies to the keyed
    /// containers it asks for. Setting it costs a store; the plan is looked up only when a keyed
    /// container is created.
    @exclusivity(unchecked) var currentType: Any.Type?
    /// Whether the keyed containers of the value being encoded note the `nil` optionals they
    /// leave out (``EncodingTree/absentMembers``): its type keeps unknown keys, or is not yet
    /// known not to.
    @exclusivity(unchecked) var notesAbsentMembers = false
    /// Whether the value being encoded wrote an ``UnknownKeys`` property or left a `nil` one out:
    /// how the encoder learns, from a type's first value, whether the type keeps unknown keys.
    @exclusivity(unchecked) var metUnknownKeys = false
    @exclusivity(unchecked) private(set) var parent: TreeEncoder?
    @exclusivity(unchecked) private(set) var key: (any CodingKey)?
    @exclusivity(unchecked) private var spare: TreeEncoder?
    /// How many values this encoder's value is nested in: 0 at the top. A value nested deeper
    /// than the writer can write is refused before its encoding recurses any further, so a
    /// recursive model as deep as memory allows fails with an error instead of the stack.
    @exclusivity(unchecked) private(set) var depth = 0
    /// How many values are being encoded into this encoder's own node, one inside the other
    /// (``encodeIntoOwnNode(_:into:fillsEmpty:)``).
    @exclusivity(unchecked) private var ownNodeLevels = 0
    /// Set while this encoder writes a `[String: Value]`'s members itself, under a key strategy
    /// other than the default: a dictionary that is one of the values keeps its member's key in
    /// its own values' coding paths, as in Foundation (see `Dictionary.encodeElements`).
    @exclusivity(unchecked) private var writesDictionaryMembers = false

    /// Values nested deeper than this cannot be written (see ``JSONWriter/maximumDepth``).
    static let maximumDepth = JSONWriter.maximumDepth

    /// Nesting up to which no value looks at the stack (``checkStack(_:depth:suffix:)``): about
    /// as deep as the corpora go, so that they hardly pay for the look, and shallow enough that 6
    /// levels of a debug build fit in what a 96 KB thread leaves above the guard's reserve, even
    /// levels of tagged enums (about 9 KB each). Unlike a decode, an encode does not also test the
    /// stack it used since it began: that test on every value cost twitter.json's encoding 0.8%
    /// of its instructions.
    static let unguardedDepth = 6

    /// The node this encoder last handed out a keyed or unkeyed container for, and which kind
    /// (`-1`: none since it was given its node): a value that asks for both kinds of one encoder
    /// would otherwise lose what it wrote through the first (``noteSecondContainerKind(keyed:)``).
    @exclusivity(unchecked) private var containerMade: (node: Int32, keyed: Bool) = (-1, false)

    init(tree: EncodingTree, node: Int32, parent: TreeEncoder?, key: (any CodingKey)?) {
        self.tree = tree
        self.node = node
        self.parent = parent
        self.key = key
        depth = parent.map { $0.depth + 1 } ?? 0
    }

    var codingPath: [any CodingKey] {
        var keys: [any CodingKey] = []
        var encoder: TreeEncoder? = self
        while let current = encoder {
            if let key = current.key { keys.append(key) }
            encoder = current.parent
        }
        return keys.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { tree.configuration.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // An object already encoded here (a keyed container asked for twice, or a dictionary
        // encoded through the single value container) is kept and added to, as Foundation does.
        if containerMade.node == node && !containerMade.keyed { noteSecondContainerKind(keyed: true) }
        containerMade = (node, true)
        tree.makeObject(node)
        var plan: KeyPlan?
        if let currentType, tree.traits(of: currentType).traits.contains(.keyPlan) {
            plan = tree.plan(for: currentType, keys: Key.self, encoder: self)
        }
        return KeyedEncodingContainer(
            TreeKeyedEncodingContainer<Key>(encoder: self, node: node, suffix: .root, plan: plan))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if containerMade.node == node && containerMade.keyed { noteSecondContainerKind(keyed: false) }
        containerMade = (node, false)
        tree.makeArray(node)
        return TreeUnkeyedEncodingContainer(encoder: self, node: node, suffix: .root)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        self
    }

    /// Fails the encode (when it ends, as containers cannot throw) for a value that asked this
    /// encoder for a keyed container and an unkeyed one: one replaces the other, and what was
    /// written through the first would be lost. `JSONEncoder` traps there.
    @inline(never)
    private func noteSecondContainerKind(keyed: Bool) {
        let (asked, before) = keyed ? ("a keyed", "an unkeyed") : ("an unkeyed", "a keyed")
        tree.record(
            EncodingError.invalidValue(
                currentType.map { "\($0)" } ?? "value",
                .init(
                    codingPath: codingPath,
                    debugDescription:
                        "\(currentType.map { "\($0)" } ?? "A value") asked its encoder for \(asked) container after \(before) one; one value is encoded into one kind of container."
                )))
    }

    // MARK: - Sub-encoders

    private func borrowEncoder(node: Int32, key: any CodingKey) -> TreeEncoder {
        if let spare {
            self.spare = nil
            spare.node = node
            spare.containerMade = (-1, false)
            spare.key = key
            spare.parent = self
            spare.depth = depth + 1
            return spare
        }
        return TreeEncoder(tree: tree, node: node, parent: self, key: key)
    }

    private func giveBack(_ encoder: inout TreeEncoder) {
        guard encoder !== self else { return }
        // Reuse the encoder only when the value being encoded kept no reference to it. One that
        // it kept may write into the tree after the call, so the tree is not reused either.
        guard isKnownUniquelyReferenced(&encoder) else {
            tree.hasOutsideEncoders = true
            return
        }
        guard spare == nil else { return }
        encoder.parent = nil
        encoder.key = nil
        spare = encoder
    }

    /// Runs `body` with this encoder's own key left out of the coding paths of what it encodes,
    /// as Foundation leaves a dictionary's key out of its values' paths under a key strategy.
    func hidingOwnKey(_ body: () throws -> Void) rethrows {
        let own = key
        key = nil
        defer { key = own }
        try body()
    }

    /// Runs `body`, which writes a dictionary's members under a key strategy other than the
    /// default, with ``writesDictionaryMembers`` set.
    func writingDictionaryMembers(_ body: () throws -> Void) rethrows {
        let wasWriting = writesDictionaryMembers
        writesDictionaryMembers = true
        defer { writesDictionaryMembers = wasWriting }
        try body()
    }

    /// Lets go of the sub-encoders this encoder keeps for reuse, and theirs: once the call has
    /// ended, an encoder user code was given may be held only by a `weak` or `unowned`
    /// reference, which must then find it gone rather than reused by a later call. Forgets the
    /// kind of container it made, too: the next call writes its root afresh.
    func dropSpareEncoders() {
        spare = nil
        containerMade = (-1, false)
    }

    /// An encoder for `superEncoder()`: handed to the value to keep as it likes, so the tree
    /// is not reused after the call.
    func superEncoder(node: Int32, key: any CodingKey) -> TreeEncoder {
        tree.hasOutsideEncoders = true
        let encoder = TreeEncoder(tree: tree, node: node, parent: self, key: key)
        // The type that writes through it is not known here: its `nil` optionals are noted, for
        // the kept members written into its object (`writeNullsForAbsentMembers`).
        encoder.notesAbsentMembers = true
        return encoder
    }

    // MARK: - Encoding values

    /// Encodes a value into a node.
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - node: Where the value goes: this encoder's own node, or a member or element of it.
    ///   - key: The coding key of `node` below this encoder; `nil` for the encoder's own node.
    ///   - fillsEmpty: Whether a value that encodes nothing becomes an empty object (true
    ///     everywhere but at the top level, where Foundation throws instead).
    func encode<T: Encodable>(_ value: T, into node: Int32, key: (any CodingKey)?, fillsEmpty: Bool = true) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: key) { return }
        if try encodeScalar(value, into: node, key: key) { return }
        // The key goes no further than this: copying an optional existential costs more than the
        // rest of encoding an empty array.
        guard let key else { return try encodeIntoOwnNode(value, into: node, fillsEmpty: fillsEmpty) }
        if depth < Self.maximumDepth && !tree.hasConverters && writeScalarArray(value, into: node) { return }
        var encoder = borrowEncoder(node: node, key: key)
        defer { giveBack(&encoder) }
        try encodeComposite(value, with: encoder, into: node, fillsEmpty: fillsEmpty)
    }

    /// A value encoded into this encoder's own node, through its single value container: no
    /// level of the JSON, but a level of recursion, `encode(to:)` within `encode(to:)`. A chain
    /// of values each encoding the next so (`singleValueContainer().encode(next)`) writes one
    /// value however long it is, so it is not refused for its nesting; it is refused, with the
    /// stack guard's error, where the thread's stack is nearly spent.
    @inline(__always)
    private func encodeIntoOwnNode<T: Encodable>(_ value: T, into node: Int32, fillsEmpty: Bool) throws {
        ownNodeLevels &+= 1
        defer { ownNodeLevels &-= 1 }
        if ownNodeLevels > Self.unguardedDepth {
            try checkStack(value, depth: depth &+ ownNodeLevels, suffix: .root)
        }
        try encodeComposite(value, with: self, into: node, fillsEmpty: fillsEmpty)
    }

    /// The rest of ``encode(_:into:key:fillsEmpty:)`` for a value that is not a scalar: encodes
    /// it through `encoder`, whose node is `node`, and finishes the node. Inlined into both of
    /// its callers: a call of its own cost twitter statuses about 1% more.
    @inline(__always)
    private func encodeComposite<T: Encodable>(
        _ value: T, with encoder: TreeEncoder, into node: Int32, fillsEmpty: Bool
    ) throws {
        if encoder.depth > Self.maximumDepth { throw NestedTooDeep() }
        if encoder.depth > Self.unguardedDepth {
            try encoder.checkStack(value, depth: encoder.depth, suffix: .root)
        }
        // The dynamic type: a subclass stored in a property of its superclass's type encodes
        // with its own containers, so its own key plan and hooks apply.
        let valueType: Any.Type = type(of: value)
        let savedType = encoder.currentType
        encoder.currentType = valueType
        defer { encoder.currentType = savedType }
        var traits: EncodingTree.TypeTraits = []
        let absentMark = tree.absentMembers.count
        if T.self == Date.self {
            try encoder.encodeDate(unsafeBitCast(value, to: Date.self))
        } else if T.self == Data.self {
            try encoder.encodeData(unsafeBitCast(value, to: Data.self))
        } else {
            let info = tree.traits(of: valueType)
            traits = info.traits
            if let collection = info.collection {
                // Arrays and `[String: Value]` are written by the encoder itself, with the
                // conformance found once per type instead of a cast per value.
                // The pointer is to `value`, alive for the closure, which the call does not outlive.
                try withUnsafePointer(to: value) {
                    try collection.encodeElements(
                        of: $0, with: encoder, underItsKey: encoder !== self && !writesDictionaryMembers)
                }
            } else {
                // Set for the value's own containers. Not restored after it: a value encoded into
                // its parent's node (`with: self`) is the last thing that node's value encodes.
                encoder.notesAbsentMembers = !traits.contains(.keepsNoUnknownKeys)
                encoder.metUnknownKeys = false
                try value.encode(to: encoder)
                if !traits.contains(.keepsUnknownKeys)
                    && (encoder.metUnknownKeys || !traits.contains(.keepsNoUnknownKeys))
                {
                    tree.learnUnknownKeys(of: valueType, from: value, met: encoder.metUnknownKeys)
                }
            }
        }
        if tree.hasPendingError, let error = tree.pendingError { throw error }
        if !tree.pendingUnknownKeys.isEmpty { try writeUnknownKeysSlowPath(into: node, absentFrom: absentMark) }
        // The value's objects are finished: the `nil` optionals they left out are forgotten.
        if tree.absentMembers.count > absentMark { tree.absentMembers.removeSubrange(absentMark...) }
        let isUnset = tree.nodes[Int(node)].kind == .unset
        if fillsEmpty && isUnset {
            tree.makeObject(node)
        }
        if traits.contains(.hooks) && (fillsEmpty || !isUnset) {
            try encoder.applyEncodingHooksSlowPath(value)
        }
    }

    /// Writes an array of `Int`, `String` or finite `Double` values, the arrays most models
    /// hold, straight into the node, as `Array.encodeElements` would through an encoder of its
    /// own, which costs more to borrow than a short array costs to write. Returns `false`, and
    /// writes nothing, for every other value.
    @inline(__always)
    private func writeScalarArray<T: Encodable>(_ value: T, into node: Int32) -> Bool {
        let tree = tree
        // The slot is the one of `T` itself, so its element type is `T`'s: the casts below
        // are of a value to its own type.
        let info = tree.traits(of: T.self)
        guard info.scalarElements != .none, info.traits.isEmpty else { return false }
        switch info.scalarElements {
        case .int: tree.appendInts(unsafeBitCast(value, to: [Int].self), to: node)
        case .string: tree.appendStrings(unsafeBitCast(value, to: [String].self), to: node)
        case .double: return tree.appendFiniteDoubles(unsafeBitCast(value, to: [Double].self), to: node)
        case .none: return false
        }
        return true
    }

    /// Encodes a value that needs a configuration into this encoder's node.
    func encode<T: EncodableWithConfiguration>(_ value: T, configuration: T.EncodingConfiguration) throws {
        let valueType: Any.Type = type(of: value)
        let savedType = currentType
        currentType = valueType
        defer { currentType = savedType }
        try value.encode(to: self, configuration: configuration)
        if tree.hasPendingError, let error = tree.pendingError { throw error }
        if tree.nodes[Int(node)].kind != .unset && tree.traits(of: valueType).traits.contains(.hooks) {
            try applyEncodingHooksSlowPath(value)
        }
    }

    /// Writes a value whose type has a converter as the JSON the converter returns; returns
    /// `false` for the other types.
    @inline(never)
    func encodeConvertedSlowPath<T: Encodable>(_ value: T, into node: Int32, key: (any CodingKey)?) throws -> Bool {
        guard tree.traits(of: T.self).traits.contains(.converted),
            let converter = tree.configuration.settings.converters.converter(for: T.self)
        else { return false }
        var json: JSONValue
        do {
            json = try converter.convert(value)
        } catch {
            let path = codingPath + (key.map { [$0] } ?? [])
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: path,
                    debugDescription: "The converter registered for \(T.self) cannot convert the value: \(error)",
                    underlyingError: error))
        }
        try insert(taking: &json, into: node, key: key)
        return true
    }

    /// Writes the types that need no encoder straight into the node; returns `false` for the rest.
    private func encodeScalar<T: Encodable>(_ value: T, into node: Int32, key: (any CodingKey)?) throws -> Bool {
        // Comparing type metadata is a pointer comparison; the common types come first.
        if T.self == String.self {
            tree.setString(node, unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            tree.setInt(node, Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Double.self {
            try setFloatingPoint(unsafeBitCast(value, to: Double.self), into: node, key: key)
        } else if T.self == Bool.self {
            tree.setBool(node, unsafeBitCast(value, to: Bool.self))
        } else if T.self == URL.self {
            tree.setString(node, unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Decimal.self {
            try setDecimal(unsafeBitCast(value, to: Decimal.self), into: node, key: key)
        } else if T.self == JSONValue.self {
            // The value as its own type, copied into the tree's nodes before this call returns.
            try insertValue(unsafeBitCast(value, to: JSONValue.self), into: node, key: key)
        } else if T.self == Float.self {
            try setFloatingPoint(unsafeBitCast(value, to: Float.self), into: node, key: key)
        } else if T.self == Int64.self {
            tree.setInt(node, unsafeBitCast(value, to: Int64.self))
        } else if T.self == UInt64.self {
            tree.setUInt(node, unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Int32.self {
            tree.setInt(node, Int64(unsafeBitCast(value, to: Int32.self)))
        } else if T.self == UInt.self {
            tree.setUInt(node, UInt64(unsafeBitCast(value, to: UInt.self)))
        } else {
            return false
        }
        return true
    }

    /// Writes a floating-point value, or applies the non-conforming float strategy to it.
    ///
    /// The error names the path of this encoder plus `key`, as Foundation's does.
    func setFloatingPoint<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, into node: Int32, key: (any CodingKey)?, throwsWhenNonConforming: Bool = false
    ) throws {
        if value.isFinite {
            if let double = value as? Double {
                tree.setDouble(node, double)
            } else if let float = value as? Float {
                tree.setFloat(node, float)
            } else {
                tree.setDouble(node, Double(value))
            }
            return
        }
        if !throwsWhenNonConforming,
            case .convertToString(let positiveInfinity, let negativeInfinity, let nan) = tree.configuration
                .settings.nonConformingFloatEncodingStrategy
        {
            tree.setString(node, value.isNaN ? nan : (value < 0 ? negativeInfinity : positiveInfinity))
            return
        }
        throw Self.nonConformingFloatError(value, codingPath: codingPath + (key.map { [$0] } ?? []))
    }

    /// Writes a `Decimal` as its digits. `Decimal.nan` has no JSON spelling (`JSONEncoder` writes
    /// `NaN`, which no JSON parser reads back) and is refused, whatever the float strategy: no
    /// decoder reads a string back as a `Decimal` NaN.
    private func setDecimal(_ value: Decimal, into node: Int32, key: (any CodingKey)?) throws {
        guard value.isNaN else { return tree.setLiteral(node, value.description) }
        throw EncodingError.invalidValue(
            value,
            .init(
                codingPath: codingPath + (key.map { [$0] } ?? []),
                debugDescription: "Unable to encode Decimal.nan directly in JSON."))
    }

    @inline(never)
    static func nonConformingFloatError<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: F, codingPath: [any CodingKey]
    ) -> EncodingError {
        EncodingError.invalidValue(
            value,
            .init(codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(value) directly in JSON."))
    }

    // MARK: - Date and Data

    /// Encodes a date into this encoder's node under the date strategy.
    private func encodeDate(_ date: Date) throws {
        guard tree.configuration.settings.dateEncodingStrategyIsSet else {
            tree.setString(node, try Self.iso8601String(from: date, codingPath: codingPath))
            return
        }
        switch tree.configuration.settings.dateEncodingStrategy {
        case .secondsSince1970:
            try setFloatingPoint(date.timeIntervalSince1970, into: node, key: nil, throwsWhenNonConforming: true)
        case .millisecondsSince1970:
            try setFloatingPoint(
                1000.0 * date.timeIntervalSince1970, into: node, key: nil, throwsWhenNonConforming: true)
        case .iso8601:
            tree.setString(node, date.formatted(.iso8601))
        #if canImport(Darwin)
        // On Apple platforms `.formatted` is a case; elsewhere Foundation spells it as a
        // `.custom` closure, which the case below runs.
        case .formatted(let formatter):
            tree.setString(node, formatter.string(from: date))
        #endif
        case .custom(let closure):
            try closure(date, self)
            // A closure that encodes nothing writes an empty object, as Foundation does, even at the top level.
            if tree.nodes[Int(node)].kind == .unset { tree.makeObject(node) }
        default:
            // .deferredToDate: the date encodes itself, as seconds since 2001.
            try date.encode(to: self)
        }
    }

    /// The text of a date when no date strategy is set; see ``ISO8601Writer``.
    ///
    /// - Throws: `EncodingError.invalidValue` for a date that four-digit years cannot write.
    static func iso8601String(from date: Date, codingPath: [any CodingKey]) throws -> String {
        guard let text = ISO8601Writer.string(from: date) else {
            throw unwritableDateError(date, codingPath: codingPath)
        }
        return text
    }

    @inline(never)
    static func unwritableDateError(_ date: Date, codingPath: [any CodingKey]) -> EncodingError {
        // Foundation traps when it describes a date that is not finite, as a log of this error would.
        let interval = date.timeIntervalSinceReferenceDate
        return EncodingError.invalidValue(
            interval.isFinite ? date : interval,
            .init(
                codingPath: codingPath,
                debugDescription:
                    "Cannot write \(interval) seconds since 2001 as an ISO 8601 date from year 0 to 9999; set a dateEncodingStrategy to encode it."
            ))
    }

    /// Encodes data into this encoder's node under the data strategy.
    private func encodeData(_ data: Data) throws {
        switch tree.configuration.settings.dataEncodingStrategy {
        case .base64:
            tree.setString(node, data.base64EncodedString())
        case .custom(let closure):
            try closure(data, self)
            if tree.nodes[Int(node)].kind == .unset { tree.makeObject(node) }
        default:
            // .deferredToData: an array of bytes.
            try data.encode(to: self)
        }
    }

    // MARK: - Keys

    /// The JSON key for a coding key, under the key strategy: the one place where keys are
    /// converted.
    ///
    /// - Parameters:
    ///   - key: The coding key.
    ///   - suffix: The keys of the nested containers between this encoder and the key, for the
    ///     path handed to a custom strategy.
    func jsonKey(for key: some CodingKey, suffix: EncoderPathNode) -> String {
        switch tree.keyMode {
        case .useDefaultKeys:
            return key.stringValue
        case .snakeCase:
            let original = key.stringValue
            if let converted = tree.snakeCaseKey(for: original) { return converted }
            let converted = FoundationSnakeCase.convert(original)
            tree.rememberSnakeCaseKey(converted, for: original)
            return converted
        case .custom(let convert):
            return convert(codingPath + suffix.keys + [key]).stringValue
        }
    }

    // MARK: - JSONValue

    /// Copies a ``JSONValue`` into a node: numbers keep their text, objects their member order,
    /// and object keys are written as they are, like a dictionary's.
    func insert(_ value: JSONValue, into node: Int32, key: (any CodingKey)?) throws {
        try insert(value, into: node, path: key.map { EncoderPathNode.root.appending($0) } ?? .root)
    }

    /// A ``JSONValue`` encoded as a value (a property, an element, the top level): its object
    /// keys go through the key encoding strategy, as under `JSONEncoder`, whose keyed containers
    /// convert the keys `JSONValue` encodes itself with. JSON that user code hands the encoder
    /// (hooks, transforms, converters) and kept unknown keys are written as they are.
    func insertValue(_ value: JSONValue, into node: Int32, key: (any CodingKey)?) throws {
        let convertsKeys: Bool
        if case .useDefaultKeys = tree.keyMode { convertsKeys = false } else { convertsKeys = true }
        try insert(
            value, into: node, path: key.map { EncoderPathNode.root.appending($0) } ?? .root, convertsKeys: convertsKeys
        )
    }

    /// Copies JSON that user code returned (a hook, a converter, a transform) into a node. JSON
    /// nested too deep to write, or to copy on this thread's stack, is taken from `value` (left
    /// `null`) and released one level at a time, as user code can build it deeper than releasing
    /// it by recursion could go.
    func insert(taking value: inout JSONValue, into node: Int32, key: (any CodingKey)?) throws {
        do {
            try insert(value, into: node, key: key)
        } catch {
            // Too deep to write, or to copy on this thread's stack.
            JSONValue.releaseIteratively(&value)
            throw error
        }
    }

    func insert(
        _ value: JSONValue, into node: Int32, path: EncoderPathNode, level: Int = 0, convertsKeys: Bool = false
    ) throws {
        switch value {
        case .null: tree.setNull(node)
        case .bool(let flag): tree.setBool(node, flag)
        case .string(let text): tree.setString(node, text)
        case .number(let text):
            guard JSONNumberSyntax.isValid(text) else {
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: codingPath + path.keys, debugDescription: "\"\(text)\" is not a valid JSON number.")
                )
            }
            tree.setLiteral(node, text)
        case .array(let elements):
            guard level < Self.maximumDepth else { throw NestedTooDeep() }
            if depth &+ level > Self.unguardedDepth {
                // The error names an empty array: the value's contents are deeper than the stack
                // has room for, and releasing them is recursive, wherever the error goes.
                try checkStack(JSONValue.array([]), depth: depth &+ level, suffix: path)
            }
            tree.makeArray(node)
            for (index, element) in elements.enumerated() {
                let child = tree.appendElement(to: node)
                try insert(
                    element, into: child, path: path.appending(IndexCodingKey(index)), level: level + 1,
                    convertsKeys: convertsKeys)
            }
        case .object(let object):
            guard level < Self.maximumDepth else { throw NestedTooDeep() }
            if depth &+ level > Self.unguardedDepth {
                try checkStack(JSONValue.object([:]), depth: depth &+ level, suffix: path)
            }
            tree.makeObject(node)
            for (memberKey, memberValue) in object {
                let codingKey = DictionaryCodingKey(memberKey, hasIntValue: false)
                let jsonKey = convertsKeys ? self.jsonKey(for: codingKey, suffix: path) : memberKey
                let (child, existed) = tree.member(jsonKey, of: node)
                if existed { tree.clear(child) }
                try insert(
                    memberValue, into: child, path: path.appending(codingKey), level: level + 1,
                    convertsKeys: convertsKeys)
            }
        }
    }
}

extension TreeEncoder {
    /// Refuses to encode a value deeper when the thread's stack is nearly spent (``StackGuard``),
    /// as the decoder refuses to decode one: a value decoded on a thread with a larger stack, or
    /// a ``JSONValue`` kept from a document, can nest deeper than a small thread can encode. The
    /// refusal is also kept as the call's pending error, so that it fails the call even where a
    /// model's `try?` swallowed it.
    ///
    /// Called for every value nested more than ``unguardedDepth`` levels deep, and only there.
    ///
    /// - Parameters:
    ///   - value: The value that was to be encoded.
    ///   - depth: How many values it is nested in.
    ///   - suffix: Its keys below this encoder.
    @inline(never)
    func checkStack<T>(_ value: T, depth: Int, suffix: EncoderPathNode) throws {
        guard tree.stackGuard.isExhausted() else { return }
        let error = EncodingError.invalidValue(
            value,
            .init(
                codingPath: codingPath + suffix.keys,
                debugDescription: Self.stackRefusal(depth: depth)))
        tree.record(error)
        throw error
    }

    /// The message of a refusal `depth` levels deep for want of stack.
    static func stackRefusal(depth: Int) -> String {
        "The encode stopped \(depth) levels deep, where the stack of this thread was nearly spent: the value nests deeper than this thread leaves room to encode; encode it on a thread with a larger stack."
    }
}

/// Thrown where a value is nested deeper than JSON text can be written, before the encoder's
/// recursion goes any deeper; the top-level call turns it into Foundation's error for a value
/// nested too deep (``LenientJSONEncoder/depthError(topLevelValue:)``).
struct NestedTooDeep: Error {}

// MARK: - Single value container

extension TreeEncoder: SingleValueEncodingContainer {
    func encodeNil() throws { tree.setNull(node) }
    func encode(_ value: Bool) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setBool(node, value)
    }
    func encode(_ value: String) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setString(node, value)
    }
    func encode(_ value: Double) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        try setFloatingPoint(value, into: node, key: nil)
    }
    func encode(_ value: Float) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        try setFloatingPoint(value, into: node, key: nil)
    }
    func encode(_ value: Int) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setInt(node, Int64(value))
    }
    func encode(_ value: Int8) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setInt(node, Int64(value))
    }
    func encode(_ value: Int16) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setInt(node, Int64(value))
    }
    func encode(_ value: Int32) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setInt(node, Int64(value))
    }
    func encode(_ value: Int64) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setInt(node, value)
    }
    func encode(_ value: UInt) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setUInt(node, UInt64(value))
    }
    func encode(_ value: UInt8) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setUInt(node, UInt64(value))
    }
    func encode(_ value: UInt16) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setUInt(node, UInt64(value))
    }
    func encode(_ value: UInt32) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setUInt(node, UInt64(value))
    }
    func encode(_ value: UInt64) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setUInt(node, value)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func encode(_ value: Int128) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setLiteral(node, value.description)
    }
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    func encode(_ value: UInt128) throws {
        if tree.hasConverters, try encodeConvertedSlowPath(value, into: node, key: nil) { return }
        tree.setLiteral(node, value.description)
    }
    func encode<T: Encodable>(_ value: T) throws {
        // A value handed over whole starts the node again: its containers are its own.
        containerMade = (-1, false)
        try encode(value, into: node, key: nil)
    }
}

// MARK: - Arrays and dictionaries with String keys

/// The collections that the encoder writes itself rather than through their `encode(to:)`:
/// arrays, whose elements of the common scalar types go straight into the tree, and
/// `[String: Value]`, which Foundation encodes without applying the key strategy to its keys.
///
/// The encoder finds the conformance once per type (see ``EncodingTree/traits(of:)``) and
/// calls it with a pointer to the value, so that no value is cast or boxed.
protocol EncodableCollection: _LenientEncodingMarker {
    /// Writes the collection at `value`, which points to an instance of `Self`, into the
    /// encoder's node. `value` is valid during the call only: the caller's `withUnsafePointer`
    /// holds the collection. `underItsKey` says whether the collection was given under a key of
    /// its own (a member or an element), rather than through the single value container of the
    /// encoder whose node it fills.
    static func encodeElements(of value: UnsafeRawPointer, with encoder: TreeEncoder, underItsKey: Bool) throws
}

extension Array: _LenientEncodingMarker where Element: Encodable {
    /// Not API: an array, which the encoder writes itself.
    public static var _lenientEncodingRole: _LenientEncodingRole { _LenientEncodingRole(.collection(Self.self)) }
}

extension Array: EncodableCollection where Element: Encodable {
    static func encodeElements(of value: UnsafeRawPointer, with encoder: TreeEncoder, underItsKey: Bool) throws {
        // What `Array.encode(to:)` does through an unkeyed container, element by element.
        let tree = encoder.tree
        let node = encoder.node
        tree.makeArray(node)
        let first = Int(tree.nodes[Int(node)].childCount)
        // The common element types as concrete arrays, so that their loops are specialized;
        // the rest with plain index loops, which in this unspecialized code instantiate no
        // metadata per element (`enumerated()` would, for its tuples). With converters, every
        // element goes through `encode(_:into:key:)`, which looks them up.
        let isPlain = !tree.hasConverters
        // `value` points to the array, from `encodeComposite`'s `withUnsafePointer`, for this
        // call only; `Element` is checked before each view of it as a concrete array.
        if isPlain && Element.self == Int.self {
            tree.appendInts(value.assumingMemoryBound(to: [Int].self).pointee, to: node)
        } else if isPlain && Element.self == String.self {
            tree.appendStrings(value.assumingMemoryBound(to: [String].self).pointee, to: node)
        } else if isPlain && Element.self == Double.self
            && tree.appendFiniteDoubles(value.assumingMemoryBound(to: [Double].self).pointee, to: node)
        {
            // Written; an array with a number JSON cannot hold goes element by element below,
            // for the strategy or the error.
        } else if isPlain && Element.self == [Double].self && encoder.depth < TreeEncoder.maximumDepth
            && tree.traits(of: [Double].self).traits.isEmpty
        {
            // Rows of numbers, as in GeoJSON coordinates: a row of finite numbers is what
            // `encode(_:into:key:)` would make of it, without an encoder per row. A row with a
            // number JSON cannot hold takes that path, for the strategy or the error.
            let rows = value.assumingMemoryBound(to: [[Double]].self).pointee
            for offset in 0..<rows.count {
                let slot = tree.appendElement(to: node)
                if !tree.appendFiniteDoubles(rows[offset], to: slot) {
                    try encoder.encode(rows[offset], into: slot, key: IndexCodingKey(first + offset))
                }
            }
        } else {
            let elements = value.assumingMemoryBound(to: [Element].self)
            let count = elements.pointee.count
            var offset = 0
            while offset < count {
                try encoder.encode(
                    elements.pointee[offset], into: tree.appendElement(to: node), key: IndexCodingKey(first + offset))
                offset += 1
            }
        }
    }
}

extension Dictionary: _LenientEncodingMarker where Key == String, Value: Encodable {
    /// Not API: a string-keyed dictionary, which the encoder writes itself.
    public static var _lenientEncodingRole: _LenientEncodingRole { _LenientEncodingRole(.collection(Self.self)) }
}

extension Dictionary: EncodableCollection where Key == String, Value: Encodable {
    static func encodeElements(of value: UnsafeRawPointer, with encoder: TreeEncoder, underItsKey: Bool) throws {
        encoder.tree.makeObject(encoder.node)
        let dictionary = value.assumingMemoryBound(to: [String: Value].self)
        // Under the default key strategy Foundation encodes the dictionary through a keyed
        // container, whose keys parse as integers in coding paths, under the dictionary's own
        // key. Under the others it writes the members itself, with keys that never parse as
        // integers, and the coding paths of its values leave out the key the dictionary was
        // given under (a member's or element's), which the values' own code can see (a `.custom`
        // key or date strategy, an `encode(to:)` that reads `codingPath`) and errors show.
        // A dictionary among those values keeps its member's key.
        if case .useDefaultKeys = encoder.tree.keyMode {
            try dictionary.pointee.encodeMembers(with: encoder, hasIntValue: true)
        } else if underItsKey {
            try encoder.hidingOwnKey {
                try encoder.writingDictionaryMembers {
                    try dictionary.pointee.encodeMembers(with: encoder, hasIntValue: false)
                }
            }
        } else {
            try encoder.writingDictionaryMembers {
                try dictionary.pointee.encodeMembers(with: encoder, hasIntValue: false)
            }
        }
    }

    private func encodeMembers(with encoder: TreeEncoder, hasIntValue: Bool) throws {
        let tree = encoder.tree
        let object = encoder.node
        for (key, value) in self {
            let member = tree.appendMember(key, to: object)
            try encoder.encode(value, into: member, key: DictionaryCodingKey(key, hasIntValue: hasIntValue))
        }
    }
}

// MARK: - Keys and paths

/// The key of an element of an unkeyed container: "Index 3", as in Foundation's coding paths.
struct IndexCodingKey: CodingKey {
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init(intValue: Int) { index = intValue }
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// The key of a dictionary member in a coding path.
struct DictionaryCodingKey: CodingKey {
    let stringValue: String
    private let hasIntValue: Bool
    init(_ key: String, hasIntValue: Bool) {
        stringValue = key
        self.hasIntValue = hasIntValue
    }
    init(stringValue: String) { self.init(stringValue, hasIntValue: true) }
    init?(intValue: Int) { self.init(String(intValue), hasIntValue: true) }
    var intValue: Int? { hasIntValue ? Int(stringValue) : nil }
}

/// The keys of the containers nested inside one encoder, innermost last.
indirect enum EncoderPathNode {
    case root
    case key(any CodingKey, parent: EncoderPathNode)

    func appending(_ key: any CodingKey) -> EncoderPathNode {
        .key(key, parent: self)
    }

    var keys: [any CodingKey] {
        var result: [any CodingKey] = []
        var current = self
        while case .key(let key, let parent) = current {
            result.append(key)
            current = parent
        }
        return result.reversed()
    }
}

// MARK: - Number syntax

/// The JSON number grammar of RFC 8259, to check the text of ``JSONValue/number(_:)``.
enum JSONNumberSyntax {
    static func isValid(_ text: String) -> Bool {
        var bytes = text.utf8.makeIterator()
        var next = bytes.next()
        if next == UInt8(ascii: "-") { next = bytes.next() }
        guard let first = next else { return false }
        func isDigit(_ byte: UInt8?) -> Bool {
            byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false
        }
        if first == UInt8(ascii: "0") {
            next = bytes.next()
        } else if isDigit(first) {
            repeat { next = bytes.next() } while isDigit(next)
        } else {
            return false
        }
        if next == UInt8(ascii: ".") {
            next = bytes.next()
            guard isDigit(next) else { return false }
            repeat { next = bytes.next() } while isDigit(next)
        }
        if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            next = bytes.next()
            if next == UInt8(ascii: "+") || next == UInt8(ascii: "-") { next = bytes.next() }
            guard isDigit(next) else { return false }
            repeat { next = bytes.next() } while isDigit(next)
        }
        return next == nil
    }
}

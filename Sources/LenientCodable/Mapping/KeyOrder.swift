// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The order in which a mapped model's `init(from:)` asks for its keys, each with where the
/// plan says its value is, so that a keyed container can guess the next key instead of probing
/// the plan's hash table.
///
/// A synthesized `init(from:)` asks for the same keys in the same order for every object, and
/// each key's `stringValue` is the same string literal every time, so checking a guess is one
/// comparison of two string representations. A container keeps its place in the order in its
/// ``PathBox``; a wrong guess searches the order, then asks the plan.
///
/// The first decode that uses a plan learns the order as it goes; once that decode has
/// finished, the plan adopts it (see ``KeyPlan/adopt(_:)``), freezes it, and hands it to every
/// later decode, which then only reads it.
final class KeyOrder: @unchecked Sendable {
    /// The learned keys and the lookups over them, at an address that stays put for the order's life, so
    /// that containers read them through a plain pointer (a class reference would be retained
    /// and released around every key).
    let storage: UnsafeMutablePointer<Storage>
    /// The plan the order belongs to, retained here: the storage refers to it without retaining it.
    let plan: KeyPlan

    init(plan: KeyPlan) {
        self.plan = plan
        storage = .allocate(capacity: 1)
        storage.initialize(to: Storage(plan: plan))
    }

    deinit {
        storage.pointee.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Whether the order is shared between decodes and so never changes again.
    var isFrozen: Bool { storage.pointee.isFrozen }

    /// Stops the order from learning; called under the plan's lock before it is shared.
    func freeze() { storage.pointee.isFrozen = true }

    /// The keys of a model in the order it asks for them.
    struct Storage {
        /// One key as a container asked for it.
        struct Step {
            let name: String
            let lookup: KeyPlan.Lookup
        }

        /// At most this many distinct keys are learned: a model's keys, not a dictionary's.
        static let capacity = 64

        /// The plan the order belongs to, retained by the ``KeyOrder`` that owns this storage.
        unowned(unsafe) let plan: KeyPlan
        /// The plan's table, for entries with several candidates. The same as `plan.table`,
        /// copied so that the hot path reads a pointer instead of the plan's reference.
        let table: UnsafePointer<KeyTable>
        private let steps: UnsafeMutablePointer<Step>
        private var count = 0
        /// The JSON keys that the type's strategy gives unmapped properties, copied so that
        /// their steps can point at them.
        private var strategyKeys: [UnsafeMutableBufferPointer<UInt8>] = []
        fileprivate(set) var isFrozen = false

        init(plan: KeyPlan) {
            self.plan = plan
            table = plan.table
            steps = .allocate(capacity: Storage.capacity)
        }

        func deallocate() {
            steps.deinitialize(count: count)
            steps.deallocate()
            for key in strategyKeys { key.deallocate() }
        }

        /// Where a property is, guessed from the container's place in the order. Reads the order
        /// only, unless it is still learning (then only one decode uses it).
        @inline(__always)
        static func lookup(_ name: String, in order: UnsafeMutablePointer<Storage>, cursor box: KeyedContainerState)
            -> KeyPlan.Lookup
        {
            let position = box.keyCursor
            if position < order.pointee.count && order.pointee.steps[position].name == name {
                box.keyCursor = position + 1
                return order.pointee.steps[position].lookup
            }
            return lookupSlowPath(name, in: order, cursor: box)
        }

        /// A wrong guess: the key's place elsewhere in the order, or the plan's answer, learned.
        @inline(never)
        private static func lookupSlowPath(
            _ name: String, in order: UnsafeMutablePointer<Storage>, cursor box: KeyedContainerState
        )
            -> KeyPlan.Lookup
        {
            let known = order.pointee
            for position in 0..<known.count where known.steps[position].name == name {
                box.keyCursor = position + 1
                return known.steps[position].lookup
            }
            let lookup = known.plan.lookup(name)
            guard !known.isFrozen && known.count < Storage.capacity else { return lookup }
            order.pointee.learn(name, lookup)
            box.keyCursor = order.pointee.count
            return lookup
        }

        /// Appends a key to an order that is still learning.
        private mutating func learn(_ name: String, _ lookup: KeyPlan.Lookup) {
            (steps + count).initialize(to: Step(name: name, lookup: learnedLookup(lookup, name: name)))
            count += 1
        }

        /// A lookup as the order keeps it: an unmapped property of a type with a key strategy
        /// becomes a rename to the key the strategy gives it.
        private mutating func learnedLookup(_ lookup: KeyPlan.Lookup, name: String) -> KeyPlan.Lookup {
            guard case .unmapped = lookup, let key = plan.strategyKey(for: name) else { return lookup }
            let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, key.utf8.count))
            _ = bytes.initialize(from: key.utf8)
            strategyKeys.append(bytes)
            return .rename(UnsafeBufferPointer(rebasing: bytes[..<key.utf8.count]))
        }
    }
}

extension TreeDecoder {
    /// Where a mapped property's value is, by the model's key order and plan, before any loose matching.
    enum MappedValue {
        /// The value of the property's first candidate, or the `null` that every present candidate holds.
        case found(Int)
        /// The non-null value of a later candidate, at `position` in the entry's list.
        case fallback(Int, position: Int)
        /// The mapping does not name the property: its coding key (as the key strategy spells it) applies.
        case unmapped
        /// No candidate is present.
        case missing
        /// The property is neither decoded nor encoded.
        case ignored
    }

    /// Finds a mapped property's value in an object. Not generic, so that it is compiled once,
    /// optimized, for every model.
    func mappedValueIndex(
        named name: String, in objectIndex: Int, order: UnsafeMutablePointer<KeyOrder.Storage>,
        cursor: KeyedContainerState
    ) -> MappedValue {
        switch KeyOrder.Storage.lookup(name, in: order, cursor: cursor) {
        case .rename(let jsonKey):
            guard let index = tree.findMember(in: objectIndex, key: jsonKey, cursor: cursor) else { return .missing }
            return .found(index)
        case .candidates(let entry):
            guard let (index, position) = order.pointee.table.pointee.resolve(entry, in: tree, objectIndex: objectIndex)
            else { return .missing }
            // A null is no value, under whichever candidate it is (the first present non-null value
            // wins, and `resolve` takes a null only when every present candidate holds one): it is
            // not found "under a later key", and reporting it as a fallback would count one
            // forgiven value twice, beside its default.
            return position == 0 || tree[index].kind == .null ? .found(index) : .fallback(index, position: position)
        case .unmapped:
            // Learned orders hold strategy keys as renames; this is a key the order could not learn.
            guard order.pointee.table.pointee.hasStrategy, let strategyKey = order.pointee.plan.strategyKey(for: name)
            else { return .unmapped }
            guard let index = tree.findMember(in: objectIndex, key: strategyKey.utf8) else { return .missing }
            return .found(index)
        case .ignored:
            return .ignored
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 Writing back the members of an `UnknownKeys` property, once the value that declares it has
 encoded its properties. The model's own JSON comes first and wins; what was kept fills in
 around it:

 - a kept member whose key the model did not write is added, after the model's members;
 - a kept member whose key the model wrote as a property's value is left out;
 - a kept object where the model's superclass wrote its object through `superEncoder()` is
   merged into it, one level: the superclass's members win, the others are added (the decoder
   keeps `super` whole, as it cannot know what the superclass reads);
 - a kept member where the model wrote a nested key's objects and arrays (`"ext.desc"`,
   `"info[1].zone"`, marked `holdsNestedKeys`) is merged into them, level by level: objects
   member by member, arrays element by element, by position. A position that the model only
   padded with `null` on its way to a higher index takes the kept element; a kept value of
   another kind than the model's container (an array where the model wrote an object) is left
   out.

 So with `"desc": "ext.desc"` and `"zone": "info[1].zone"`, and the kept members

     {"ext": {"other": 1}, "info": [{"a": 1}, {"b": 2}, 3]}

 the model's {"ext": {"desc": "d"}, "info": [null, {"zone": "z"}]} becomes

     {"ext": {"desc": "d", "other": 1}, "info": [{"a": 1}, {"zone": "z", "b": 2}, 3]}

 The merge descends only through the model's nested-key containers, so it recurses at most as
 deep as the longest nested key of the mapping; kept values below are copied as they are.
 */

extension TreeEncoder {
    /// Writes the members of the ``UnknownKeys`` properties of the value just encoded into its
    /// object, after its properties; see the top of this file for what wins where.
    ///
    /// Also those of values nested in it that were encoded through `superEncoder()` or
    /// `superEncoder(forKey:)`, whose `encode(to:)` the model calls itself, so that no call
    /// of the encoder's own ends them: their nodes were made while this value was encoded, after
    /// its own node, and they are finished once it is.
    ///
    /// - Parameter absentFrom: Where the `nil` optionals that the value left out begin among
    ///   ``EncodingTree/absentMembers``.
    @inline(never)
    func writeUnknownKeysSlowPath(into node: Int32, absentFrom absentMark: Int) throws {
        while let last = tree.pendingUnknownKeys.last, last.node >= node {
            tree.pendingUnknownKeys.removeLast()
            let node = last.node
            tree.expandIfJSONLeaf(node)
            if tree.nodes[Int(node)].kind == .unset { tree.makeObject(node) }
            // A value written over the object since (an array, a scalar) keeps no members.
            guard tree.nodes[Int(node)].kind == .object else { continue }
            // The nodes the kept members are written into come after every node the value wrote.
            let keptFrom = Int32(tree.nodeCount)
            for (key, value) in last.members {
                if let payloadTag = tree.payloadTag, payloadTag.node == node, payloadTag.key == key { continue }
                let (member, existed) = tree.member(key, of: node)
                if existed, !tree.superObjects.isEmpty, tree.superObjects.contains(member) {
                    try mergeIntoSuperObject(
                        kept: value, member, path: EncoderPathNode.root.appending(AnyCodingKey(key)))
                } else if existed {
                    try merge(kept: value, into: member, path: EncoderPathNode.root.appending(AnyCodingKey(key)))
                } else {
                    // Server data, written as it came: no key strategy for the keys inside it.
                    try insert(value, into: member, key: AnyCodingKey(key))
                }
            }
            if tree.absentMembers.count > absentMark {
                tree.writeNullsForAbsentMembers(
                    of: node, from: absentMark, looseMatching: last.readLoosely, keptFrom: keptFrom)
            }
        }
    }

    /// Merges a kept object into the object a superclass wrote through `superEncoder()`: the
    /// members it did not write are added; those it wrote win, merged into only where its key
    /// mapping made them (``merge(kept:into:path:)``). What the superclass left out on purpose
    /// stays out: a `nil` optional it left out, and everything when it has an ``UnknownKeys``
    /// property of its own, which keeps its unknown members itself (the copy here would bring
    /// back a member its code removed).
    private func mergeIntoSuperObject(kept: JSONValue, _ node: Int32, path: EncoderPathNode) throws {
        tree.expandIfJSONLeaf(node)
        guard case .object(let members) = kept, tree.nodes[Int(node)].kind == .object,
            !tree.objectsWithBags.contains(node)
        else {
            return try merge(kept: kept, into: node, path: path)
        }
        let absent = tree.absentMembers.filter { $0.node == node }.map(\.member.jsonKey)
        try mergeMembers(members.lazy.filter { !absent.contains($0.key) }, into: node, path: path)
    }

    /// Merges kept members into an object the model wrote, member by member: a member it did not
    /// write is added; one it wrote is merged into (``merge(kept:into:path:)``).
    private func mergeMembers(
        _ members: some Sequence<(key: String, value: JSONValue)>, into node: Int32, path: EncoderPathNode
    ) throws {
        for (key, value) in members {
            let memberPath = path.appending(DictionaryCodingKey(key, hasIntValue: false))
            let (member, existed) = tree.member(key, of: node)
            if existed {
                try merge(kept: value, into: member, path: memberPath)
            } else {
                try insert(value, into: member, path: memberPath)
            }
        }
    }

    /// Merges a kept value into a node the model wrote: only into the objects and arrays of its
    /// nested keys, and into the `null` elements that pad such an array; a property's own value
    /// wins.
    ///
    /// The exception: containers the mapping made only to hold `null`s (`nil` optionals written
    /// under `.writeNull` at nested keys) give way to a kept value that is not a container of
    /// their kind, or is an empty one (`{"ext": "legacy"}`, `{"ext": {}}`, `{"info": [true]}` for
    /// `"ext.desc"` and `"info[0].z"`). Merged, the value would be lost, or read and so not kept
    /// again, when the JSON is decoded; written as it was kept, the nested keys find no value
    /// there and the optionals decode `nil`, as they are.
    private func merge(kept: JSONValue, into node: Int32, path: EncoderPathNode) throws {
        let written = tree.nodes[Int(node)]
        guard written.holdsNestedKeys else { return }
        if written.kind == .object || written.kind == .array, Self.givesWay(written.kind, to: kept),
            tree.holdsOnlyNulls(node)
        {
            tree.clear(node)
            try insert(kept, into: node, path: path)
            return
        }
        switch (written.kind, kept) {
        case (.null, _):
            // A position that the model skipped on its way to a higher index.
            tree.clear(node)
            try insert(kept, into: node, path: path)
        case (.object, .object(let members)):
            try mergeMembers(members, into: node, path: path)
        case (.array, .array(let elements)):
            var element = tree.nodes[Int(node)].firstChild
            for (position, value) in elements.enumerated() {
                let elementPath = path.appending(IndexCodingKey(position))
                if element >= 0 {
                    try merge(kept: value, into: element, path: elementPath)
                    element = tree.nodes[Int(element)].nextSibling
                } else {
                    try insert(value, into: tree.appendElement(to: node), path: elementPath)
                }
            }
            // Past the kept elements, positions that hold only what `nil` optionals wrote are left
            // off: the decoder reads a kept array up to the last position a nested key reads, and
            // would not keep a `null` the server sent before one written there.
            tree.dropTrailingNullElements(of: node, keeping: elements.count)
        default:
            // A container of another kind than the kept value: the model's wins.
            return
        }
    }
}

extension TreeEncoder {
    /// Whether a kept value takes the place of a container of `kind` that holds only `null`s:
    /// it is not a container of that kind, or is an empty one.
    fileprivate static func givesWay(_ kind: EncodedNode.Kind, to kept: JSONValue) -> Bool {
        switch kept {
        case .object(let members): kind != .object || members.isEmpty
        case .array(let elements): kind != .array || elements.isEmpty
        default: true
        }
    }
}

extension EncodingTree {
    /// Whether a node is a container that the key mapping made (``EncodedNode/holdsNestedKeys``)
    /// and everything under it is `null` or such a container: what `nil` optionals wrote, and
    /// no property's own value (an empty array or object a model holds included). Walked with a
    /// list of its own, not by recursion, however deep the node.
    func holdsOnlyNulls(_ node: Int32) -> Bool {
        var pending: [Int32] = [node]
        while let current = pending.popLast() {
            expandIfJSONLeaf(current)
            let value = nodes[Int(current)]
            switch value.kind {
            case .null:
                continue
            case .object, .array:
                guard value.holdsNestedKeys else { return false }
                var child = value.firstChild
                while child >= 0 {
                    pending.append(child)
                    child = nodes[Int(child)].nextSibling
                }
            default:
                return false
            }
        }
        return true
    }
}

extension EncodingTree {
    /// Leaves off the elements of an array node past the first `count` while each of them, from
    /// the last back, holds only what `nil` optionals wrote (``holdsOnlyNulls(_:)``, or a padding
    /// `null` the mapping wrote to reach an index).
    fileprivate func dropTrailingNullElements(of array: Int32, keeping count: Int) {
        let elements = children(of: array)
        var kept = elements.count
        while kept > count {
            let element = elements[kept - 1]
            let node = nodes[Int(element)]
            guard (node.kind == .null && node.holdsNestedKeys) || holdsOnlyNulls(element) else { break }
            kept -= 1
        }
        // The nodes left off stay in the storage, unreachable, as replaced values do.
        truncateChildren(of: array, to: Int32(kept))
    }
}

/// A `nil` optional property that the encoder left out of an object.
struct AbsentMember {
    /// The property's coding key.
    let propertyName: String
    /// Its key in the JSON, through the key strategy, when no key mapping applies.
    let jsonKey: String
    /// The key mapping of the type, when it has one.
    let plan: KeyPlan?
}

extension EncodingTree {
    /// Writes `null` where a `nil` optional left out of `object` would otherwise be found, once
    /// the members an ``UnknownKeys`` property kept are written into it: under another spelling
    /// of its key (or of a fallback's), at any level of a nested key, loose matching would read
    /// that member in its place when the JSON is decoded again, and turn `nil` into its value.
    /// Written `null` under its own key, the property reads `null` as it did the first time, and
    /// the kept member stays kept. Where the key is a path through an array that is not there,
    /// or no candidate could be written, nothing is. Without `looseMatching` (members kept by a
    /// decode that matched no key loosely, where the type failed on what loose matching found),
    /// only exact spellings count: decoded again, the type fails on the other spellings as it did
    /// and keeps them, and a `null` it never wrote could fail it where it read nothing.
    func writeNullsForAbsentMembers(of object: Int32, from mark: Int, looseMatching: Bool, keptFrom: Int32) {
        // The first letters of the members, as loose matching folds them: a property none of
        // whose keys begins with one of them is found under no other spelling, the usual case.
        var letters: UInt64?
        for position in mark..<absentMembers.count where absentMembers[position].node == object {
            let known = letters ?? firstLetters(of: object)
            letters = known
            guard absentMembers[position].member.mayStartWith(known) else { continue }
            let (candidates, looseNames) = absentMembers[position].member.lookups
            // Found exactly, the decoder reads what it finds; found by nothing, it reads nothing.
            // Found by loose matching, a value other than `null` is what it would turn `nil` into,
            // and a `null` is a kept member it would read, and so take from the `UnknownKeys`.
            // Of a fallback list, the decoder reads the first candidate present and not `null`,
            // else the first present: a kept later candidate that holds `null` is read unless the
            // first holds `null` too. One that holds a value is read whatever is written: it is
            // left out, so that the property decodes as the `nil` it is (`{"id": "x",
            // "book_id": 7}` decodes `id` as `nil`, keeping `book_id`, which written back alone
            // would be read as `id`).
            let looselyFound = { (path: [KeyBytes]) in self.node(at: path, in: object, loosely: true) != nil }
            var exact = candidates.map { node(at: $0, in: object, loosely: false) }
            // (The first candidate is missing, or holds the `null` `.writeNull` wrote.)
            if let first = exact.first, first.map({ nodes[Int($0)].kind == .null }) ?? true,
                exact.contains(where: { $0.map { nodes[Int($0)].kind != .null } ?? false })
            {
                removeKeptCandidates(candidates, holding: exact, in: object, keptFrom: keptFrom)
                exact = candidates.map { node(at: $0, in: object, loosely: false) }
            }
            guard exact.first.map({ $0 == nil }) ?? false,
                !exact.contains(where: { $0.map { nodes[Int($0)].kind != .null } ?? false }),
                exact.contains(where: { $0 != nil })
                    || (looseMatching
                        && (candidates.contains(where: looselyFound)
                            || looseNames.contains(where: { looselyFound([KeyBytes($0)]) })))
            else { continue }
            for path in candidates where writeNull(at: path, in: object) { break }
        }
    }

    /// Leaves out of `object` the candidates of an absent property's fallback list that hold a
    /// value (`found`: each candidate's node, as written), which decoding would read in place of
    /// the property's `nil`: those that kept members wrote (nodes from `keptFrom` on), not what
    /// another property of the value wrote.
    private func removeKeptCandidates(
        _ candidates: [[KeyBytes]], holding found: [Int32?], in object: Int32, keptFrom: Int32
    ) {
        for (path, node) in zip(candidates, found) {
            guard let node, node >= keptFrom, nodes[Int(node)].kind != .null,
                let parent = path.count == 1
                    ? object : self.node(at: Array(path.dropLast()), in: object, loosely: false),
                nodes[Int(parent)].kind == .object
            else { continue }
            removeMember(node, of: parent)
        }
    }

    /// A set of the first significant bytes of an object's member keys, lowercased (one bit per
    /// byte's low six bits); every bit when a key starts with a separator or is empty.
    private func firstLetters(of object: Int32) -> UInt64 {
        expandIfJSONLeaf(object)
        var letters: UInt64 = 0
        var child = nodes[Int(object)].firstChild
        while child >= 0 {
            letters |= FirstLetters.bit(of: nodes[Int(child)].key)
            child = nodes[Int(child)].nextSibling
        }
        return letters
    }

    /// The node at a key path, each key matched exactly or (`loosely`) as the decoder's loose
    /// matching finds it (the first member that matches ignoring ASCII case and separators).
    private func node(at path: [KeyBytes], in object: Int32, loosely: Bool) -> Int32? {
        var current = object
        for step in path {
            guard let next = child(of: current, step: step, loosely: loosely) else { return nil }
            current = next
        }
        return current
    }

    /// One step of a key path from a written node, without adding anything.
    private func child(of node: Int32, step: KeyBytes, loosely: Bool) -> Int32? {
        expandIfJSONLeaf(node)
        let container = nodes[Int(node)]
        var child = container.firstChild
        if let index = step.index {
            guard container.kind == .array else { return nil }
            var position = 0
            while child >= 0 && position < index {
                child = nodes[Int(child)].nextSibling
                position += 1
            }
            return child >= 0 ? child : nil
        }
        guard container.kind == .object else { return nil }
        // Loosely, the decoder takes the first member that matches in the JSON it reads: under
        // `.sortedKeys`, the one whose key sorts first.
        let sorts = loosely && configuration.settings.outputFormatting.contains(.sortedKeys)
        var found: Int32?
        while child >= 0 {
            let key = nodes[Int(child)].key
            let matches =
                loosely
                // Both buffers are read inside their closures only, which hold the arrays and strings.
                ? step.utf8.withUnsafeBufferPointer { wanted in
                    key.withUTF8Bytes { JSONTree.looselyEqual($0, wanted) }
                } : key == step.text
            if matches {
                guard sorts else { return child }
                if found.map({ JSONWriter.keyPrecedes(key, nodes[Int($0)].key) }) ?? true { found = child }
            }
            child = nodes[Int(child)].nextSibling
        }
        return found
    }

    /// Writes `null` at a key path, adding the objects its keys step into where they are missing;
    /// `false`, writing nothing, where a step meets something else (an array it has no element
    /// for, a scalar).
    private func writeNull(at path: [KeyBytes], in object: Int32) -> Bool {
        // First whether the whole path can be written: past the first step that is missing, every
        // step must be a key, into objects made on the way. Nothing is added otherwise.
        var reached = object
        for (level, step) in path.enumerated() {
            if let existing = child(of: reached, step: step, loosely: false) {
                if level == path.count - 1 { return false }
                reached = existing
                continue
            }
            guard nodes[Int(reached)].kind == .object, path[level...].allSatisfy({ $0.index == nil }) else {
                return false
            }
            break
        }
        var current = object
        for (level, step) in path.enumerated() {
            let isLast = level == path.count - 1
            if let existing = child(of: current, step: step, loosely: false) {
                guard !isLast else { return false }
                current = existing
                continue
            }
            guard step.index == nil, nodes[Int(current)].kind == .object else { return false }
            let (member, _) = self.member(step.text, of: current)
            if isLast {
                setNull(member)
            } else {
                makeObject(member)
                current = member
            }
        }
        return true
    }
}

/// First letters of keys as loose matching compares them, as bits of a 64-bit set.
enum FirstLetters {
    /// The bit of a key's first byte, lowercased; every bit for a key that starts with a
    /// separator or is empty, which any key may match loosely.
    static func bit(of key: String) -> UInt64 {
        let first = key.withUTF8Bytes { $0.first }
        guard let first, let folded = JSONTree.looseByte(first) else { return .max }
        return 1 &<< UInt64(folded & 63)
    }
}

extension AbsentMember {
    /// Whether one of the keys the decoder looks the property up by may match a member loosely,
    /// by its first letter.
    func mayStartWith(_ letters: UInt64) -> Bool {
        switch plan?.entry(for: propertyName) {
        case .ignored?:
            return false
        case .sources(let sources)?:
            return sources.contains { path in
                path.first.map { $0.index != nil || letters & FirstLetters.bit(of: $0.text) != 0 } ?? false
            }
        case nil:
            let strategyKey = plan?.strategyKey(for: propertyName)?.text
            return letters
                & (FirstLetters.bit(of: propertyName) | FirstLetters.bit(of: jsonKey)
                    | (strategyKey.map(FirstLetters.bit(of:)) ?? 0)) != 0
        }
    }

    /// The key paths the decoder looks the property up by, in order (the first is where the
    /// encoder writes it), and the names loose matching also tries for a property without a key
    /// mapping entry (its coding key, as the decoder's strategies read it).
    var lookups: (candidates: [[KeyBytes]], looseNames: [String]) {
        switch plan?.entry(for: propertyName) {
        case .ignored?:
            return ([], [])
        case .sources(let sources)?:
            return (sources, [])
        case nil:
            let written = plan?.strategyKey(for: propertyName)?.text ?? jsonKey
            return ([[KeyBytes(written)]], [propertyName])
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Reporting the members that no property read, when ``LenientJSONDecoder/Options/reportsUnknownKeys``
/// is on. Reads are tracked by key node only in that case.
extension TreeDecoder {
    /// Marks the member of `objectIndex` that holds the value at `valueIndex` (directly or
    /// through a nested key, into objects and arrays) as read. A member read through, and not
    /// whole, is also remembered as passed (``passedKeys``), so that the report looks inside it.
    @inline(never)
    func markRead(valueIndex: Int, in objectIndex: Int) {
        guard readKeys != nil else { return }
        // A member's own value, the usual case, follows its key: no search through the members,
        // which a wide object read key by key would pay for every key.
        if valueIndex > objectIndex + 1, tree[valueIndex].depth == tree[objectIndex].depth + 1 {
            markRead(node: valueIndex - 1, whole: true)
            return
        }
        let end = tree.next(after: objectIndex)
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let memberEnd = tree.next(after: keyIndex + 1)
            if valueIndex > keyIndex && valueIndex < memberEnd {
                markRead(node: keyIndex, whole: valueIndex == keyIndex + 1)
                if valueIndex != keyIndex + 1 { markRead(valueIndex: valueIndex, inside: keyIndex + 1) }
                return
            }
            keyIndex = memberEnd
        }
    }

    /// ``markRead(valueIndex:in:)`` from the container at `containerIndex` down, which holds
    /// `valueIndex` deeper than its own children: an object's member or an array's element.
    private func markRead(valueIndex: Int, inside containerIndex: Int) {
        switch tree[containerIndex].kind {
        case .object:
            markRead(valueIndex: valueIndex, in: containerIndex)
        case .array:
            var element = containerIndex + 1
            let end = tree[containerIndex].containerEnd
            while element < end {
                let elementEnd = tree.next(after: element)
                if valueIndex >= element && valueIndex < elementEnd {
                    markRead(node: element, whole: valueIndex == element)
                    if valueIndex != element { markRead(valueIndex: valueIndex, inside: element) }
                    return
                }
                element = elementEnd
            }
        default:
            return
        }
    }

    /// Marks a member's key node, or an array's element, as read: whole, or passed through to a
    /// value inside it unless it was read before.
    private func markRead(node: Int, whole: Bool) {
        if whole {
            readKeys?.insert(node)
            if !passedKeys.isEmpty { passedKeys.remove(node) }
        } else if readKeys?.insert(node).inserted == true {
            passedKeys.insert(node)
        }
    }

    /// Marks every member under a node as read, for values taken whole (`JSONValue`, dictionaries).
    func markSubtreeRead(_ index: Int) {
        guard readKeys != nil else { return }
        let end = tree.next(after: index)
        var child = index
        while child < end {
            if tree[child].kind == .object {
                var keyIndex = child + 1
                while keyIndex < tree[child].containerEnd {
                    readKeys?.insert(keyIndex)
                    keyIndex = tree.next(after: keyIndex + 1)
                }
            }
            child += 1
        }
    }

    /// Records the members of an object that the model just decoded from it did not read, and
    /// inside the members that a nested key went through (`"ext.desc"`), those that nothing read.
    func reportUnreadKeys(of objectIndex: Int, path: CodingPathNode) {
        guard let readKeys else { return }
        let end = tree.next(after: objectIndex)
        var keyIndex = objectIndex + 1
        var seen = Set<String>()
        while keyIndex < end {
            let name = tree.string(at: keyIndex)
            let isFirst = seen.insert(name).inserted
            if !readKeys.contains(keyIndex), isFirst {
                record(
                    .unknownKey, path: path.appending(AnyCodingKey(name)), found: keyIndex + 1,
                    "No property reads the key \(name.debugDescription).")
            } else if isFirst, passedKeys.contains(keyIndex) {
                reportUnreadKeys(inside: keyIndex + 1, path: path.appending(AnyCodingKey(name)))
            }
            keyIndex = tree.next(after: keyIndex + 1)
        }
    }

    /// A value that a container handed to a super decoder (`superDecoder(forKey:)`,
    /// `superDecoder()`, an unkeyed container's `superDecoder()`) while unknown keys are reported:
    /// what the model reads through the super decoder counts as read, and what it leaves unread is
    /// reported with the model. Kept by the node of the model whose `init(from:)` asked for it.
    struct SuperDecodedValue {
        /// The value's node, and its path.
        let node: Int
        let path: CodingPathNode
        /// Whether the value is a member of an object (and not an element).
        let isMember: Bool
        /// The super decoder while it lives: its reads are taken over when it goes (`deinit`), or
        /// when the model is reported while something still holds it. Weak, as the super
        /// decoder holds its creator.
        weak var decoder: TreeDecoder?
    }

    /// A decoder held weakly.
    struct WeakDecoder {
        weak var decoder: TreeDecoder?
    }

    /// Called as a super decoder made while unknown keys are reported is first used for a
    /// container: its member is read, and its creator remembers it (``SuperDecodedValue``).
    @inline(never)
    func noteUseAsSuperDecoder() {
        guard let (creator, model, objectIndex) = occasional.pendingSuperNote else { return }
        occasional.pendingSuperNote = nil
        occasional.readsCreator = creator
        if let objectIndex { creator.markRead(valueIndex: nodeIndex, in: objectIndex) }
        creator.superDecodedValues[model, default: []].append(
            SuperDecodedValue(node: nodeIndex, path: codingPathNode, isMember: objectIndex != nil, decoder: self))
        (owner ?? creator).occasional.usedSuperDecoders.append(WeakDecoder(decoder: self))
    }

    /// Takes over what a super decoder read, and the values it handed to super decoders in turn.
    func takeOverReads(of superDecoder: TreeDecoder) {
        if let read = superDecoder.readKeys { readKeys?.formUnion(read) }
        if !superDecoder.passedKeys.isEmpty { passedKeys.formUnion(superDecoder.passedKeys) }
        if !superDecoder.superDecodedValues.isEmpty {
            superDecodedValues.merge(superDecoder.superDecodedValues) { $0 + $1 }
            superDecoder.superDecodedValues = [:]
        }
    }

    /// Once the document is decoded: the reads of the super decoders still held (a model kept
    /// one and read through it after its own report) count too.
    func takeOverReadsOfHeldSuperDecoders() {
        for entry in usedSuperDecoders {
            if let superDecoder = entry.decoder { takeOverReads(of: superDecoder) }
        }
    }

    /// What the model at `index` reads is known: reports what it left unread in its object, and
    /// in the values it decoded through super decoders. For a model of any JSON kind.
    func reportUnreadKeysOfModel(at index: Int, path: CodingPathNode) {
        if !superDecodedValues.isEmpty { reportSuperDecodedValues(of: index) }
        if tree[index].kind == .object { reportUnreadKeys(of: index, path: path) }
    }

    /// Reports what the model at `model` left unread in the values it decoded through super
    /// decoders, and in the values those super decoders handed on in turn: the super decoders'
    /// reads count as this decoder's (they read the same tree), and each value is reported once
    /// however many super decoders it was given to. A member an `UnknownKeys` property kept is
    /// not looked inside.
    private func reportSuperDecodedValues(of model: Int) {
        // The model's values, then the values their super decoders handed on in turn (kept by
        // the node of the value they are inside). Those of a model that failed stay behind,
        // looked up by no one: each report costs the values it reports.
        var models = [model]
        var seen = Set<Int>()
        var values: [(index: Int, path: CodingPathNode)] = []
        while let next = models.popLast() {
            guard let entries = superDecodedValues.removeValue(forKey: next) else { continue }
            for value in entries {
                // Still held by the model (or by what it kept): its reads so far count, and it
                // hands over the rest as it goes.
                if let alive = value.decoder { takeOverReads(of: alive) }
                guard seen.insert(value.node).inserted else { continue }
                models.append(value.node)
                if !(value.isMember && keptMembers.contains(value.node - 1)) { values.append((value.node, value.path)) }
            }
        }
        for value in values where tree[value.index].kind == .object {
            reportUnreadKeys(of: value.index, path: value.path)
        }
    }

    /// Withdraws, once the document is decoded, the unknown keys reported for members that a
    /// property read after the report: a model reports its object's unread members when it ends,
    /// but a nested key of its parent (`"ext.desc"` beside `var ext: Ext`) may read one of them
    /// after it. So the report does not depend on the order the properties are declared in.
    func withdrawUnknownKeysReadLater() {
        guard let readKeys, let report, report.issues.contains(where: { $0.kind == .unknownKey }) else { return }
        let ownTree = ObjectIdentifier(tree.nodes)
        report.issues.removeAll { issue in
            guard issue.kind == .unknownKey, let origin = issue.origin, origin.tree == ownTree else { return false }
            // The origin of an unknown key is its value's node, which follows its key's.
            return readKeys.contains(origin.node - 1)
        }
    }

    /// ``reportUnreadKeys(of:path:)`` for a value that a nested key went through: an object's
    /// members, or the members of an array's elements, that nothing read (an element that nothing
    /// read at all has every member unread).
    private func reportUnreadKeys(inside index: Int, path: CodingPathNode) {
        switch tree[index].kind {
        case .object:
            reportUnreadKeys(of: index, path: path)
        case .array:
            let end = tree[index].containerEnd
            // A `null` before the last element a nested key reads is the padding that the
            // encoder writes on its way there: an `UnknownKeys` property does not keep it.
            var lastRead = -1
            var element = index + 1
            var position = 0
            while element < end {
                if readKeys?.contains(element) == true { lastRead = position }
                element = tree.next(after: element)
                position += 1
            }
            element = index + 1
            position = 0
            while element < end {
                let elementPath = path.appending(AnyCodingKey(index: position))
                if readKeys?.contains(element) != true {
                    // An object's members are named one by one; an element with none, and any
                    // other element, is named whole (an `UnknownKeys` property keeps it).
                    if tree[element].kind == .null, position < lastRead {
                        // Padding, as above.
                    } else if tree[element].kind == .object, tree.next(after: element) > element + 1 {
                        reportUnreadKeys(of: element, path: elementPath)
                    } else {
                        record(
                            .unknownKey, path: elementPath, found: element,
                            "No property reads the element at index \(position).")
                    }
                } else if passedKeys.contains(element) {
                    reportUnreadKeys(inside: element, path: elementPath)
                }
                element = tree.next(after: element)
                position += 1
            }
        default:
            return
        }
    }
}

/// Collecting the members for an ``UnknownKeys`` property: every part of the object that no
/// other property reads. Whether a property reads a member is decided from the type's coding
/// keys, key plan and the decoder's key strategy, not from the reads made so far: the property
/// may come before the others in the type's `init(from:)`.
///
/// A mapped property reads the value that its entry resolves to in this document, as decoding
/// it does: of a fallback list, the candidate that wins (the first present and not `null`, else
/// the first present, else in `.lenient` the first found by loose matching) and the `null`s
/// passed over before it; of a nested key
/// (`"ext.desc"`, `"info[1].zone"`), only the value at its end. The objects and arrays a nested key
/// steps through are kept minus what is read in them, at any depth; an array keeps its length up
/// to its last kept element, with `null` where an element was read whole, and a `null` before the
/// last position read is not kept (encoding pads such positions itself). With `"desc": "ext.desc"`,
/// `"zone": "info[1].zone"` and `"id": ["id", "ID"]`, the document
///
///     {"id": 1, "ID": 2, "ext": {"desc": "d", "x": 1}, "info": [{"a": 1}, {"zone": "z", "b": 2}, 3]}
///
/// keeps
///
///     {"ID": 2, "ext": {"x": 1}, "info": [{"a": 1}, {"b": 2}, 3]}
///
/// A container in which nothing is read (its nested key does not resolve) is kept whole; one in
/// which everything is read is not kept at all.
extension TreeDecoder.KeyedContainer {
    /// The values the type's key mapping reads in this object: the ends of the nested keys that
    /// resolve, and the containers they step through, as node indices.
    private struct MappedReads {
        var ends: Set<Int> = []
        var steps: Set<Int> = []
    }

    /// The members that no property but `ownName` reads, in document order; the first of
    /// duplicate keys. They count as read for ``LenientJSONDecoder/Options/reportsUnknownKeys``.
    func collectUnknownKeys(excluding ownName: String) -> UnknownKeys {
        if case .ignored? = plan?.entry(for: ownName) { return UnknownKeys() }
        var reads = mappedReads(excluding: ownName)
        let memo = LookupMemo()
        // The other levels of a class hierarchy read this object too, through their own keys and
        // mappings (see ``SiblingCodingKeys``).
        var siblingReads: [(Int) -> Bool] = []
        let model = (pathBox.keyedBy != nil ? pathBox.siblingModel : nil) ?? decoder.currentType
        for sibling in SiblingCodingKeys.types(besides: Key.self, model: model) {
            let (mapped, isRead) = readsOfSibling(sibling, model: model)
            reads.ends.formUnion(mapped.ends)
            reads.steps.formUnion(mapped.steps)
            siblingReads.append(isRead)
        }
        // A tagged enum's tag beside this payload, found as the enum's container found it (a
        // tag found loosely is among the keys read loosely).
        let tagValues = decoder.tagKeys(besidePayloadIn: objectIndex).compactMap {
            exactValueIndex(outsideCodingKeys: $0)
        }
        let members = firstMembers(of: objectIndex) { keyIndex, key -> JSONValue? in
            let valueIndex = keyIndex + 1
            guard !reads.ends.contains(valueIndex), !tagValues.contains(valueIndex),
                !isRead(keyAt: keyIndex, excluding: ownName, memo: memo),
                !siblingReads.contains(where: { $0(keyIndex) }),
                let value = reads.steps.contains(valueIndex)
                    ? unread(in: valueIndex, reads: reads, path: codingPathNode.appending(AnyCodingKey(key)))
                    : keptValue(valueIndex, node: keyIndex, path: codingPathNode.appending(AnyCodingKey(key)))
            else { return nil }
            // Kept whole, also what it holds that no nested key read: nothing in it is unknown.
            decoder.readKeys?.insert(keyIndex)
            if decoder.readKeys != nil { decoder.occasional.keptMembers.insert(keyIndex) }
            if !decoder.passedKeys.isEmpty { decoder.passedKeys.remove(keyIndex) }
            return value
        }
        var kept = UnknownKeys(JSONObject(uniqueMembers: members))
        kept.keptWithoutLooseMatching = decoder.suppressesLooseMatching || decoder.withdrawsLooseMatching
        return kept
    }

    /// The members of the object at `objectIndex` that a bag keeps: for each key, its first
    /// member (as Foundation reads duplicates), with the value `keep` gives it from the member's
    /// key node and key, or left out where `keep` gives `nil`. Members in document order.
    private func firstMembers(
        of objectIndex: Int, _ keep: (_ keyIndex: Int, _ key: String) -> JSONValue?
    ) -> [(key: String, value: JSONValue)] {
        let tree = decoder.tree
        let end = tree.next(after: objectIndex)
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let key = tree.string(at: keyIndex)
            if seen.insert(key).inserted, let value = keep(keyIndex, key) { members.append((key: key, value: value)) }
            keyIndex = tree.next(after: keyIndex + 1)
        }
        return members
    }

    /// The JSON of a value a bag keeps, without what holds text that is not JSON (see
    /// ``LenientJSONDecoder/Options/defersValueValidation``): the bag could not write it back as
    /// it came, so such a value, member or element is left out — only it, the valid rest of its
    /// object or array is kept — and reported as dropped, once: it counts as read, so that
    /// ``LenientJSONDecoder/Options/reportsUnknownKeys`` does not report it again. `nil` when the
    /// value itself is left out. `node` is the member's key node, or the array element itself.
    ///
    /// Looks inside containers for up to 32 levels (a recursion, bounded so that a hostile
    /// document cannot make it deep); below that, a container holding such text is left out whole.
    private func keptValue(_ valueIndex: Int, node: Int, path: CodingPathNode, levels: Int = 0) -> JSONValue? {
        let tree = decoder.tree
        guard !tree.nodes.invalidNodes.isEmpty,
            let invalid = tree.nodes.firstInvalidNode(in: valueIndex..<tree.next(after: valueIndex))
        else { return decoder.sharedJSONValue(at: valueIndex) }
        let kind = tree[valueIndex].kind
        guard invalid != valueIndex, kind == .object || kind == .array, levels < 32 else {
            let error = decoder.invalidText(at: invalid, path: path)
            decoder.record(
                .droppedElement, path: path, found: valueIndex,
                "Dropped from the unknown keys kept: \(TreeDecoder.reason(error, under: path)).")
            decoder.readKeys?.insert(node)
            if !decoder.passedKeys.isEmpty { decoder.passedKeys.remove(node) }
            return nil
        }
        let end = tree.next(after: valueIndex)
        if kind == .object {
            let members = firstMembers(of: valueIndex) { keyIndex, key in
                keptValue(keyIndex + 1, node: keyIndex, path: path.appending(AnyCodingKey(key)), levels: levels + 1)
            }
            return .object(JSONObject(uniqueMembers: members))
        }
        var elements: [JSONValue] = []
        var position = 0
        var element = valueIndex + 1
        while element < end {
            let elementPath = path.appending(AnyCodingKey(index: position))
            if let value = keptValue(element, node: element, path: elementPath, levels: levels + 1) {
                elements.append(value)
            }
            element = tree.next(after: element)
            position += 1
        }
        return .array(elements)
    }

    /// What the mapped properties but `ownName` read in this object.
    private func mappedReads(excluding ownName: String) -> MappedReads {
        var reads = MappedReads()
        guard let plan else { return reads }
        for name in plan.mappedPropertyNames where name != ownName {
            guard case .sources(let candidates)? = plan.entry(for: name) else { continue }
            for nodes in resolvedNodes(of: candidates) {
                reads.ends.insert(nodes[nodes.count - 1])
                reads.steps.formUnion(nodes.dropLast())
            }
        }
        return reads
    }

    /// The nodes from this object to a mapped property's value, outermost first, following the
    /// candidate that decoding the property takes, and to the `null`s it passes over before a
    /// candidate with another value (written over by the property's value when encoding, they
    /// would not come back); empty when none is present.
    private func resolvedNodes(of candidates: [[KeyBytes]]) -> [[Int]] {
        var nulls: [[Int]] = []
        for path in candidates {
            guard let nodes = nodes(along: path, loosely: false) else { continue }
            if decoder.tree[nodes[nodes.count - 1]].kind != .null { return nulls + [nodes] }
            nulls.append(nodes)
        }
        // Every candidate present holds `null`: the first is the one read.
        if let first = nulls.first { return [first] }
        guard matchesLoosely else { return [] }
        for path in candidates {
            if let nodes = nodes(along: path, loosely: true) { return [nodes] }
        }
        return []
    }

    /// The nodes a nested key passes through, ending at its value, as ``JSONTree/resolve(_:in:)``
    /// and ``JSONTree/resolveLoosely(_:in:)`` follow it; `nil` when a step is missing.
    private func nodes(along path: [KeyBytes], loosely: Bool) -> [Int]? {
        let tree = decoder.tree
        var nodes: [Int] = []
        nodes.reserveCapacity(path.count)
        var current = objectIndex
        for key in path {
            guard let next = tree.step(key, from: current, loosely: loosely) else { return nil }
            current = next
            nodes.append(current)
        }
        return nodes.isEmpty ? nil : nodes
    }

    /// What no mapped property reads of an object or array that a nested key steps through, or
    /// `nil` when they read all of it. Recurses only along nested keys, so no deeper than the
    /// longest of the mapping.
    private func unread(in index: Int, reads: MappedReads, path: CodingPathNode) -> JSONValue? {
        let tree = decoder.tree
        let end = tree.next(after: index)
        func rest(of child: Int, node: Int, path: CodingPathNode) -> JSONValue? {
            if reads.ends.contains(child) { return nil }
            if reads.steps.contains(child) { return unread(in: child, reads: reads, path: path) }
            return keptValue(child, node: node, path: path)
        }
        if tree[index].kind == .object {
            let members = firstMembers(of: index) { keyIndex, key in
                rest(of: keyIndex + 1, node: keyIndex, path: path.appending(AnyCodingKey(key)))
            }
            return members.isEmpty ? nil : .object(JSONObject(uniqueMembers: members))
        }
        // An array: positions stay where they were, read ones become `null`, and the read ones at
        // the end are left off. A `null` before the last position the mapping reads is not kept
        // either: encoding pads those positions with `null` itself, and a kept one would come back
        // from the encoder's padding as data the model never held.
        var lastRead = -1
        var position = 0
        var element = index + 1
        while element < end {
            if reads.ends.contains(element) || reads.steps.contains(element) { lastRead = position }
            element = tree.next(after: element)
            position += 1
        }
        var elements: [JSONValue] = []
        var keptCount = 0
        element = index + 1
        while element < end {
            let isPadding = elements.count < lastRead && tree[element].kind == .null
            if !isPadding,
                let value = rest(
                    of: element, node: element, path: path.appending(AnyCodingKey(index: elements.count)))
            {
                elements.append(value)
                keptCount = elements.count
            } else {
                elements.append(.null)
            }
            element = tree.next(after: element)
        }
        return keptCount == 0 ? nil : .array(Array(elements.prefix(keptCount)))
    }

    /// Whether some unmapped property other than `ownName` reads the member: a property's key
    /// (through the strategies) spells it, or loose matching gives it a property whose own key is
    /// absent — loose matching reads the first member that matches, so a later spelling of the
    /// same key (`UserName` after `user_name`) is read by nobody and kept.
    private func isRead(keyAt keyIndex: Int, excluding ownName: String, memo: LookupMemo) -> Bool {
        // A type's own strategy spells its keys for the JSON's keys as they are written (it
        // overrides the decoder's strategy); without one, keys meet as the decoder converts them.
        let hasTypeStrategy = plan?.strategy != nil
        let name = hasTypeStrategy ? decoder.tree.string(at: keyIndex) : convertedName(ofKeyAt: keyIndex)
        // The names a strategy or loose matching may have turned into this key: the usual
        // spellings, and those the type asked for so far. Each is checked forward below.
        var candidates = Self.propertyNames(spelledAs: name) + KeyStrategy.propertyNameCandidates(for: name)
        if hasTypeStrategy, let plan { candidates += plan.namesAskedFor(withStrategyKey: name) }
        for candidate in candidates where candidate != ownName {
            // The first member the property's key finds is the one it reads; another that the
            // decoder's strategy converts to the same key (`userName` after `user_name`) is the
            // same key repeated, which is never kept, as `{"a": 1, "a": 2}` keeps no second `a`:
            // written back beside the property's own member, it would be read in its place
            // wherever it sorts first. (A type's strategy finds keys as written.)
            if let jsonKey = unmappedJSONKey(of: candidate), jsonKey == name,
                hasTypeStrategy || exactValueIndex(outsideCodingKeys: candidate) != nil
            {
                return true
            }
        }
        // A `null` under another spelling is no value found: loose matching leaves it, as
        // Foundation's decoder does (the key is missing), and the bag keeps it.
        guard matchesLoosely, decoder.tree[keyIndex + 1].kind != .null else { return false }
        if decoder.looselyReadKeys.contains(keyIndex) { return true }
        let loose = Self.looseForm(name)
        candidates += LooselyMatchedKeys.names(for: Key.self)
        for candidate in candidates where candidate != ownName {
            if let jsonKey = unmappedJSONKey(of: candidate), jsonKey != name, Self.looseForm(jsonKey) == loose,
                memo.exactValueIndex(jsonKey, { exactIndex(ofJSONKey: $0, asWritten: hasTypeStrategy) }) == nil,
                memo.firstLooseMatch(jsonKey, { firstLooseMatch(of: $0, property: candidate) }) == keyIndex
            {
                return true
            }
        }
        return false
    }

    /// The value of the member a property's JSON key finds before loose matching: as the decoder's
    /// key strategy converts the members' keys, or, for a key that a type's own strategy spelled
    /// (`asWritten`), among the keys as written, as the property itself looks it up.
    private func exactIndex(ofJSONKey jsonKey: String, asWritten: Bool) -> Int? {
        guard asWritten else { return exactValueIndex(outsideCodingKeys: jsonKey) }
        return decoder.tree.resolve([KeyBytes(jsonKey)], in: objectIndex)
    }

    /// What another level of the hierarchy reads of this object: a container of its coding keys
    /// over the same object, with its key plan for the type decoded, answers as this one does
    /// for its own properties (keys through the strategies, mappings, loose matches).
    private func readsOfSibling<Sibling: CodingKey>(_ type: Sibling.Type, model: Any.Type?)
        -> (MappedReads, (Int) -> Bool)
    {
        let entry = try? decoder.plan(for: Sibling.self, model: model)
        let sibling = TreeDecoder.KeyedContainer<Sibling>(
            decoder: decoder, objectIndex: objectIndex, pathBox: pathBox, plan: entry?.plan?.takeUnretainedValue(),
            order: entry?.order)
        let mapped = sibling.mappedReads(excluding: "")
        let memo = LookupMemo()
        return (
            MappedReads(ends: mapped.ends, steps: mapped.steps),
            { sibling.isRead(keyAt: $0, excluding: "", memo: memo) }
        )
    }

    /// The key node of the member that loose matching reads for a property's key: the first that
    /// matches.
    private func firstLooseMatch(of jsonKey: String, property: String) -> Int? {
        firstLooseMember(spelled: jsonKey, besides: property)
    }

    /// The key a property without a mapping entry is read from (before loose matching), or `nil`
    /// when the type has no such property or the mapping says where it is.
    private func unmappedJSONKey(of propertyName: String) -> String? {
        guard Key(stringValue: propertyName) != nil else { return nil }
        guard let plan else { return propertyName }
        guard plan.entry(for: propertyName) == nil else { return nil }
        return plan.strategyKey(for: propertyName)?.text ?? propertyName
    }

    /// The property names a JSON key may stand for: itself, its camel-case form for keys spelled
    /// by a key strategy (`user_name`, `user-name`, `UserName` → `userName`), and its lowercase form.
    private static func propertyNames(spelledAs key: String) -> [String] {
        var names = [key]
        let words = key.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " })
        guard let first = words.first else { return names }
        let camel =
            first.prefix(1).lowercased() + first.dropFirst()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if camel != key { names.append(camel) }
        // An acronym a loose match reads: `ID` for `id`.
        let lowercased = key.lowercased()
        if !names.contains(lowercased) { names.append(lowercased) }
        return names
    }

    /// A key with case and separators ignored, as loose key matching compares keys.
    private static func looseForm(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "_" && $0 != "-" && $0 != " " })
    }
}

/// The answers of one object's searches for a key while its ``UnknownKeys`` members are collected:
/// every member that loose matching might give to the same property asks the same two questions
/// (is the key present as written, which member matches it first), each a scan of the object,
/// and an object of many spellings of one key would otherwise cost its size squared.
final class LookupMemo {
    private var exact: [String: Int?] = [:]
    private var firstLoose: [String: Int?] = [:]

    func exactValueIndex(_ key: String, _ search: (String) -> Int?) -> Int? {
        if let known = exact[key] { return known }
        let found = search(key)
        exact[key] = found
        return found
    }

    func firstLooseMatch(_ key: String, _ search: (String) -> Int?) -> Int? {
        if let known = firstLoose[key] { return known }
        let found = search(key)
        firstLoose[key] = found
        return found
    }
}

/// The coding keys that loose key matching has found a member for, by coding-key type, in this
/// process: an ``UnknownKeys`` property that a type decodes before such a property cannot know,
/// on the type's first decode, that a key spelled `USERID` is `userID`'s; from its second decode
/// on, it finds the name here.
enum LooselyMatchedKeys {
    private static let lock = NSLock()
    // A static stored property, so alive for the whole process; read and written only while
    // `lock` is held (ConcurrencyTests.looseMatchesWithKeptKeysAcrossEightTasks runs under
    // ThreadSanitizer). Bounded: at most `maximumNames` names a type, each a coding key the
    // model itself asked for.
    nonisolated(unsafe) private static var names: [ObjectIdentifier: Set<String>] = [:]
    static let maximumNames = 256

    static func record(_ name: String, for keys: Any.Type) {
        let id = ObjectIdentifier(keys)
        lock.lock()
        defer { lock.unlock() }
        if names[id, default: []].count < maximumNames { names[id, default: []].insert(name) }
    }

    static func names(for keys: Any.Type) -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        return names[ObjectIdentifier(keys)] ?? []
    }
}

/// The coding-key types that keyed containers of one value used together, by the model type
/// being decoded, in this process: a subclass's `CodingKeys` and those of its superclasses, whose
/// `init(from:)` methods read one object through the same decoder. An ``UnknownKeys`` property
/// read by one of them keeps no member that a key of another spells, when that model type is
/// decoded (a plain superclass decoded on its own has no siblings): the superclasses' bags from
/// the first decode on (the subclass asks for its container first), the subclass's from the
/// second.
enum SiblingCodingKeys {
    private static let lock = NSLock()
    // A static stored property, so alive for the whole process; read and written only while
    // `lock` is held (ConcurrencyTests.siblingCodingKeysAcrossEightTasks runs under
    // ThreadSanitizer). Bounded: at most `maximumTypes` coding-key types for a model type, each
    // one that a model's own code asked for.
    nonisolated(unsafe) private static var keyTypes: [ObjectIdentifier: [any CodingKey.Type]] = [:]
    static let maximumTypes = 16

    /// Records that containers keyed by `first` (a coding-key type, kept as a plain metatype by
    /// the path box) and by `second` read the same value of `model`. Out of line: the keyed
    /// container's set-up pays only the comparison that leads here.
    @inline(never)
    static func record(_ first: Any.Type, _ second: any CodingKey.Type, model: Any.Type?) {
        guard let model, let first = first as? any CodingKey.Type else { return }
        lock.lock()
        defer { lock.unlock() }
        var known = keyTypes[ObjectIdentifier(model), default: []]
        for type in [first, second] where known.count < maximumTypes && !known.contains(where: { $0 == type }) {
            // A type that takes any name (a dynamic key for reading whatever is there) says
            // nothing about which members the model reads.
            guard type.init(stringValue: "\u{0}LenientCodable.anyName") == nil else { continue }
            known.append(type)
        }
        keyTypes[ObjectIdentifier(model)] = known
    }

    /// The coding-key types recorded for `model` besides `type`.
    static func types(besides type: any CodingKey.Type, model: Any.Type?) -> [any CodingKey.Type] {
        guard let model else { return [] }
        lock.lock()
        defer { lock.unlock() }
        guard let known = keyTypes[ObjectIdentifier(model)], known.contains(where: { $0 == type }) else { return [] }
        return known.filter { $0 != type }
    }
}

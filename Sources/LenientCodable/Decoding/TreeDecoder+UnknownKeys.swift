// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Reporting the members that no property read, when ``LenientJSONDecoder/Options/reportsUnknownKeys``
/// is on. Reads are tracked by key node only in that case.
extension TreeDecoder {
    /// Marks the member of `objectIndex` that holds the value at `valueIndex` (directly or
    /// through a nested key) as read.
    func markRead(valueIndex: Int, in objectIndex: Int) {
        guard readKeys != nil else { return }
        let end = Int(tree[objectIndex].end)
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let memberEnd = tree.next(after: keyIndex + 1)
            if valueIndex > keyIndex && valueIndex < memberEnd {
                readKeys?.insert(keyIndex)
                if valueIndex != keyIndex + 1, tree[keyIndex + 1].kind == .object {
                    markRead(valueIndex: valueIndex, in: keyIndex + 1)
                }
                return
            }
            keyIndex = memberEnd
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
                while keyIndex < Int(tree[child].end) {
                    readKeys?.insert(keyIndex)
                    keyIndex = tree.next(after: keyIndex + 1)
                }
            }
            child += 1
        }
    }

    /// Records the members of an object that the model just decoded from it did not read.
    func reportUnreadKeys(of objectIndex: Int, path: CodingPathNode) {
        guard let readKeys else { return }
        let end = Int(tree[objectIndex].end)
        var keyIndex = objectIndex + 1
        var seen = Set<String>()
        while keyIndex < end {
            let name = tree.string(at: keyIndex)
            if !readKeys.contains(keyIndex), seen.insert(name).inserted {
                record(
                    .unknownKey, path: path.appending(AnyCodingKey(name)), found: keyIndex + 1,
                    "No property reads the key \(name.debugDescription).")
            }
            keyIndex = tree.next(after: keyIndex + 1)
        }
    }
}

/// Collecting the members for an ``UnknownKeys`` property: every member of the object that no
/// other property reads. Whether a property reads a member is decided from the type's coding
/// keys, key plan and the decoder's key strategy, not from the reads made so far: the property
/// may come before the others in the type's `init(from:)`.
extension TreeDecoder.KeyedContainer {
    /// The members that no property but `ownName` reads, in document order; the first of
    /// duplicate keys. They count as read for ``LenientJSONDecoder/Options/reportsUnknownKeys``.
    func collectUnknownKeys(excluding ownName: String) -> UnknownKeys {
        if case .ignored? = plan?.entry(for: ownName) { return UnknownKeys() }
        let tree = decoder.tree
        let end = Int(tree[objectIndex].end)
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let valueIndex = keyIndex + 1
            let key = tree.string(at: keyIndex)
            if seen.insert(key).inserted, !isRead(keyAt: keyIndex, key: key, excluding: ownName) {
                members.append((key: key, value: decoder.sharedJSONValue(at: valueIndex)))
                decoder.readKeys?.insert(keyIndex)
            }
            keyIndex = tree.next(after: valueIndex)
        }
        return UnknownKeys(JSONObject(uniqueMembers: members))
    }

    /// Whether some property other than `ownName` reads the member: the mapping names it, a
    /// property's key (through the strategies) spells it, or loose matching gives it a property
    /// whose own key is absent.
    private func isRead(keyAt keyIndex: Int, key: String, excluding ownName: String) -> Bool {
        if let plan, plan.mappedMembers.contains(key) { return true }
        let name = convertedName(ofKeyAt: keyIndex)
        let candidates = Self.propertyNames(spelledAs: name)
        for candidate in candidates where candidate != ownName {
            if let jsonKey = unmappedJSONKey(of: candidate), jsonKey == name { return true }
        }
        guard matchesLoosely else { return false }
        let loose = Self.looseForm(name)
        for candidate in candidates where candidate != ownName {
            if let jsonKey = unmappedJSONKey(of: candidate), jsonKey != name, Self.looseForm(jsonKey) == loose,
                exactValueIndex(named: jsonKey) == nil
            {
                return true
            }
        }
        return false
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

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONTree {
    /// The index of the value of the first member whose key, converted from snake case as
    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` converts it, equals `key`.
    ///
    /// ASCII keys are compared as they are converted, byte by byte, with no `String` built; the
    /// others go through the exact conversion.
    func findMemberFromSnakeCase(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = nodes[objectIndex].containerEnd
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            if snakeCaseKey(at: keyIndex, matches: key) { return keyIndex + 1 }
            keyIndex = next(after: keyIndex + 1)
        }
        return nil
    }

    /// ``findMemberFromSnakeCase(in:key:)`` from where the container's last search ended, as
    /// ``findMember(in:key:cursor:)`` does for exact keys. The summary of the keys before the
    /// place holds, for each, a hash of what converting from snake case leaves unchanged up to
    /// ASCII case: its first and last bytes (``snakeCaseHash(_:)``). `key` is read only during
    /// the call, as in ``findMember(in:key:cursor:)``.
    func findMemberFromSnakeCase(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, cursor: KeyedContainerState)
        -> Int?
    {
        guard let hash = JSONTree.snakeCaseHash(key), !cursor.snakeCaseKeys.keysBefore.contains(hash) else {
            if nodes[objectIndex].shortLength <= MemberIndex.threshold {
                return findMemberFromSnakeCase(in: objectIndex, key: key)
            }
            return findSnakeCaseMemberPastSummary(in: objectIndex, key: key, cursor: cursor)
        }
        return findSnakeCaseMemberAfterCursor(in: objectIndex, key: key, hash: hash, cursor: cursor)
    }

    /// The members from the cursor's place on, up to the one whose converted key is `key`, after
    /// which the place moves (``findMember(in:after:hash:matches:hashOfKey:)``).
    @inline(__always)
    private func findSnakeCaseMemberAfterCursor(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, hash: UInt8, cursor: KeyedContainerState
    ) -> Int? {
        // A model's object: its searches in vain cost a few members each.
        guard nodes[objectIndex].shortLength > MemberIndex.threshold else {
            return findMember(
                in: objectIndex, after: &cursor.snakeCaseKeys, hash: hash,
                matches: { snakeCaseKey(at: $0, matches: key) },
                hashOfKey: { index in
                    let node = nodes[index]
                    return node.has(JSONNode.hasEscapes) ? nil : JSONTree.snakeCaseHash(bytes(of: node))
                })
        }
        return findSnakeCaseMemberInLargeObject(in: objectIndex, key: key, hash: hash, cursor: cursor)
    }

    /// ``findSnakeCaseMemberAfterCursor(in:key:hash:cursor:)`` in an object of more than
    /// ``MemberIndex/threshold`` members, whose searches in vain are counted. `key` is read only
    /// during the call (the caller's `withUTF8` holds it), and the index keeps copies of the
    /// members' converted keys, not pointers.
    @inline(never)
    private func findSnakeCaseMemberInLargeObject(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, hash: UInt8, cursor: KeyedContainerState
    ) -> Int? {
        if let whole = cursor.searchesInVainState?.snakeCaseIndex { return whole.firstKey[Array(key)].map { $0 + 1 } }
        let place = max(cursor.snakeCaseKeys.nextKey, objectIndex + 1)
        let found = findMember(
            in: objectIndex, after: &cursor.snakeCaseKeys, hash: hash, matches: { snakeCaseKey(at: $0, matches: key) },
            hashOfKey: { index in
                let node = nodes[index]
                return node.has(JSONNode.hasEscapes) ? nil : JSONTree.snakeCaseHash(bytes(of: node))
            })
        if found == nil { noteSnakeCaseMiss(in: objectIndex, scannedFrom: place, cursor: cursor) }
        return found
    }

    /// ``noteExactMiss(in:scannedFrom:cursor:)`` for keys converted from snake case.
    @inline(never)
    private func noteSnakeCaseMiss(in objectIndex: Int, scannedFrom place: Int, cursor: KeyedContainerState) {
        guard missesOutgrowObject(objectIndex, scannedFrom: place, cursor: cursor) else { return }
        cursor.searchesInVain.snakeCaseIndex = wholeIndex(of: objectIndex) {
            Array(KeyConversion.camelCase(fromSnakeCase: string(at: $0)).utf8)
        }
    }

    /// ``findMemberFromSnakeCase(in:key:cursor:)`` for a key the cursor's summary may hold: the
    /// members before the cursor's place (a scan of the first of them; past them, the cursor's
    /// ``MemberIndex`` of their converted keys), then those from the place on, as
    /// ``findExactMemberPastSummary(in:key:hash:cursor:)`` does for exact keys. `key` is read
    /// only during the call; the members' bytes live as long as the tree's node storage.
    @inline(never)
    private func findSnakeCaseMemberPastSummary(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, cursor: KeyedContainerState
    )
        -> Int?
    {
        if let whole = cursor.searchesInVainState?.snakeCaseIndex { return whole.firstKey[Array(key)].map { $0 + 1 } }
        let place = max(cursor.snakeCaseKeys.nextKey, objectIndex + 1)
        // The first members before the place, one by one; past `MemberIndex.threshold` of them,
        // the index of them all.
        var keyIndex = cursor.snakeCaseKeyIndex == nil ? objectIndex + 1 : place
        var scanned = 0
        while keyIndex < place && scanned < MemberIndex.threshold {
            if snakeCaseKey(at: keyIndex, matches: key) { return keyIndex + 1 }
            keyIndex = next(after: keyIndex + 1)
            scanned += 1
        }
        if keyIndex < place || cursor.snakeCaseKeyIndex != nil {
            let index = cursor.snakeCaseKeyIndex ?? MemberIndex(objectIndex: objectIndex)
            cursor.snakeCaseKeyIndex = index
            index.extend(to: place, in: self) { Array(KeyConversion.camelCase(fromSnakeCase: string(at: $0)).utf8) }
            if let keyIndex = index.firstKey[Array(key)] { return keyIndex + 1 }
        }
        // None before the place: the members from it on, the place moving to a match past the
        // next `MemberIndex.threshold` of them, as for exact keys.
        let end = nodes[objectIndex].containerEnd
        var afterIndex = place
        var scannedAfter = 0
        while afterIndex < end {
            if snakeCaseKey(at: afterIndex, matches: key) {
                if scannedAfter >= MemberIndex.threshold {
                    // A key whose ends are not ASCII has no hash: the summary then holds everything.
                    var keysBefore = cursor.snakeCaseKeys.keysBefore
                    keysBefore.insertEverything()
                    cursor.snakeCaseKeys = MemberCursor(nextKey: next(after: afterIndex + 1), keysBefore: keysBefore)
                }
                return afterIndex + 1
            }
            afterIndex = next(after: afterIndex + 1)
            scannedAfter += 1
        }
        noteSnakeCaseMiss(in: objectIndex, scannedFrom: place, cursor: cursor)
        return nil
    }

    /// Whether the key node at `keyIndex`, converted from snake case, equals `key`.
    @inline(__always)
    private func snakeCaseKey(at keyIndex: Int, matches key: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[keyIndex]
        if !node.has(JSONNode.hasEscapes), SnakeCaseMatcher.cannotMatch(bytes(of: node), key) { return false }
        if !node.has(JSONNode.hasEscapes), let fast = SnakeCaseMatcher.matches(bytes(of: node), key) { return fast }
        return KeyConversion.camelCase(fromSnakeCase: string(at: keyIndex)).utf8.elementsEqual(key)
    }

    /// A hash of a key that converting from snake case keeps, for ``KeySummary``: its first and
    /// last bytes with ASCII case ignored (the conversion removes inner underscores and changes
    /// only the case of letters, and keeps leading and trailing underscores). `nil` when either
    /// byte is not ASCII, whose case the conversion may change in other ways.
    @inline(__always)
    static func snakeCaseHash(_ key: UnsafeBufferPointer<UInt8>) -> UInt8? {
        guard let base = key.baseAddress, key.count > 0 else { return 0 }
        let first = base[0]
        let last = base[key.count - 1]
        guard first < 0x80, last < 0x80 else { return nil }
        let mixed = (UInt32(first | 0x20) &<< 8 | UInt32(last | 0x20)) &* 0x9E37_79B1
        return UInt8(truncatingIfNeeded: mixed &>> 24)
    }
}

/// Compares a snake-case JSON key with a coding key without converting it: the leading and
/// trailing underscores stay, the first word is lowercased, the other words are capitalized, and
/// a key without inner underscores is unchanged — Foundation's rule.
enum SnakeCaseMatcher {
    /// Whether the first bytes alone rule a match out, most keys of an object: a JSON key that
    /// starts with an ASCII character other than `_` keeps that character, or lowercases it,
    /// so the coding key must start with the same letter in either case.
    @inline(__always)
    static func cannotMatch(_ json: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = json.first, first < 0x80, first != UInt8(ascii: "_"), let keyFirst = key.first else {
            return false
        }
        return first | 0x20 != keyFirst | 0x20
    }

    /// Whether the converted JSON key equals the coding key, or `nil` when the JSON key is not
    /// plain ASCII letters, digits and underscores (or a later word starts with or holds a
    /// digit), whose capitalization is left to the exact conversion.
    @inline(__always)
    static func matches(_ json: UnsafeBufferPointer<UInt8>, _ key: UnsafeBufferPointer<UInt8>) -> Bool? {
        let count = json.count
        var first = 0
        while first < count && json[first] == UInt8(ascii: "_") { first += 1 }
        if first == count { return bytesEqual(json, key) }
        var last = count - 1
        while last > first && json[last] == UInt8(ascii: "_") { last -= 1 }
        var hasInnerUnderscore = false
        for index in first...last where json[index] == UInt8(ascii: "_") {
            hasInnerUnderscore = true
            break
        }
        if !hasInnerUnderscore { return bytesEqual(json, key) }

        var position = 0
        @inline(__always) func expect(_ byte: UInt8) -> Bool {
            guard position < key.count, key[position] == byte else { return false }
            position += 1
            return true
        }
        for _ in 0..<first where !expect(UInt8(ascii: "_")) { return false }
        var index = first
        var isFirstWord = true
        while index <= last {
            if json[index] == UInt8(ascii: "_") {
                index += 1
                continue
            }
            var isWordStart = true
            while index <= last && json[index] != UInt8(ascii: "_") {
                let byte = json[index]
                let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                guard isLetter || (isDigit && isFirstWord) else { return nil }
                let expected = isWordStart && !isFirstWord ? byte & ~0x20 : (isLetter ? byte | 0x20 : byte)
                if !expect(expected) { return false }
                isWordStart = false
                index += 1
            }
            isFirstWord = false
        }
        for _ in (last + 1)..<count where !expect(UInt8(ascii: "_")) { return false }
        return position == key.count
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONTree {
    /// The index of the value of the first member whose key equals `key`, or `nil`.
    @inline(__always)
    func findMember(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = nodes[objectIndex].containerEnd
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            if stringEquals(at: keyIndex, key) { return keyIndex + 1 }
            keyIndex = next(after: keyIndex + 1)
        }
        return nil
    }

    /// ``findMember(in:key:)`` for a container that asks for its keys one after another, as a
    /// synthesized `init(from:)` does: the search starts where the last one ended, so that a
    /// model that asks in the document's order finds each key at the first comparison, and a
    /// missing key costs the members after the last one found rather than all of them.
    ///
    /// The first of duplicate keys must still win. The cursor keeps, besides the place, a summary
    /// of the keys before it (``KeySummary``): when the key is not in it, no key before the
    /// place is equal, and the first match after it is the first in the object; otherwise the
    /// search starts at the first member, as ``findMember(in:key:)`` does.
    ///
    /// `key` is read only during the call (the caller's `withUTF8` holds it); the members' bytes
    /// are the tree's input, which its node storage keeps for as long as the tree is read, after
    /// the decode call too (``NodeStorage/keepInput()``).
    @inline(__always)
    func findMember(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, cursor: KeyedContainerState) -> Int? {
        if let found = findMemberByBytes(in: objectIndex, key: key, cursor: cursor) {
            // A key beyond ASCII (written so, or escaped) may come before in another spelling
            // that Swift's `String`, and so Foundation's decoder, takes for the same key: the
            // first of them wins.
            if nodes[found &- 1].has(JSONNode.beyondASCII | JSONNode.hasEscapes) {
                return firstCanonicalMember(in: objectIndex, key: key, found: found, cursor: cursor)
            }
            return found
        }
        return findMemberCanonically(in: objectIndex, key: key, cursor: cursor)
    }

    /// ``findMemberCanonically(in:key:)`` for a container: in a large object, the keys beyond
    /// ASCII are indexed once, not scanned again for every such key. `key` is read during the
    /// call only, held by the caller.
    @inline(never)
    private func findMemberCanonically(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, cursor: KeyedContainerState
    )
        -> Int?
    {
        guard key.contains(where: { $0 >= 0x80 }) else { return nil }
        guard nodes[objectIndex].shortLength > MemberIndex.threshold else {
            return findMemberCanonically(in: objectIndex, key: key)
        }
        return canonicalKeyIndex(of: objectIndex, cursor: cursor)[String(decoding: key, as: UTF8.self)]
    }

    /// The first member canonically equal to a key beyond ASCII found by its bytes at `found`,
    /// from the container's index of the object's keys beyond ASCII, built by the first such
    /// lookup: one scan of the object, however many of its keys are read. `key` is read during
    /// the call only, held by the caller.
    @inline(never)
    private func firstCanonicalMember(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, found: Int, cursor: KeyedContainerState
    ) -> Int {
        canonicalKeyIndex(of: objectIndex, cursor: cursor)[String(decoding: key, as: UTF8.self)] ?? found
    }

    /// The object's keys beyond ASCII or escaped, each as Swift's `String` compares it, to the
    /// value of the first member that has it: made by the container's first lookup that needs it.
    @inline(never)
    private func canonicalKeyIndex(of objectIndex: Int, cursor: KeyedContainerState) -> [String: Int] {
        if let built = cursor.canonicalKeys { return built }
        var firstOfEach: [String: Int] = [:]
        let end = nodes[objectIndex].containerEnd
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            if nodes[keyIndex].has(JSONNode.beyondASCII | JSONNode.hasEscapes) {
                let name = string(at: keyIndex)
                if firstOfEach[name] == nil { firstOfEach[name] = keyIndex + 1 }
            }
            keyIndex = next(after: keyIndex + 1)
        }
        cursor.canonicalKeys = firstOfEach
        return firstOfEach
    }

    /// ``findMember(in:key:cursor:)`` for a key spelled with the same bytes. `key` is read during
    /// the call only, held by the caller's `withUTF8Bytes`.
    @inline(__always)
    private func findMemberByBytes(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, cursor: KeyedContainerState)
        -> Int?
    {
        let hash = KeySummary.hash(key)
        guard !cursor.exactKeys.keysBefore.contains(hash) else {
            // A scan from the first member costs little in an object of a few members (a model's).
            if nodes[objectIndex].shortLength <= MemberIndex.threshold {
                return findMemberFromFirst(in: objectIndex, key: key, cursor: cursor)
            }
            return findExactMemberPastSummary(in: objectIndex, key: key, hash: hash, cursor: cursor)
        }
        let keyIndex = max(cursor.exactKeys.nextKey, objectIndex + 1)
        if keyIndex < nodes[objectIndex].containerEnd && stringEquals(at: keyIndex, key) {
            // The usual case, inlined where keys are looked up: the model asks for the member
            // that follows the last one.
            cursor.exactKeys.keysBefore.insert(hash)
            cursor.exactKeys.nextKey = next(after: keyIndex + 1)
            return keyIndex + 1
        }
        return findExactMemberAfterCursor(in: objectIndex, key: key, hash: hash, cursor: cursor)
    }

    /// ``findMember(in:key:)`` for a key whose hash an earlier member shares: a scan from the
    /// first member. The member it finds at the cursor's place moves the place on, as the usual
    /// case does: the next key is looked for after it, and the members before the place stay
    /// those found in order (``MemberCursor/passedOverMembers``). `key` is read during the call
    /// only, held by the caller's `withUTF8Bytes`.
    @inline(never)
    private func findMemberFromFirst(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, cursor: KeyedContainerState)
        -> Int?
    {
        guard let found = findMember(in: objectIndex, key: key) else { return nil }
        if found &- 1 == max(cursor.exactKeys.nextKey, objectIndex + 1) {
            cursor.exactKeys.nextKey = next(after: found)
        }
        return found
    }

    /// The first member whose key equals `key` as Swift's `String` does, by Unicode canonical
    /// equivalence, as Foundation's `JSONDecoder` finds keys: `"café"` sent decomposed
    /// (`"cafe\u{301}"`) is the coding key `"café"`. Asked once no member has the key's bytes;
    /// only a key beyond ASCII has other spellings, and only members beyond ASCII (or escaped)
    /// are compared. (An ASCII coding key is not looked for under a spelling beyond ASCII, such
    /// as the Kelvin sign for `K`.) `key` is read during the call only, held by the caller.
    @inline(never)
    func findMemberCanonically(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard key.contains(where: { $0 >= 0x80 }), nodes[objectIndex].kind == .object else { return nil }
        let name = String(decoding: key, as: UTF8.self)
        let end = nodes[objectIndex].containerEnd
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let node = nodes[keyIndex]
            if node.has(JSONNode.hasEscapes) || bytes(of: node).contains(where: { $0 >= 0x80 }),
                string(at: keyIndex) == name
            {
                return keyIndex + 1
            }
            keyIndex = next(after: keyIndex + 1)
        }
        return nil
    }

    /// ``findMember(in:key:cursor:)`` for a key that the summary of the members before the
    /// cursor may hold: the members before the place, then those from the place on. Past a few
    /// members the summary holds every hash, and a scan from the first member for every key would
    /// make a large object's lookups quadratic (a `[Int: V]` of a hundred thousand members, read
    /// key by key): there the cursor's ``MemberIndex`` of the keys before its place answers.
    ///
    /// `key` is read only during the call (the caller's `withUTF8` holds it); the members' bytes
    /// are the tree's input, which its node storage keeps for as long as the tree is read.
    @inline(never)
    private func findExactMemberPastSummary(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, hash: UInt8, cursor: KeyedContainerState
    ) -> Int? {
        if let whole = cursor.searchesInVainState?.exactIndex { return whole.firstKey[Array(key)].map { $0 + 1 } }
        let place = max(cursor.exactKeys.nextKey, objectIndex + 1)
        // The first members before the place, one by one; past `MemberIndex.threshold` of them,
        // the index of them all.
        var keyIndex = cursor.exactKeyIndex == nil ? objectIndex + 1 : place
        var scanned = 0
        while keyIndex < place && scanned < MemberIndex.threshold {
            if stringEquals(at: keyIndex, key) { return keyIndex + 1 }
            keyIndex = next(after: keyIndex + 1)
            scanned += 1
        }
        if keyIndex < place || cursor.exactKeyIndex != nil {
            let index = cursor.exactKeyIndex ?? MemberIndex(objectIndex: objectIndex)
            cursor.exactKeyIndex = index
            index.extend(to: place, in: self) { Array(string(at: $0).utf8) }
            if let keyIndex = index.firstKey[Array(key)] { return keyIndex + 1 }
        }
        // None before the place. Among the next `MemberIndex.threshold` members, a match is found
        // without moving the place (a model that asks out of order keeps it where its next keys
        // are); further on, the search that moves the place to the match, so that reading a large
        // object in order stays linear however its keys hash.
        let end = nodes[objectIndex].containerEnd
        var afterIndex = place
        var scannedAfter = 0
        while afterIndex < end {
            if scannedAfter == MemberIndex.threshold {
                return findExactMemberAfterCursor(in: objectIndex, key: key, hash: hash, cursor: cursor)
            }
            if stringEquals(at: afterIndex, key) { return afterIndex + 1 }
            afterIndex = next(after: afterIndex + 1)
            scannedAfter += 1
        }
        noteExactMiss(in: objectIndex, scannedFrom: place, cursor: cursor)
        return nil
    }

    /// The rest of ``findMember(in:key:cursor:)``, out of line.
    private func findExactMemberAfterCursor(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, hash: UInt8, cursor: KeyedContainerState
    ) -> Int? {
        // A model's object: its searches in vain cost a few members each.
        guard nodes[objectIndex].shortLength > MemberIndex.threshold else {
            return findMember(
                in: objectIndex, after: &cursor.exactKeys, hash: hash, matches: { stringEquals(at: $0, key) },
                hashOfKey: { exactKeyHash(at: $0) })
        }
        return findExactMemberInLargeObject(in: objectIndex, key: key, hash: hash, cursor: cursor)
    }

    /// ``findExactMemberAfterCursor(in:key:hash:cursor:)`` in an object of more than
    /// ``MemberIndex/threshold`` members, whose searches in vain are counted. `key` is read only
    /// during the call (the caller's `withUTF8` holds it), and the index keeps copies of the
    /// members' keys, not pointers: a container kept past the decode reads it safely.
    @inline(never)
    private func findExactMemberInLargeObject(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, hash: UInt8, cursor: KeyedContainerState
    ) -> Int? {
        if let whole = cursor.searchesInVainState?.exactIndex { return whole.firstKey[Array(key)].map { $0 + 1 } }
        let place = max(cursor.exactKeys.nextKey, objectIndex + 1)
        let found = findMember(
            in: objectIndex, after: &cursor.exactKeys, hash: hash, matches: { stringEquals(at: $0, key) },
            hashOfKey: { exactKeyHash(at: $0) })
        if found == nil { noteExactMiss(in: objectIndex, scannedFrom: place, cursor: cursor) }
        return found
    }

    /// Counts a search of an exact key that scanned from `place` to the end of the object in
    /// vain, and indexes the object's keys once such searches have outgrown it
    /// (``missesOutgrowObject(_:scannedFrom:cursor:)``).
    @inline(never)
    private func noteExactMiss(in objectIndex: Int, scannedFrom place: Int, cursor: KeyedContainerState) {
        guard missesOutgrowObject(objectIndex, scannedFrom: place, cursor: cursor) else { return }
        cursor.searchesInVain.exactIndex = wholeIndex(of: objectIndex) { Array(string(at: $0).utf8) }
    }

    /// Whether the searches of a container that found nothing have now scanned more than twice
    /// its object, counting one that scanned from `place` to its end. From then on its searches
    /// ask an index of all the object's keys, built once: a model that looks up thousands of
    /// absent keys in a large object (`contains` for every id of a list) would otherwise cost
    /// the square of the object's size.
    func missesOutgrowObject(_ objectIndex: Int, scannedFrom place: Int, cursor: KeyedContainerState) -> Bool {
        let end = nodes[objectIndex].containerEnd
        let searches = cursor.searchesInVain
        searches.missedNodes &+= end &- place
        cursor.decoder.nodesScannedInVain &+= end &- place
        return searches.missedNodes > 2 &* (end &- objectIndex) &+ 256
    }

    /// An index of every key of an object, each under the bytes `text` gives it, to its first
    /// member.
    func wholeIndex(of objectIndex: Int, text: (Int) -> [UInt8]) -> MemberIndex {
        let index = MemberIndex(objectIndex: objectIndex)
        index.extend(to: nodes[objectIndex].containerEnd, in: self, text: text)
        return index
    }

    /// The search that both kinds of cursor share, for a key whose `hash` the cursor's summary
    /// does not hold: the members from the cursor's place on, each added to the summary (by
    /// `hashOfKey`, or every bit when it has none) up to the one that `matches`, after which
    /// the place moves. `nil`, and the cursor unchanged, when no member after the place matches,
    /// and so none in the object.
    @inline(__always)
    func findMember(
        in objectIndex: Int, after cursor: inout MemberCursor, hash: UInt8, matches: (Int) -> Bool,
        hashOfKey: (Int) -> UInt8?
    ) -> Int? {
        let end = nodes[objectIndex].containerEnd
        let place = max(cursor.nextKey, objectIndex + 1)
        var keyIndex = place
        var keysBefore = cursor.keysBefore
        while keyIndex < end {
            let next = next(after: keyIndex + 1)
            if matches(keyIndex) {
                keysBefore.insert(hash)
                cursor = MemberCursor(
                    nextKey: next, keysBefore: keysBefore,
                    passedOverMembers: cursor.passedOverMembers || keyIndex != place)
                return keyIndex + 1
            }
            if let other = hashOfKey(keyIndex) { keysBefore.insert(other) } else { keysBefore.insertEverything() }
            keyIndex = next
        }
        return nil
    }

    /// The summary hash of the key node at `index`; `nil` for a key written with escapes, whose
    /// bytes are not its text.
    @inline(__always)
    func exactKeyHash(at index: Int) -> UInt8? {
        let node = nodes[index]
        guard !node.has(JSONNode.hasEscapes) else { return nil }
        return KeySummary.hash(bytes(of: node))
    }

    @inline(__always)
    func findMember(in objectIndex: Int, key: [UInt8]) -> Int? {
        key.withUnsafeBufferPointer { findMember(in: objectIndex, key: $0) }
    }

    /// Follows a nested key from an object: each key but the last must lead to an object, and
    /// each index step to an array. A step through a missing member or element, or a value of
    /// another kind, is "missing": `nil`.
    func resolve(_ path: [KeyBytes], in objectIndex: Int) -> Int? {
        var current = objectIndex
        for key in path {
            guard let next = step(key, from: current, loosely: false) else { return nil }
            current = next
        }
        return current
    }

    /// One step of a nested key from the node `current`: the element an index step names, or the
    /// value of the member a key names — exactly, or (`loosely`) ignoring ASCII case and the
    /// separators `_`, `-` and space. `nil` when it is missing or the node is of another kind.
    /// The one rule that decoding, encoding and ``UnknownKeys`` follow a key path by.
    @inline(__always)
    func step(_ key: KeyBytes, from current: Int, loosely: Bool) -> Int? {
        if let position = key.index { return element(position, of: current) }
        if loosely {
            // The buffer is read only inside the closure, while `key.utf8` holds it.
            return key.utf8.withUnsafeBufferPointer { findMemberLoosely(in: current, key: $0) }.map { $0 + 1 }
        }
        guard nodes[current].kind == .object else { return nil }
        if let found = findMember(in: current, key: key.utf8) { return found }
        // Another spelling of a key beyond ASCII (`"Å"` precomposed or decomposed), as a plain
        // key is found: the buffer is read only inside the closure, while `key.utf8` holds it.
        return key.utf8.withUnsafeBufferPointer { findMemberCanonically(in: current, key: $0) }
    }

    /// The node of an array's element at a position, or `nil` when the node is not an array or
    /// is shorter.
    func element(_ position: Int, of arrayIndex: Int) -> Int? {
        let node = nodes[arrayIndex]
        guard node.kind == .array, position >= 0, position < count(of: arrayIndex) else { return nil }
        var child = arrayIndex + 1
        for _ in 0..<position { child = next(after: child) }
        return child
    }

    /// Like ``resolve(_:in:)``, but each key is matched ignoring ASCII case and the separators
    /// `_`, `-` and space (`userName` matches `UserName`, `USERNAME`, `user_name`, `user-name`).
    ///
    /// - Returns: The value's index and the keys as the document spells them.
    func resolveLoosely(_ path: [KeyBytes], in objectIndex: Int) -> (index: Int, keys: [KeyBytes])? {
        var current = objectIndex
        var matched: [KeyBytes] = []
        for key in path {
            guard let next = step(key, from: current, loosely: true) else { return nil }
            // An index step matches itself; a key step, the member's key as the document spells it.
            matched.append(key.index == nil ? KeyBytes(string(at: next - 1)) : key)
            current = next
        }
        return (current, matched)
    }

    /// The key node of the first member of an object whose key matches `key` ignoring ASCII
    /// case and separators, from the member at `start` on, or `nil` (also when the node is not
    /// an object). `key` is read during the call only, inside the caller's `withUTF8Bytes`; the
    /// members' keys are the tree's input, which its node storage keeps for as long as the tree
    /// is read (RetainedDecoderTests reads a kept container loosely after the input is gone).
    func findMemberLoosely(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, from start: Int? = nil) -> Int? {
        guard nodes[objectIndex].kind == .object else { return nil }
        let end = nodes[objectIndex].containerEnd
        var keyIndex = start ?? objectIndex + 1
        // Most members differ from the key in their first letter: compared first, alone, it
        // rules them out for a few instructions each. A key without a significant byte matches
        // only keys without one, which the full comparison finds.
        guard let first = JSONTree.firstLooseByte(of: key) else {
            while keyIndex < end {
                if keyMatchesLoosely(at: keyIndex, key) { return keyIndex }
                keyIndex = next(after: keyIndex + 1)
            }
            return nil
        }
        // A key with a first significant byte has a last one. Members that share the first are
        // compared by their last before the whole key: `retweet_count` is not `retweeted_status`,
        // and a user's dozen `profile_…` keys are not `profile_banner_url`.
        let last = JSONTree.lastLooseByte(of: key) ?? first
        let input = self.input
        while keyIndex < end {
            let node = nodes[keyIndex]
            if node.has(JSONNode.hasEscapes) || node.shortLength == 0 {
                if keyMatchesLoosely(at: keyIndex, key) { return keyIndex }
            } else {
                // A key node's text is within the input, and at least one byte long here.
                let byte = input[node.offset]
                let folded = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                if folded == first {
                    let member = bytes(of: node)
                    let lastByte = JSONTree.looseByte(member[member.count &- 1])
                    if lastByte == nil || lastByte == last, JSONTree.looselyEqual(member, key) { return keyIndex }
                } else if JSONTree.looseByte(byte) == nil, JSONTree.looselyEqual(bytes(of: node), key) {
                    return keyIndex
                }
            }
            keyIndex = next(after: keyIndex + 1)
        }
        return nil
    }

    /// The first byte of a key that loose matching compares (``looseByte(_:)``), or `nil` when it
    /// has none. `key` is read during the call only, held by the caller's closure.
    @inline(__always)
    static func firstLooseByte(of key: UnsafeBufferPointer<UInt8>) -> UInt8? {
        for byte in key {
            if let significant = looseByte(byte) { return significant }
        }
        return nil
    }

    /// The last byte of a key that loose matching compares, or `nil` when it has none. `key` is
    /// read during the call only, held by the caller's closure.
    @inline(__always)
    static func lastLooseByte(of key: UnsafeBufferPointer<UInt8>) -> UInt8? {
        for byte in key.reversed() {
            if let significant = looseByte(byte) { return significant }
        }
        return nil
    }

    /// Whether the key at `keyIndex` matches `key` ignoring ASCII case and separators. `key` is
    /// read during the call only, held by the caller's closure; the member's key is the tree's
    /// input, kept by its node storage.
    @inline(__always)
    private func keyMatchesLoosely(at keyIndex: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[keyIndex]
        return node.has(JSONNode.hasEscapes)
            ? JSONTree.looselyEqual(Array(string(at: keyIndex).utf8), key)
            : JSONTree.looselyEqual(bytes(of: node), key)
    }

    /// ``findMemberLoosely(in:key:)`` for a keyed container's object, from the key node `start`
    /// when it is given (a small object's search starts there; a larger one's may find a
    /// member before it, which its caller passes over). An object of more than
    /// ``LooseKeySummary/smallestObject`` members first asks its ``LooseKeySummary`` (built on
    /// the container's first loose search, kept in its state): a key that no member can match
    /// loosely, the common case of an optional property the document leaves out, then costs a
    /// hash instead of a comparison with every member. A smaller object is searched directly,
    /// which costs less than summarizing it: in `twitter.json`, "place" and
    /// "possibly_sensitive" share their summary bit, and so do many "profile_…_url" keys.
    ///
    /// `key` is read only during the call (the caller's `withUTF8` holds it); the members' keys
    /// are the tree's input, which its node storage keeps for as long as the tree is read, after
    /// the decode call too (``NodeStorage/keepInput()``).
    func findMemberLoosely(
        in objectIndex: Int, key: UnsafeBufferPointer<UInt8>, from start: Int?, cursor: KeyedContainerState
    ) -> Int? {
        guard nodes[objectIndex].kind == .object else { return nil }
        // A small object is searched directly: its summary costs more than a few searches.
        if count(of: objectIndex) <= LooseKeySummary.smallestObject {
            return findMemberLoosely(in: objectIndex, key: key, from: start)
        }
        let summary: LooseKeySummary
        if let built = cursor.looseKeys {
            summary = built
        } else {
            summary = looseKeySummary(of: objectIndex)
            cursor.looseKeys = summary
        }
        guard summary.mayMatch(key) else { return nil }
        // Past a few searches, an index of the members' keys as loose matching compares them:
        // a large object's summary rules out little, and a search for each of thousands of keys
        // would scan it each time.
        let searches = cursor.searchesInVain
        searches.looseSearches &+= 1
        guard searches.looseSearches > LooseKeySummary.searchesBeforeIndex else {
            cursor.decoder.nodesScannedInVain &+= nodes[objectIndex].containerEnd &- objectIndex
            return findMemberLoosely(in: objectIndex, key: key)
        }
        return looseKeyIndex(of: objectIndex, searches: searches)[key.compactMap(JSONTree.looseByte)]
    }

    /// Each key of the object as loose matching compares it (``looseByte(_:)`` of each byte, the
    /// separators left out), to the key node of the first member that has it: made once per
    /// container.
    @inline(never)
    private func looseKeyIndex(of objectIndex: Int, searches: SearchesInVain) -> [[UInt8]: Int] {
        if let built = searches.looseIndex { return built }
        var firstOfEach: [[UInt8]: Int] = [:]
        let end = nodes[objectIndex].containerEnd
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let node = nodes[keyIndex]
            let loose =
                node.has(JSONNode.hasEscapes)
                ? string(at: keyIndex).utf8.compactMap(JSONTree.looseByte)
                : bytes(of: node).compactMap(JSONTree.looseByte)
            if firstOfEach[loose] == nil { firstOfEach[loose] = keyIndex }
            keyIndex = next(after: keyIndex + 1)
        }
        searches.looseIndex = firstOfEach
        return firstOfEach
    }

    /// The loose summary of an object's member keys.
    func looseKeySummary(of objectIndex: Int) -> LooseKeySummary {
        var summary = LooseKeySummary()
        let end = nodes[objectIndex].containerEnd
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let node = nodes[keyIndex]
            if node.has(JSONNode.hasEscapes) {
                // Matched after unescaping: kept simple, such a key may match anything.
                return LooseKeySummary.everything
            }
            summary.insert(bytes(of: node))
            keyIndex = next(after: keyIndex + 1)
        }
        return summary
    }

    /// ``looselyEqual(_:_:)`` for two buffers, as keys without escapes are compared: byte by
    /// byte through the buffers, so that the usual answer, a difference in the first letters,
    /// costs a few instructions. Both are read during the call only, within their counts: the
    /// key a caller's `withUTF8` holds, and a member's key in the tree's input, which its node
    /// storage keeps for as long as the tree is read.
    @inline(__always)
    static func looselyEqual(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        var left = 0
        var right = 0
        while true {
            while left < lhs.count, looseByte(lhs[left]) == nil { left &+= 1 }
            while right < rhs.count, looseByte(rhs[right]) == nil { right &+= 1 }
            guard left < lhs.count, right < rhs.count else { return left == lhs.count && right == rhs.count }
            if looseByte(lhs[left]) != looseByte(rhs[right]) { return false }
            left &+= 1
            right &+= 1
        }
    }

    static func looselyEqual(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        var left = lhs.makeIterator()
        var right = rhs.makeIterator()
        while true {
            let a = nextSignificant(&left)
            let b = nextSignificant(&right)
            if a == nil || b == nil { return a == nil && b == nil }
            if a != b { return false }
        }
    }

    /// The next byte that is not a separator, with ASCII letters lowercased.
    @inline(__always)
    private static func nextSignificant<I: IteratorProtocol<UInt8>>(_ iterator: inout I) -> UInt8? {
        while let byte = iterator.next() {
            if let significant = looseByte(byte) { return significant }
        }
        return nil
    }

    /// A byte as loose matching compares it: `nil` for the separators `_`, `-` and space, ASCII
    /// letters lowercased, any other byte as it is. The one rule of ``looselyEqual(_:_:)`` and of
    /// ``LooseKeySummary``.
    @inline(__always)
    static func looseByte(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: " "): return nil
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte | 0x20
        default: return byte
        }
    }
}

/// The keys of an object as ``JSONTree/looselyEqual(_:_:)`` compares them: 256 bits, one per value
/// of a hash of a key's first and last significant bytes (separators skipped, ASCII letters
/// lowercased), so that keys that match loosely have the same bit. A key whose bit is clear
/// matches no member.
///
/// Its functions read the key they are given during the call only; nothing keeps a pointer.
struct LooseKeySummary {
    private var bits = KeySummary()

    /// The number of members from which an object is summarized before its first loose search;
    /// smaller ones are searched directly, each member ruled out by its first letter.
    static let smallestObject = 48

    /// How many loose searches of a larger object scan it before its keys are indexed.
    static let searchesBeforeIndex = 8

    static let everything: LooseKeySummary = {
        var summary = LooseKeySummary()
        summary.bits.insertEverything()
        return summary
    }()

    /// The bit of a key: its first and last significant bytes, lowercased, mixed. Loosely equal
    /// keys have the same significant bytes, so the same bit; finding them takes a step or two
    /// from each end of the key, so that summarizing an object costs about what one search does.
    @inline(__always)
    private static func bit(of key: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var first = 0
        var firstByte: UInt8?
        while first < key.count {
            firstByte = JSONTree.looseByte(key[first])
            if firstByte != nil { break }
            first &+= 1
        }
        guard let firstByte else { return 0 }
        // A significant byte exists, so this stops at `first` at the latest.
        var last = key.count &- 1
        while JSONTree.looseByte(key[last]) == nil { last &-= 1 }
        let lastByte = JSONTree.looseByte(key[last]) ?? firstByte
        let mixed = (UInt32(firstByte) &<< 8 | UInt32(lastByte)) &* 0x9E37_79B1
        return UInt8(truncatingIfNeeded: mixed &>> 24)
    }

    @inline(__always)
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>) { bits.insert(LooseKeySummary.bit(of: key)) }

    /// Whether some member may match `key` loosely; `false` means none does.
    @inline(__always)
    func mayMatch(_ key: UnsafeBufferPointer<UInt8>) -> Bool { bits.contains(LooseKeySummary.bit(of: key)) }
}

/// A summary of the keys of an object before a place in it, for
/// ``JSONTree/findMember(in:key:cursor:)``: 256 bits, one per value of a hash of a key's text,
/// so that equal keys have the same bit. A key whose bit is clear is not among them.
struct KeySummary {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// The hash of a key's text: its length and its first, middle and last bytes, mixed.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt8 {
        guard let base = key.baseAddress, key.count > 0 else { return 0 }
        let count = key.count
        let bytes = UInt32(base[0]) &<< 8 | UInt32(base[count &>> 1]) &<< 16 | UInt32(base[count &- 1]) &<< 24
        let mixed = (UInt32(truncatingIfNeeded: count) &* 0x9E37_79B1 ^ bytes) &* 0x9E37_79B1
        return UInt8(truncatingIfNeeded: mixed &>> 24)
    }

    @inline(__always)
    func contains(_ hash: UInt8) -> Bool {
        let bit: UInt64 = 1 &<< UInt64(hash & 63)
        switch hash &>> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    @inline(__always)
    mutating func insert(_ hash: UInt8) {
        let bit: UInt64 = 1 &<< UInt64(hash & 63)
        switch hash &>> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    /// Fills the summary: every later search starts at the first member.
    @inline(__always)
    mutating func insertEverything() {
        words = (.max, .max, .max, .max)
    }
}

/// A keyed container's place in its object for one kind of key search: the key node after the
/// last member found (0 before the first), and a summary of the keys before it.
struct MemberCursor {
    var nextKey = 0
    var keysBefore = KeySummary()
    /// Whether a member before ``nextKey`` was passed over, or found under a name that is not
    /// one of the container's coding keys (``KeyedContainerState/noteLookupOutsideCodingKeys()``).
    /// While it is `false`, every member before ``nextKey`` was found, in order, by one of the
    /// model's coding keys: a loose search need not look at them
    /// (``TreeDecoder/KeyedContainer/firstLooseMember(spelled:besides:)``).
    var passedOverMembers = false
}

/// The keys of the members of an object up to a cursor's place, each to the key node of its first
/// member, for searches that the cursor's summary cannot narrow (``KeyedContainerState/exactKeyIndex``).
/// Extended as the place moves on, so that building it costs each member once.
final class MemberIndex {
    /// How many members an object may have for its searches to scan it from the first member,
    /// and how many before or after a cursor's place a search of a larger object scans; past it,
    /// an index, which costs more to build than a few scans.
    static let threshold = 64

    /// Each key's UTF-8 bytes (as its container compares keys, byte for byte: exact, or
    /// converted) to its first member. Bytes, not `String`s, whose equality would also match
    /// a canonically equivalent spelling that the search does not.
    private(set) var firstKey: [[UInt8]: Int] = [:]
    /// The key node of the first member not yet in ``firstKey``.
    private var indexedUpTo: Int

    init(objectIndex: Int) {
        indexedUpTo = objectIndex + 1
    }

    /// Adds the members before `place`, each under the key `text` gives it.
    func extend(to place: Int, in tree: JSONTree, text: (Int) -> [UInt8]) {
        var keyIndex = indexedUpTo
        while keyIndex < place {
            let key = text(keyIndex)
            if firstKey[key] == nil { firstKey[key] = keyIndex }
            keyIndex = tree.next(after: keyIndex + 1)
        }
        indexedUpTo = max(indexedUpTo, keyIndex)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONTree {
    /// The index of the value of the first member whose key equals `key`, or `nil`.
    @inline(__always)
    func findMember(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = Int(nodes[objectIndex].end)
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            if stringEquals(at: keyIndex, key) { return keyIndex + 1 }
            keyIndex = Int(nodes[keyIndex + 1].end)
        }
        return nil
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
        return findMember(in: current, key: key.utf8)
    }

    /// The node of an array's element at a position, or `nil` when the node is not an array or
    /// is shorter.
    func element(_ position: Int, of arrayIndex: Int) -> Int? {
        let node = nodes[arrayIndex]
        guard node.kind == .array, position >= 0, position < Int(node.length) else { return nil }
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
    /// case and separators, or `nil` (also when the node is not an object).
    func findMemberLoosely(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard nodes[objectIndex].kind == .object else { return nil }
        let end = Int(nodes[objectIndex].end)
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let node = nodes[keyIndex]
            let matches =
                node.has(JSONNode.hasEscapes)
                ? JSONTree.looselyEqual(Array(string(at: keyIndex).utf8), key)
                : JSONTree.looselyEqual(bytes(of: node), key)
            if matches { return keyIndex }
            keyIndex = Int(nodes[keyIndex + 1].end)
        }
        return nil
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
            switch byte {
            case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: " "): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte | 0x20
            default: return byte
            }
        }
        return nil
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONTree {
    /// The index of the value of the first member whose key, converted from snake case as
    /// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` converts it, equals `key`.
    ///
    /// ASCII keys are compared as they are converted, byte by byte, with no `String` built; the
    /// others go through the exact conversion.
    func findMemberFromSnakeCase(in objectIndex: Int, key: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = Int(nodes[objectIndex].end)
        var keyIndex = objectIndex + 1
        while keyIndex < end {
            let node = nodes[keyIndex]
            let matches: Bool
            if !node.has(JSONNode.hasEscapes), SnakeCaseMatcher.cannotMatch(bytes(of: node), key) {
                matches = false
            } else if !node.has(JSONNode.hasEscapes), let fast = SnakeCaseMatcher.matches(bytes(of: node), key) {
                matches = fast
            } else {
                matches = KeyConversion.camelCase(fromSnakeCase: string(at: keyIndex)).utf8.elementsEqual(key)
            }
            if matches { return keyIndex + 1 }
            keyIndex = Int(nodes[keyIndex + 1].end)
        }
        return nil
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

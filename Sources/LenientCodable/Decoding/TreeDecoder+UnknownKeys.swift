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

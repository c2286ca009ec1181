// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONValue {
    /// Whether two values are the same value without comparing their contents: equal scalars, or
    /// containers that share their storage (what a hook returns when it changes nothing). O(1);
    /// `false` says nothing about equality.
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.withUnsafeBufferPointer { mine in
                b.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress && $0.count == mine.count }
            }
        case (.object(let a), .object(let b)): return a.sharesStorage(with: b)
        default: return false
        }
    }
}

extension JSONValue {
    /// Releases a value of any depth one container at a time, instead of by the recursion with
    /// which Swift releases nested arrays (a million levels need far more than a thread's stack).
    /// `value` is left `null`.
    ///
    /// For JSON that user code returned and the decoder or encoder refused for its depth: a value
    /// decoded from text is at most 512 levels deep and is released as usual. Before a container
    /// is let go, its children are retained here, so whoever frees it frees an array of values
    /// still held, without recursing; the children are let go the same way, one at a time. Each
    /// container's storage is visited once, so a value that repeats a container (`[x, x]` at
    /// every level) costs its number of containers, not its size when written out.
    static func releaseIteratively(_ value: inout JSONValue) {
        var pending: [JSONValue] = []
        // Storage addresses, compared and never read through. An address stays a container's
        // identity after that container is freed, because nothing here allocates a container that
        // could take its place. NestingBudgetTests' 200 000-level hook runs this under AddressSanitizer in CI.
        var visited = Set<UnsafeRawPointer>()
        var current = JSONValue.null
        swap(&current, &value)
        while true {
            switch current {
            case .array(let elements):
                let storage = elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
                if let storage, visited.insert(storage).inserted { pending.append(contentsOf: elements) }
            case .object(let object):
                if let storage = object.storageAddress, visited.insert(storage).inserted {
                    for member in object { pending.append(member.value) }
                }
            default:
                break
            }
            current = .null
            guard let next = pending.popLast() else { return }
            current = next
        }
    }
}

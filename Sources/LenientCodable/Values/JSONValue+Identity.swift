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

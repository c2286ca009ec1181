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
    /// decoded from text is at most 512 levels deep and is released as usual.
    ///
    /// Containers may be shared (`[x, x]` at every level, a subtree kept in two places), so the
    /// value is a graph, not a tree. First every container is found once, by its storage, and held
    /// here; then they are let go parents first (Kahn's order): a container is let go only once
    /// every container that refers to it has been, so freeing it frees no container that is still
    /// referred to by nothing but it. Each free then releases only values still held here, without
    /// recursing. The cost is linear in the number of distinct containers and their references, not
    /// in the value's size when written out.
    static func releaseIteratively(_ value: inout JSONValue) {
        // One held copy of each container, in the order found; the number of references to each
        // from the containers of the value; and each container's place, by storage address.
        var held: [JSONValue] = []
        var referrers: [Int] = []
        // Addresses of storage that `held` keeps alive until the container is let go, and looked
        // up only while it is held: no freed container's address is ever looked up.
        var places: [UnsafeRawPointer: Int] = [:]
        func place(of child: JSONValue) -> Int? {
            guard let address = child.containerStorage else { return nil }
            if let found = places[address] { return found }
            places[address] = held.count
            held.append(child)
            referrers.append(0)
            return held.count - 1
        }
        var root = JSONValue.null
        swap(&root, &value)
        guard place(of: root) != nil else { return }
        // Finds every container and counts its references, without recursion.
        var next = 0
        while next < held.count {
            // A copy: `place(of:)` appends to `held` while the children are visited.
            let container = held[next]
            container.forEachChild { child in
                if let found = place(of: child) { referrers[found] += 1 }
            }
            next += 1
        }
        // The caller's reference goes first; then each container whose referrers are all gone.
        root = .null
        var ready = [0]
        while let current = ready.popLast() {
            var container = JSONValue.null
            swap(&container, &held[current])
            container.forEachChild { child in
                guard let address = child.containerStorage, let found = places[address] else { return }
                referrers[found] -= 1
                if referrers[found] == 0 { ready.append(found) }
            }
            // Let go here. Its children are all still held, so freeing it releases each of them
            // by one reference, and frees none.
            container = .null
        }
    }

    /// The address of a non-empty container's storage, as its identity; `nil` for scalars and
    /// empty containers, which refer to nothing. Compared only, never read through: the caller
    /// holds the container while it compares.
    var containerStorage: UnsafeRawPointer? {
        switch self {
        case .array(let elements):
            return elements.isEmpty ? nil : elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        case .object(let object):
            return object.storageAddress
        default:
            return nil
        }
    }

    /// Calls `body` with each element or member value of a container; nothing for a scalar.
    private func forEachChild(_ body: (JSONValue) -> Void) {
        switch self {
        case .array(let elements):
            for element in elements { body(element) }
        case .object(let object):
            for member in object { body(member.value) }
        default:
            break
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The growable buffer of a tree's nodes.
///
/// The parser appends a node for every value and the decoder reads them by index, millions of
/// times per document; an `Array` would check its uniqueness on every append and its bounds on
/// every access. Indices come only from the parser, which keeps them in range.
final class NodeStorage {
    private(set) var base: UnsafeMutablePointer<JSONNode>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// A storage holding the given nodes.
    convenience init(_ nodes: [JSONNode]) {
        self.init(capacity: nodes.count)
        for node in nodes { append(node) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    @inline(__always)
    subscript(index: Int) -> JSONNode {
        get { base[index] }
        set { base[index] = newValue }
    }

    @inline(__always)
    func append(_ node: JSONNode) {
        if count == capacity { grow() }
        (base + count).initialize(to: node)
        count += 1
    }

    @inline(never)
    private func grow() {
        let newCapacity = capacity * 2
        let newBase = UnsafeMutablePointer<JSONNode>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Adds one to a container's element count.
    @inline(__always)
    func incrementLength(at index: Int) {
        base[index].length &+= 1
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The coding path as a linked list from the innermost key to the root.
///
/// Decoding extends the path at every nested value but reads it only to build errors, so the
/// path is kept as cheap shared nodes and turned into `[CodingKey]` on demand.
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode, depth: Int)
    case index(Int, CodingPathNode, depth: Int)

    var depth: Int {
        switch self {
        case .root: 0
        case .key(_, _, let depth), .index(_, _, let depth): depth
        }
    }

    /// The path from the root, as `Decoder.codingPath` reports it.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        keys.reserveCapacity(depth)
        var node = self
        while true {
            switch node {
            case .root:
                return keys.reversed()
            case .key(let key, let parent, _):
                keys.append(key)
                node = parent
            case .index(let index, let parent, _):
                keys.append(AnyCodingKey(index: index))
                node = parent
            }
        }
    }

    func appending(_ key: some CodingKey) -> CodingPathNode {
        .key(key, self, depth: depth + 1)
    }

    func appending(index: Int) -> CodingPathNode {
        .index(index, self, depth: depth + 1)
    }

    /// The path with one more key, for errors about a key of this container.
    func path(byAppending key: some CodingKey) -> [any CodingKey] {
        path + [key]
    }

    /// The path with one more element index, for errors about an element of this container.
    func path(byAppendingIndex index: Int) -> [any CodingKey] {
        path + [AnyCodingKey(index: index)]
    }
}

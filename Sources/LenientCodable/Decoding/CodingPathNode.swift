// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The coding path as a linked list from the innermost key to the root.
///
/// Decoding extends the path at every value but reads it only to build errors and reports, so
/// extending it must be nearly free. A node is a value — the key or index and a reference to the
/// parent's path — and only a container's own path is boxed (``PathBox``), once per container:
/// the path of each element or member it decodes is then an inline value with no allocation.
enum CodingPathNode {
    case root
    case key(any CodingKey, parent: PathBox)
    case index(Int, parent: PathBox)

    /// The number of keys from the root.
    var depth: Int {
        var depth = 0
        var next = parentBox
        while let box = next {
            depth &+= 1
            next = box.parentBox
        }
        return depth
    }

    /// The box of the path this one extends; `nil` for the root.
    @inline(__always)
    fileprivate var parentBox: PathBox? {
        switch self {
        case .root: nil
        case .key(_, let parent), .index(_, let parent): parent
        }
    }

    /// The path from the root, as `Decoder.codingPath` reports it. Built for every error, so
    /// once the depth is known each key is put straight in its place: one copy of each key.
    var path: [any CodingKey] {
        let count = depth
        guard count > 0 else { return [] }
        return [any CodingKey](unsafeUninitializedCapacity: count) { keys, initialized in
            // `keys` holds `count` uninitialized places, and the path has `count` keys: each is
            // put once, from the last place to the first.
            var position = count
            var next = putLastKey(in: keys, before: &position)
            while let box = next { next = box.putLastKey(in: keys, before: &position) }
            initialized = count
        }
    }

    /// Puts this path's last key in `keys` just before `position` and moves `position` there;
    /// returns the box of the path before it, `nil` for the root. `keys` is the caller's array
    /// storage, written only during the call, with room before `position`.
    @inline(__always)
    fileprivate func putLastKey(in keys: UnsafeMutableBufferPointer<any CodingKey>, before position: inout Int)
        -> PathBox?
    {
        switch self {
        case .root:
            return nil
        case .key(let key, let parent):
            position &-= 1
            (keys.baseAddress! + position).initialize(to: key)
            return parent
        case .index(let index, let parent):
            position &-= 1
            // Its text, `Index 3`, is made only when asked for: a path of a deep array is built
            // for every error under it, and most are never read.
            (keys.baseAddress! + position).initialize(to: IndexCodingKey(index))
            return parent
        }
    }

    /// This path with one more key. Boxes this path: hot paths append to a container's
    /// existing box instead.
    func appending(_ key: some CodingKey) -> CodingPathNode {
        .key(key, parent: PathBox(self))
    }

    /// This path with one more element index.
    func appending(index: Int) -> CodingPathNode {
        .index(index, parent: PathBox(self))
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

/// A coding path stored once, so that the paths of a container's elements can refer to it.
final class PathBox {
    /// Replaced only by ``reset(to:)``, on a box that nothing but its decoder holds.
    @exclusivity(unchecked) private(set) var node: CodingPathNode
    /// For key strategies that convert keys through a table: the keyed container's object's
    /// converted keys, each to its value node. A box belongs to one node, so to one object.
    @exclusivity(unchecked) var convertedKeys: [String: Int]?
    /// The coding-key type of the first keyed container asked for on this value: a second of
    /// another type (a subclass's and its superclass's `init(from:)`) is recorded in
    /// ``SiblingCodingKeys``, so that an ``UnknownKeys`` property of either keeps none of the
    /// other's members.
    @exclusivity(unchecked) var keyedBy: Any.Type?
    /// The model type decoded when a second coding-key type was met on this value: what an
    /// ``UnknownKeys`` property asks ``SiblingCodingKeys`` about when read from a container kept
    /// past the decode, after the decoder has left the model. Cleared with the first keyed
    /// container of each value (``reset(to:)`` clears ``keyedBy`` only).
    @exclusivity(unchecked) var siblingModel: Any.Type?

    init(_ node: CodingPathNode) { self.node = node }

    /// ``CodingPathNode/parentBox`` of this box's path, read in place.
    @inline(__always)
    fileprivate var parentBox: PathBox? { node.parentBox }

    /// ``CodingPathNode/putLastKey(in:before:)`` of this box's path. `keys` is the storage of the
    /// array ``CodingPathNode/path`` is making, written only during the call.
    @inline(__always)
    fileprivate func putLastKey(in keys: UnsafeMutableBufferPointer<any CodingKey>, before position: inout Int)
        -> PathBox?
    {
        node.putLastKey(in: keys, before: &position)
    }

    /// Makes the box as new for another value's path: its decoder calls it only on a box that
    /// nothing else holds (`isKnownUniquelyReferenced`).
    func reset(to node: CodingPathNode) {
        self.node = node
        if convertedKeys != nil { convertedKeys = nil }
        keyedBy = nil
    }

    /// The path of a member of the container whose path this is.
    @inline(__always)
    func appending(_ key: some CodingKey) -> CodingPathNode { .key(key, parent: self) }

    /// The path of an element of the container whose path this is.
    @inline(__always)
    func appending(index: Int) -> CodingPathNode { .index(index, parent: self) }
}

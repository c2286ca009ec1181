// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension TreeDecoder {
    /// Throws the error of the first ``JSONNode/Kind/invalid`` node in the value at `index`
    /// (a string or number whose text is not valid JSON, kept by
    /// ``LenientJSONDecoder/Options/defersValueValidation``), for the paths that hand a value
    /// whole to a model — a `JSONValue`, a hook, a type choice, a converter, a transform — so
    /// that text that is not JSON never reaches one as if it were. A lookup in the tree's
    /// sorted list of such nodes; nothing when the document has none.
    @inline(__always)
    func checkValidText(at index: Int, path: CodingPathNode) throws {
        guard !tree.nodes.invalidNodes.isEmpty else { return }
        if let invalid = tree.nodes.firstInvalidNode(in: index..<tree.next(after: index)) {
            throw invalidText(at: invalid, path: path)
        }
    }

    /// The ``JSONValue`` that `JSONValue`'s `init(from:)` decodes from the node at `index`, whose
    /// coding path is `path`.
    ///
    /// `JSONValue` reads an object through a keyed container, so under Foundation's `JSONDecoder`
    /// the key strategy converts its keys, at every level (`{"a_b_c": 1}` is `{"aBC": 1}` with
    /// `.convertFromSnakeCase`). This gives the same value in every mode. With the default keys
    /// it is the tree's value as it is; hooks, type choices, transforms and ``UnknownKeys`` read
    /// the tree's value directly, and so keep seeing the JSON as sent.
    @inline(__always)
    func decodedJSONValue(at index: Int, path: CodingPathNode) throws -> JSONValue {
        try checkValidText(at: index, path: path)
        if case .useDefaultKeys = settings.keyDecodingStrategy { return tree.value(at: index) }
        return jsonValueConvertingKeysSlowPath(at: index, path: path)
    }

    /// ``decodedJSONValue(at:path:)`` under a key strategy that converts keys: each object's keys
    /// converted as a keyed container of Foundation's converts them (a custom strategy is handed
    /// the coding path of the object with the JSON key appended), and of the members whose keys
    /// convert to the same key the first in the document kept, as Foundation keeps it.
    ///
    /// Containers are built with a stack of their own, as ``JSONTree/value(at:cache:)`` builds
    /// them, so that a value nested as deep as the parser allows costs heap, not the thread's stack.
    @inline(never)
    private func jsonValueConvertingKeysSlowPath(at index: Int, path: CodingPathNode) -> JSONValue {
        let node = tree[index]
        guard node.kind == .array || node.kind == .object else { return tree.value(at: index) }
        let strategy = settings.keyDecodingStrategy
        var open = [ContainerConvertingKeys(index: index, in: tree, path: path)]
        while true {
            let innermost = open.count - 1
            if let (valueIndex, valuePath) = open[innermost].nextValue(in: tree, strategy: strategy) {
                let child = tree[valueIndex]
                if child.kind == .array || child.kind == .object {
                    open.append(ContainerConvertingKeys(index: valueIndex, in: tree, path: valuePath))
                } else {
                    open[innermost].append(tree.value(at: valueIndex))
                }
                continue
            }
            let finished = open.removeLast().value
            guard !open.isEmpty else { return finished }
            open[open.count - 1].append(finished)
        }
    }
}

/// An array or object of ``TreeDecoder/decodedJSONValue(at:path:)`` whose values are being built,
/// with its keys converted by the decoder's key strategy: its elements, or its members with the
/// first of the keys that convert alike kept, so far.
private struct ContainerConvertingKeys {
    private let end: Int
    private let isObject: Bool
    /// The container's coding path, which a custom strategy reads.
    private let path: CodingPathNode
    /// The same, boxed once, for the paths of its members and elements.
    private let box: PathBox
    /// The next element's node, or the next member's key node.
    private var next: Int
    /// The position of the next element.
    private var position = 0
    private var elements: [JSONValue] = []
    private var members: [(key: String, value: JSONValue)] = []
    private var seen = Set<String>()
    /// The converted key of the member whose value is being built.
    private var pendingKey = ""

    init(index: Int, in tree: JSONTree, path: CodingPathNode) {
        let node = tree[index]
        end = tree.next(after: index)
        isObject = node.kind == .object
        self.path = path
        box = PathBox(path)
        next = index + 1
        let count = tree.count(of: index)
        if isObject { members.reserveCapacity(count) } else { elements.reserveCapacity(count) }
    }

    /// The node and coding path of the next value to build, past members whose converted key an
    /// earlier member had; `nil` once every value is built.
    mutating func nextValue(in tree: JSONTree, strategy: JSONDecoder.KeyDecodingStrategy) -> (Int, CodingPathNode)? {
        guard isObject else {
            guard next < end else { return nil }
            let valueIndex = next
            next = tree.next(after: valueIndex)
            position += 1
            return (valueIndex, box.appending(index: position - 1))
        }
        while next < end {
            let key = TreeDecoder.KeyedContainer<AnyCodingKey>.convert(
                tree.string(at: next), strategy: strategy, path: path)
            let valueIndex = next + 1
            next = tree.next(after: valueIndex)
            if seen.insert(key).inserted {
                pendingKey = key
                return (valueIndex, box.appending(AnyCodingKey(key)))
            }
        }
        return nil
    }

    /// Adds the value of the node that ``nextValue(in:strategy:)`` gave last.
    mutating func append(_ value: JSONValue) {
        if isObject { members.append((key: pendingKey, value: value)) } else { elements.append(value) }
    }

    var value: JSONValue { isObject ? .object(JSONObject(uniqueMembers: members)) : .array(elements) }
}

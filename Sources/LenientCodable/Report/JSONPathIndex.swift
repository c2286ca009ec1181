// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The parent of every node of a parsed tree, so that a report can name where in the JSON a
/// value was (``DecodingIssue/jsonPath``).
///
/// A node knows the end of its subtree but not its parent. Walking up from a node by searching
/// would cost the size of everything before it, for each issue: quadratic for a long list of
/// forgiven values. So the first issue of a decode that needs a JSON path builds this table in
/// one pass over the tree, and every path after it costs its depth. Clean input, and decodes
/// without a report, never build it.
final class JSONPathIndex {
    /// The parent of each node; -1 for the root.
    private var parents: [Int32]
    /// For an element of an array, its position in the array; 0 otherwise.
    private var positions: [Int32]

    init(_ tree: JSONTree) {
        let count = tree.nodes.count
        parents = Array(repeating: -1, count: count)
        positions = Array(repeating: 0, count: count)
        // The containers enclosing the current node, innermost last, with the next position in each.
        var stack: [(index: Int, next: Int32)] = []
        for index in 0..<count {
            while let last = stack.last, Int(tree[last.index].end) <= index { stack.removeLast() }
            if let last = stack.last {
                parents[index] = Int32(truncatingIfNeeded: last.index)
                if tree[last.index].kind == .array {
                    positions[index] = last.next
                    stack[stack.count - 1].next += 1
                }
            }
            let kind = tree[index].kind
            if kind == .array || kind == .object { stack.append((index, 0)) }
        }
    }

    /// The path of a node from the root, as the report writes it: `books[2].ext.desc`.
    ///
    /// - Parameters:
    ///   - index: The node; a member's value (not its key).
    ///   - tree: The tree the index was built from.
    ///   - prefix: The path of the tree's root, when the tree stands for a value of another document.
    func path(of index: Int, in tree: JSONTree, prefix: String) -> String {
        var steps: [String] = []
        var current = index
        while current >= 0, current < parents.count {
            let parent = Int(parents[current])
            guard parent >= 0 else { break }
            if tree[parent].kind == .array {
                steps.append("[\(positions[current])]")
            } else {
                // A member's key is the node just before its value.
                steps.append(JSONPathIndex.keyStep(tree.string(at: current - 1)))
            }
            current = parent
        }
        var text = prefix
        for step in steps.reversed() { JSONPathIndex.append(step, to: &text) }
        return text
    }

    /// A key as a step of a path, marked so that ``append(_:to:)`` puts a dot before it.
    static func keyStep(_ key: String) -> String { "." + key }

    /// Appends a step made by ``keyStep(_:)`` or an index step `[2]` to a path.
    static func append(_ step: String, to text: inout String) {
        if step.hasPrefix("."), text.isEmpty {
            text += step.dropFirst()
        } else {
            text += step
        }
    }
}

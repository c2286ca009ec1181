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
    /// The steps made so far, by node: the issues under one container share its path.
    private var steps: [Int: JSONPathStep] = [:]

    init(_ tree: JSONTree) {
        let count = tree.nodes.count
        parents = Array(repeating: -1, count: count)
        positions = Array(repeating: 0, count: count)
        // The containers enclosing the current node, innermost last, with the next position in each.
        var stack: [(index: Int, next: Int32)] = []
        for index in 0..<count {
            while let last = stack.last, tree.next(after: last.index) <= index { stack.removeLast() }
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

    /// The path of a node from the root, as linked steps that share the path of every container
    /// already named: the first issue under a container costs its depth, the next ones one step.
    ///
    /// - Parameters:
    ///   - index: The node; a member's value (not its key).
    ///   - tree: The tree the index was built from.
    ///   - root: The path of the tree's root, when the tree stands for a value of another document.
    func step(of index: Int, in tree: JSONTree, root: JSONPathStep) -> JSONPathStep {
        // The nodes from `index` up to the first one whose step is known (or the root), innermost first.
        var missing: [Int] = []
        var current = index
        var known = root
        while current >= 0, current < parents.count {
            if let step = steps[current] {
                known = step
                break
            }
            guard parents[current] >= 0 else { break }
            missing.append(current)
            current = Int(parents[current])
        }
        for node in missing.reversed() {
            let parent = Int(parents[node])
            let text =
                tree[parent].kind == .array ? "[\(positions[node])]" : JSONPathIndex.keyStep(tree.string(at: node - 1))
            known = JSONPathStep(text, after: known)
            steps[node] = known
        }
        return known
    }

    /// A key as a step of a path: `.key`, marked so that ``append(_:to:)`` puts a dot before it;
    /// or, for a key that would read as more than one step (`k.2`, `a[1]`, a quote, no text at
    /// all), the key quoted in brackets, `["k.2"]`, so that no two paths read alike.
    static func keyStep(_ key: String) -> String {
        let readsAsOneStep =
            !key.isEmpty
            && !key.utf8.contains { byte in
                byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
                    || byte == UInt8(ascii: "\"")
            }
        if readsAsOneStep { return "." + key }
        let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "[\"" + escaped + "\"]"
    }

    /// Appends a step made by ``keyStep(_:)`` or an index step `[2]` to a path.
    static func append(_ step: String, to text: inout String) {
        if step.hasPrefix("."), text.isEmpty {
            text += step.dropFirst()
        } else {
            text += step
        }
    }
}

/// A JSON path as a linked list of steps from the innermost one up, shared between the issues
/// of a report: recording an issue costs one step, and the text is written only when read.
final class JSONPathStep: Sendable {
    /// The empty path of a document's root.
    static let root = JSONPathStep("", after: nil)

    let parent: JSONPathStep?
    /// `.key` or `[2]`; empty for the root.
    let step: String

    init(_ step: String, after parent: JSONPathStep?) {
        self.step = step
        self.parent = parent
    }

    /// The path with a member's key added.
    func appending(key: String) -> JSONPathStep {
        JSONPathStep(JSONPathIndex.keyStep(key), after: self)
    }

    /// The path as the report writes it: `books[2].ext.desc`.
    var text: String {
        var steps: [String] = []
        var current: JSONPathStep? = self
        while let node = current {
            if !node.step.isEmpty { steps.append(node.step) }
            current = node.parent
        }
        var text = ""
        for step in steps.reversed() { JSONPathIndex.append(step, to: &text) }
        return text
    }
}

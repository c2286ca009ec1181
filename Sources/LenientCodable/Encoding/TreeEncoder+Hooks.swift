// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension TreeEncoder {
    /// Runs a value's ``EncodingHooks/didEncode(_:)`` on what it encoded into this encoder's node
    /// and puts the result back in the node.
    ///
    /// Only types that conform get here, so only they pay for the ``JSONValue``. The hook sees its
    /// members in encode order, after key mapping; the members it keeps stay in place and the
    /// ones it adds (renamed ones included) come after them, in the order it adds them. Under
    /// `.sortedKeys` the writer sorts them all.
    ///
    /// - Throws: `EncodingError.invalidValue` with this encoder's coding path and the hook's error
    ///   as `underlyingError`; errors in the JSON it returns (a number that is not one) as
    ///   ``TreeEncoder/encode(_:into:key:fillsEmpty:)`` reports them.
    ///
    /// An array or object the hook returns is kept whole in the node (see ``EncodingTree``), so
    /// that the hook of a hooked type around this one gets it back without a copy; where that
    /// hook returns it unchanged, it is not checked again. Nested hooked types so cost the size
    /// of the value, not its depth times its size.
    @inline(never)
    func applyEncodingHooksSlowPath<T>(_ value: T) throws {
        guard let hooked = value as? any EncodingHooks else { return }
        var json: JSONValue
        var kept = EncodingTree.KeptJSON()
        do {
            json = try tree.jsonValue(at: node, sortsKeys: false, depth: 0, kept: &kept)
        } catch {
            throw Self.writeError(error, topLevelValue: value)
        }
        do {
            try hooked.didEncode(&json)
        } catch {
            throw Self.hookError(error, value: value, codingPath: codingPath)
        }
        tree.clear(node)
        if case .array = json, let height = checkedHeight(of: json, level: 0, kept: kept) {
            tree.setJSONLeaf(node, json, height: height)
        } else if case .object = json, let height = checkedHeight(of: json, level: 0, kept: kept) {
            tree.setJSONLeaf(node, json, height: height)
        } else {
            // A scalar, or JSON that fails the checks: copied into nodes, which throws the error.
            try insert(taking: &json, into: node, key: nil)
        }
    }

    /// The number of container levels in JSON a hook returned, when it passes the checks that
    /// ``insert(_:into:key:)`` makes (every number is a JSON number, and containers nest fewer
    /// than ``maximumDepth`` levels below `level`, and the stack has room for them); `nil` when it
    /// fails one. Containers found in `kept` passed them when they were kept, and are not walked
    /// again.
    private func checkedHeight(of value: JSONValue, level: Int, kept: EncodingTree.KeptJSON) -> Int? {
        switch value {
        case .null, .bool, .string:
            return 0
        case .number(let text):
            return JSONNumberSyntax.isValid(text) ? 0 : nil
        case .array(let elements):
            return checkedHeight(of: value, children: elements, level: level, kept: kept)
        case .object(let object):
            return checkedHeight(of: value, children: object.lazy.map(\.value), level: level, kept: kept)
        }
    }

    /// ``checkedHeight(of:level:kept:)`` of a container, given its values.
    private func checkedHeight(
        of container: JSONValue, children: some Sequence<JSONValue>, level: Int, kept: EncodingTree.KeptJSON
    ) -> Int? {
        if let keptHeight = Self.keptHeight(of: container, kept: kept) {
            return level + keptHeight <= Self.maximumDepth ? keptHeight : nil
        }
        guard level < Self.maximumDepth else { return nil }
        // Where the stack is nearly spent, the check fails, and `insert(taking:into:key:)`, which
        // copies the JSON instead, refuses it with the stack's error (``checkStack(_:depth:suffix:)``).
        if depth &+ level > Self.unguardedDepth && tree.stackGuard.isExhausted() { return nil }
        var height = 0
        for child in children {
            guard let childHeight = checkedHeight(of: child, level: level + 1, kept: kept) else { return nil }
            height = max(height, childHeight)
        }
        return height + 1
    }

    private static func keptHeight(of value: JSONValue, kept: EncodingTree.KeptJSON) -> Int? {
        guard !kept.heights.isEmpty, let address = value.containerStorage else { return nil }
        return kept.heights[address]
    }

    @inline(never)
    static func hookError<T>(_ error: any Error, value: T, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            .init(
                codingPath: codingPath, debugDescription: "The encoding hook of \(type(of: value)) failed: \(error).",
                underlyingError: error))
    }
}

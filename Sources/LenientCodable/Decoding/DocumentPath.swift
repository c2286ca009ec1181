// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A path to a value inside a document, for `decode(_:from:at:)`: member names split on dots,
/// each optionally followed by array indices (`"data.list"`, `"info[1].time"`, `"[0].items"`).
struct DocumentPath: Sendable, CustomStringConvertible {
    enum Step: Sendable, Equatable {
        case member(String)
        case index(Int)
    }

    let steps: [Step]
    let description: String

    /// Parses a path.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a path that is not one: an empty member name
    ///   (`"a..b"`), an index that is not written in digits alone or is past `Int32.max` (as
    ///   `KeySource` reads indices), a bracket that does not close, or one that was never opened.
    init(_ text: String) throws {
        description = text
        var steps: [Step] = []
        if text.isEmpty {
            self.steps = []
            return
        }
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(segment)
            let name = rest.prefix { $0 != "[" }
            rest = rest.dropFirst(name.count)
            if name.contains("]") { throw DocumentPath.invalid(text, "a bracket that was never opened") }
            if !name.isEmpty {
                steps.append(.member(String(name)))
            } else if rest.isEmpty {
                throw DocumentPath.invalid(text, "an empty member name")
            }
            while !rest.isEmpty {
                if rest.first == "]" { throw DocumentPath.invalid(text, "a bracket that was never opened") }
                guard rest.first == "[", let close = rest.firstIndex(of: "]") else {
                    throw DocumentPath.invalid(text, "a bracket that does not close")
                }
                let digits = rest[rest.index(after: rest.startIndex)..<close]
                // Digits only, in the range `KeySource` reads an index in, so that a path reads the
                // same in both (`[+1]` is no index).
                guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int32(digits)
                else {
                    throw DocumentPath.invalid(
                        text, "an index that is not a whole number from 0 to \(Int32.max): \"\(digits)\"")
                }
                steps.append(.index(Int(index)))
                rest = rest[rest.index(after: close)...]
            }
        }
        self.steps = steps
    }

    private static func invalid(_ text: String, _ problem: String) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(codingPath: [], debugDescription: "The path \"\(text)\" is not a valid path: it has \(problem)."))
    }

    /// The node the path leads to in a tree, and its coding path from the document's root.
    ///
    /// - Throws: `keyNotFound` for a member that is not there, `valueNotFound` for an index past
    ///   the end or a `null` on the way, `typeMismatch` for a step into a value of another kind;
    ///   each with the coding path so far.
    func locate(in tree: JSONTree) throws -> (index: Int, path: CodingPathNode) {
        var index = 0
        var path = CodingPathNode.root
        for step in steps {
            let node = tree[index]
            switch step {
            case .member(let name):
                guard node.kind == .object else { throw mismatch(node, expected: [String: Any].self, at: path) }
                var found: Int?
                var keyIndex = index + 1
                while keyIndex < node.containerEnd {
                    if tree.string(at: keyIndex) == name {
                        found = keyIndex + 1
                        break
                    }
                    keyIndex = tree.next(after: keyIndex + 1)
                }
                let key = MemberKey(name)
                guard let found else {
                    throw DecodingError.keyNotFound(
                        key,
                        .init(
                            codingPath: path.path,
                            debugDescription: "No value for \"\(name)\" on the path \"\(description)\"."))
                }
                index = found
                path = path.appending(key)
            case .index(let position):
                guard node.kind == .array else { throw mismatch(node, expected: [Any].self, at: path) }
                let count = tree.count(of: index)
                guard position < count else {
                    throw DecodingError.valueNotFound(
                        Any.self,
                        .init(
                            codingPath: path.appending(index: position).path,
                            debugDescription:
                                "No element at index \(position) on the path \"\(description)\": the array has \(count)."
                        ))
                }
                var child = index + 1
                for _ in 0..<position { child = tree.next(after: child) }
                index = child
                path = path.appending(index: position)
            }
        }
        return (index, path)
    }

    private func mismatch(_ node: JSONNode, expected: Any.Type, at path: CodingPathNode) -> DecodingError {
        if node.kind == .null {
            return DecodingError.valueNotFound(
                expected,
                .init(codingPath: path.path, debugDescription: "Found null on the path \"\(description)\"."))
        }
        return DecodingError.typeMismatch(
            expected,
            .init(
                codingPath: path.path,
                debugDescription:
                    "Expected \(expected == [Any].self ? "an array" : "an object") on the path \"\(description)\" but found \(TreeDecoder.describe(node.kind)) instead."
            ))
    }
}

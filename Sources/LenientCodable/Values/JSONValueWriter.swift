// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Writes a ``JSONValue`` as compact JSON text, members in their stored order.
///
/// Used for `description` and to decode a `JSONValue` (built in code, or returned by a hook or a
/// transform) through the ordinary parsing path. It walks the value with a stack of its own, not
/// by recursion, so a value nested a million levels deep costs heap, never the thread's stack.
enum JSONValueWriter {
    /// Why a value cannot be written as JSON text.
    struct Failure: Error, CustomStringConvertible {
        enum Problem: Equatable {
            /// Arrays and objects nest deeper than the limit.
            case tooDeep(limit: Int)
            /// A `.number` whose text is not a JSON number: written as it is, it would inject
            /// other JSON (`1,"isAdmin":true`).
            case notANumber(String)
        }

        let problem: Problem
        /// Where the offending value is, from the value written.
        let codingPath: [any CodingKey]

        var description: String {
            let place = codingPath.isEmpty ? "at the top" : "at \(JSONValueWriter.render(codingPath))"
            switch problem {
            case .tooDeep(let limit):
                return "arrays and objects are nested more than \(limit) levels deep \(place)"
            case .notANumber(let text):
                return "the number text \"\(text)\" \(place) is not a JSON number"
            }
        }
    }

    /// The value as text, for `description`. Never fails: number text that is not a JSON number
    /// is written as a string, so that the text is always JSON.
    static func compactUTF8(_ value: JSONValue) -> [UInt8] {
        var walker = Walker(maxDepth: .max, nonFiniteNames: false, quotesInvalidNumbers: true)
        // With no depth limit and invalid numbers quoted, nothing can fail.
        try? walker.write(value)
        return walker.writer.bytes
    }

    /// The value as text to be parsed again, checked: containers may nest `maxDepth` levels (the
    /// top container is level 1, as in the parser), and every `.number` must be a JSON number.
    ///
    /// - Parameter allowsNonFiniteNames: Whether `NaN`, `Infinity` and `-Infinity` pass as
    ///   numbers: they do for a JSON5 document, whose values keep those names.
    static func compactUTF8(
        _ value: JSONValue, maxDepth: Int, allowsNonFiniteNames: Bool = false
    ) throws(Failure) -> [UInt8] {
        var walker = Walker(maxDepth: maxDepth, nonFiniteNames: allowsNonFiniteNames, quotesInvalidNumbers: false)
        try walker.write(value)
        return walker.writer.bytes
    }

    /// A coding path as the report writes it: `items[2].name`.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    private struct Walker {
        /// One open container: its members and the position of the next one to write.
        enum Frame {
            case array([JSONValue], next: Int)
            case object(JSONObject, next: Int)
        }

        var writer = JSONWriter(formatting: [.withoutEscapingSlashes], capacity: 64)
        var stack: [Frame] = []
        let maxDepth: Int
        let nonFiniteNames: Bool
        let quotesInvalidNumbers: Bool

        init(maxDepth: Int, nonFiniteNames: Bool, quotesInvalidNumbers: Bool) {
            self.maxDepth = maxDepth
            self.nonFiniteNames = nonFiniteNames
            self.quotesInvalidNumbers = quotesInvalidNumbers
        }

        mutating func write(_ root: JSONValue) throws(Failure) {
            try begin(root)
            while let top = stack.popLast() {
                switch top {
                case .array(let elements, let next):
                    guard next < elements.count else {
                        writer.buffer.append(UInt8(ascii: "]"))
                        continue
                    }
                    if next > 0 { writer.buffer.append(UInt8(ascii: ",")) }
                    stack.append(.array(elements, next: next + 1))
                    try begin(elements[next])
                case .object(let object, let next):
                    guard next < object.count else {
                        writer.buffer.append(UInt8(ascii: "}"))
                        continue
                    }
                    if next > 0 { writer.buffer.append(UInt8(ascii: ",")) }
                    stack.append(.object(object, next: next + 1))
                    let member = object[next]
                    writer.writeKey(member.key)
                    try begin(member.value)
                }
            }
        }

        /// Writes a scalar, or opens a container and pushes it.
        private mutating func begin(_ value: JSONValue) throws(Failure) {
            switch value {
            case .null: writer.writeNull()
            case .bool(let flag): writer.writeBool(flag)
            case .string(let text): writer.writeString(text)
            case .number(let text):
                if JSONNumberSyntax.isValid(text) || (nonFiniteNames && Self.isNonFiniteName(text)) {
                    writer.writeLiteral(text)
                } else if quotesInvalidNumbers {
                    writer.writeString(text)
                } else {
                    throw Failure(problem: .notANumber(text), codingPath: path())
                }
            case .array(let elements):
                try checkDepth()
                writer.buffer.append(UInt8(ascii: "["))
                stack.append(.array(elements, next: 0))
            case .object(let object):
                try checkDepth()
                writer.buffer.append(UInt8(ascii: "{"))
                stack.append(.object(object, next: 0))
            }
        }

        private func checkDepth() throws(Failure) {
            // The container about to open is at level `stack.count + 1`.
            guard stack.count < maxDepth else {
                throw Failure(problem: .tooDeep(limit: maxDepth), codingPath: path())
            }
        }

        /// The path to the value being written: each open container's current member. Built
        /// only for an error.
        private func path() -> [any CodingKey] {
            stack.map { frame -> any CodingKey in
                switch frame {
                case .array(_, let next): IndexCodingKey(next - 1)
                case .object(let object, let next): DictionaryCodingKey(object[next - 1].key, hasIntValue: false)
                }
            }
        }

        private static func isNonFiniteName(_ text: String) -> Bool {
            text == "NaN" || text == "Infinity" || text == "-Infinity"
        }
    }
}

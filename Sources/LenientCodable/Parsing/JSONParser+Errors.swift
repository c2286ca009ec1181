// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONParser {
    /// Where the parser is, in words, for messages: "in array", "in object", "at the top level".
    var context: String {
        guard openContainer >= 0 else { return "at the top level" }
        return nodes[openContainer].kind == .object ? "in object" : "in array"
    }

    @inline(never)
    func makeError(_ code: JSONParseError.Code, at offset: Int, _ message: String) -> JSONParseError {
        // An error the parser keeps for later is caught at once: no position (see ``isDeferringErrors``).
        guard !isDeferringErrors else {
            return JSONParseError(code: code, line: 0, column: 0, byteOffset: offset, message: message)
        }
        let (line, column) =
            lineIndex?.lineAndColumn(of: offset, in: input) ?? JSONParser.lineAndColumn(of: offset, in: input)
        return JSONParseError(code: code, line: line, column: column, byteOffset: offset, message: message)
    }

    /// " around line 3, column 12", for the end of a message.
    func positionSuffix(_ offset: Int) -> String {
        guard !isDeferringErrors else { return "" }
        let (line, column) =
            lineIndex?.lineAndColumn(of: offset, in: input) ?? JSONParser.lineAndColumn(of: offset, in: input)
        return " around line \(line), column \(column)"
    }

    @inline(never)
    func unexpectedCharacter(
        at offset: Int? = nil, context explicitContext: String? = nil, expected: String? = nil,
        code: JSONParseError.Code = .unexpectedCharacter
    ) -> JSONParseError {
        let offset = offset ?? position
        let found = JSONParser.describeCharacter(at: offset, in: input)
        let expectation = expected.map { ", expected \($0)," } ?? ""
        return makeError(
            code, at: offset,
            "Unexpected character \(found) \(explicitContext ?? context)\(expectation)\(positionSuffix(offset)).")
    }

    @inline(never)
    func unterminatedString() -> JSONParseError {
        makeError(.unexpectedEndOfInput, at: position, "Unterminated string starting\(positionSuffix(position)).")
    }

    @inline(never)
    func controlCharacterInString(at offset: Int) -> JSONParseError {
        let character = JSONParser.describeScalar(UInt32(input[offset]))
        return makeError(
            .controlCharacterInString, at: offset,
            "Unescaped control character \(character) in string\(positionSuffix(offset)).")
    }

    @inline(never)
    func unexpectedEnd() -> JSONParseError {
        makeError(.unexpectedEndOfInput, at: count, "Unexpected end of input \(context)\(positionSuffix(count)).")
    }

    @inline(never)
    func invalidNumber(from start: Int, to end: Int) -> JSONParseError {
        let text = String(decoding: input[start..<min(end, count)], as: UTF8.self)
        return makeError(.invalidNumber, at: start, "Invalid number '\(text)' \(context)\(positionSuffix(start)).")
    }

    @inline(never)
    func invalidEscape(at offset: Int) -> JSONParseError {
        let escaped = offset + 1 < count ? JSONParser.describeCharacter(at: offset + 1, in: input) : "end of input"
        return makeError(.invalidEscape, at: offset, "Invalid escape of \(escaped) in string\(positionSuffix(offset)).")
    }

    @inline(never)
    func invalidUnicodeEscape(at offset: Int, _ problem: String) -> JSONParseError {
        let text = String(decoding: input[offset..<min(offset + 12, count)], as: UTF8.self)
        return makeError(
            .invalidUnicodeEscape, at: offset, "\(problem) in '\(text)' in string\(positionSuffix(offset)).")
    }

    @inline(never)
    func invalidUTF8(at offset: Int) -> JSONParseError {
        let hex = String(input[offset], radix: 16, uppercase: true)
        return makeError(.invalidUTF8, at: offset, "Invalid UTF-8 byte 0x\(hex) in string\(positionSuffix(offset)).")
    }

    /// Describes the character at an offset: `','` for printable ASCII, `U+000A` for the rest.
    static func describeCharacter(at offset: Int, in input: UnsafeBufferPointer<UInt8>) -> String {
        guard offset < input.count else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return describeScalar(UInt32(byte)) }
        // Decode the scalar when the bytes are valid UTF-8, for a readable message.
        var iterator = input[offset..<min(offset + 4, input.count)].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return "'\(Character(scalar))' (\(describeScalar(scalar.value)))"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// The 1-based line and column of a byte offset; columns count Unicode scalars.
    ///
    /// Computed only when an error is thrown, so that parsing never tracks lines.
    static func lineAndColumn(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        let position = TextPosition().advanced(to: offset, in: input)
        return (position.line, position.column)
    }

    /// A place in the input as ``lineAndColumn(of:in:)`` counts it.
    struct TextPosition {
        var index = 0
        var line = 1
        var column = 1

        /// This position moved on to `offset` (or the end of the input). A CR LF pair is one
        /// line break, taken whole even where `offset` falls between its bytes, so that moving
        /// on from any position this returned gives what moving on from the start gives.
        /// `input` is read during the call only: the parser or the node storage that hands it
        /// over holds it meanwhile.
        func advanced(to offset: Int, in input: UnsafeBufferPointer<UInt8>) -> TextPosition {
            var position = self
            let end = min(offset, input.count)
            while position.index < end {
                let byte = input[position.index]
                if byte == UInt8(ascii: "\n") {
                    position.line += 1
                    position.column = 1
                } else if byte == UInt8(ascii: "\r") {
                    if position.index + 1 < input.count && input[position.index + 1] == UInt8(ascii: "\n") {
                        position.index += 1
                    }
                    position.line += 1
                    position.column = 1
                } else if byte >= 0x80 {
                    // One column a character, as `String(decoding:)` reads the bytes: a well-formed
                    // sequence, or the longest start of one, or any other byte alone, each one
                    // U+FFFD (stray continuation bytes are three characters, `80 80 80`). Taken
                    // whole, as a CR LF pair is.
                    position.column += 1
                    position.index += TextPosition.characterLength(at: position.index, in: input)
                    continue
                } else {
                    position.column += 1
                }
                position.index += 1
            }
            return position
        }

        /// The number of bytes of the character at `index` as `String(decoding:as:)` reads
        /// them: a well-formed UTF-8 sequence, the longest valid start of one (the maximal
        /// subpart that becomes one U+FFFD), or one byte. `input` is read during the call only:
        /// the parser, or the node storage that keeps a tree's input for a decoder kept past its
        /// decode (``advanced(to:in:)``'s caller), holds it meanwhile.
        static func characterLength(at index: Int, in input: UnsafeBufferPointer<UInt8>) -> Int {
            guard let sequence = JSONParser.utf8Sequence(leadBy: input[index]) else { return 1 }
            var (low, high) = (sequence.lowerBound, sequence.upperBound)
            var taken = 1
            while taken < sequence.length, index + taken < input.count {
                let byte = input[index + taken]
                guard byte >= low && byte <= high else { break }
                (low, high) = (0x80, 0xBF)
                taken += 1
            }
            return taken
        }
    }
}

/// The line and column of many byte offsets in one input, for the errors of the values a
/// ``JSONParser/Options/defersValueErrors`` parse kept for later: a position is recorded every
/// KiB in one pass, on the first error, so that each error counts at most 1 KiB of text,
/// and a document with an invalid value in every element costs time linear in its size.
/// It holds positions only, no pointer: each lookup is handed the input.
final class LineIndex {
    private static let stride = 1024
    /// The positions at the first index on or after each multiple of ``stride``, in order.
    private let checkpoints: [JSONParser.TextPosition]
    /// The last lookup: an error's message and its fields ask for the same offset.
    private var last: (offset: Int, line: Int, column: Int)?

    /// Reads `input` during the call only; the node storage that owns it calls this.
    init(input: UnsafeBufferPointer<UInt8>) {
        var checkpoints = [JSONParser.TextPosition()]
        var boundary = LineIndex.stride
        while boundary < input.count {
            checkpoints.append(checkpoints[checkpoints.count - 1].advanced(to: boundary, in: input))
            boundary = max(boundary + LineIndex.stride, checkpoints[checkpoints.count - 1].index + 1)
        }
        self.checkpoints = checkpoints
    }

    /// The line and column of `offset` in `input`, the bytes (or a copy of the bytes) the index
    /// was built from, read during the call only: the parser that asks holds them through its tree.
    func lineAndColumn(of offset: Int, in input: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        if let last, last.offset == offset { return (last.line, last.column) }
        // The last checkpoint at or before the offset.
        var low = 0
        var high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].index <= offset { low = middle } else { high = middle - 1 }
        }
        let position = checkpoints[low].advanced(to: offset, in: input)
        last = (offset, position.line, position.column)
        return (position.line, position.column)
    }
}

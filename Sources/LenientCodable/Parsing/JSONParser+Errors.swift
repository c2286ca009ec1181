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
        let (line, column) = JSONParser.lineAndColumn(of: offset, in: input)
        return JSONParseError(code: code, line: line, column: column, byteOffset: offset, message: message)
    }

    /// " around line 3, column 12", for the end of a message.
    func positionSuffix(_ offset: Int) -> String {
        let (line, column) = JSONParser.lineAndColumn(of: offset, in: input)
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
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, input.count)
        while index < end {
            let byte = input[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                if index + 1 < end && input[index + 1] == UInt8(ascii: "\n") { index += 1 }
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}

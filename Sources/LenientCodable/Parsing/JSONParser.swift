// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Parses UTF-8 JSON into a ``JSONTree`` in one pass.
///
/// By default it accepts exactly the grammar of RFC 8259: it validates every string (escapes,
/// UTF-8, control characters) and every number, even those a model never reads, so that a
/// document is either all valid or refused with the position of its first error. Options add
/// trailing commas, and JSON5 as Foundation's `JSONDecoder` accepts it.
///
/// The parser is iterative: nesting costs no call frame and no memory beyond the container's own
/// node (an open container's `end` links to the container around it until it closes), and is
/// limited to 512 levels as in Foundation.
struct JSONParser {
    struct Options {
        var allowsJSON5 = false
        var allowsTrailingCommas = false
        var assumesTopLevelDictionary = false
        /// Whether a string value (not a key) or number whose text is not valid JSON is kept as
        /// an ``JSONNode/Kind/invalid`` node instead of failing the document, as Foundation's
        /// `JSONDecoder` validates a value only when it is read. Not with JSON5.
        var defersValueErrors = false
        /// How many levels of arrays and objects the document may nest: 512, as in Foundation,
        /// less the levels that enclose it when it is the text of a value inside another document.
        var maximumDepth = JSONParser.maximumDepth
    }

    static let maximumDepth = 512

    let input: UnsafeBufferPointer<UInt8>
    let count: Int
    let options: Options
    var position = 0
    var nodes: NodeStorage
    /// The innermost open container, or -1 at the top level. Each open container's node keeps
    /// the index of the one around it, plus one, in its `end` until it closes: the open
    /// containers form a list through the nodes, and a document needs no stack of its own.
    var openContainer = -1
    /// How many containers are open.
    var depth = 0
    /// Whether node 0 is JSON5's brace-less top-level object.
    var hasImplicitTopLevelObject = false
    /// Whether the value being scanned keeps its error for later (``Options/defersValueErrors``):
    /// an error built then is caught at once, so it skips the line and column, which cost a
    /// scan of the input up to it.
    var isDeferringErrors = false
    /// Where errors look up their line and column when many are built for one input (see ``LineIndex``).
    var lineIndex: LineIndex?

    private init(input: UnsafeBufferPointer<UInt8>, options: Options, capacity: Int? = nil) {
        self.input = input
        self.count = input.count
        self.options = options
        // Most documents need about one node per 6 to 12 bytes. A small one starts with room for
        // one per 5 bytes, so that it never grows, which would cost a copy as large as its tree;
        // a large one starts near the low end, so that its tree is not twice the size it needs.
        let estimate = input.count < 64 * 1024 ? input.count / 5 : input.count / 12
        self.nodes = NodeStorage(capacity: capacity ?? estimate, input: input)
    }

    /// The error that an ``JSONNode/Kind/invalid`` node of a tree parsed from `input`, whose
    /// text is `length` bytes, stands for: what parsing its text without deferring errors
    /// reports, with its line and column. `input` is the tree's, which the caller holds for the
    /// call (``JSONTree/deferredError(at:)``); a tree kept past its decode owns a copy of it.
    static func deferredError(
        of node: JSONNode, length: Int, in input: UnsafeBufferPointer<UInt8>, lines: LineIndex
    ) -> JSONParseError {
        var parser = JSONParser(input: input, options: Options(), capacity: 1)
        parser.lineIndex = lines
        if node.has(JSONNode.wasString) {
            parser.position = node.offset - 1
            do {
                try parser.parseString(quote: UInt8(ascii: "\""), isKey: false)
            } catch let error as JSONParseError {
                return error
            } catch {
                // The parser throws nothing else.
            }
        }
        // A number's message quotes all of its text, not what the grammar read before failing.
        let text = String(decoding: input[node.offset..<node.offset + length], as: UTF8.self)
        let what = node.has(JSONNode.wasString) ? "string" : "number"
        return parser.makeError(
            node.has(JSONNode.wasString) ? .unexpectedCharacter : .invalidNumber, at: node.offset,
            "Invalid \(what) '\(text)'\(parser.positionSuffix(node.offset)).")
    }

    static func parse(_ input: UnsafeBufferPointer<UInt8>, options: Options) throws -> JSONTree {
        var parser = JSONParser(input: input, options: options)
        try parser.parseDocument()
        return JSONTree(nodes: parser.nodes, isJSON5: options.allowsJSON5)
    }

    @inline(__always)
    func byte(at offset: Int) -> UInt8 { input[offset] }

    @inline(__always)
    var atEnd: Bool { position >= count }

    // MARK: Document

    private mutating func parseDocument() throws {
        guard count < Int(UInt32.max) else {
            throw makeError(
                .inputTooLarge, at: 0, "The document is 4 GiB or larger, which is more than the parser accepts.")
        }
        try skipWhitespace()
        if options.assumesTopLevelDictionary && atEnd {
            // Foundation reads an empty or blank document as `{}` when it assumes a dictionary.
            finish(appendContainer(.object))
            return
        }
        guard !atEnd else {
            throw makeError(
                .emptyInput, at: position,
                "The input holds no JSON value; it is empty or only white space\(positionSuffix(position)).")
        }
        // With or without JSON5, as in Foundation: `"x": 42` is the object `{"x": 42}`.
        if options.assumesTopLevelDictionary && byte(at: position) != UInt8(ascii: "{") {
            try parseImplicitTopLevelObject()
        } else {
            try parseValueTree()
        }
        try skipWhitespace()
        if !atEnd && absorbsInvalidNumberTail() { try skipWhitespace() }
        if !atEnd {
            throw unexpectedCharacter(context: "after the top-level value", code: .trailingContent)
        }
    }

    /// Parses JSON5's `a: 1, b: 2` as the object `{a: 1, b: 2}`.
    private mutating func parseImplicitTopLevelObject() throws {
        let object = appendContainer(.object)
        open(object)
        hasImplicitTopLevelObject = true
        try parseMemberKey()
        try parseValueTree()
        // `parseValueTree` returns with the implicit object still open when the input ends.
        openContainer = -1
        depth = 0
        finish(object)
    }

    // MARK: Values

    /// Parses one value, with everything nested in it, at the current position.
    ///
    /// On return the value is complete and the position is just past it. When called with an
    /// implicit top-level object open, it returns at the end of the input with that object open.
    private mutating func parseValueTree() throws {
        let allowsTrailingCommas = options.allowsTrailingCommas || options.allowsJSON5
        parseValue: while true {
            guard !atEnd else { throw unexpectedEnd() }
            let current = byte(at: position)
            switch current {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < options.maximumDepth else {
                    throw makeError(
                        .tooDeeplyNested, at: position,
                        "Too many nested arrays and objects (the limit is \(JSONParser.maximumDepth) for the whole document)\(positionSuffix(position))."
                    )
                }
                let isObject = current == UInt8(ascii: "{")
                open(appendContainer(isObject ? .object : .array))
                position += 1
                try skipWhitespace()
                let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if !atEnd && byte(at: position) == closing {
                    position += 1
                    closeContainer()
                } else if isObject {
                    try parseMemberKey()
                    continue parseValue
                } else {
                    continue parseValue
                }
            case UInt8(ascii: "\""):
                try parseString(quote: UInt8(ascii: "\""), isKey: false)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if options.allowsJSON5 { try parseNumberJSON5() } else { try parseNumber() }
            case UInt8(ascii: "t"):
                try parseLiteral("true", kind: .true)
            case UInt8(ascii: "f"):
                try parseLiteral("false", kind: .false)
            case UInt8(ascii: "n"):
                try parseLiteral("null", kind: .null)
            case UInt8(ascii: "'") where options.allowsJSON5:
                try parseSingleQuotedString()
            case UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "I"), UInt8(ascii: "N"):
                guard options.allowsJSON5 else { throw unexpectedCharacter() }
                try parseNumberJSON5()
            default:
                throw unexpectedCharacter()
            }

            // A value is complete: count it in its container, then read what follows it.
            afterValue: while true {
                let container = openContainer
                guard container >= 0 else { return }
                nodes.countElement(at: container)
                try skipWhitespace()
                // JSON5's brace-less top-level object ends with the input, not with a brace.
                let isImplicit = container == 0 && hasImplicitTopLevelObject
                if atEnd {
                    if isImplicit { return }
                    throw unexpectedEnd()
                }
                let isObject = nodes[container].kind == .object
                let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let separator = byte(at: position)
                if separator == UInt8(ascii: ",") {
                    position += 1
                    try skipWhitespace()
                    if allowsTrailingCommas {
                        if isImplicit && atEnd { return }
                        if !isImplicit && !atEnd && byte(at: position) == closing {
                            position += 1
                            closeContainer()
                            continue afterValue
                        }
                    }
                    if isObject { try parseMemberKey() }
                    continue parseValue
                } else if separator == closing && !isImplicit {
                    position += 1
                    closeContainer()
                    continue afterValue
                } else if absorbsInvalidNumberTail() {
                    // The same value, now whole: look at what follows it, counting it once.
                    nodes.uncountElement(at: container)
                    continue afterValue
                } else {
                    throw unexpectedCharacter()
                }
            }
        }
    }

    /// Appends the node of a string, number or literal whose text is `length` bytes at `offset`.
    @inline(__always)
    mutating func appendScalar(_ kind: JSONNode.Kind, flags: UInt8 = 0, offset: Int, length: Int) {
        if _fastPath(length < JSONNode.saturated) {
            nodes.append(JSONNode(scalar: kind, flags: flags, depth: depth, shortLength: length, offset: offset))
        } else {
            nodes.append(
                JSONNode(scalar: kind, flags: flags, depth: depth, shortLength: JSONNode.saturated, offset: offset))
            nodes.recordLongText(at: offset, length: length)
        }
    }

    /// Appends the node of an array or object with no elements yet, and returns its index.
    @inline(__always)
    private mutating func appendContainer(_ kind: JSONNode.Kind) -> Int {
        let index = nodes.count
        nodes.append(JSONNode(container: kind, depth: depth, link: 0))
        return index
    }

    /// Makes the container just appended the innermost open one.
    @inline(__always)
    private mutating func open(_ container: Int) {
        nodes[container].position = UInt32(truncatingIfNeeded: openContainer &+ 1)
        openContainer = container
        depth &+= 1
    }

    /// Closes the innermost open container: its end becomes the index past its last node.
    @inline(__always)
    private mutating func closeContainer() {
        let container = openContainer
        openContainer = Int(nodes[container].position) &- 1
        depth &-= 1
        finish(container)
    }

    /// Records a container's end, the index past its last node, and its element count if its
    /// node could not count that far.
    @inline(__always)
    private mutating func finish(_ container: Int) {
        nodes[container].position = UInt32(truncatingIfNeeded: nodes.count)
        if nodes[container].shortLength == JSONNode.saturated { nodes.recordLargeCount(at: container) }
    }

    /// Parses an object member's key and the colon after it, leaving the position at the value.
    private mutating func parseMemberKey() throws {
        guard !atEnd else { throw unexpectedEnd() }
        let current = byte(at: position)
        if current == UInt8(ascii: "\"") {
            try parseString(quote: UInt8(ascii: "\""), isKey: true)
        } else if current == UInt8(ascii: "'") && options.allowsJSON5 {
            try parseSingleQuotedString()
        } else if options.allowsJSON5 && JSONParser.isIdentifierStart(current) {
            try parseIdentifier()
        } else {
            throw unexpectedCharacter(expected: "a key")
        }
        // The colon usually follows the key at once.
        if _slowPath(atEnd || byte(at: position) != UInt8(ascii: ":")) {
            try skipWhitespace()
            guard !atEnd else { throw unexpectedEnd() }
            guard byte(at: position) == UInt8(ascii: ":") else {
                throw unexpectedCharacter(expected: "':' after a key")
            }
        }
        position &+= 1
        try skipWhitespace()
    }

    /// Parses JSON5's single-quoted string at the current position.
    @inline(never)
    private mutating func parseSingleQuotedString() throws {
        try parseStringSlowPath(quote: UInt8(ascii: "'"), start: position + 1, from: position + 1, isKey: false)
    }

    private mutating func parseLiteral(_ literal: StaticString, kind: JSONNode.Kind) throws {
        let length = literal.utf8CodeUnitCount
        if position + length <= count, memoryEquals(literal.utf8Start, input.baseAddress! + position, length) {
            appendScalar(kind, offset: position, length: length)
            position += length
            return
        }
        // Not the literal: find the first byte that differs, for the error.
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
        var index = 0
        while index < length {
            guard position + index < count else { throw unexpectedEnd() }
            guard byte(at: position + index) == expected[index] else {
                throw unexpectedCharacter(at: position + index)
            }
            index += 1
        }
        appendScalar(kind, offset: position, length: length)
        position += length
    }

    // MARK: White space and comments

    @inline(__always)
    private mutating func skipWhitespace() throws {
        // Most places hold no white space at all, or one space (after a colon or a comma): a
        // comparison or two, inlined.
        if position < count && !options.allowsJSON5 {
            let current = byte(at: position)
            if current > UInt8(ascii: " ") { return }
            if current == UInt8(ascii: " ") && position &+ 1 < count && byte(at: position &+ 1) > UInt8(ascii: " ") {
                position &+= 1
                return
            }
        }
        try skipWhitespaceRun()
    }

    /// Skips white space. After each white-space byte, the spaces that follow (indentation, or
    /// the space after a colon) are counted eight bytes at a time.
    @inline(__always)
    private mutating func skipWhitespaceRun() throws {
        guard let base = input.baseAddress else { return }
        let spaces: UInt64 = 0x2020_2020_2020_2020
        while position < count {
            switch base[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                position += 1
                while position + 8 <= count {
                    // Zero bytes of the XOR are spaces; the lowest nonzero byte ends the run.
                    let others =
                        UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)) ^ spaces
                    if others != 0 {
                        position += others.trailingZeroBitCount >> 3
                        break
                    }
                    position += 8
                }
            default:
                if options.allowsJSON5 {
                    try skipWhitespaceJSON5SlowPath()
                }
                return
            }
        }
    }

    /// Skips JSON5's further white space (vertical tab, form feed, no-break space, line and
    /// paragraph separators, byte order mark) and comments.
    private mutating func skipWhitespaceJSON5SlowPath() throws {
        while position < count {
            let current = byte(at: position)
            switch current {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), 0x0B, 0x0C:
                position += 1
            case 0xC2 where position + 1 < count && byte(at: position + 1) == 0xA0:
                position += 2
            case 0xE2
            where position + 2 < count && byte(at: position + 1) == 0x80
                && (byte(at: position + 2) == 0xA8 || byte(at: position + 2) == 0xA9):
                position += 3
            case 0xEF where position + 2 < count && byte(at: position + 1) == 0xBB && byte(at: position + 2) == 0xBF:
                position += 3
            case UInt8(ascii: "/") where position + 1 < count && byte(at: position + 1) == UInt8(ascii: "/"):
                position += 2
                while position < count && byte(at: position) != UInt8(ascii: "\n")
                    && byte(at: position) != UInt8(ascii: "\r")
                {
                    position += 1
                }
            case UInt8(ascii: "/") where position + 1 < count && byte(at: position + 1) == UInt8(ascii: "*"):
                let start = position
                position += 2
                while true {
                    guard position + 1 < count else {
                        throw makeError(
                            .unexpectedEndOfInput, at: start, "Unterminated comment\(positionSuffix(start)).")
                    }
                    if byte(at: position) == UInt8(ascii: "*") && byte(at: position + 1) == UInt8(ascii: "/") {
                        position += 2
                        break
                    }
                    position += 1
                }
            default:
                return
            }
        }
    }

    // MARK: Strings

    /// Parses a string that starts with `quote` at the current position, validating its
    /// escapes and UTF-8 but keeping it as a range of the input.
    ///
    /// Inlined where strings are met (keys and values), with the quote a constant there: most
    /// strings are printable ASCII that the word-at-a-time scan crosses in one or two steps up
    /// to the closing quote. Anything else (an escape, non-ASCII text, a control character, the
    /// last bytes of the input) goes on out of line.
    @inline(__always)
    private mutating func parseString(quote: UInt8, isKey: Bool) throws {
        let start = position &+ 1
        let index = JSONParser.skipPlainASCII(in: input, from: start, quote: quote)
        if _fastPath(index < count && input[index] == quote && quote == UInt8(ascii: "\"")) {
            appendScalar(.string, offset: start, length: index &- start)
            position = index &+ 1
            return
        }
        try parseStringSlowPath(quote: quote, start: start, from: index, isKey: isKey)
    }

    /// The rest of ``parseString(quote:isKey:)``, from `index`, the first byte its scan did not
    /// cross. A value's invalid text is kept for later when ``Options/defersValueErrors`` says so.
    @inline(never)
    private mutating func parseStringSlowPath(quote: UInt8, start: Int, from scanned: Int, isKey: Bool) throws {
        guard options.defersValueErrors && !isKey && quote == UInt8(ascii: "\"") else {
            return try scanStringRest(quote: quote, start: start, from: scanned)
        }
        isDeferringErrors = true
        do {
            try scanStringRest(quote: quote, start: start, from: scanned)
            isDeferringErrors = false
        } catch {
            isDeferringErrors = false
            try skipInvalidString(start: start)
        }
    }

    /// Crosses a string whose text is not valid JSON as Foundation's scanner does: up to the
    /// first quote that no backslash escapes, a backslash and the byte after it taken as a pair,
    /// and keeps it as an ``JSONNode/Kind/invalid`` node. A string that never ends still fails.
    @inline(never)
    private mutating func skipInvalidString(start: Int) throws {
        var index = start
        while index < count {
            let current = input[index]
            if current == UInt8(ascii: "\"") {
                nodes.recordInvalidNode(at: nodes.count)
                appendScalar(.invalid, flags: JSONNode.wasString, offset: start, length: index - start)
                position = index + 1
                return
            }
            guard current == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            // Foundation's scanner takes `\u` and the four bytes after it, which must be there
            // and hold no quote; any other escape is a pair.
            guard index + 1 < count else { break }
            guard input[index + 1] == UInt8(ascii: "u") else {
                index += 2
                continue
            }
            guard index + 6 <= count else { break }
            if input[(index + 2)..<(index + 6)].contains(UInt8(ascii: "\"")) {
                throw invalidUnicodeEscape(at: index, "Invalid unicode escape")
            }
            index += 6
        }
        throw unterminatedString()
    }

    /// Whether the value just parsed is a number whose text goes on with what Foundation's
    /// scanner reads as more of it (`1.5.`, `1-2`, `1e5e5`): with ``Options/defersValueErrors``,
    /// its node becomes ``JSONNode/Kind/invalid`` over the whole run, which the position moves
    /// past. Only asked where the byte after a value is not one that may follow it.
    @inline(never)
    private mutating func absorbsInvalidNumberTail() -> Bool {
        guard options.defersValueErrors, nodes.count > 0 else { return false }
        let last = nodes.count - 1
        let node = nodes[last]
        guard node.kind == .number, !node.has(JSONNode.json5) else { return false }
        let start = node.offset
        // The number must end right here: no white space between it and this byte.
        let written = node.shortLength < JSONNode.saturated ? node.shortLength : nodes.longTextLength(at: start)
        guard start + written == position else { return false }
        var index = position
        while index < count, JSONParser.isNumberByte(input[index]) { index += 1 }
        guard index > position else { return false }
        let length = index - start
        if length < JSONNode.saturated {
            nodes[last] = JSONNode(scalar: .invalid, flags: 0, depth: node.depth, shortLength: length, offset: start)
        } else {
            nodes[last] = JSONNode(
                scalar: .invalid, flags: 0, depth: node.depth, shortLength: JSONNode.saturated, offset: start)
            nodes.recordLongText(at: start, length: length)
        }
        nodes.recordInvalidNode(at: last)
        position = index
        return true
    }

    /// Scans the rest of a string, validating it, and appends its node.
    @inline(__always)
    private mutating func scanStringRest(quote: UInt8, start: Int, from scanned: Int) throws {
        var index = scanned
        var flags: UInt8 = quote == UInt8(ascii: "'") ? JSONNode.json5 : 0
        while true {
            while index < count {
                let current = input[index]
                if current == quote || current == UInt8(ascii: "\\") || current < 0x20 || current >= 0x80 { break }
                index += 1
            }
            guard index < count else { throw unterminatedString() }
            let current = input[index]
            if current == quote { break }
            if current == UInt8(ascii: "\\") {
                flags |= JSONNode.hasEscapes
                index = try validateEscape(at: index)
            } else if current >= 0x80 {
                flags |= JSONNode.beyondASCII
                index = try skipNonASCII(from: index)
            } else {
                throw controlCharacterInString(at: index)
            }
            // The common case again: printable ASCII that needs no attention, eight bytes at a time.
            index = JSONParser.skipPlainASCII(in: input, from: index, quote: quote)
        }
        appendScalar(.string, flags: flags, offset: start, length: index - start)
        position = index + 1
    }

    /// Validates the escape at `index` (a backslash) and returns the index just past it.
    private func validateEscape(at index: Int) throws -> Int {
        guard index + 1 < count else {
            throw makeError(.unexpectedEndOfInput, at: index, "Unterminated string\(positionSuffix(index)).")
        }
        let escaped = input[index + 1]
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            let unit = try readHexQuad(at: index + 2, escapeStart: index)
            switch unit {
            case 0xD800...0xDBFF:
                guard index + 7 < count, input[index + 6] == UInt8(ascii: "\\"), input[index + 7] == UInt8(ascii: "u")
                else {
                    throw invalidUnicodeEscape(at: index, "Unpaired high surrogate")
                }
                let low = try readHexQuad(at: index + 8, escapeStart: index + 6)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw invalidUnicodeEscape(at: index, "Unpaired high surrogate")
                }
                return index + 12
            case 0xDC00...0xDFFF:
                throw invalidUnicodeEscape(at: index, "Unpaired low surrogate")
            case 0 where options.allowsJSON5:
                // Foundation's JSON5 mode refuses a NUL character however it is escaped.
                throw invalidUnicodeEscape(at: index, "NUL character")
            default:
                return index + 6
            }
        default:
            guard options.allowsJSON5 else { throw invalidEscape(at: index) }
            return try validateEscapeJSON5(at: index)
        }
    }

    /// JSON5's further escapes: `\'`, `\v`, `\0`, `\xHH`, escaped line breaks, and any other
    /// character but a digit standing for itself.
    private func validateEscapeJSON5(at index: Int) throws -> Int {
        let escaped = input[index + 1]
        switch escaped {
        case UInt8(ascii: "x"):
            guard index + 3 < count, let high = JSONParser.hexValue(input[index + 2]),
                let low = JSONParser.hexValue(input[index + 3]),
                // Foundation refuses a NUL character however it is escaped: `\x00`, `\0`, `\u0000`.
                high | low != 0
            else {
                throw invalidEscape(at: index)
            }
            return index + 4
        case UInt8(ascii: "0"):
            throw invalidEscape(at: index)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            throw invalidEscape(at: index)
        case UInt8(ascii: "\r"):
            if index + 2 < count && input[index + 2] == UInt8(ascii: "\n") { return index + 3 }
            return index + 2
        case 0x80...:
            return try validateUTF8Sequence(at: index + 1)
        case 0x00..<0x20 where escaped != UInt8(ascii: "\n"):
            throw invalidEscape(at: index)
        default:
            return index + 2
        }
    }

    private func readHexQuad(at index: Int, escapeStart: Int) throws -> UInt32 {
        guard index + 4 <= count else {
            throw makeError(
                .unexpectedEndOfInput, at: escapeStart, "Unterminated unicode escape\(positionSuffix(escapeStart)).")
        }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = JSONParser.hexValue(input[index + offset]) else {
                throw invalidUnicodeEscape(at: escapeStart, "Invalid unicode escape")
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Validates the run of non-ASCII characters starting at `start` and returns the index of
    /// the first ASCII byte after it (or of the end). Text in scripts such as Japanese or
    /// Cyrillic is long runs of two- and three-byte sequences; the common ones are checked four
    /// bytes at a time here, everything else (and every error) by ``validateUTF8Sequence(at:)``.
    private func skipNonASCII(from start: Int) throws -> Int {
        var index = start
        while true {
            index = JSONParser.skipCommonUTF8(in: input, from: index)
            guard index < count && input[index] >= 0x80 else { return index }
            // The rare forms (E0, ED and four-byte sequences), the last bytes of the input, and errors.
            index = try validateUTF8Sequence(at: index)
        }
    }

    /// The index of the first byte at or after `start` that does not begin a two-byte sequence
    /// or a three-byte one led by E1...EC or EE...EF (which need no check of their second byte
    /// beyond its continuation bits), reading a word per character while four bytes are left.
    /// Every word read lies inside `input`, which the caller of ``parse(_:options:)`` keeps alive
    /// while it parses (the AddressSanitizer run of the conformance suite reads up to its end).
    @inline(__always)
    static func skipCommonUTF8(in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = input.baseAddress else { return start }
        var index = start
        while index &+ 4 <= input.count {
            let word = UInt32(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt32.self))
            let lead = UInt8(truncatingIfNeeded: word)
            if lead &- 0xE1 < 0x0F && lead != 0xED && word & 0xC0_C000 == 0x80_8000 {
                index &+= 3
            } else if lead &- 0xC2 < 0x1E && word & 0xC000 == 0x8000 {
                index &+= 2
            } else {
                return index
            }
        }
        return index
    }

    /// The length of a well-formed UTF-8 sequence that `lead` begins, and the bounds of its second
    /// byte (the later ones are `0x80...0xBF`); `nil` for a byte that begins none (ASCII, a
    /// continuation byte, `C0`, `C1`, `F5` and up).
    @inline(__always)
    static func utf8Sequence(leadBy lead: UInt8) -> (length: Int, lowerBound: UInt8, upperBound: UInt8)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80, 0xBF)
        case 0xE0: (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
        case 0xED: (3, 0x80, 0x9F)
        case 0xF0: (4, 0x90, 0xBF)
        case 0xF1...0xF3: (4, 0x80, 0xBF)
        case 0xF4: (4, 0x80, 0x8F)
        default: nil
        }
    }

    /// Validates one multi-byte UTF-8 sequence starting at `index`; returns the index past it.
    @inline(__always)
    private func validateUTF8Sequence(at index: Int) throws -> Int {
        guard let (length, lowerBound, upperBound) = JSONParser.utf8Sequence(leadBy: input[index]),
            index + length <= count
        else { throw invalidUTF8(at: index) }
        let second = input[index + 1]
        guard second >= lowerBound && second <= upperBound else { throw invalidUTF8(at: index) }
        var offset = 2
        while offset < length {
            guard input[index + offset] & 0xC0 == 0x80 else { throw invalidUTF8(at: index) }
            offset += 1
        }
        return index + length
    }

    /// The index of the first byte at or after `start` that is a quote, a backslash, a control
    /// character or non-ASCII, looking at eight bytes per step; when fewer than eight bytes
    /// remain, the index where the words stopped (the caller's byte loop finishes the job).
    @inline(__always)
    static func skipPlainASCII(in input: UnsafeBufferPointer<UInt8>, from start: Int, quote: UInt8) -> Int {
        guard let base = input.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = ones &* UInt64(quote)
        let backslashes = ones &* UInt64(UInt8(ascii: "\\"))
        var index = start
        while index &+ 8 <= input.count {
            // Little-endian order puts the first byte lowest, where the borrows below start.
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // A byte is interesting when it is below 0x20, has its high bit set, or equals the
            // quote or a backslash (a zero byte after XOR). A borrow can mark a byte after an
            // interesting one, never before, so the lowest mark is exact.
            let control = (word &- ones &* 0x20) & ~word
            let quote = word ^ quotes
            let backslash = word ^ backslashes
            let quoteZero = (quote &- ones) & ~quote
            let backslashZero = (backslash &- ones) & ~backslash
            let marks = (control | quoteZero | backslashZero | word) & highBits
            if marks != 0 { return index &+ marks.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        return index
    }

    // MARK: JSON5 identifiers

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "_"),
            UInt8(ascii: "$"), UInt8(ascii: "\\"), 0x80...:
            true
        default: false
        }
    }

    /// Parses an unquoted JSON5 key.
    private mutating func parseIdentifier() throws {
        let start = position
        var index = position
        var flags = JSONNode.json5
        while index < count {
            let current = input[index]
            if current == UInt8(ascii: "\\") {
                guard index + 1 < count, input[index + 1] == UInt8(ascii: "u") else { throw invalidEscape(at: index) }
                // As in strings: a surrogate must come paired, never turn into U+FFFD unseen.
                index = try validateEscape(at: index)
                flags |= JSONNode.hasEscapes
            } else if current >= 0x80 {
                flags |= JSONNode.beyondASCII
                index = try validateUTF8Sequence(at: index)
            } else if JSONParser.isIdentifierStart(current) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current)
            {
                index += 1
            } else {
                break
            }
        }
        appendScalar(.string, flags: flags, offset: start, length: index - start)
        position = index
    }

    // MARK: Helpers

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    static func describeScalar(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension JSONParser {
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// Whether Foundation's scanner reads a byte as part of a number: a digit, a sign, a point
    /// or an exponent mark.
    static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default:
            false
        }
    }

    /// The index past the run of ASCII digits at `start`: eight bytes at a time while eight are
    /// left in the input (``NumberConversion/nonDigitBytes(_:)``), then one by one. Every word read
    /// lies inside the input, which the caller of ``JSONParser/parse(_:options:)`` keeps alive
    /// while it parses.
    @inline(__always)
    func skipDigits(from start: Int) -> Int {
        var index = start
        if let base = input.baseAddress {
            while index &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let nonDigits = NumberConversion.nonDigitBytes(word)
                if nonDigits != 0 { return index &+ (nonDigits.trailingZeroBitCount &>> 3) }
                index &+= 8
            }
        }
        while index < count && JSONParser.isDigit(input[index]) { index += 1 }
        return index
    }

    /// Parses an RFC 8259 number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    ///
    /// Only the syntax is checked here; the value is computed when a model asks for it.
    mutating func parseNumber() throws {
        let start = position
        var index = position
        var flags = JSONNode.isInteger
        if input[index] == UInt8(ascii: "-") { index += 1 }
        guard index < count else { return try invalidNumberFound(from: start, to: index) }
        if input[index] == UInt8(ascii: "0") {
            index += 1
            if index < count && JSONParser.isDigit(input[index]) {
                return try invalidNumberFound(from: start, to: index + 1)
            }
        } else if JSONParser.isDigit(input[index]) {
            index += 1
            index = skipDigits(from: index)
        } else {
            return try invalidNumberFound(from: start, to: index + 1)
        }
        if index < count && input[index] == UInt8(ascii: ".") {
            flags = 0
            index += 1
            guard index < count && JSONParser.isDigit(input[index]) else {
                return try invalidNumberFound(from: start, to: index + 1)
            }
            index = skipDigits(from: index)
        }
        if index < count && (input[index] | 0x20) == UInt8(ascii: "e") {
            flags = 0
            index += 1
            if index < count && (input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-")) { index += 1 }
            guard index < count && JSONParser.isDigit(input[index]) else {
                return try invalidNumberFound(from: start, to: index + 1)
            }
            index = skipDigits(from: index)
        }
        appendNumber(from: start, to: index, flags: flags)
    }

    /// Parses a JSON5 number: a decimal number that may start with `+` or a decimal point and
    /// end with a decimal point, a hexadecimal integer, `Infinity` or `NaN`, each optionally signed.
    mutating func parseNumberJSON5() throws {
        let start = position
        var index = position
        var flags = JSONNode.isInteger
        if input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") {
            if input[index] == UInt8(ascii: "+") { flags |= JSONNode.json5 }
            index += 1
        }
        guard index < count else { throw invalidNumber(from: start, to: index) }
        for (name, namedFlags) in [("Infinity", JSONNode.json5), ("NaN", JSONNode.json5)]
        where input[index] == name.utf8.first {
            let length = name.utf8.count
            guard index + length <= count, input[index..<index + length].elementsEqual(name.utf8) else {
                throw unexpectedCharacter(at: index)
            }
            appendNumber(from: start, to: index + length, flags: namedFlags)
            return
        }
        if input[index] == UInt8(ascii: "0") && index + 1 < count && (input[index + 1] | 0x20) == UInt8(ascii: "x") {
            index += 2
            let digitsStart = index
            while index < count && JSONParser.hexValue(input[index]) != nil { index += 1 }
            guard index > digitsStart else { throw invalidNumber(from: start, to: index + 1) }
            appendNumber(from: start, to: index, flags: JSONNode.isInteger | JSONNode.json5)
            return
        }
        var integerDigits = 0
        if index < count && input[index] == UInt8(ascii: "0") {
            index += 1
            integerDigits = 1
            if index < count && JSONParser.isDigit(input[index]) { throw invalidNumber(from: start, to: index + 1) }
        } else {
            while index < count && JSONParser.isDigit(input[index]) {
                index += 1
                integerDigits += 1
            }
        }
        var fractionDigits = 0
        if index < count && input[index] == UInt8(ascii: ".") {
            flags &= ~JSONNode.isInteger
            index += 1
            while index < count && JSONParser.isDigit(input[index]) {
                index += 1
                fractionDigits += 1
            }
            if integerDigits == 0 || fractionDigits == 0 { flags |= JSONNode.json5 }
        }
        guard integerDigits + fractionDigits > 0 else { throw invalidNumber(from: start, to: index + 1) }
        if index < count && (input[index] | 0x20) == UInt8(ascii: "e") {
            flags &= ~JSONNode.isInteger
            index += 1
            if index < count && (input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-")) { index += 1 }
            guard index < count && JSONParser.isDigit(input[index]) else {
                throw invalidNumber(from: start, to: index + 1)
            }
            index = skipDigits(from: index)
        }
        appendNumber(from: start, to: index, flags: flags)
    }

    /// A number that is not valid JSON, `start..<end` the text read so far: thrown, or with
    /// ``Options/defersValueErrors`` crossed as Foundation's scanner crosses a number (every
    /// digit, sign, point and exponent mark that follows) and kept as an ``JSONNode/Kind/invalid``
    /// node, so that only a read of it fails.
    @inline(never)
    mutating func invalidNumberFound(from start: Int, to end: Int) throws {
        guard options.defersValueErrors else { throw invalidNumber(from: start, to: end) }
        var index = start
        while index < count && JSONParser.isNumberByte(input[index]) { index += 1 }
        nodes.recordInvalidNode(at: nodes.count)
        appendScalar(.invalid, offset: start, length: index - start)
        position = index
    }

    @inline(__always)
    private mutating func appendNumber(from start: Int, to end: Int, flags: UInt8) {
        appendScalar(.number, flags: flags, offset: start, length: end - start)
        position = end
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The conversions of the coercion table that work on plain values: the decoder applies them
/// to the parsed tree, and the property wrappers to what any decoder gives them.
enum CoercionRules {
    /// The integer a string stands for: trimmed, in JSON's number syntax with an optional `+`.
    /// A fraction is truncated toward zero and says so; a value out of range is `nil`.
    static func integer<T: FixedWidthInteger>(fromString text: String, as type: T.Type) -> (value: T, truncated: Bool)?
    {
        var text = trimmed(text)
        if text.hasPrefix("+") { text.removeFirst() }
        guard isNumberSyntax(text) else { return nil }
        var copy = text
        return copy.withUTF8 { integer(fromNumberText: $0, as: type) }
    }

    /// The integer a number's text stands for, exact or truncated toward zero; `truncated` when a
    /// fraction was dropped.
    static func integer<T: FixedWidthInteger>(fromNumberText bytes: UnsafeBufferPointer<UInt8>, as type: T.Type)
        -> (value: T, truncated: Bool)?
    {
        if let value = NumberConversion.integer(bytes, as: type) { return (value, false) }
        guard let decimal = DecimalText(bytes), let value = decimal.integerPart(as: type) else { return nil }
        return (value, decimal.hasFraction)
    }

    /// The `Double` a string stands for: trimmed decimal text, or `NaN`, `Infinity`, `-Infinity`
    /// in any case.
    static func double(fromString text: String) -> Double? {
        var text = trimmed(text)
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "infinity", "+infinity", "inf", "+inf": return .infinity
        case "-infinity", "-inf": return -.infinity
        default: break
        }
        if text.hasPrefix("+") { text.removeFirst() }
        guard isNumberSyntax(text) else { return nil }
        return text.withUTF8 { NumberConversion.double($0, isInteger: false) }
    }

    /// The `Bool` a string stands for: `true/false/yes/no/y/n/1/0/on/off` in any case.
    static func bool(fromString text: String) -> Bool? {
        switch trimmed(text).lowercased() {
        case "true", "yes", "y", "1", "on": true
        case "false", "no", "n", "0", "off": false
        default: nil
        }
    }

    /// Whether a string is one of the ways old servers write "nothing".
    static func isNullLike(_ text: String) -> Bool {
        switch trimmed(text).lowercased() {
        case "null", "nil", "<null>", "(null)", "<nil>", "(nil)", "undefined": true
        default: false
        }
    }

    /// Whether the text is a JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`),
    /// also allowing leading zeros, which servers write in strings (`"007"`).
    static func isNumberSyntax(_ text: String) -> Bool {
        var utf8 = Substring(text).utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        let integerDigits = utf8.prefix(while: JSONParser.isDigit)
        guard !integerDigits.isEmpty else { return false }
        utf8 = utf8.dropFirst(integerDigits.count)
        if utf8.first == UInt8(ascii: ".") {
            let fraction = utf8.dropFirst().prefix(while: JSONParser.isDigit)
            guard !fraction.isEmpty else { return false }
            utf8 = utf8.dropFirst(1 + fraction.count)
        }
        if let marker = utf8.first, marker | 0x20 == UInt8(ascii: "e") {
            utf8 = utf8.dropFirst()
            if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
            let exponent = utf8.prefix(while: JSONParser.isDigit)
            guard !exponent.isEmpty else { return false }
            utf8 = utf8.dropFirst(exponent.count)
        }
        return utf8.isEmpty
    }

    /// The text without white space at either end.
    static func trimmed(_ text: String) -> String {
        // Most text has nothing to trim: it starts and ends with printable ASCII.
        if let head = text.utf8.first, let tail = text.utf8.last, (0x21...0x7E).contains(head),
            (0x21...0x7E).contains(tail)
        {
            return text
        }
        // ASCII white space is stepped over a byte at a time: a `Character` at a time costs about
        // fifty nanoseconds a byte, a megabyte of padding a twentieth of a second. Where the bytes
        // stop at one beyond ASCII, that end is trimmed by `Character`, from the last padding byte
        // on, whose grapheme the bytes before it cannot change.
        let utf8 = text.utf8
        var start = utf8.startIndex
        while start < utf8.endIndex, isASCIIWhitespace(utf8[start]) { utf8.formIndex(after: &start) }
        guard start < utf8.endIndex else { return "" }
        var end = utf8.index(before: utf8.endIndex)
        while isASCIIWhitespace(utf8[end]) { utf8.formIndex(before: &end) }
        if utf8[start] < 0x80, utf8[end] < 0x80 { return String(text[start..<utf8.index(after: end)]) }
        // A byte beyond ASCII at an end: the text from one padding byte before it (if any) to one
        // after it, so that a `Character` that joins the padding to it stays whole.
        let from = start > utf8.startIndex ? utf8.index(before: start) : start
        let afterEnd = utf8.index(after: end)
        let upTo = afterEnd < utf8.endIndex ? utf8.index(after: afterEnd) : afterEnd
        let window = text[from..<upTo]
        guard let first = window.firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let last = window.lastIndex(where: { !$0.isWhitespace }) ?? first
        return String(window[first...last])
    }

    /// The ASCII bytes that `Character.isWhitespace` calls white space: tab, line feed, vertical
    /// tab, form feed, carriage return and space.
    @inline(__always)
    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}

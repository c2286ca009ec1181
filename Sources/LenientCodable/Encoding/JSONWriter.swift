// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Writes JSON text into one growing byte buffer, byte for byte as Foundation's `JSONEncoder`
/// lays it out.
///
/// The layout it reproduces, measured against the toolchain's Foundation:
/// - Compact: no whitespace at all.
/// - Pretty: two spaces per level, `"key" : value`, one element per line; an empty array or
///   object still opens a line: `[\n\n  ]` (the closing bracket indented to its own level).
/// - Strings: `"` and `\` escaped; `/` escaped as `\/` unless slashes are kept; `\b`, `\f`,
///   `\n`, `\r`, `\t`; other bytes below 0x20 as `\u00xx` with lowercase hex; everything else,
///   DEL, U+2028 and all non-ASCII included, written as its UTF-8 bytes.
/// - Floating point: Swift's shortest round-trip `description`, with a trailing `.0` removed
///   (`1`, `0.1`, `1e-07`, `1e+21`, `-0`).
/// - Sorted keys: plain UTF-8 byte order (`"B"` before `"a"`, `"a10"` before `"a9"`).
struct JSONWriter {
    var bytes: [UInt8]
    let isPretty: Bool
    let sortsKeys: Bool
    let escapesSlashes: Bool
    private var indentLevel = 0
    /// Scratch space for sorting members: each object sorts its slice at the end, then drops it.
    private var sortBuffer: [SortEntry] = []
    /// The nesting level at which ``open(_:depth:)`` throws; unlimited for debug descriptions.
    var depthLimit = Self.maximumDepth

    /// Containers nested this deep cannot be written, as in Foundation: 511 levels can.
    static let maximumDepth = 512

    /// Thrown when the value nests containers ``maximumDepth`` levels deep.
    struct DepthExceeded: Error {}

    init(formatting: JSONEncoder.OutputFormatting, capacity: Int = 256) {
        isPretty = formatting.contains(.prettyPrinted)
        sortsKeys = formatting.contains(.sortedKeys)
        escapesSlashes = !formatting.contains(.withoutEscapingSlashes)
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    // MARK: Scalars

    mutating func writeNull() {
        append("null")
    }

    mutating func writeBool(_ value: Bool) {
        append(value ? "true" : "false")
    }

    mutating func writeInt(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            writeUInt(value.magnitude)
        } else {
            writeUInt(UInt64(value))
        }
    }

    mutating func writeUInt(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
            return
        }
        // Digits from the right into a 20-byte scratch buffer on the stack, then one copy.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = 20
            var rest = value
            while rest > 0 {
                let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
                position -= 1
                scratch[position] = UInt8(truncatingIfNeeded: digit) &+ UInt8(ascii: "0")
                rest = quotient
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position..<20]))
        }
    }

    /// Writes a finite `Double` as `JSONEncoder` does.
    mutating func writeDouble(_ value: Double) {
        let start = bytes.count
        // The same text as `description`, streamed into the buffer without making a `String`
        // (see the `TextOutputStream` conformance below).
        value.write(to: &self)
        dropTrailingPointZero(from: start)
    }

    /// Writes a finite `Float` as `JSONEncoder` does: its own shortest text, not the `Double`'s.
    mutating func writeFloat(_ value: Float) {
        let start = bytes.count
        value.write(to: &self)
        dropTrailingPointZero(from: start)
    }

    /// "1.0" is written "1"; "1e-07" and "0.5" are written as they are.
    private mutating func dropTrailingPointZero(from start: Int) {
        let end = bytes.count
        if end - start > 2, bytes[end - 2] == UInt8(ascii: "."), bytes[end - 1] == UInt8(ascii: "0") {
            bytes.removeLast(2)
        }
    }

    /// Writes text known to need no escaping and no quotes, such as a number literal.
    mutating func writeLiteral(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Writes a quoted, escaped string.
    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { writeEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let count = utf8.count
        let slash: UInt8 = escapesSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"")
        while index < count {
            let byte = utf8[index]
            if byte >= 0x20, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"), byte != slash {
                index += 1
                continue
            }
            if runStart < index {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            writeEscape(for: byte)
            index += 1
            runStart = index
        }
        if runStart < count {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
    }

    private mutating func writeEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            append("u00")
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ (value &- 10)
    }

    // MARK: Containers

    /// Opens an array or object; `depth` is the nesting level of the container, 1 at the top.
    mutating func open(_ bracket: UInt8, depth: Int) throws(DepthExceeded) {
        guard depth < depthLimit else { throw DepthExceeded() }
        bytes.append(bracket)
        if isPretty {
            bytes.append(UInt8(ascii: "\n"))
            indentLevel += 1
        }
    }

    /// Writes what goes before an element or member: the comma and, when pretty, the line break
    /// and indentation.
    mutating func beginElement(isFirst: Bool) {
        guard isPretty else {
            if !isFirst { bytes.append(UInt8(ascii: ",")) }
            return
        }
        // One copy for the comma, the line break and the indentation together.
        let prefix = Self.separatorAndSpaces
        let width = indentLevel * 2
        if width + 2 <= prefix.utf8CodeUnitCount {
            let start = isFirst ? 2 : 0
            bytes.append(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start + start, count: width + 2 - start))
        } else {
            if !isFirst { append(",\n") }
            writeIndent()
        }
    }

    private static let separatorAndSpaces: StaticString =
        ",\n                                                                "

    /// Writes an object member's key and the separator after it.
    mutating func writeKey(_ key: String) {
        writeString(key)
        if isPretty {
            append(" : ")
        } else {
            bytes.append(UInt8(ascii: ":"))
        }
    }

    mutating func close(_ bracket: UInt8) {
        if isPretty {
            bytes.append(UInt8(ascii: "\n"))
            indentLevel -= 1
            writeIndent()
        }
        bytes.append(bracket)
    }

    private mutating func writeIndent() {
        var remaining = indentLevel * 2
        let spaces = Self.spaces
        while remaining > 0 {
            let chunk = min(remaining, spaces.utf8CodeUnitCount)
            bytes.append(contentsOf: UnsafeBufferPointer(start: spaces.utf8Start, count: chunk))
            remaining -= chunk
        }
    }

    private static let spaces: StaticString = "                                                                "

    private mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A member to sort: its node and the first eight bytes of its key, big-endian and padded
    /// with zeros, so that most comparisons are one integer comparison.
    struct SortEntry {
        var prefix: UInt64
        var node: Int32
    }

    /// The first eight UTF-8 bytes of a key as a big-endian number, padded with zero bytes.
    ///
    /// Two keys whose prefixes differ are in the order of their prefixes: at the first byte where
    /// the prefixes differ, either both keys have that byte, or the shorter key has ended there
    /// (a zero of padding against a byte of the other key that is not zero, or the prefixes would
    /// not differ there) and sorts first, as it does in byte order. Equal prefixes need the whole
    /// comparison.
    static func sortPrefix(of key: String) -> UInt64 {
        key.utf8.withContiguousStorageIfAvailable { utf8 in
            var prefix: UInt64 = 0
            let count = min(utf8.count, 8)
            for index in 0..<count {
                prefix |= UInt64(utf8[index]) &<< UInt64(56 - 8 * index)
            }
            return prefix
        } ?? 0
    }

    /// Whether one key sorts before another under `.sortedKeys`: UTF-8 byte order, which is
    /// what the toolchain's Foundation uses (not a numeric or case-insensitive comparison).
    static func keyPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                if common > 0 {
                    let order = memcmp(left.baseAddress.unsafelyUnwrapped, right.baseAddress.unsafelyUnwrapped, common)
                    if order != 0 { return order < 0 }
                }
                return left.count < right.count
            }
        }
    }
}

// MARK: - Number text

/// The stream that floating-point numbers write their text to: the standard library hands
/// `write(to:)` the ASCII digits of `description` through `_writeASCII`, so numbers go into the
/// buffer without a `String` (and its allocation, for texts over 15 bytes) per number.
/// Unescaped: only number text comes this way.
extension JSONWriter: TextOutputStream {
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}

// MARK: - Writing the encoder's tree

extension JSONWriter {
    /// Writes a node of the tree and everything under it.
    mutating func write(_ tree: EncodingTree, node: Int32) throws(DepthExceeded) {
        try write(UnsafeBufferPointer(start: tree.nodes, count: tree.nodeCount), node: node, depth: 0)
    }

    /// Writes a scalar node; containers are written by the caller.
    mutating func writeScalar(_ node: borrowing EncodedNode) {
        switch node.kind {
        case .null: writeNull()
        case .bool: writeBool(node.bits != 0)
        case .int: writeInt(Int64(bitPattern: node.bits))
        case .uint: writeUInt(node.bits)
        case .double: writeDouble(Double(bitPattern: node.bits))
        case .float: writeFloat(Float(bitPattern: UInt32(truncatingIfNeeded: node.bits)))
        case .literal: writeLiteral(node.text)
        case .string: writeString(node.text)
        case .array, .object, .unset: break
        }
    }

    private mutating func write(_ nodes: UnsafeBufferPointer<EncodedNode>, node: Int32, depth: Int)
        throws(DepthExceeded)
    {
        // Read fields through the pointer: copying a whole node would retain both its strings.
        let base = nodes.baseAddress.unsafelyUnwrapped
        let current = base + Int(node)
        switch current.pointee.kind {
        case .null, .bool, .int, .uint, .double, .float, .literal, .string:
            writeScalar(current.pointee)
        case .array:
            try open(UInt8(ascii: "["), depth: depth + 1)
            var child = current.pointee.firstChild
            var isFirst = true
            while child >= 0 {
                beginElement(isFirst: isFirst)
                isFirst = false
                try write(nodes, node: child, depth: depth + 1)
                child = base[Int(child)].nextSibling
            }
            close(UInt8(ascii: "]"))
        case .object, .unset:
            // An unset slot is a value that encoded nothing: Foundation writes an empty object.
            try open(UInt8(ascii: "{"), depth: depth + 1)
            if sortsKeys && current.pointee.childCount > 1 {
                let start = sortBuffer.count
                var child = current.pointee.firstChild
                while child >= 0 {
                    sortBuffer.append(SortEntry(prefix: Self.sortPrefix(of: base[Int(child)].key), node: child))
                    child = base[Int(child)].nextSibling
                }
                let end = sortBuffer.count
                sortBuffer[start..<end].sort { lhs, rhs in
                    if lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix }
                    return Self.keyPrecedes(base[Int(lhs.node)].key, base[Int(rhs.node)].key)
                }
                for position in start..<end {
                    let member = sortBuffer[position].node
                    beginElement(isFirst: position == start)
                    writeKey(base[Int(member)].key)
                    try write(nodes, node: member, depth: depth + 1)
                }
                sortBuffer.removeLast(end - start)
            } else {
                var child = current.pointee.firstChild
                var isFirst = true
                while child >= 0 {
                    beginElement(isFirst: isFirst)
                    isFirst = false
                    writeKey(base[Int(child)].key)
                    try write(nodes, node: child, depth: depth + 1)
                    child = base[Int(child)].nextSibling
                }
            }
            close(UInt8(ascii: "}"))
        }
    }
}

// MARK: - Writing a JSONValue

extension JSONWriter {
    /// Writes a ``JSONValue``: numbers as their literal text, object members in their stored
    /// order unless keys are sorted.
    mutating func write(_ value: JSONValue, depth: Int = 0) throws(DepthExceeded) {
        switch value {
        case .null: writeNull()
        case .bool(let flag): writeBool(flag)
        case .number(let text): writeLiteral(text)
        case .string(let text): writeString(text)
        case .array(let elements):
            try open(UInt8(ascii: "["), depth: depth + 1)
            for (position, element) in elements.enumerated() {
                beginElement(isFirst: position == 0)
                try write(element, depth: depth + 1)
            }
            close(UInt8(ascii: "]"))
        case .object(let object):
            try open(UInt8(ascii: "{"), depth: depth + 1)
            var members = Array(object)
            if sortsKeys { members.sort { Self.keyPrecedes($0.key, $1.key) } }
            for (position, member) in members.enumerated() {
                beginElement(isFirst: position == 0)
                writeKey(member.key)
                try write(member.value, depth: depth + 1)
            }
            close(UInt8(ascii: "}"))
        }
    }
}

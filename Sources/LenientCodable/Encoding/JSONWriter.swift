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
    /// The output so far.
    let buffer: ByteBuffer
    /// The output as an array (a copy).
    var bytes: [UInt8] { buffer.array }
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

    /// Thrown when the value nests containers ``maximumDepth`` levels deep, or where the thread's
    /// stack is nearly spent (``stackSpentAt``, the level): the writer recurses once per level.
    struct DepthExceeded: Error {
        /// The level at which the stack was nearly spent; `nil` for a value nested too deep.
        var stackSpentAt: Int?
    }

    /// The stack guard of the tree being written (``write(_:node:)``): a tree built without
    /// recursion (containers nested in one `encode(to:)`, a long key path) is written with it.
    /// The stack is looked at past ``StackGuard/unguardedDepth`` levels, which take a few
    /// kilobytes of the writer's small frames, well within the guard's reserve. The tree's guard,
    /// made once for the encoder's calls, rather than one per writer: making one reads the stack
    /// pointer through a call.
    private var stackGuard: StackGuard?

    init(formatting: JSONEncoder.OutputFormatting, capacity: Int = 256) {
        self.init(formatting: formatting, buffer: ByteBuffer(capacity: capacity))
    }

    /// A writer that appends to an existing buffer, such as the one an ``EncodingTree`` keeps
    /// from call to call.
    init(formatting: JSONEncoder.OutputFormatting, buffer: ByteBuffer) {
        isPretty = formatting.contains(.prettyPrinted)
        sortsKeys = formatting.contains(.sortedKeys)
        escapesSlashes = !formatting.contains(.withoutEscapingSlashes)
        self.buffer = buffer
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
            buffer.append(UInt8(ascii: "-"))
            writeUInt(value.magnitude)
        } else {
            writeUInt(UInt64(value))
        }
    }

    mutating func writeUInt(_ value: UInt64) {
        if value < 10 {
            buffer.append(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
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
            buffer.append(UnsafeRawBufferPointer(rebasing: scratch[position..<20]))
        }
    }

    /// Writes a finite `Double` as `JSONEncoder` does.
    mutating func writeDouble(_ value: Double) {
        let start = buffer.count
        // The same text as `description`, streamed into the buffer without making a `String`
        // (see the `TextOutputStream` conformance below).
        value.write(to: &self)
        dropTrailingPointZero(from: start)
    }

    /// Writes a finite `Float` as `JSONEncoder` does: its own shortest text, not the `Double`'s.
    mutating func writeFloat(_ value: Float) {
        let start = buffer.count
        value.write(to: &self)
        dropTrailingPointZero(from: start)
    }

    /// "1.0" is written "1"; "1e-07" and "0.5" are written as they are.
    private mutating func dropTrailingPointZero(from start: Int) {
        let end = buffer.count
        if end - start > 2, buffer[end - 2] == UInt8(ascii: "."), buffer[end - 1] == UInt8(ascii: "0") {
            buffer.removeLast(2)
        }
    }

    /// Writes text known to need no escaping and no quotes, such as a number literal.
    mutating func writeLiteral(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append($0) }
    }

    /// Writes a quoted, escaped string.
    mutating func writeString(_ text: String) {
        var text = text
        writeString(in: &text)
    }

    /// Writes a quoted, escaped string read in place: a node's text or key, which a copy would
    /// retain and release (two calls into the runtime for each of an encode's strings).
    /// `withUTF8` changes nothing in a native string's storage; a string of another form is
    /// made native where it is stored.
    @inline(__always)
    mutating func writeString(in text: inout String) {
        text.withUTF8 { utf8 in
            // Most strings need no escape: the buffer takes them whole, quotes included, and
            // only a string with an escape goes on byte run by byte run from its first escape.
            let firstEscape = buffer.appendQuoted(utf8, slash: slash)
            if firstEscape < utf8.count {
                writeEscaped(utf8, from: firstEscape)
                buffer.append(UInt8(ascii: "\""))
            }
        }
    }

    /// The byte escaped besides quotes, backslashes and control characters: `/`, or a second
    /// quote when slashes are kept (which escapes nothing more).
    private var slash: UInt8 { escapesSlashes ? UInt8(ascii: "/") : UInt8(ascii: "\"") }

    /// Writes text, escaping what JSON (and the slash setting) requires, from `start`, the
    /// first byte that needs an escape; runs between escapes are found a word at a time and
    /// copied whole. `utf8` is the string's bytes inside the caller's `withUTF8`, read during
    /// the call only.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, from start: Int) {
        guard let base = utf8.baseAddress else { return }
        let count = utf8.count
        let slash = self.slash
        var runStart = start
        var index = start
        while true {
            index = Self.nextEscape(in: base, from: index, count: count, slash: slash)
            if index == count { break }
            if runStart < index {
                buffer.append(base + runStart, count: index - runStart)
            }
            writeEscape(for: base[index])
            index += 1
            runStart = index
        }
        if runStart < count {
            buffer.append(base + runStart, count: count - runStart)
        }
    }

    /// The index of the first byte at or after `start` that must be escaped (below 0x20, a
    /// quote, a backslash or `slash`), or `count` when there is none. Words are read only where
    /// eight bytes are left before `count`, inside the caller's buffer.
    @inline(__always)
    private static func nextEscape(in base: UnsafePointer<UInt8>, from start: Int, count: Int, slash: UInt8) -> Int {
        var index = start
        while index + 8 <= count {
            let marks = escapeMarks(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), slash: slash)
            if marks != 0 { return index + marks.trailingZeroBitCount >> 3 }
            index += 8
        }
        while index < count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == slash { return index }
            index += 1
        }
        return count
    }

    /// The high bit of every byte of `word` (eight bytes of text, first byte lowest) that must be
    /// escaped, and possibly of bytes after one that must: the lowest mark is exact.
    ///
    /// Little-endian order puts the first byte lowest, where borrows start: a borrow can mark a
    /// byte after a true mark, never before one. Bytes of 0x80 and above are never marked (their
    /// complement has no high bit).
    @inline(__always)
    static func escapeMarks(_ word: UInt64, slash: UInt8) -> UInt64 {
        let word = UInt64(littleEndian: word)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let slashes = word ^ (ones &* UInt64(slash))
        return ((word &- ones &* 0x20) | (quote &- ones) | (backslash &- ones) | (slashes &- ones)) & ~word & highBits
    }

    private mutating func writeEscape(for byte: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
            append("u00")
            buffer.append(Self.hexDigit(byte >> 4))
            buffer.append(Self.hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ (value &- 10)
    }

    // MARK: Containers

    /// Opens an array or object; `depth` is the nesting level of the container, 1 at the top.
    mutating func open(_ bracket: UInt8, depth: Int) throws(DepthExceeded) {
        guard depth < depthLimit else { throw DepthExceeded() }
        if depth > StackGuard.unguardedDepth, let stackGuard, stackGuard.isExhausted() {
            throw DepthExceeded(stackSpentAt: depth)
        }
        buffer.append(bracket)
        if isPretty {
            buffer.append(UInt8(ascii: "\n"))
            indentLevel += 1
        }
    }

    /// Writes what goes before an element or member: the comma and, when pretty, the line break
    /// and indentation.
    mutating func beginElement(isFirst: Bool) {
        guard isPretty else {
            if !isFirst { buffer.append(UInt8(ascii: ",")) }
            return
        }
        // One copy for the comma, the line break and the indentation together.
        let prefix = Self.separatorAndSpaces
        let width = indentLevel * 2
        if width + 2 <= prefix.utf8CodeUnitCount {
            let start = isFirst ? 2 : 0
            buffer.append(prefix.utf8Start + start, count: width + 2 - start)
        } else {
            if !isFirst { append(",\n") }
            writeIndent()
        }
    }

    private static let separatorAndSpaces: StaticString =
        ",\n                                                                "

    /// Writes an object member's key and the separator after it.
    mutating func writeKey(_ key: String) {
        var key = key
        writeKey(in: &key)
    }

    /// ``writeKey(_:)`` for a key read in place (``writeString(in:)``).
    @inline(__always)
    mutating func writeKey(in key: inout String) {
        writeString(in: &key)
        if isPretty {
            append(" : ")
        } else {
            buffer.append(UInt8(ascii: ":"))
        }
    }

    mutating func close(_ bracket: UInt8) {
        if isPretty {
            buffer.append(UInt8(ascii: "\n"))
            indentLevel -= 1
            writeIndent()
        }
        buffer.append(bracket)
    }

    private mutating func writeIndent() {
        var remaining = indentLevel * 2
        let spaces = Self.spaces
        while remaining > 0 {
            let chunk = min(remaining, spaces.utf8CodeUnitCount)
            buffer.append(spaces.utf8Start, count: chunk)
            remaining -= chunk
        }
    }

    private static let spaces: StaticString = "                                                                "

    private mutating func append(_ text: StaticString) {
        buffer.append(text.utf8Start, count: text.utf8CodeUnitCount)
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
        string.withUTF8 { buffer.append($0) }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        self.buffer.append(buffer)
    }
}

// MARK: - Writing the encoder's tree

extension JSONWriter {
    /// Writes a node of the tree and everything under it.
    mutating func write(_ tree: EncodingTree, node: Int32) throws(DepthExceeded) {
        // The walk below reads the nodes through a pointer: no `json` node is left to expand.
        tree.expandJSONLeavesForWriting()
        stackGuard = tree.stackGuard
        try write(UnsafeBufferPointer(start: tree.nodes, count: tree.nodeCount), node: node, depth: 0)
    }

    /// Writes a scalar node; containers are written by the caller. Read through a pointer:
    /// copying a whole node would retain and release both its strings. The pointer is into the
    /// tree's node storage, which nothing appends to (and so moves) while the tree is written.
    mutating func writeScalar(_ node: UnsafePointer<EncodedNode>) {
        switch node.pointee.kind {
        case .null: writeNull()
        case .bool: writeBool(node.pointee.bits != 0)
        case .int: writeInt(Int64(bitPattern: node.pointee.bits))
        case .uint: writeUInt(node.pointee.bits)
        case .double: writeDouble(Double(bitPattern: node.pointee.bits))
        case .float: writeFloat(Float(bitPattern: UInt32(truncatingIfNeeded: node.pointee.bits)))
        case .literal: writeLiteral(node.pointee.text)
        // In place: the node storage is allocated mutable, and kept while the tree is written.
        case .string: writeString(in: &UnsafeMutablePointer(mutating: node).pointee.text)
        case .array, .object, .unset, .json: break
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
            writeScalar(current)
        case .json:
            // Never met: `write(_:node:)` expanded every `json` node the root reaches. Were one
            // met, `null` keeps the text JSON.
            writeNull()
        case .array:
            try open(UInt8(ascii: "["), depth: depth + 1)
            var child = current.pointee.firstChild
            var isFirst = true
            while child >= 0 {
                beginElement(isFirst: isFirst)
                isFirst = false
                // Scalar elements, most of a large array, without a call of their own.
                let element = base + Int(child)
                if element.pointee.kind.isScalar {
                    writeScalar(element)
                } else {
                    try write(nodes, node: child, depth: depth + 1)
                }
                child = element.pointee.nextSibling
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
                    // In place in the node storage, as below.
                    writeKey(in: &UnsafeMutablePointer(mutating: base + Int(member)).pointee.key)
                    try write(nodes, node: member, depth: depth + 1)
                }
                sortBuffer.removeLast(end - start)
            } else {
                var child = current.pointee.firstChild
                var isFirst = true
                while child >= 0 {
                    beginElement(isFirst: isFirst)
                    isFirst = false
                    let member = base + Int(child)
                    // In place, in the tree's node storage (allocated mutable, kept and not moved
                    // while the tree is written): a copy of the key would be retained and released.
                    writeKey(in: &UnsafeMutablePointer(mutating: member).pointee.key)
                    if member.pointee.kind.isScalar {
                        writeScalar(member)
                    } else {
                        try write(nodes, node: child, depth: depth + 1)
                    }
                    child = member.pointee.nextSibling
                }
            }
            close(UInt8(ascii: "}"))
        }
    }
}

// MARK: - Output buffer

/// A growing byte buffer written through a pointer: an append is a capacity check and a copy,
/// without the generic path and uniqueness check of `Array.append(contentsOf:)`, which cost
/// about a tenth of an encode when every key and string went through them.
final class ByteBuffer {
    // One writer owns the buffer and never nests accesses to it.
    @exclusivity(unchecked) private var start: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private(set) var capacity: Int

    /// Memory from `malloc`, so that it grows with `realloc` (which moves a large block by
    /// remapping its pages rather than copying them) and a `Data` can take it over with `free`
    /// as its deallocator.
    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = Self.allocate(self.capacity)
    }

    deinit { free(start) }

    /// A block the buffer owns until `deinit` frees it or ``takeData()`` hands it to a `Data`.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let memory = malloc(capacity) else { fatalError("Out of memory for \(capacity) bytes of JSON output") }
        return memory.bindMemory(to: UInt8.self, capacity: capacity)
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ source: UnsafePointer<UInt8>, count length: Int) {
        if capacity - count < length { grow(toHold: length) }
        Self.copy(source, to: start + count, count: length)
        count += length
    }

    /// Copies `length` bytes; every word read lies inside `source`'s `length` bytes (the
    /// caller's, alive for the call) and every word written inside the buffer's room for them.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, to start: UnsafeMutablePointer<UInt8>, count length: Int) {
        let target = UnsafeMutableRawPointer(start)
        let from = UnsafeRawPointer(source)
        // Keys, short strings and numbers: overlapping word copies instead of a call to memcpy.
        if length > 16 && length <= 32 {
            target.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(
                of: from.loadUnaligned(fromByteOffset: 8, as: UInt64.self), toByteOffset: 8, as: UInt64.self)
            target.storeBytes(
                of: from.loadUnaligned(fromByteOffset: length - 16, as: UInt64.self), toByteOffset: length - 16,
                as: UInt64.self)
            target.storeBytes(
                of: from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8,
                as: UInt64.self)
        } else if length >= 8 && length <= 16 {
            target.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            target.storeBytes(
                of: from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self), toByteOffset: length - 8,
                as: UInt64.self)
        } else if length >= 4 && length < 8 {
            target.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            target.storeBytes(
                of: from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self), toByteOffset: length - 4,
                as: UInt32.self)
        } else if length < 4 {
            for offset in 0..<length { start[offset] = source[offset] }
        } else {
            target.copyMemory(from: from, byteCount: length)
        }
    }

    /// Appends `"`, the bytes of `text` and, when none of them needs an escape, the closing `"`;
    /// returns the index of the first byte that needs one, or `text.count`. When a byte does,
    /// the buffer ends with the quote and the bytes before it.
    ///
    /// The bytes are copied first and checked in the buffer, eight at a time. Eight zero bytes
    /// written after them keep the last word read inside initialized memory of the buffer; the
    /// marks of the bytes past the text are masked off.
    @inline(__always)
    func appendQuoted(_ text: UnsafeBufferPointer<UInt8>, slash: UInt8) -> Int {
        let length = text.count
        if capacity - count < length + 2 + 8 { grow(toHold: length + 2 + 8) }
        start[count] = UInt8(ascii: "\"")
        let textStart = start + count + 1
        if let base = text.baseAddress { Self.copy(base, to: textStart, count: length) }
        UnsafeMutableRawPointer(textStart + length).storeBytes(of: 0, as: UInt64.self)
        var index = 0
        while index < length {
            var marks = JSONWriter.escapeMarks(
                UnsafeRawPointer(textStart + index).loadUnaligned(as: UInt64.self), slash: slash)
            let remaining = length - index
            if remaining < 8 { marks &= (1 &<< UInt64(remaining &* 8)) &- 1 }
            if marks != 0 {
                let firstEscape = index + marks.trailingZeroBitCount >> 3
                count += 1 + firstEscape
                return firstEscape
            }
            index += 8
        }
        textStart[length] = UInt8(ascii: "\"")
        count += length + 2
        return length
    }

    @inline(__always)
    func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let base = source.baseAddress else { return }
        append(base, count: source.count)
    }

    @inline(__always)
    func append(_ source: UnsafeRawBufferPointer) {
        guard let base = source.baseAddress else { return }
        if capacity - count < source.count { grow(toHold: source.count) }
        UnsafeMutableRawPointer(start + count).copyMemory(from: base, byteCount: source.count)
        count += source.count
    }

    subscript(index: Int) -> UInt8 { start[index] }

    func removeLast(_ length: Int) {
        precondition(length <= count)
        count -= length
    }

    /// Empties the buffer and keeps its memory.
    func removeAll() {
        count = 0
    }

    /// The bytes written, copied into an array.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: start, count: count)) }

    /// The bytes written, copied into a `Data`.
    var data: Data { Data(bytes: start, count: count) }

    /// The bytes written as a `Data` that takes over the buffer's memory instead of copying it;
    /// the buffer starts again empty, with a small block of its own.
    func takeData() -> Data {
        // From here the `Data` owns the block and frees it; the buffer forgets it at once
        // (`EncoderReuseTests` keeps such `Data` through later calls and across tasks).
        let data = Data(bytesNoCopy: start, count: count, deallocator: .free)
        capacity = 16
        count = 0
        start = Self.allocate(capacity)
        return data
    }

    @inline(never)
    private func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        // The old block is the buffer's own (no `Data` took it: `takeData` leaves a new one).
        guard let grown = realloc(start, newCapacity) else {
            fatalError("Out of memory for \(newCapacity) bytes of JSON output")
        }
        start = grown.bindMemory(to: UInt8.self, capacity: newCapacity)
        capacity = newCapacity
    }
}

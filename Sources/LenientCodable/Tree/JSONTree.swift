// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 The parsed tree: a flat array of fixed-size nodes in document order, pointing into the input.

 Every JSON value is one node; an object's member is two nodes, its key (a string node) and then
 its value. A container's node is followed by the nodes of its elements, and records the index
 just past its last descendant (its end), so that skipping a value is one load. Strings and
 numbers are not converted while parsing: their node holds the byte range of their text, and
 flags that say whether the slow conversion paths are needed (escapes in a string, a fraction or
 exponent in a number).

 Each node is 8 bytes, two 32-bit words:

     header    bits 0–2    kind: null, true, false, number, string, invalid, array, object
               bits 3–5    flags: string: hasEscapes, beyondASCII, json5 (single-quoted or unquoted);
                           number: isInteger, json5; invalid: wasString
               bits 6–15   depth: how many containers enclose the value (0 for the top level;
                           at most 512, the nesting limit)
               bits 16–31  scalars: the byte length of the text; containers: the number of
                           elements (members for objects). 0xFFFF stands for 65 535 or more: the
                           exact figure is in the storage's side table (``NodeStorage``)
     position              scalars: the first byte of the text (for strings, just after the
                           quote); containers: the index of the first node after the container
                           and its descendants (a scalar's is always its own index plus one)

 A small object's tree is about twice the size of its text with these nodes (a 45-byte object
 of three members is seven nodes), which is what the memory a large document's decode needs
 mostly depends on.

 Worked example. The 28-byte input

     {"id":7,"tags":["a\n",null]}
     0         1         2
     0123456789012345678901234567

 becomes seven nodes:

     index  kind    flags       depth  length  position
     0      object              0      2       7     two members; ends before node 7
     1      string              1      2       2     "id"
     2      number  isInteger   1      1       6     7
     3      string              1      4       9     "tags"
     4      array               1      2       7     two elements; ends before node 7
     5      string  hasEscapes  2      3       17    "a\n" (3 raw bytes: a, backslash, n)
     6      null                2      4       22

 Offsets are 32-bit: documents of 4 GiB or more are refused with `JSONParseError.inputTooLarge`.
 */

/// One value of the parsed tree. See the format description at the top of this file.
struct JSONNode {
    enum Kind: UInt8 {
        case null, `true`, `false`, number, string
        /// A string or number whose text is not valid JSON (an invalid escape, UTF-8 or control
        /// character; `012`, `1.`, `-`), kept by a parser that defers those errors to the read
        /// of the value, as Foundation does (``JSONParser/Options/defersValueErrors``). Reading
        /// it fails with the parse error; a model that leaves it unread never sees it.
        case invalid
        case array, object
    }

    /// String: the text holds a backslash escape and must be unescaped.
    static let hasEscapes: UInt8 = 1
    /// String: the text holds bytes beyond ASCII (set by the parser, which validates them), so
    /// that another spelling may be the same key to Swift's `String` (Unicode canonical
    /// equivalence: `"cafe\u{301}"` and `"café"`).
    static let beyondASCII: UInt8 = 2
    /// Number: the text has no fraction and no exponent (`-12`, not `1.0` or `1e2`).
    static let isInteger: UInt8 = 2
    /// Invalid: the text was a string's (between quotes), not a number's.
    static let wasString: UInt8 = 1
    /// String or number written in a JSON5-only form: a single-quoted or unquoted string
    /// (whose escapes follow JSON5's rules), or a hexadecimal, signed, dotted or named number.
    static let json5: UInt8 = 4

    /// The length or count that stands for "this or more: see the side table".
    static let saturated = 0xFFFF

    /// Kind, flags, depth and the short length or count; see the format description above.
    private var header: UInt32
    /// Scalars: the offset of the text. Containers: the index just past the last descendant;
    /// while the parser has the container open, the index of the container around it plus one.
    var position: UInt32

    /// A string, number or literal whose text is at `offset`, `shortLength` bytes long, or
    /// ``saturated`` for a longer one.
    @inline(__always)
    init(scalar kind: Kind, flags: UInt8, depth: Int, shortLength: Int, offset: Int) {
        header =
            UInt32(kind.rawValue) | UInt32(truncatingIfNeeded: flags) << 3
            | UInt32(truncatingIfNeeded: depth) << 6
            | UInt32(truncatingIfNeeded: shortLength) << 16
        position = UInt32(truncatingIfNeeded: offset)
    }

    /// An array or object with no elements yet, whose `position` is `link`.
    @inline(__always)
    init(container kind: Kind, depth: Int, link: Int) {
        header = UInt32(kind.rawValue) | UInt32(truncatingIfNeeded: depth) << 6
        position = UInt32(truncatingIfNeeded: link)
    }

    @inline(__always)
    var kind: Kind {
        // The low three bits are only ever written from a `Kind`'s raw value (the initializers
        // above), and each of their eight values is one of its cases.
        unsafeBitCast(UInt8(truncatingIfNeeded: header) & 7, to: Kind.self)
    }

    @inline(__always)
    var isContainer: Bool { header & 7 >= UInt32(Kind.array.rawValue) }

    @inline(__always)
    func has(_ flag: UInt8) -> Bool { (header >> 3) & UInt32(flag) != 0 }

    /// How many containers enclose the value.
    @inline(__always)
    var depth: Int { Int((header >> 6) & 0x3FF) }

    /// A scalar's text length or a container's element count, up to ``saturated``.
    @inline(__always)
    var shortLength: Int { Int(header >> 16) }

    /// A scalar's first byte of text.
    @inline(__always)
    var offset: Int { Int(position) }

    /// A container's end: the index just past its last descendant. Only for an array or
    /// object; ``JSONTree/next(after:)`` reads any node's.
    @inline(__always)
    var containerEnd: Int {
        assert(isContainer, "containerEnd of a scalar node")
        return Int(position)
    }

    /// Counts one more element of a container, up to ``saturated``.
    @inline(__always)
    mutating func countElement() {
        if header < UInt32(JSONNode.saturated) << 16 { header &+= 1 << 16 }
    }

    /// Takes back one ``countElement()``, unless the count is ``saturated`` (then recounted).
    mutating func uncountElement() {
        if header < UInt32(JSONNode.saturated) << 16 && header >= 1 << 16 { header &-= 1 << 16 }
    }
}

/// A parsed document: the input bytes and the nodes that index them.
///
/// Both live in the ``NodeStorage``, which every copy of the tree retains. The bytes start out
/// borrowed from the caller's buffer; a decode that ends while something it created can still
/// read the tree has the storage copy them first (``NodeStorage/keepInput()``), so a decoder or
/// container that a model keeps never reads freed memory.
struct JSONTree {
    let nodes: NodeStorage
    /// Whether the document was parsed in JSON5 mode; decides how strings are unescaped.
    let isJSON5: Bool

    /// The document's UTF-8 bytes.
    @inline(__always)
    var input: UnsafeBufferPointer<UInt8> { nodes.input }

    @inline(__always)
    subscript(index: Int) -> JSONNode { nodes[index] }

    /// The raw bytes of a scalar node's text: a view of the input, valid as long as the caller
    /// holds this tree, whose node storage owns or borrows the input (see ``NodeStorage``).
    @inline(__always)
    func bytes(of node: JSONNode) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: input[node.offset..<node.offset + textLength(of: node)])
    }

    /// The byte length of a scalar node's text.
    @inline(__always)
    func textLength(of node: JSONNode) -> Int {
        let length = node.shortLength
        return length < JSONNode.saturated ? length : nodes.longTextLength(at: node.offset)
    }

    /// The number of elements of an array, or of members of an object, at `index`.
    @inline(__always)
    func count(of index: Int) -> Int {
        let count = nodes[index].shortLength
        return count < JSONNode.saturated ? count : nodes.largeCount(at: index)
    }

    /// The index of the first element of a container, or of the first member's key of an object.
    @inline(__always)
    func firstChild(of index: Int) -> Int { index + 1 }

    /// The index of the value that follows the one at `index` in its container: past a
    /// container's descendants, or the next node after a scalar.
    @inline(__always)
    func next(after index: Int) -> Int {
        let node = nodes[index]
        return node.isContainer ? node.containerEnd : index &+ 1
    }
}

// MARK: - Strings

extension JSONTree {
    /// The text of a string node, unescaped.
    func string(at index: Int) -> String {
        let node = nodes[index]
        let raw = bytes(of: node)
        if !node.has(JSONNode.hasEscapes) {
            // The parser has validated the UTF-8 already.
            return String(decoding: raw, as: UTF8.self)
        }
        return JSONUnescaper.unescape(raw, json5: isJSON5)
    }

    /// The text of an ``JSONNode/Kind/invalid`` node as written, for messages: escapes as they
    /// are, invalid UTF-8 as U+FFFD.
    func invalidText(at index: Int) -> String {
        String(decoding: bytes(of: nodes[index]), as: UTF8.self)
    }

    /// The parse error an ``JSONNode/Kind/invalid`` node stands for, with its line and column.
    func deferredError(at index: Int) -> JSONParseError {
        JSONParser.deferredError(
            of: nodes[index], length: textLength(of: nodes[index]), in: input, lines: nodes.lineIndex)
    }

    /// The text of a number node, as written.
    func numberText(at index: Int) -> String {
        String(decoding: bytes(of: nodes[index]), as: UTF8.self)
    }

    /// The text of a number node in JSON's spelling: JSON5's hexadecimal, signed and dotted
    /// forms are rewritten (`0x1F` is `31`, `.5` is `0.5`); `Infinity` and `NaN`, which JSON
    /// cannot spell, keep their names.
    func jsonNumberText(at index: Int) -> String {
        let node = nodes[index]
        guard node.has(JSONNode.json5) else { return numberText(at: index) }
        switch NumberConversion.json5Value(bytes(of: node)) {
        case .hexadecimal(let magnitude, let negative):
            return magnitude == 0 ? "0" : (negative ? "-" : "") + String(magnitude)
        case .decimal(let text):
            return text
        case .double(let value):
            return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity")
        case .invalid:
            return numberText(at: index)
        }
    }

    /// Whether a string node's unescaped text equals the given UTF-8 bytes.
    @inline(__always)
    func stringEquals(at index: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[index]
        if !node.has(JSONNode.hasEscapes) {
            // A key the parser measured in full (under 64 KiB, as every key a model asks for is)
            // needs no look at the side table.
            guard node.shortLength == other.count || other.count >= JSONNode.saturated,
                textLength(of: node) == other.count
            else { return false }
            return memoryEquals(input.baseAddress! + node.offset, other.baseAddress, other.count)
        }
        return stringEqualsSlowPath(at: index, other)
    }

    private func stringEqualsSlowPath(at index: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let text = string(at: index)
        return text.utf8.elementsEqual(other)
    }
}

/// Whether two byte buffers hold the same bytes.
@inline(__always)
func bytesEqual(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard let base = lhs.baseAddress else { return true }
    return memoryEquals(base, rhs.baseAddress, lhs.count)
}

/// Whether `count` bytes at two addresses are equal, compared a word at a time; the last word
/// (or pair of half-words) overlaps the ones before, so no byte loop finishes the job.
@inline(__always)
func memoryEquals(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
    guard count > 0, let rhs else { return true }
    let left = UnsafeRawPointer(lhs)
    let right = UnsafeRawPointer(rhs)
    if count >= 8 {
        var offset = 0
        while offset + 8 < count {
            if left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        return left.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            == right.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }
    if count >= 4 {
        return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
            && left.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                == right.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
    }
    // One to three bytes: the first, the middle and the last cover them all.
    return lhs[0] == rhs[0] && lhs[count >> 1] == rhs[count >> 1] && lhs[count - 1] == rhs[count - 1]
}

// MARK: - Values

extension JSONTree {
    /// Builds the public ``JSONValue`` for the node at `index` and its descendants.
    ///
    /// Duplicate keys keep their first value, as decoding does.
    func value(at index: Int) -> JSONValue {
        var noCache: [Int: JSONValue]? = nil
        return value(at: index, cache: &noCache)
    }

    /// Builds the public ``JSONValue`` for the node at `index`, reusing and recording the values
    /// of containers in `cache`, by node: once a value is built, the values inside it cost a
    /// lookup, so types with hooks nested in each other build their JSON once in all.
    ///
    /// Containers are built with a stack of their own rather than by recursion: the value of a
    /// type with hooks is built before its decoding reaches the stack guard, so a document nested
    /// as deep as the parser allows must cost heap here, never the thread's stack.
    func value(at index: Int, cache: inout [Int: JSONValue]?) -> JSONValue {
        var built = 0
        return value(at: index, cache: &cache, built: &built)
    }

    /// ``value(at:cache:)``, adding to `built` the number of nodes it built rather than found in
    /// the cache: the work a test reads.
    func value(at index: Int, cache: inout [Int: JSONValue]?, built: inout Int) -> JSONValue {
        let node = nodes[index]
        guard node.kind == .array || node.kind == .object else { return scalarValue(at: index) }
        if let cached = cache?[index] { return cached }
        var open = [ContainerUnderConstruction(index: index, in: self)]
        built &+= 1
        while true {
            let innermost = open.count - 1
            if let valueIndex = open[innermost].nextValueIndex(in: self) {
                let child = nodes[valueIndex]
                built &+= 1
                if child.kind != .array && child.kind != .object {
                    open[innermost].append(scalarValue(at: valueIndex))
                } else if let cached = cache?[valueIndex] {
                    built &-= 1
                    open[innermost].append(cached)
                } else {
                    open.append(ContainerUnderConstruction(index: valueIndex, in: self))
                }
                continue
            }
            let finished = open.removeLast()
            let value = finished.value
            cache?[finished.index] = value
            guard !open.isEmpty else { return value }
            open[open.count - 1].append(value)
        }
    }

    /// A cache for ``value(at:cache:)`` of a tree parsed from what `value` wrote: the root and
    /// the containers directly in it, each the very value it was written from (members and
    /// elements are written and parsed in order), so that a hooked type nested in JSON that a
    /// hook returned finds its own JSON without building it again from the tree.
    func cache(ofWritten value: JSONValue) -> [Int: JSONValue] {
        var cache = [0: value]
        // A scalar (a hook that unwraps `{"value": 250}` to `250`) has no members to cache.
        guard nodes.count > 0, nodes[0].isContainer else { return cache }
        let end = nodes[0].containerEnd
        switch value {
        case .object(let object) where nodes[0].kind == .object:
            var keyIndex = 1
            for member in object where keyIndex < end {
                let valueIndex = keyIndex + 1
                if member.value.isContainer { cache[valueIndex] = member.value }
                keyIndex = next(after: valueIndex)
            }
        case .array(let elements) where nodes[0].kind == .array:
            var elementIndex = 1
            for element in elements where elementIndex < end {
                if element.isContainer { cache[elementIndex] = element }
                elementIndex = next(after: elementIndex)
            }
        default:
            break
        }
        return cache
    }

    /// The ``JSONValue`` of a node that is not a container.
    private func scalarValue(at index: Int) -> JSONValue {
        switch nodes[index].kind {
        case .null: return .null
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .number: return .number(jsonNumberText(at: index))
        case .string: return .string(string(at: index))
        // Only for messages and reports: the paths that hand a value to a model check for
        // invalid text first (``TreeDecoder/checkValidText(at:path:)``).
        case .invalid: return .string(invalidText(at: index))
        case .array, .object: preconditionFailure("scalarValue(at:) of a container")
        }
    }
}

/// An array or object of ``JSONTree/value(at:cache:)`` whose values are being built: its
/// elements, or its members with the first of duplicate keys kept, so far.
private struct ContainerUnderConstruction {
    let index: Int
    private let end: Int
    private let isObject: Bool
    /// The next element's node, or the next member's key node.
    private var next: Int
    private var elements: [JSONValue] = []
    private var members: [(key: String, value: JSONValue)] = []
    private var seen = Set<String>()
    /// The key of the member whose value is being built.
    private var pendingKey = ""

    init(index: Int, in tree: JSONTree) {
        self.index = index
        let node = tree[index]
        end = node.containerEnd
        isObject = node.kind == .object
        next = index + 1
        let count = tree.count(of: index)
        if isObject { members.reserveCapacity(count) } else { elements.reserveCapacity(count) }
    }

    /// The node of the next value to build, past members whose key an earlier member had; `nil`
    /// once every value is built.
    mutating func nextValueIndex(in tree: JSONTree) -> Int? {
        guard isObject else {
            guard next < end else { return nil }
            let valueIndex = next
            next = tree.next(after: valueIndex)
            return valueIndex
        }
        while next < end {
            let key = tree.string(at: next)
            let valueIndex = next + 1
            next = tree.next(after: valueIndex)
            if seen.insert(key).inserted {
                pendingKey = key
                return valueIndex
            }
        }
        return nil
    }

    /// Adds the value of the node that ``nextValueIndex(in:)`` gave last.
    mutating func append(_ value: JSONValue) {
        if isObject { members.append((key: pendingKey, value: value)) } else { elements.append(value) }
    }

    var value: JSONValue { isObject ? .object(JSONObject(uniqueMembers: members)) : .array(elements) }
}

extension String {
    /// Calls `body` with the string's UTF-8 bytes, valid during the call only: in place for a
    /// native string (every literal, every string made in Swift), where `withUTF8` would first
    /// copy the string (a retain and a release for every key a model asks for); through a
    /// contiguous copy otherwise (a bridged `NSString`).
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}

extension JSONValue {
    /// Whether the value is an array or an object.
    fileprivate var isContainer: Bool {
        switch self {
        case .array, .object: return true
        default: return false
        }
    }
}

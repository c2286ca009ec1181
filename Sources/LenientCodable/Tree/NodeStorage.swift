// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// The growable buffer of a tree's nodes, and the document bytes they point into.
///
/// The parser appends a node for every value and the decoder reads them by index, millions of
/// times per document; an `Array` would check its uniqueness on every append and its bounds on
/// every access. Indices come only from the parser, which keeps them in range.
///
/// The bytes are first borrowed: the caller's buffer, valid while the decode call runs, so that
/// a decode copies nothing. Before that call returns, ``keepInput()`` copies them into memory
/// this storage owns if anything that can outlive the call still refers to the tree (a decoder
/// or container that a model kept); from then on the storage frees them in `deinit`. Every
/// reader of the bytes holds the storage, so the bytes live as long as their last reader.
///
/// The nodes live in memory from `malloc`, grown with `realloc`: a large buffer grows in place
/// or is remapped, never copied, so a document's nodes take their own size at most, not that
/// and the half-size buffer they were copied from (``JSONNode`` is plain data, which may move
/// as bytes).
final class NodeStorage {
    private(set) var base: UnsafeMutablePointer<JSONNode>
    private(set) var count = 0
    private var capacity: Int
    /// The document's UTF-8 bytes: borrowed until ``keepInput()``, owned after it.
    private(set) var input: UnsafeBufferPointer<UInt8>
    /// Whether `input` is still the caller's buffer, valid only during the decode call.
    private(set) var isInputBorrowed = true
    /// Whether `input` was allocated by this storage, which frees it.
    private var ownsInput = false
    /// What only some documents need, made by the first of them to need it, so that a small
    /// document's storage is made and freed without it. Written while parsing only, like the
    /// nodes, except the line index, which the first error that asks for it builds.
    private final class Occasional {
        /// The byte lengths of texts too long for their node (``JSONNode/saturated`` or more),
        /// by the text's offset.
        var longTextLengths: [Int: Int] = [:]
        /// The element counts of containers too large for their node, by the container's index.
        var largeCounts: [Int: Int] = [:]
        /// The indices of the ``JSONNode/Kind/invalid`` nodes, in ascending order.
        var invalidNodes: [Int] = []
        var lineIndex: LineIndex?
    }
    private var occasionalState: Occasional?
    private var occasional: Occasional {
        if let occasionalState { return occasionalState }
        let made = Occasional()
        occasionalState = made
        return made
    }

    /// The indices of the ``JSONNode/Kind/invalid`` nodes, in ascending order.
    var invalidNodes: [Int] { occasionalState?.invalidNodes ?? [] }

    /// A storage for the nodes of a document whose bytes are borrowed from `input`.
    init(capacity: Int, input: UnsafeBufferPointer<UInt8>) {
        self.capacity = max(16, capacity)
        base = NodeStorage.allocate(self.capacity)
        self.input = input
    }

    /// A storage holding the given nodes, over bytes that live as long as the process (static text).
    convenience init(_ nodes: [JSONNode], immortalInput: StaticString) {
        self.init(
            capacity: nodes.count,
            input: UnsafeBufferPointer(start: immortalInput.utf8Start, count: immortalInput.utf8CodeUnitCount))
        for node in nodes { append(node) }
        isInputBorrowed = false
    }

    deinit {
        free(base)
        if ownsInput { input.deallocate() }
    }

    /// Copies the borrowed input into memory of its own, so that the tree stays readable after
    /// the buffer it was parsed from is gone. Called once the decode's own work is over and only
    /// when something may still read the tree; afterwards `input` never changes again.
    func keepInput() {
        guard isInputBorrowed else { return }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(input.count, 1))
        if let source = input.baseAddress, input.count > 0 {
            copy.baseAddress!.initialize(from: source, count: input.count)
        }
        input = UnsafeBufferPointer(start: copy.baseAddress, count: input.count)
        ownsInput = true
        isInputBorrowed = false
    }

    @inline(__always)
    subscript(index: Int) -> JSONNode {
        get { base[index] }
        set { base[index] = newValue }
    }

    @inline(__always)
    func append(_ node: JSONNode) {
        if count == capacity { grow() }
        (base + count).initialize(to: node)
        count &+= 1
    }

    @inline(never)
    private func grow() {
        let newCapacity = capacity * 2
        guard let grown = realloc(base, newCapacity * MemoryLayout<JSONNode>.stride) else {
            fatalError("Out of memory for \(newCapacity) JSON nodes")
        }
        base = grown.bindMemory(to: JSONNode.self, capacity: newCapacity)
        capacity = newCapacity
    }

    /// Memory for `capacity` nodes, from `malloc`, which ``grow()`` may `realloc` and `deinit` frees.
    private static func allocate(_ capacity: Int) -> UnsafeMutablePointer<JSONNode> {
        guard let memory = malloc(capacity * MemoryLayout<JSONNode>.stride) else {
            fatalError("Out of memory for \(capacity) JSON nodes")
        }
        // Plain data: binding the memory is all that initializing it would do.
        return memory.bindMemory(to: JSONNode.self, capacity: capacity)
    }

    /// Adds one to a container's element count, which a node holds up to ``JSONNode/saturated``.
    @inline(__always)
    func countElement(at index: Int) {
        base[index].countElement()
    }

    /// The line index of the input, built on the first error of an ``JSONNode/Kind/invalid``
    /// node; positions only, valid for the input and for the copy ``keepInput()`` makes of it.
    var lineIndex: LineIndex {
        if let built = occasional.lineIndex { return built }
        let index = LineIndex(input: input)
        occasional.lineIndex = index
        return index
    }

    /// Records that the node at `index` is ``JSONNode/Kind/invalid``; indices come in ascending order.
    func recordInvalidNode(at index: Int) {
        occasional.invalidNodes.append(index)
    }

    /// The first ``JSONNode/Kind/invalid`` node in `range`, found by binary search: a check of a
    /// value costs no walk through it, however many nested values are checked.
    func firstInvalidNode(in range: Range<Int>) -> Int? {
        let invalidNodes = self.invalidNodes
        var low = 0
        var high = invalidNodes.count
        while low < high {
            let middle = (low + high) / 2
            if invalidNodes[middle] < range.lowerBound { low = middle + 1 } else { high = middle }
        }
        return low < invalidNodes.count && invalidNodes[low] < range.upperBound ? invalidNodes[low] : nil
    }

    /// Takes back one ``countElement(at:)`` of the container at `index`. A count that reached
    /// ``JSONNode/saturated`` stays there: the container's count is then taken from its children
    /// when it closes (``recordLargeCount(at:)``).
    func uncountElement(at index: Int) {
        base[index].uncountElement()
    }

    /// Records the length of a text that its node cannot hold.
    @inline(never)
    func recordLongText(at offset: Int, length: Int) {
        occasional.longTextLengths[offset] = length
    }

    /// The length of a text whose node says ``JSONNode/saturated``.
    @inline(never)
    func longTextLength(at offset: Int) -> Int {
        NodeStorage.recorded(occasionalState?.longTextLengths ?? [:], at: offset, "length for the long text")
    }

    /// Records the element count of the container at `index`, once it is closed, if its node
    /// could not count that far: counted from its children, once.
    @inline(never)
    func recordLargeCount(at index: Int) {
        let end = base[index].containerEnd
        let isObject = base[index].kind == .object
        var count = 0
        var child = index + 1
        while child < end {
            // An object's member is its key, then its value.
            if isObject { child += 1 }
            let node = base[child]
            child = node.isContainer ? node.containerEnd : child + 1
            count += 1
        }
        occasional.largeCounts[index] = count
    }

    /// The element count of a container whose node says ``JSONNode/saturated``.
    @inline(never)
    func largeCount(at index: Int) -> Int {
        NodeStorage.recorded(occasionalState?.largeCounts ?? [:], at: index, "count for the container")
    }

    /// A figure of a side table, which the parser records for every node that says
    /// ``JSONNode/saturated``.
    private static func recorded(_ table: [Int: Int], at position: Int, _ what: String) -> Int {
        guard let figure = table[position] else { preconditionFailure("No recorded \(what) at \(position)") }
        return figure
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Arrays and sets that the lenient decoder reads element by element, leaving out the elements
/// that fail, and builds from a single value where the JSON has no array.
protocol LenientCollection: _LenientDecodingMarker {
    /// The type of the elements, which wrapping a single value decodes from that value.
    static var elementType: Any.Type { get }
    static func decodeElements(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Self
    /// The collection of one element decoded from the value at `index`, whose path `path` is
    /// the element's (`items[0]`), as in the array the value stands for.
    static func wrapping(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Self
}

extension LenientCollection {
    /// ``decodeElements(from:at:path:)`` returned as `T`, the type the traits found to be `Self`,
    /// without a dynamic cast.
    static func decodeElements<T>(as type: T.Type, from decoder: TreeDecoder, at index: Int, path: CodingPathNode)
        throws -> T
    {
        unsafeBitCast(try decodeElements(from: decoder, at: index, path: path), to: T.self)
    }
}

extension TreeDecoder {
    /// Decodes the elements of an array node in order; with ``LenientJSONDecoder/Options/dropsInvalidElements``
    /// an element that fails is left out and reported, and what it had recorded is forgotten.
    @inline(__always)
    func forEachElement<Element: Decodable>(
        of type: Element.Type, at index: Int, path: CodingPathNode, _ body: (Element) -> Void
    ) throws {
        let node = tree[index]
        guard node.kind == .array else {
            throw containerMismatch(
                node, expected: [Any].self, container: "unkeyed decoding container", path: path.path)
        }
        let isPlainScalar = traits(of: Element.self).isPlainScalar
        // Elements of a plain scalar type run no code of the user's and need their paths only
        // for an error or a report entry: an element's path (an allocation) is made only then,
        // and the element decoded again under it.
        if isPlainScalar && !hasConverters {
            try forEachScalarElement(of: Element.self, at: index, path: path, body)
            return
        }
        let end = tree.next(after: index)
        var child = index + 1
        var position = 0
        let box = PathBox(path)
        // Not in a Foundation-like pass, where an element that fails is not dropped: its error
        // may be the one the decode ends with.
        let elides = options.dropsInvalidElements && !elidesErrorPaths && !inFoundationPass && isPlainScalar
        if elides { elidesErrorPaths = true }
        defer { if elides { elidesErrorPaths = false } }
        // An array that fails is not decoded: what its elements before the failure recorded
        // goes too (a probe's `try? c.decode([Item].self)`).
        let arrayMark = reportMark
        while child < end {
            let elementPath = box.appending(index: position)
            let mark = reportMark
            do {
                body(try unwrapElement(Element.self, at: child, path: elementPath))
            } catch  where options.dropsInvalidElements && mayForgive() {
                rollbackReport(to: mark)
                recordDropped(error, path: elementPath, found: child)
            } catch {
                rollbackReport(to: arrayMark)
                throw error
            }
            child = tree.next(after: child)
            position += 1
        }
    }

    /// ``forEachElement(of:at:path:_:)`` for elements of a plain scalar type when no converter
    /// is registered: decoded with errors built without a path, under the array's own path.
    ///
    /// A scalar's decoding has no effect but its result and what it reports, and gives the same
    /// for the same node, so an element is decoded once more under its own path only when that
    /// path is read: when it fails and is not dropped (for the error the caller sees), and, with
    /// a report, when it wrote an entry or is dropped (for the paths the report names).
    @inline(__always)
    private func forEachScalarElement<Element: Decodable>(
        of type: Element.Type, at index: Int, path: CodingPathNode, _ body: (Element) -> Void
    ) throws {
        let end = tree.next(after: index)
        var child = index + 1
        var position = 0
        let elided = elidesErrorPaths
        elidesErrorPaths = true
        defer { elidesErrorPaths = elided }
        let reports = report != nil
        let arrayMark = reports ? reportMark : 0
        // The parent of the paths of elements that are reported, made for the first of them.
        var elementParent: PathBox?
        while child < end {
            let mark = reports ? reportMark : 0
            do {
                let element = try unwrap(Element.self, at: child, path: path)
                if reports && reportMark != mark {
                    body(
                        try reportedElement(
                            Element.self, at: child, position: position, arrayPath: path, parent: &elementParent,
                            mark: mark))
                } else {
                    body(element)
                }
            } catch {
                // In a Foundation-like pass `mayForgive()` refuses (and counts the refusal).
                if options.dropsInvalidElements && mayForgive() {
                    if reports {
                        recordDroppedElement(
                            error, at: child, position: position, arrayPath: path, parent: &elementParent, mark: mark)
                    }
                } else {
                    elidesErrorPaths = elided
                    // The array is not decoded: nor are the elements before this one.
                    if reports { rollbackReport(to: arrayMark) }
                    throw elementError(Element.self, at: child, position: position, arrayPath: path, error)
                }
            }
            child = tree.next(after: child)
            position += 1
        }
    }

    /// An element that wrote report entries under the array's path, decoded again under its own
    /// path for entries that name it; the first entries are forgotten.
    @inline(never)
    private func reportedElement<Element: Decodable>(
        _ type: Element.Type, at index: Int, position: Int, arrayPath: CodingPathNode, parent: inout PathBox?,
        mark: Int
    ) throws -> Element {
        rollbackReport(to: mark)
        return try unwrap(Element.self, at: index, path: Self.elementPath(position, of: arrayPath, parent: &parent))
    }

    /// The path of an element under its array's path box, which the first element to need one makes.
    private static func elementPath(_ position: Int, of arrayPath: CodingPathNode, parent: inout PathBox?)
        -> CodingPathNode
    {
        let box = parent ?? PathBox(arrayPath)
        parent = box
        return box.appending(index: position)
    }

    /// Reports a dropped element under its own path; what it recorded before it failed is
    /// forgotten. Its error was built without a path, as the errors of dropped scalar elements
    /// always are, so it reads the same under any path.
    @inline(never)
    private func recordDroppedElement(
        _ error: any Error, at index: Int, position: Int, arrayPath: CodingPathNode, parent: inout PathBox?, mark: Int
    ) {
        rollbackReport(to: mark)
        recordDropped(error, path: Self.elementPath(position, of: arrayPath, parent: &parent), found: index)
    }

    /// The error of the element at `index`, decoded again under its own path.
    @inline(never)
    private func elementError<Element: Decodable>(
        _ type: Element.Type, at index: Int, position: Int, arrayPath: CodingPathNode, _ error: any Error
    ) -> any Error {
        do {
            _ = try unwrap(Element.self, at: index, path: arrayPath.appending(index: position))
            return error
        } catch {
            return error
        }
    }

    /// Decodes an element of a collection. In `.lenient`, an object of which no property was
    /// present — every key the type asked for missing, and some of them defaulted — is refused:
    /// left out and reported as a dropped element, not invented from defaults (`{"garbage": true}`
    /// is not a `Label(id: 0, name: "")`), and so is such an object written as JSON text in a
    /// string (`"{}"`). An object whose missing properties are all optional decodes, as in
    /// Foundation.
    @inline(__always)
    func unwrapElement<Element: Decodable>(
        _ type: Element.Type, at index: Int, path: CodingPathNode, isCurrent: Bool = false
    ) throws -> Element {
        if tree[index].kind == .null, isLenient {
            return try unwrapNullElement(Element.self, at: index, path: path, isCurrent: isCurrent)
        }
        let found = keysFound
        let defaulted = missingValuesDefaulted
        let value = try unwrap(Element.self, at: index, path: path, isCurrent: isCurrent)
        if missingValuesDefaulted != defaulted, keysFound == found, isLenient, options.dropsInvalidElements,
            tree[index].kind == .object || tree[index].kind == .string
        {
            throw nothingPresent(Element.self, at: index, path: path)
        }
        return value
    }

    /// A `null` element: decoded as any element is, except that the enum coercions give it no
    /// ``CaseFallback`` case, which stands for a raw value the enum does not know. Such an element
    /// is left out and reported, as a `null` element of `Int` is, and a probe for such a list
    /// fails, as under Foundation; a type whose own `init(from:)` reads `null` still decodes it.
    /// (As a property, `null` still takes the fallback case: a property has a value.)
    @inline(never)
    private func unwrapNullElement<Element: Decodable>(
        _ type: Element.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> Element {
        let outer = nullElementNode
        nullElementNode = index
        defer { nullElementNode = outer }
        return try unwrap(Element.self, at: index, path: path, isCurrent: isCurrent)
    }

    @inline(never)
    func nothingPresent(_ type: Any.Type, at index: Int, path: CodingPathNode) -> DecodingError {
        var keys: [String] = []
        var keyIndex = index + 1
        let end = tree.next(after: index)
        while keyIndex < end, keys.count < 5 {
            keys.append("\"\(tree.string(at: keyIndex))\"")
            keyIndex = tree.next(after: keyIndex + 1)
        }
        let found = keys.isEmpty ? "an empty object" : "an object with only \(keys.joined(separator: ", "))"
        // A tagged enum's tag was read: what is missing is its payload's properties.
        let whose =
            type is any TaggedCodable.Type
            ? "the payload of the variant of \(TreeDecoder.describeType(type)) that the tag names"
            : TreeDecoder.describeType(type)
        return DecodingError.dataCorrupted(
            .init(
                codingPath: errorPath(path),
                debugDescription:
                    "None of the properties of \(whose) is present in \(found); an element is not made up of defaults."
            ))
    }

    /// An element of a lossy wrapper (``LossyArray``, ``LossyDictionary``), at the node this
    /// decoder points at: decoded as any value, or left out and reported as an element of a plain
    /// collection is, once, with nothing that was forgiven inside it.
    func decodeLossyElement<Value: Decodable>(_ type: Value.Type) -> Value? {
        let mark = reportMark
        do {
            return try unwrapElement(Value.self, at: nodeIndex, path: codingPathNode, isCurrent: true)
        } catch {
            rollbackReport(to: mark)
            recordDropped(error, path: codingPathNode, found: nodeIndex)
            return nil
        }
    }

    /// A ``LossyArray`` whose JSON is not an array: `null` is the empty array, JSON text in a
    /// string is parsed (in `.lenient`), and any other value becomes the one element it decodes
    /// to, or none. Each is reported as it would be for a plain array property: the default, the
    /// wrap, or the dropped element.
    func decodeLossyArrayFromSingleValue<Element: Decodable>(_ type: Element.Type) -> LossyArray<Element> {
        let index = nodeIndex
        let path = codingPathNode
        if tree[index].kind == .null {
            record(.defaulted, path: path, found: index, "Found null; used the default [].")
            return LossyArray(wrappedValue: [])
        }
        if let parsed = decodeCurrentJSONText(LossyArray<Element>.self) { return parsed }
        // The value stands for the array's first element, and its path says so: `items[0].n`.
        let elementPath = path.appending(index: 0)
        let mark = reportMark
        let element: Element
        do {
            element = try unwrapElement(Element.self, at: index, path: elementPath)
        } catch {
            rollbackReport(to: mark)
            recordDropped(error, path: elementPath, found: index)
            return LossyArray(wrappedValue: [])
        }
        // The wrap first, then what was forgiven inside the wrapped value.
        if let report {
            var wrap = DecodingIssue(
                path: path, jsonPath: jsonPath(of: index), kind: .coerced,
                message: "Wrapped \(describeFound(at: index)) in \([Element].self).", found: foundValue(at: index),
                origin: issueOrigin(node: index))
            fold(into: &wrap, issuesSince: mark, of: report)
            report.insert(wrap, at: mark)
        }
        return LossyArray(wrappedValue: [element])
    }

    /// A member of the ``LossyDictionary`` at this decoder's node that is left out, for a reason
    /// of its key (not one of the dictionary's keys, `"x"` for an `Int` key; or the same key as an
    /// earlier member's, `"04"` after `"4"`): reported as a dropped element.
    ///
    /// Returns the node of the member's value when it found it, for
    /// ``forgetIssues(since:insideValuesAt:)``.
    @discardableResult
    func recordDroppedMember(key: String, reason: String) -> Int? {
        guard report != nil else { return nil }
        // The key with its integer, if it has one, as Dictionary's own decoding names a member.
        var memberKey = AnyCodingKey(key)
        memberKey.intValue = Int(key)
        // The member's value, when the key as the container gave it is the key in the document
        // (a key strategy may have converted it).
        let valueIndex = tree[nodeIndex].kind == .object ? droppedMemberValue(key: key) : nil
        record(
            .droppedElement, path: codingPathNode.appending(memberKey), found: valueIndex,
            "Dropped member \(key.debugDescription): \(reason).")
        return valueIndex
    }

    /// Forgets what was forgiven inside members that a later spelling of their key then replaced
    /// (`"1": 255` coerced to `"255"`, then replaced by `"01"`): such a member is reported once, as
    /// dropped, not also for a value the result does not hold. Looks at the issues recorded since
    /// `mark` (the dictionary's own) once, whatever the number of members; in the document's own
    /// tree only, where an issue's origin is the node it forgave.
    func forgetIssues(since mark: Int, insideValuesAt values: [Int]) {
        guard let report, host == nil, !values.isEmpty, report.issues.count > mark else { return }
        let ranges = values.map { $0..<tree.next(after: $0) }.sorted { $0.lowerBound < $1.lowerBound }
        let ownTree = ObjectIdentifier(tree.nodes)
        func isInside(_ issue: DecodingIssue) -> Bool {
            guard let origin = issue.origin, origin.tree == ownTree else { return false }
            // The last range that starts at or before the node: ranges of members never nest.
            var low = 0
            var high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].lowerBound <= origin.node { low = middle + 1 } else { high = middle }
            }
            guard low > 0, ranges[low - 1].contains(origin.node) else { return false }
            // The entry that drops the member stays.
            return !(issue.kind == .droppedElement && origin.node == ranges[low - 1].lowerBound)
        }
        var kept = Array(report.issues[..<mark])
        kept.reserveCapacity(report.issues.count)
        for issue in report.issues[mark...] where !isInside(issue) { kept.append(issue) }
        report.issues = kept
    }

    /// The value of the first member of this decoder's object whose key is `key`: a scan in a
    /// small object, an index of its keys, made once, in a larger one, where a dictionary can
    /// drop thousands of members.
    private func droppedMemberValue(key: String) -> Int? {
        guard tree[nodeIndex].shortLength > MemberIndex.threshold else {
            return tree.findMember(in: nodeIndex, key: Array(key.utf8))
        }
        let index: MemberIndex
        if let built = occasional.droppedMemberIndex, built.object == nodeIndex {
            index = built.index
        } else {
            index = tree.wholeIndex(of: nodeIndex) { Array(tree.string(at: $0).utf8) }
            occasional.droppedMemberIndex = (nodeIndex, index)
        }
        return index.firstKey[Array(key.utf8)].map { $0 + 1 }
    }

    /// Records an element left out of a collection: `.rejected` when its hook refused it,
    /// `.droppedElement` otherwise.
    func recordDropped(_ error: any Error, path: CodingPathNode, found index: Int) {
        let reason = TreeDecoder.reason(error, under: path)
        if TreeDecoder.isRejection(error, at: path) {
            record(.rejected, path: path, found: index, "Left out the element: \(reason).")
        } else {
            record(.droppedElement, path: path, found: index, "Dropped element: \(reason).")
        }
    }

    /// A short reason for a failure, for report messages. Where the failure lies below `issuePath`,
    /// the path of the value the report entry is about, the reason names only the keys below it
    /// (`(at count)` in an entry about `items[2]`), and none when the failure is at the value
    /// itself: the entry already gives its path. Whole paths in every entry of a deep chain of
    /// forgiven values would make the report's text, and the time to write it, grow with the
    /// square of the depth.
    static func reason(_ error: any Error, under issuePath: CodingPathNode = .root) -> String {
        let text: String
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            text =
                context.debugDescription.hasPrefix("No value for key")
                ? context.debugDescription : "no value for key \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            var sentence = context.debugDescription
            if sentence.hasSuffix(".") { sentence.removeLast() }
            let keys = CodingPathNode.keys(of: context.codingPath, below: issuePath)
            text = keys.isEmpty ? sentence : "\(sentence) (at \(CodingPathNode.reportPath(of: keys)))"
        default:
            text = String(describing: error)
        }
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

extension Array: _LenientDecodingMarker where Element: Decodable {
    /// Not API: an array, read straight from the JSON array's elements.
    public static var _lenientDecodingRole: _LenientDecodingRole { _LenientDecodingRole(.collection(Self.self)) }
}

extension Array: LenientCollection where Element: Decodable {
    static func decodeElements(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> [Element] {
        // Arrays of the common scalars are built by code compiled for their element type: in code
        // generic over `Element`, making an array asks the runtime for its storage type's metadata
        // (about 600 instructions), which for the many short arrays of numbers in a document like
        // canada.json cost more than their elements. Each `unsafeBitCast` is from `[X]` to `[Element]`
        // just after `Element.self == X.self` was checked: the same type, so the same layout.
        if Element.self == Double.self {
            return unsafeBitCast(
                try buildScalars(Double.self, from: decoder, at: index, path: path), to: [Element].self)
        }
        if Element.self == Int.self {
            return unsafeBitCast(try buildScalars(Int.self, from: decoder, at: index, path: path), to: [Element].self)
        }
        if Element.self == String.self {
            return unsafeBitCast(
                try buildScalars(String.self, from: decoder, at: index, path: path), to: [Element].self)
        }
        if Element.self == Float.self {
            return unsafeBitCast(try buildScalars(Float.self, from: decoder, at: index, path: path), to: [Element].self)
        }
        if Element.self == Bool.self {
            return unsafeBitCast(try buildScalars(Bool.self, from: decoder, at: index, path: path), to: [Element].self)
        }
        return try build(Element.self, from: decoder, at: index, path: path)
    }

    /// The number of elements of the array node at `index`; Foundation's error for another kind of node.
    @inline(__always)
    private static func arrayLength(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Int {
        let node = decoder.tree[index]
        guard node.kind == .array else {
            throw decoder.containerMismatch(
                node, expected: [Any].self, container: "unkeyed decoding container", path: path.path)
        }
        return decoder.tree.count(of: index)
    }

    /// The elements of the array node at `index`, as an array of a scalar type named in the
    /// caller, so that this is compiled for it: `reserveCapacity` and `append` are then inlined
    /// with the array type's metadata known, where `init(unsafeUninitializedCapacity:)` would
    /// still ask the runtime for it inside the standard library.
    @inline(__always)
    private static func buildScalars<Value: Decodable>(
        _ type: Value.Type, from decoder: TreeDecoder, at index: Int, path: CodingPathNode
    ) throws -> [Value] {
        var elements: [Value] = []
        elements.reserveCapacity(try arrayLength(from: decoder, at: index, path: path))
        try decoder.forEachElement(of: Value.self, at: index, path: path) { elements.append($0) }
        return elements
    }

    /// The elements of the array node at `index`, as `[Value]`.
    @inline(__always)
    private static func build<Value: Decodable>(
        _ type: Value.Type, from decoder: TreeDecoder, at index: Int, path: CodingPathNode
    ) throws -> [Value] {
        let length = try arrayLength(from: decoder, at: index, path: path)
        // An empty array asks for no storage: `[]` needs no metadata, where the initializer
        // below looks up the array type's (about 400 instructions), and no element's path is
        // made. Documents are full of them (a status's `hashtags`, `symbols`, `urls`).
        if length == 0 { return [] }
        // Written through the buffer: in unspecialized code each `append` would look up the
        // array type's metadata again.
        return try [Value](unsafeUninitializedCapacity: length) { buffer, initializedCount in
            try decoder.forEachElement(of: Value.self, at: index, path: path) { element in
                (buffer.baseAddress! + initializedCount).initialize(to: element)
                initializedCount += 1
            }
        }
    }

    static var elementType: Any.Type { Element.self }

    static func wrapping(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> [Element] {
        [try decoder.unwrapElement(Element.self, at: index, path: path)]
    }
}

extension ContiguousArray: _LenientDecodingMarker where Element: Decodable {
    /// Not API: an array, read straight from the JSON array's elements.
    public static var _lenientDecodingRole: _LenientDecodingRole { _LenientDecodingRole(.collection(Self.self)) }
}

extension ContiguousArray: LenientCollection where Element: Decodable {
    static func decodeElements(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws
        -> ContiguousArray<Element>
    {
        var result: ContiguousArray<Element> = []
        result.reserveCapacity(decoder.tree.count(of: index))
        try decoder.forEachElement(of: Element.self, at: index, path: path) { result.append($0) }
        return result
    }

    static var elementType: Any.Type { Element.self }

    static func wrapping(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> ContiguousArray<
        Element
    > {
        [try decoder.unwrapElement(Element.self, at: index, path: path)]
    }
}

extension Set: _LenientDecodingMarker where Element: Decodable {
    /// Not API: a set, read straight from the JSON array's elements.
    public static var _lenientDecodingRole: _LenientDecodingRole { _LenientDecodingRole(.collection(Self.self)) }
}

extension Set: LenientCollection where Element: Decodable {
    static func decodeElements(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Set<Element> {
        var result = Set<Element>(minimumCapacity: decoder.tree.count(of: index))
        try decoder.forEachElement(of: Element.self, at: index, path: path) { result.insert($0) }
        return result
    }

    static var elementType: Any.Type { Element.self }

    static func wrapping(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Set<Element> {
        [try decoder.unwrapElement(Element.self, at: index, path: path)]
    }
}

extension CodingPathNode {
    /// A coding path written as the report writes paths.
    static func reportPath(of keys: ArraySlice<any CodingKey>) -> String {
        var node = CodingPathNode.root
        for key in keys { node = node.appending(key) }
        return node.reportPath
    }

    /// The keys of an error's coding path below `base`: all of them when the path does not pass
    /// through `base` (an error from JSON that a hook returned, say). Costs a walk of `base`.
    static func keys(of path: [any CodingKey], below base: CodingPathNode) -> ArraySlice<any CodingKey> {
        // An error built without its path (``TreeDecoder/elidesErrorPaths``) is about the value.
        guard !path.isEmpty else { return [] }
        let depth = base.depth
        guard depth > 0, depth <= path.count, base.lastKeyMatches(path[depth - 1]) else { return path[...] }
        return path[depth...]
    }

    /// Whether the last key of this path is `key`: the same element index, or the same name.
    private func lastKeyMatches(_ key: any CodingKey) -> Bool {
        switch self {
        case .root: false
        case .index(let index, _): key.intValue == index
        case .key(let own, _): own.stringValue == key.stringValue
        }
    }
}

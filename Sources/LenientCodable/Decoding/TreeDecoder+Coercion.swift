// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// The lenient paths of the decoder: the coercion table, defaults and their report entries.
///
/// Every function here runs only when a value is not in its type's own form (or is missing)
/// and the options forgive it; clean input never reaches this file.
extension TreeDecoder {
    // MARK: Report

    /// The number of issues recorded so far, to roll back to when a subtree is abandoned.
    @inline(__always)
    var reportMark: Int { report?.issues.count ?? 0 }

    /// Forgets the issues recorded inside a value that was then dropped or replaced.
    @inline(__always)
    func rollbackReport(to mark: Int) {
        guard let report, report.issues.count > mark else { return }
        report.issues.removeSubrange(mark...)
    }

    /// Records a forgiven value; the message is built only when a report is being collected.
    @inline(__always)
    func record(
        _ kind: DecodingIssue.Kind, path: CodingPathNode, found index: Int?,
        jsonPath: @autoclosure () -> JSONPathStep? = nil, missingIn object: (index: Int, key: String)? = nil,
        _ message: @autoclosure () -> String
    ) {
        guard let report else { return }
        report.record(
            kind, path: path, jsonPath: jsonPath() ?? index.map { self.jsonPath(of: $0) }, message: message(),
            found: index.map { foundValue(at: $0) },
            origin: issueOrigin(node: index ?? object?.index, missingKey: object?.key))
    }

    /// The value a report entry names as found: a container from the values this decoder built
    /// before, so that values forgiven inside each other (an object wrapped in a list at every
    /// level of a chain) build their JSON once in all, not their subtree at every level.
    func foundValue(at index: Int) -> JSONValue {
        tree[index].isContainer ? sharedJSONValue(at: index) : tree.value(at: index)
    }

    /// Where in the document a forgiven value is, for telling a value read twice from two values.
    /// In the document's own tree, its node; in a tree the decode built for one of its nodes
    /// (JSON text in a string, the JSON a hook or a transform returned), that node's origin with
    /// the node inside, and what built the tree (``subtreeProducer``): such trees come and go,
    /// and one's storage may take another's address, but the same text parsed again, or the
    /// same hook run again on the same value, gives the same nodes.
    func issueOrigin(node: Int?, missingKey: String? = nil) -> IssueOrigin? {
        guard let node else { return nil }
        guard let host else {
            return IssueOrigin(tree: ObjectIdentifier(tree.nodes), node: node, missingKey: missingKey)
        }
        guard var origin = host.decoder.issueOrigin(node: host.index) else { return nil }
        origin.within.append(.init(producer: subtreeProducer, node: node, missingKey: missingKey))
        return origin
    }

    /// Where a node of this decoder's tree is in the JSON, for the report: `books[2].ext.desc`.
    func jsonPath(of index: Int) -> JSONPathStep {
        // A super decoder reads its owner's tree: the owner's index serves it, built once for
        // the tree however many super decoders report from it.
        if let owner { return owner.jsonPath(of: index) }
        if let missing = missingMemberPath { return missing }
        let pathIndex = jsonPathIndex ?? makeJSONPathIndex()
        jsonPathIndex = pathIndex
        return pathIndex.step(of: index, in: tree, root: host.map { $0.decoder.jsonPath(of: $0.index) } ?? .root)
    }

    /// The index of ``jsonPath(of:)``, over the whole tree: built once per tree, on its first
    /// report entry.
    @inline(never)
    private func makeJSONPathIndex() -> JSONPathIndex {
        (owner ?? self).pathIndexedNodes += tree.nodes.count
        return JSONPathIndex(tree)
    }

    /// The JSON path of a member of an object of this decoder's tree, reached by `keys` (a key
    /// path's steps, keys or array indices), present or not: where a mapped property was found,
    /// or the first key looked for when it is missing.
    func jsonPath(ofObject objectIndex: Int, keys: [KeyBytes]) -> JSONPathStep {
        var step = jsonPath(of: objectIndex)
        for key in keys {
            if let position = key.index {
                step = JSONPathStep("[\(position)]", after: step)
            } else {
                step = step.appending(key: key.text)
            }
        }
        return step
    }

    /// The value at the current node as Foundation's decoder reads it: nothing forgiven and
    /// nothing reported, `nil` where Foundation fails. What a wrapper probes with when it reads
    /// a type other than its own (so that none of this decoder's coercions stands in for the
    /// wrapper's table: `1e400` is no `Bool`), and how a `CaseFallback` enum's raw value is read
    /// first.
    func readAsFoundation<T: Decodable>(_ type: T.Type) -> T? {
        let mark = reportMark
        defer { rollbackReport(to: mark) }
        return asFoundation { try? unwrap(T.self, at: nodeIndex, path: codingPathNode) }
    }

    /// Runs `body` as a Foundation-like pass, forgiving nothing, for a probe: the refusals it
    /// counts are its own, not those of a pass around it, and are forgotten after it.
    func asFoundation<R>(_ body: () -> R) -> R {
        let wasInPass = inFoundationPass
        let refusalsBefore = refusals
        inFoundationPass = true
        defer {
            inFoundationPass = wasInPass
            refusals = refusalsBefore
        }
        return body()
    }

    /// Whether the current node is a number.
    var currentNodeIsNumber: Bool { tree[nodeIndex].kind == .number }

    /// How a message names a JSON value: `string "3"`, `number 1.5`, `bool true`, `null`,
    /// `an object`, `an array`.
    func describeFound(at index: Int) -> String {
        switch tree[index].kind {
        case .null: return "null"
        case .true: return "bool true"
        case .false: return "bool false"
        case .number: return "number \(tree.numberText(at: index))"
        case .string: return "string \(tree.string(at: index).debugDescription)"
        case .invalid:
            let text = tree.invalidText(at: index)
            return tree[index].has(JSONNode.wasString)
                ? "string \(text.debugDescription) that is not valid JSON" : "number \(text) that is not valid JSON"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// How a message names a type: as written, except the package's internal request for a
    /// property declared as an optional wrapper, named as the wrapper.
    static func describeType(_ type: Any.Type) -> String {
        if let request = type as? any OptionalWrapperPropertyRequest.Type { return "\(request.wrapperType)" }
        return withoutDecodingAttempts("\(type)")
    }

    /// A type's name without the lossy collections' internal element type, which a
    /// `LossyDictionary` decodes its members as: `Dictionary<String, Decimal>`, not
    /// `Dictionary<String, DecodingAttempt<Decimal>>`.
    static func withoutDecodingAttempts(_ name: String) -> String {
        var name = name
        var searchFrom = name.startIndex
        while let start = name.range(of: "DecodingAttempt<", range: searchFrom..<name.endIndex) {
            // The package's type, not a name that ends the same way (`MyDecodingAttempt<Int>`).
            if start.lowerBound > name.startIndex {
                let before = name[name.index(before: start.lowerBound)]
                if before.isLetter || before.isNumber || before == "_" {
                    searchFrom = start.upperBound
                    continue
                }
            }
            var depth = 1
            var index = start.upperBound
            while index < name.endIndex {
                if name[index] == "<" { depth += 1 }
                if name[index] == ">" {
                    depth -= 1
                    if depth == 0 { break }
                }
                index = name.index(after: index)
            }
            guard index < name.endIndex else { break }
            name.remove(at: index)
            name.removeSubrange(start)
            searchFrom = name.startIndex
        }
        return name
    }

    /// How a message names a default: `""`, `0`, `[]`, `[:]`, or the value's description; one of
    /// the package's wrappers by the value it wraps (`["a"]`, not `Defaulted<…>(wrappedValue: …)`).
    static func describeDefault(_ value: Any) -> String {
        switch value {
        case let wrapper as any DescribedByWrappedValue: return describeDefault(wrapper.describedValue)
        case let text as String: return text.debugDescription
        case let collection as any Collection where collection.isEmpty:
            return value is [AnyHashable: Any] ? "[:]" : "[]"
        default: return String(describing: value)
        }
    }

    @inline(never)
    func cannotCoerce(_ type: Any.Type, at index: Int, path: CodingPathNode) -> DecodingError {
        if tree[index].kind == .null || tree[index].kind == .invalid {
            return typeMismatch(type, at: index, path: path)
        }
        return DecodingError.typeMismatch(
            type,
            .init(
                codingPath: errorPath(path), debugDescription: "Cannot coerce \(describeFound(at: index)) to \(type)."))
    }

    /// Whether the value counts as `null` for a type: `null` itself, or (for types other than
    /// `String`) a null-like string such as `"null"` or `"<null>"` when the options say so and no
    /// Foundation-like pass is under way.
    @inline(__always)
    func isNullish(at index: Int, for type: Any.Type) -> Bool {
        let node = tree[index]
        if node.kind == .null { return true }
        guard node.kind == .string, options.treatsNullLikeStringsAsNull, node.shortLength <= 12, type != String.self
        else {
            return false
        }
        return CoercionRules.isNullLike(tree.string(at: index)) && mayForgive()
    }

    // MARK: Scalars

    func coerceInteger<T: FixedWidthInteger>(at index: Int, path: CodingPathNode) throws -> T {
        let node = tree[index]
        switch node.kind {
        case .number where options.truncatesFractionsToIntegers:
            // Only a number Foundation's rules do not read comes here (a fraction, or an integer
            // past `Double`'s precision written with an exponent): forgiven either way.
            if let (value, truncated) = CoercionRules.integer(fromNumberText: tree.bytes(of: node), as: T.self) {
                let note = truncated ? " (fraction truncated)" : ""
                record(
                    .coerced, path: path, found: index,
                    "Coerced \(describeFound(at: index)) to \(T.self) \(value)\(note).")
                return value
            }
        case .string where options.coercesNumbersFromStrings:
            if let (value, truncated) = CoercionRules.integer(fromString: tree.string(at: index), as: T.self),
                !truncated || options.truncatesFractionsToIntegers
            {
                let note = truncated ? " (fraction truncated)" : ""
                record(
                    .coerced, path: path, found: index,
                    "Coerced \(describeFound(at: index)) to \(T.self) \(value)\(note).")
                return value
            }
        case .true where options.coercesNumbersFromBooleans, .false where options.coercesNumbersFromBooleans:
            let value: T = node.kind == .true ? 1 : 0
            record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to \(T.self) \(value).")
            return value
        default:
            break
        }
        throw cannotCoerce(T.self, at: index, path: path)
    }

    func coerceFloatingPoint<T: BinaryFloatingPoint>(at index: Int, path: CodingPathNode) throws -> T {
        let node = tree[index]
        switch node.kind {
        case .string where options.coercesNumbersFromStrings:
            let text = tree.string(at: index)
            if let double = CoercionRules.double(fromString: text) {
                let value = T.self == Float.self ? T(Float(text.trimmingForNumber) ?? Float(double)) : T(double)
                // As for a number: no infinity from finite text, and no zero from text with a
                // non-zero digit before its exponent (`"1e-50"` as a `Float`).
                let mantissa = text.prefix { $0 != "e" && $0 != "E" }
                let underflows = value == 0 && mantissa.contains { $0 >= "1" && $0 <= "9" }
                if (value.isFinite || !double.isFinite) && !underflows {
                    record(
                        .coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to \(T.self) \(value)."
                    )
                    if !value.isFinite { countNonFiniteCoercion() }
                    return value
                }
            }
        case .true where options.coercesNumbersFromBooleans, .false where options.coercesNumbersFromBooleans:
            let value: T = node.kind == .true ? 1 : 0
            record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to \(T.self) \(value).")
            return value
        default:
            break
        }
        throw cannotCoerce(T.self, at: index, path: path)
    }

    func coerceDecimal(at index: Int, path: CodingPathNode) throws -> Decimal {
        let node = tree[index]
        switch node.kind {
        case .string where options.coercesNumbersFromStrings:
            var text = CoercionRules.trimmed(tree.string(at: index))
            if text.hasPrefix("+") { text.removeFirst() }
            if CoercionRules.isNumberSyntax(text),
                let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            {
                record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to Decimal \(value).")
                return value
            }
        case .true where options.coercesNumbersFromBooleans, .false where options.coercesNumbersFromBooleans:
            let value: Decimal = node.kind == .true ? 1 : 0
            record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to Decimal \(value).")
            return value
        default:
            break
        }
        throw cannotCoerce(Decimal.self, at: index, path: path)
    }

    func coerceBool(at index: Int, path: CodingPathNode) throws -> Bool {
        let node = tree[index]
        guard options.coercesBooleans else { throw typeMismatch(Bool.self, at: index, path: path) }
        let value: Bool?
        switch node.kind {
        case .number:
            // Zero as its `Double` is, as Foundation reads the number for any other type: `1e-400`
            // is 0, so `false`, as `@Coerced` makes it under every decoder. A number too large for
            // a `Double` is not zero.
            let text = String(decoding: tree.bytes(of: node), as: UTF8.self)
            value = (Double(text) ?? .infinity) != 0
        case .string:
            value = CoercionRules.bool(fromString: tree.string(at: index))
        default:
            value = nil
        }
        guard let value else { throw cannotCoerce(Bool.self, at: index, path: path) }
        record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to Bool \(value).")
        return value
    }

    func coerceString(at index: Int, path: CodingPathNode) throws -> String {
        let node = tree[index]
        guard options.coercesStrings else { throw typeMismatch(String.self, at: index, path: path) }
        let value: String
        switch node.kind {
        case .number: value = tree.jsonNumberText(at: index)
        case .true: value = "true"
        case .false: value = "false"
        default: throw cannotCoerce(String.self, at: index, path: path)
        }
        record(
            .coerced, path: path, found: index,
            "Coerced \(describeFound(at: index)) to String \(value.debugDescription).")
        return value
    }

    /// Dates in lenient mode when no strategy was set: the options' format list, in order.
    func dateFromFormatList(at index: Int, path: CodingPathNode) throws -> Date {
        let node = tree[index]
        let formats = options.dateFormats
        switch node.kind {
        case .string:
            // Trimmed once for all the formats; patterns that `PatternReader` reads use the
            // context's readers.
            let text = CoercionRules.trimmed(tree.string(at: index))
            let readers = context.patternReaders
            for (position, format) in formats.enumerated() {
                if let reader = readers[position] {
                    if let date = DateFormat.writable(reader.date(from: text)) { return date }
                } else if let date = format.date(fromString: text) {
                    return date
                }
            }
        case .number:
            if let value = NumberConversion.double(tree.bytes(of: node), isInteger: node.has(JSONNode.isInteger)) {
                for format in formats {
                    if let date = format.date(fromNumber: value) { return date }
                }
                // No form reads the number as a date from the year 0 to 9999 (Unix time past
                // them, or a list without Unix time): Foundation's reading, seconds since 2001.
                return Date(timeIntervalSinceReferenceDate: value)
            }
        default:
            break
        }
        let tried = formats.map(\.description).joined(separator: ", ")
        throw DecodingError.typeMismatch(
            Date.self,
            .init(
                codingPath: errorPath(path),
                debugDescription: "Cannot read \(describeFound(at: index)) as a date in any of: \(tried)."))
    }

    // MARK: After a failure

    /// Second chances for a value whose own decoding failed: JSON text inside a string, a
    /// single value where a collection is expected, and enums' raw values, case-insensitive
    /// strings and fallback cases. Returns `nil` when none applies.
    ///
    /// - Throws: `failure`, told what went wrong inside, when the value is a string of JSON text
    ///   that could not be decoded as the type and nothing else applies.
    func coerceAfterFailure<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, failure: @autoclosure () -> any Error
    ) throws -> T? {
        let node = tree[index]
        var jsonTextFailure: (any Error)?
        if node.kind == .string, options.parsesJSONInStrings {
            switch decodeJSONText(T.self, at: index, path: path) {
            case .success(let value)?: return value
            case .failure(let error)?: jsonTextFailure = error
            case nil: break
            }
        }
        var wrapFailure: (error: any Error, elementPath: CodingPathNode)?
        let collection =
            options.wrapsSingleValuesInArrays && node.kind != .array && node.kind != .null
            ? T.self as? any LenientCollection.Type : nil
        let permission = collection.map { mayWrap(index, in: T.self, of: $0.elementType) } ?? .refused
        if permission == .allowed, let collection {
            let mark = reportMark
            activeWraps.append((index, ObjectIdentifier(T.self)))
            defer { activeWraps.removeLast() }
            // The value becomes the collection's first element, at that element's path. It is
            // wrapped only when it decodes as an element: a wrap never makes an empty array or an
            // element of defaults, so that a `try?` probe for a list still fails on what is none.
            let elementPath = path.appending(index: 0)
            do {
                if let value = try collection.wrapping(from: self, at: index, path: elementPath) as? T {
                    // The wrap first, then what was forgiven inside the wrapped value.
                    if let report {
                        var wrap = DecodingIssue(
                            path: path, jsonPath: jsonPath(of: index), kind: .coerced,
                            message: "Wrapped \(describeFound(at: index)) in \(Self.describeType(T.self)).",
                            found: foundValue(at: index), origin: issueOrigin(node: index))
                        fold(into: &wrap, issuesSince: mark, of: report)
                        report.insert(wrap, at: mark)
                    }
                    return value
                }
            } catch {
                wrapFailure = (error, elementPath)
            }
            rollbackReport(to: mark)
        }
        if options.coercesEnums, T.self is any RawRepresentable.Type,
            let value = coerceEnum(T.self, at: index, path: path)
        {
            return value
        }
        if let jsonTextFailure {
            // The JSON text decoded and its type's hook refused the value: a rejection, as for
            // the same JSON given directly.
            if TreeDecoder.isRejection(jsonTextFailure, at: path) { throw jsonTextFailure }
            throw TreeDecoder.explaining(failure(), byJSONTextFailure: jsonTextFailure, as: T.self)
        }
        if permission == .refusedForBudget, node.kind == .object {
            throw TreeDecoder.explaining(
                failure(), by: nil,
                reason:
                    "The object is not wrapped as the list's one element: this decode has spent the work it may spend decoding values again (objects wrapped in lists level in level, or a value wrapped again and again)."
            )
        }
        if let (wrapFailure, elementPath) = wrapFailure, node.kind == .object {
            // An object where a list is expected is almost surely the list's one element: say
            // why it is none, and a hook's refusal of it is the refusal of the value.
            if case DecodingError.dataCorrupted(let context) = wrapFailure,
                TreeDecoder.isRejection(wrapFailure, at: elementPath)
            {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: errorPath(path),
                        debugDescription: "\(context.debugDescription) (the object, as the one element of \(T.self))",
                        underlyingError: wrapFailure))
            }
            throw TreeDecoder.explaining(failure(), byWrapFailure: wrapFailure, as: T.self)
        }
        return nil
    }

    /// Takes into `issue` what was forgiven since `mark` of the same JSON value — the text's top
    /// value wrapped in an array, a wrapped number truncated to an `Int`, a wrap inside a wrap, a
    /// wrapped string that became an enum's fallback case: one value forgiven step by step is one
    /// issue, whose message says each step, `defaulted` if a step was. (Issues of the value's
    /// parts, such as a member of a wrapped object, stay as they are.)
    func fold(into issue: inout DecodingIssue, issuesSince mark: Int, of report: ReportCollector) {
        guard mark < report.issues.count else { return }
        var position = mark
        while position < report.issues.count {
            let other = report.issues[position]
            guard other.kind == .coerced || other.kind == .defaulted, isAtSamePlace(other, as: issue) else {
                position += 1
                continue
            }
            issue.absorb(other)
            report.issues.remove(at: position)
        }
    }

    /// Whether two issues are about the same place in the JSON: the same node where both name one
    /// of the document's own tree, the same written JSON path otherwise (counted in
    /// ``jsonPathsCompared``).
    private func isAtSamePlace(_ issue: DecodingIssue, as other: DecodingIssue) -> Bool {
        if let same = issue.isAtSameNode(as: other) { return same }
        jsonPathsCompared &+= 1
        return issue.jsonPath == other.jsonPath
    }

    /// `failure` with the reason the string's JSON text could not stand in for the value: the
    /// error a user would otherwise never see, named in the description and kept as the
    /// underlying error.
    @inline(never)
    static func explaining(_ failure: any Error, byJSONTextFailure inner: any Error, as type: Any.Type) -> any Error {
        explaining(
            failure, by: inner,
            reason: "The string holds JSON text that cannot be decoded as \(type): \(shortReason(inner)).")
    }

    /// The reason of an inner failure, cut at 500 characters: JSON text inside JSON text (or a
    /// hook that returns JSON text again each time) explains each level by the one inside it, and
    /// whole reasons would make the message grow with the square of the depth.
    static func shortReason(_ error: any Error) -> String {
        let reason = TreeDecoder.reason(error)
        guard reason.utf8.count > 500 else { return reason }
        return String(reason.prefix(500)) + "…"
    }

    /// `failure` with the reason an object could not be wrapped as the one element of `type`.
    static func explaining(_ failure: any Error, byWrapFailure inner: any Error, as type: Any.Type) -> any Error {
        explaining(
            failure, by: inner,
            reason: "As the one element of \(type), the object cannot be decoded either: \(shortReason(inner)).")
    }

    /// `failure` with `reason` added to its description, and `inner` (when there is one) as its
    /// underlying error.
    static func explaining(_ failure: any Error, by inner: (any Error)?, reason: String) -> any Error {
        func explained(_ context: DecodingError.Context) -> DecodingError.Context {
            .init(
                codingPath: context.codingPath, debugDescription: "\(context.debugDescription) \(reason)",
                underlyingError: inner ?? context.underlyingError)
        }
        switch failure {
        case DecodingError.typeMismatch(let type, let context):
            return DecodingError.typeMismatch(type, explained(context))
        case DecodingError.valueNotFound(let type, let context):
            return DecodingError.valueNotFound(type, explained(context))
        case DecodingError.keyNotFound(let key, let context):
            return DecodingError.keyNotFound(key, explained(context))
        case DecodingError.dataCorrupted(let context):
            return DecodingError.dataCorrupted(explained(context))
        default:
            return failure
        }
    }

    /// Whether the value at `index` may be wrapped in a collection of `elementType`: not when that
    /// would decode it again as a type whose decode of this very value is under way, which is how
    /// a type that probes `try? container.decode([Self].self)` in its own `init(from:)` would
    /// recurse without end. Such a type sees Foundation's answer instead: the probe fails.
    private func mayWrap(_ index: Int, in collection: Any.Type, of elementType: Any.Type) -> WrapPermission {
        // The model whose own decoding asked for the collection, at this same value.
        if nodeIndex == index, let currentType, currentType == elementType { return .refused }
        // A chain through other types back to a wrap already under way at this value.
        let id = ObjectIdentifier(collection)
        guard !activeWraps.contains(where: { $0.index == index && $0.type == id }) else { return .refused }
        // Wrapping an object decodes it again, perhaps right after a probe decoded it as the
        // element type: the retry budget pays for it, its whole subtree, and once spent objects
        // and arrays are no longer wrapped, so that probing for a list at every level of a value
        // its parent decodes twice costs time linear in the document. (A chain of objects each
        // wrapped in a list spends it too, level after level: past a few levels, the rest of the
        // chain is not wrapped, and the property that needed it says so when it takes its default.)
        return spendRetryBudget(on: index) ? .allowed : .refusedForBudget
    }

    /// Whether ``mayWrap(_:in:of:)`` lets a value be wrapped, and if not, whether because the
    /// retry budget is spent (which the property's error then says).
    enum WrapPermission {
        case allowed, refused, refusedForBudget
    }

    /// The value at the current node, when it is a string holding JSON text of an array or object
    /// that decodes as the type and the options parse such text; recorded as a coercion.
    func decodeCurrentJSONText<T: Decodable>(_ type: T.Type) -> T? {
        guard isLenient, options.parsesJSONInStrings, tree[nodeIndex].kind == .string,
            case .success(let value)? = decodeJSONText(T.self, at: nodeIndex, path: codingPathNode)
        else { return nil }
        return value
    }

    /// Decodes a string that holds JSON text (`"{\"a\":1}"`) as the type, from its own tree.
    ///
    /// - Returns: `nil` when the string does not hold an object or array; otherwise the value, or
    ///   why the text could not be parsed or decoded as the type.
    private func decodeJSONText<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode) -> Result<
        T, any Error
    >? {
        let text = tree.string(at: index)
        guard let first = text.utf8.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
            first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        else { return nil }
        var utf8 = Array(text.utf8)
        return utf8.withUnsafeMutableBufferPointer { buffer -> Result<T, any Error> in
            // One nesting budget for the whole decode: the text's levels count from the string's.
            let options = JSONParser.Options(
                allowsTrailingCommas: settings.options.allowsTrailingCommas,
                defersValueErrors: settings.options.defersValueValidation && !settings.allowsJSON5,
                maximumDepth: remainingDepth(at: index))
            let innerTree: JSONTree
            do {
                innerTree = try JSONParser.parse(UnsafeBufferPointer(buffer), options: options)
            } catch {
                return .failure(error)
            }
            let mark = reportMark
            do {
                let value = try withInnerDecoder(over: innerTree, replacing: index, path: path, addsAllowance: true) {
                    inner in
                    try inner.unwrap(T.self, at: 0, path: path)
                }
                if let report {
                    var parsed = DecodingIssue(
                        path: path, jsonPath: jsonPath(of: index), kind: .coerced,
                        message: "Parsed the JSON text in a string as \(Self.describeType(T.self)).",
                        found: .string(text),
                        origin: issueOrigin(node: index))
                    fold(into: &parsed, issuesSince: mark, of: report)
                    report.insert(parsed, at: mark)
                }
                return .success(value)
            } catch {
                rollbackReport(to: mark)
                return .failure(error)
            }
        }
    }

    func coerceEnum<T>(_ type: T.Type, at index: Int, path: CodingPathNode) -> T? {
        let node = tree[index]
        let raw: String
        switch node.kind {
        case .string: raw = CoercionRules.trimmed(tree.string(at: index))
        case .number: raw = tree.jsonNumberText(at: index)
        case .true: raw = "true"
        case .false: raw = "false"
        default: raw = ""
        }
        let shape = EnumShape.of(T.self)
        if let stringEnum = shape.stringEnum, let value = Self.enumCase(stringEnum, shape: shape, matching: raw) as? T {
            record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to \(T.self) \(value).")
            return value
        }
        if let intEnum = shape.intEnum,
            let (number, truncated) = CoercionRules.integer(fromString: raw, as: Int.self), !truncated,
            let value = intEnum.init(rawValue: number) as? T
        {
            record(.coerced, path: path, found: index, "Coerced \(describeFound(at: index)) to \(T.self) \(value).")
            return value
        }
        // A `null` element is left out rather than made the fallback (``unwrapNullElement(_:at:path:isCurrent:)``).
        if index != nullElementNode, let fallback = shape.fallback, let value = fallback.fallbackCase as? T {
            record(
                .defaulted, path: path, found: index,
                "Unknown value \(describeFound(at: index)) for \(T.self); used the fallback case \(value).")
            return value
        }
        return nil
    }

    /// The case of a string enum whose raw value matches ignoring case.
    private static func enumCase(_ type: any RawRepresentable<String>.Type, shape: EnumShape, matching raw: String)
        -> Any?
    {
        if let exact = type.init(rawValue: raw) { return exact }
        if let cases = shape.casesByLowercasedRawValue { return cases[raw.lowercased()] }
        // Without the list of cases, try the spellings servers use for the same name.
        let camel = raw.prefix(1).lowercased() + raw.dropFirst()
        for spelling in [raw.lowercased(), raw.uppercased(), camel, raw.capitalized] {
            if let value = type.init(rawValue: spelling) { return value }
        }
        return nil
    }
}

/// What ``TreeDecoder/coerceEnum(_:at:path:)`` asks of a type, asked once per type and process:
/// casts to protocols with a primary associated type (`any RawRepresentable<String>.Type`) are
/// among the runtime's slowest, thousands of instructions each, and the runtime does not remember
/// their answers.
struct EnumShape {
    let stringEnum: (any RawRepresentable<String>.Type)?
    let intEnum: (any RawRepresentable<Int>.Type)?
    let fallback: (any CaseFallback.Type)?
    /// For a `CaseIterable` string enum, its cases by their raw values lowercased; the first of
    /// cases whose raw values differ only in case.
    let casesByLowercasedRawValue: [String: Any]?

    private static let lock = NSLock()
    // Read and written only while `lock` is held; one entry per type that a value was coerced
    // to as an enum, which the process's types bound.
    nonisolated(unsafe) private static var shapes: [ObjectIdentifier: EnumShape] = [:]

    static func of(_ type: Any.Type) -> EnumShape {
        let id = ObjectIdentifier(type)
        lock.lock()
        let known = shapes[id]
        lock.unlock()
        if let known { return known }
        let stringEnum = type as? any RawRepresentable<String>.Type
        var cases: [String: Any]?
        if stringEnum != nil, let iterable = type as? any CaseIterable.Type {
            var byName: [String: Any] = [:]
            for candidate in iterable.allCases as any Collection {
                if let value = candidate as? any RawRepresentable<String> {
                    let lowered = value.rawValue.lowercased()
                    if byName[lowered] == nil { byName[lowered] = value }
                }
            }
            cases = byName
        }
        let shape = EnumShape(
            stringEnum: stringEnum, intEnum: type as? any RawRepresentable<Int>.Type,
            fallback: type as? any CaseFallback.Type, casesByLowercasedRawValue: cases)
        lock.lock()
        shapes[id] = shape
        lock.unlock()
        return shape
    }
}

extension String {
    /// The text trimmed of white space and a leading `+`, for `Float`'s own parser.
    fileprivate var trimmingForNumber: String {
        var text = CoercionRules.trimmed(self)
        if text.hasPrefix("+") { text.removeFirst() }
        return text
    }
}

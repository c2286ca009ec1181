// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Dictionaries read from a JSON object's members.
///
/// `[String: Value]` is decoded straight from the members, as Foundation does: its keys are data,
/// so the key decoding strategy does not apply to them. Other keys (`Int`, a
/// `CodingKeyRepresentable` type) go through `Dictionary`'s own `init(from:)`, as under
/// Foundation, except in `.lenient` outside a Foundation-like pass: there a member whose key is
/// not a key of the dictionary, or whose value fails, is left out and reported, as for
/// `[String: Value]`, instead of failing the whole dictionary — or being defaulted, as the
/// keyed container that `init(from:)` reads would default a property.
///
/// Whether a dictionary reads the members itself is asked apart from reading them, so that the
/// generic code that calls both never mentions `T?`, whose metadata it would look up on every
/// value it decodes.
protocol DictionaryDecodable: _LenientDecodingMarker {
    /// Whether ``decodeMembers(from:at:path:)`` reads the dictionary now; otherwise it is decoded
    /// through its own `init(from:)`.
    static func readsMembers(in decoder: TreeDecoder) -> Bool
    static func decodeMembers(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Self
}

extension DictionaryDecodable {
    /// ``decodeMembers(from:at:path:)`` returned as `T`, the type the traits found to be `Self`,
    /// without a dynamic cast.
    static func decodeMembers<T>(as type: T.Type, from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws
        -> T
    {
        unsafeBitCast(try decodeMembers(from: decoder, at: index, path: path), to: T.self)
    }
}

extension Dictionary: _LenientDecodingMarker where Key: Decodable, Value: Decodable {
    /// Not API: a dictionary, read from the JSON object's members.
    public static var _lenientDecodingRole: _LenientDecodingRole {
        _LenientDecodingRole(.dictionary(Self.self))
    }
}

extension Dictionary: DictionaryDecodable where Key: Decodable, Value: Decodable {
    static func readsMembers(in decoder: TreeDecoder) -> Bool {
        Key.self == String.self || readsOtherKeys(in: decoder)
    }

    static func decodeMembers(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws -> Self {
        guard Key.self == String.self else { return try decodeOtherKeys(from: decoder, at: index, path: path) }
        // The common values, built by code compiled for their type: in this unspecialized code
        // every lookup and insertion would ask the runtime for the dictionary type's metadata.
        // `unsafeBitCast` converts between a type and itself, just after `Key.self == String.self`
        // and `Value.self == X.self`.
        if Value.self == Int.self {
            return unsafeBitCast(try buildMembers(Int.self, from: decoder, at: index, path: path), to: Self.self)
        }
        if Value.self == String.self {
            return unsafeBitCast(try buildMembers(String.self, from: decoder, at: index, path: path), to: Self.self)
        }
        if Value.self == Double.self {
            return unsafeBitCast(try buildMembers(Double.self, from: decoder, at: index, path: path), to: Self.self)
        }
        if Value.self == Bool.self {
            return unsafeBitCast(try buildMembers(Bool.self, from: decoder, at: index, path: path), to: Self.self)
        }
        // A dictionary value as its own type: it owns its storage, and the cast keeps nothing else alive.
        return unsafeBitCast(try buildMembers(Value.self, from: decoder, at: index, path: path), to: Self.self)
    }

    /// Whether a dictionary whose keys are not strings is read here rather than by its own
    /// `init(from:)`: in `.lenient`, for keys that a JSON object's keys convert to, member by
    /// member outside a Foundation-like pass; and when a report is collected, also inside one,
    /// to report the members that another spelling of their key replaced.
    @inline(never)
    private static func readsOtherKeys(in decoder: TreeDecoder) -> Bool {
        decoder.isLenient
            && (decoder.report != nil || (!decoder.inFoundationPass && decoder.options.dropsInvalidElements))
            && Key.self is any (CodingKeyRepresentable & Hashable & Decodable).Type
    }

    /// A dictionary whose keys are not strings, read member by member as ``LossyDictionary``
    /// reads one, leaving out and reporting what fails (``readsOtherKeys(in:)`` said so).
    @inline(never)
    private static func decodeOtherKeys(from decoder: TreeDecoder, at index: Int, path: CodingPathNode) throws
        -> Self
    {
        guard let keyType = Key.self as? any (CodingKeyRepresentable & Hashable & Decodable).Type else {
            // Not reached (`readsMembers(in:)` asked the same): the dictionary's own decoding.
            return try decoder.withNode(index, path: path) { try Self(from: $0) }
        }
        guard decoder.inFoundationPass || !decoder.options.dropsInvalidElements else {
            return try decodeLossily(keyType, from: decoder, at: index, path: path)
        }
        // The dictionary's own decoding, in which the last of members whose keys convert to the
        // same key wins (`"1"` and `"01"`); the members it replaced are reported, as the lossy
        // reading reports them, rather than lost without a word.
        return try decoder.withNode(index, path: path) { inner in
            let mark = inner.reportMark
            let dictionary = try Self(from: inner)
            if dictionary.count < inner.tree.count(of: index) {
                inner.forgetIssues(since: mark, insideValuesAt: reportReplacedMembers(keyType, in: inner))
            }
            return dictionary
        }
    }

    /// Reports each member of the decoder's object whose key a later member's converts to;
    /// returns the nodes of their values.
    private static func reportReplacedMembers<K: CodingKeyRepresentable & Hashable>(
        _ keyType: K.Type, in decoder: TreeDecoder
    ) -> [Int] {
        var replaced: [Int] = []
        let tree = decoder.tree
        let object = decoder.nodeIndex
        let end = tree[object].containerEnd
        var spellings: [K: String] = [:]
        var keyIndex = object + 1
        while keyIndex < end {
            let text = TreeDecoder.KeyedContainer<AnyCodingKey>.convert(
                tree.string(at: keyIndex), strategy: decoder.settings.keyDecodingStrategy,
                path: decoder.codingPathNode)
            var codingKey = AnyCodingKey(text)
            codingKey.intValue = Int(text)
            if let key = K(codingKey: codingKey) {
                // The same text again is no entry of its own (the first of duplicate keys wins, as
                // for any object); another spelling replaces the earlier entry.
                if let earlier = spellings[key], earlier != text,
                    let value = decoder.recordDroppedMember(
                        key: earlier, reason: "a later member, \(text.debugDescription), has the same key")
                {
                    replaced.append(value)
                }
                if spellings[key] != text { spellings[key] = text }
            }
            keyIndex = tree.next(after: keyIndex + 1)
        }
        return replaced
    }

    /// The members as ``LossyDictionary`` decodes them; `K` is `Key`, opened from an existential.
    private static func decodeLossily<K: CodingKeyRepresentable & Hashable & Decodable>(
        _ keyType: K.Type, from decoder: TreeDecoder, at index: Int, path: CodingPathNode
    ) throws -> Self {
        let lossy = try decoder.withNode(index, path: path) { try LossyDictionary<K, Value>(from: $0) }
        // `[K: Value]` is `Self` (`K` is `Key`): the dictionary owns its storage, which outlives the
        // decoder and the wrapper it came from; the cast keeps nothing else alive.
        return unsafeBitCast(lossy.wrappedValue, to: Self.self)
    }

    /// The members of the object node at `index`, as `[String: Member]`.
    @inline(__always)
    private static func buildMembers<Member: Decodable>(
        _ type: Member.Type, from decoder: TreeDecoder, at index: Int, path: CodingPathNode
    ) throws -> [String: Member] {
        let tree = decoder.tree
        let node = tree[index]
        guard node.kind == .object else {
            throw decoder.containerMismatch(
                node, expected: [String: Any].self, container: "keyed decoding container", path: path.path)
        }
        var result: [String: Member] = [:]
        result.reserveCapacity(tree.count(of: index))
        var keyIndex = index + 1
        let end = node.containerEnd
        let box = PathBox(path)
        // The keys whose first member was dropped: a repeated member is not read in its place.
        var droppedKeys: Set<String> = []
        // A dictionary that fails is not decoded: what its members before the failure recorded goes too.
        let dictionaryMark = decoder.reportMark
        while keyIndex < end {
            let valueIndex = keyIndex + 1
            let key = tree.string(at: keyIndex)
            // The first of duplicate keys wins, whether it is kept or dropped.
            if result[key] == nil && (droppedKeys.isEmpty || !droppedKeys.contains(key)) {
                let valuePath = box.appending(MemberKey(key))
                let mark = decoder.reportMark
                do {
                    result[key] = try decoder.unwrapElement(Member.self, at: valueIndex, path: valuePath)
                } catch  where decoder.options.dropsInvalidElements && decoder.mayForgive() {
                    decoder.rollbackReport(to: mark)
                    decoder.recordDropped(error, path: valuePath, found: valueIndex)
                    droppedKeys.insert(key)
                } catch {
                    decoder.rollbackReport(to: dictionaryMark)
                    throw error
                }
            } else if decoder.decodesRepeatedMembers {
                // Foundation's decoding under a key strategy that converts keys reads every
                // member, the repeated ones too, and fails on one it cannot read.
                try decoder.decodeRepeatedMember(Member.self, at: valueIndex, path: box.appending(MemberKey(key)))
            } else if decoder.readsRepeatedMembersAsFoundation {
                decoder.forgiveRepeatedMember(
                    Member.self, key: key, at: valueIndex, path: box.appending(MemberKey(key)))
            }
            keyIndex = tree.next(after: valueIndex)
        }
        return result
    }
}

extension TreeDecoder {
    /// Whether a `[String: T]` decodes the values of repeated keys too, which it then leaves out:
    /// as Foundation's decoder does under a key strategy that converts keys, where a repeated
    /// member it cannot read fails the decode (`{"a": 1, "a": "x"}` as `[String: Int]`). Outside
    /// the lenient decoder's own pass, which forgives it; with the default keys Foundation reads
    /// the first member only.
    var decodesRepeatedMembers: Bool {
        if case .useDefaultKeys = settings.keyDecodingStrategy { return false }
        return !isLenient || inFoundationPass
    }

    /// Whether the lenient decoder's own pass reads a repeated member of a `[String: T]` as
    /// Foundation's decoder would, to report the one it would fail on (``forgiveRepeatedMember(_:key:at:path:)``).
    var readsRepeatedMembersAsFoundation: Bool {
        if case .useDefaultKeys = settings.keyDecodingStrategy { return false }
        return isLenient && !inFoundationPass
    }

    /// Decodes a repeated member of a `[String: T]` as Foundation's decoder does under a key
    /// strategy that converts keys, to fail where it fails: without loose matching, which it
    /// does not know, inside the member either.
    @inline(never)
    func decodeRepeatedMember<Member: Decodable>(_ type: Member.Type, at index: Int, path: CodingPathNode) throws {
        let wasSuppressing = suppressesLooseMatching
        suppressesLooseMatching = true
        defer { suppressesLooseMatching = wasSuppressing }
        _ = try unwrapElement(Member.self, at: index, path: path)
    }

    /// A repeated member of a `[String: T]` under a key strategy that converts keys, in the
    /// lenient decoder's own pass: the dictionary keeps the first member, as it does with the
    /// default keys, and a repeated one that Foundation's decoder cannot read (and so fails the
    /// decode on) is reported as left out.
    @inline(never)
    func forgiveRepeatedMember<Member: Decodable>(_ type: Member.Type, key: String, at index: Int, path: CodingPathNode)
    {
        let mark = reportMark
        // Foundation's decoder matches no other spelling of a key inside the member either.
        let wasSuppressing = suppressesLooseMatching
        suppressesLooseMatching = true
        let outcome = asFoundation { Result { try unwrapElement(Member.self, at: index, path: path) } }
        suppressesLooseMatching = wasSuppressing
        rollbackReport(to: mark)
        guard case .failure(let error) = outcome else { return }
        record(
            .droppedElement, path: path, found: index,
            "Left out the repeated member \(key.debugDescription), which the key strategy reads as the same key: \(TreeDecoder.reason(error, under: path))."
        )
    }

    /// Decodes any `Decodable` from a node: the standard types directly, the types that
    /// Foundation treats specially (dates, data, URLs, decimals, string-keyed dictionaries)
    /// through the strategies, and everything else through its `init(from:)`.
    ///
    /// - Parameters:
    ///   - index: The node to decode.
    ///   - path: The coding path of that node.
    ///   - isCurrent: Whether the decoder already points at the node (a single-value container
    ///     decoding its own value).
    @inline(__always)
    func unwrap<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool = false) throws -> T
    {
        // The standard scalars, compared by metatype: one pointer comparison each.
        if T.self == String.self { return reinterpret(try unwrapString(at: index, path: path), as: T.self) }
        if T.self == Int.self { return reinterpret(try unwrapInteger(at: index, path: path) as Int, as: T.self) }
        if T.self == Double.self { return reinterpret(try unwrapDouble(at: index, path: path), as: T.self) }
        if T.self == Bool.self { return reinterpret(try unwrapBool(at: index, path: path), as: T.self) }
        return try unwrapComposite(type, at: index, path: path, isCurrent: isCurrent)
    }

    /// Every type but the four most common scalars, sorted by the traits cached for it.
    private func unwrapComposite<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool)
        throws -> T
    {
        let traits = traits(of: T.self)
        switch traits.kind {
        case .model:
            break
        case .float, .int64, .date, .data, .url, .decimal, .jsonValue:
            return try unwrapOtherScalar(type, kind: traits.kind, at: index, path: path)
        case .dictionary(let dictionaryType):
            if tree[index].kind == .object && dictionaryType.readsMembers(in: self) {
                return try dictionaryType.decodeMembers(as: T.self, from: self, at: index, path: path)
            }
        case .collection(let collectionType):
            if tree[index].kind == .array {
                return try collectionType.decodeElements(as: T.self, from: self, at: index, path: path)
            }
        case .converted:
            return try unwrapConvertingSlowPath(type, at: index, path: path, isCurrent: isCurrent)
        }
        if isLenient {
            // A model whose unread keys nobody reports: its own decoding, then, if that fails,
            // the coercion table's second chances, without another call on the way in.
            guard case .model = traits.kind, readKeys == nil else {
                return try unwrapLenientSlowPath(type, at: index, path: path, isCurrent: isCurrent)
            }
            let mark = reportMark
            do {
                return try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
            } catch {
                guard mayForgive() else { throw error }
                return try secondChance(type, after: error, at: index, path: path, reportMark: mark)
            }
        }
        if readKeys != nil { return try decodeReportingUnknownKeys(type, at: index, path: path, isCurrent: isCurrent) }
        return try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
    }

    /// A model decoded without forgiveness while unknown keys are reported: what it leaves
    /// unread in its object is reported once it is decoded, as in `.lenient`.
    @inline(never)
    private func decodeReportingUnknownKeys<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        let traits = traits(of: T.self)
        let value = try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
        if !traits.isForgivingWrapper { reportUnreadKeysOfModel(at: index, path: path) }
        return value
    }

    /// The scalars that ``unwrapComposite(_:at:path:isCurrent:)`` does not read itself, in a
    /// function of their own: their values would take room in its frame, which models stack
    /// once per nesting level.
    @inline(never)
    private func unwrapOtherScalar<T: Decodable>(
        _ type: T.Type, kind: TypeTraits.Kind, at index: Int, path: CodingPathNode
    )
        throws -> T
    {
        switch kind {
        case .float: return reinterpret(try unwrapFloat(at: index, path: path), as: T.self)
        case .int64: return reinterpret(try unwrapInteger(at: index, path: path) as Int64, as: T.self)
        case .date: return reinterpret(try unwrapDate(at: index, path: path), as: T.self)
        case .data: return reinterpret(try unwrapData(at: index, path: path), as: T.self)
        case .url: return reinterpret(try unwrapURL(at: index, path: path), as: T.self)
        case .decimal: return reinterpret(try unwrapDecimal(at: index, path: path), as: T.self)
        default:
            if readKeys != nil { markSubtreeRead(index) }
            return reinterpret(try decodedJSONValue(at: index, path: path), as: T.self)
        }
    }

    /// The type as a wrapper that gives defaults, looked up apart so that the traits take no room
    /// in the frame of an optional property, which every nesting level stacks.
    @inline(never)
    static func defaultingWrapper(of type: Any.Type, in decoder: TreeDecoder) -> (any DefaultingWrapper.Type)? {
        decoder.traits(of: type).defaultingWrapper
    }

    /// Decodes a type through its `init(from:)`, with its hooks when it has any.
    @inline(__always)
    func decodeModel<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool, traits: TypeTraits
    ) throws -> T {
        if traits.isForgivingWrapper, inFoundationPass {
            return try decodeOutsideFoundationPass(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
        }
        if traits.needsRawJSON { return try unwrapWithHooks(type, at: index, path: path, isCurrent: isCurrent) }
        return try decodeWithInit(type, at: index, path: path, isCurrent: isCurrent)
    }

    /// One of the package's wrappers met in a Foundation-like pass: it forgives on purpose, as it
    /// does under Foundation's decoder, so the pass stops at its value and resumes after it.
    @inline(never)
    private func decodeOutsideFoundationPass<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool, traits: TypeTraits
    ) throws -> T {
        inFoundationPass = false
        defer { inFoundationPass = true }
        return try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
    }

    ///
    /// In `.lenient`, a type decodes its value first as Foundation would: nothing is forgiven in
    /// its whole value, inside the types it decodes included (see ``inFoundationPass``). A type
    /// that probes (`if let list = try? c.decode([Item].self) … else …`, `try? c.decode(Int.self,
    /// forKey: .id)`) so takes Foundation's branch, and a type that Foundation decodes gets
    /// Foundation's value. Only when that pass fails after something was refused does the type
    /// decode again with forgiveness: forgiveness starts where Foundation fails. The types inside
    /// then take passes of their own, except those already known to fail one.
    @inline(__always)
    func decodeWithInit<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool) throws -> T
    {
        guard isLenient else { return try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent) }
        // A super decoder made in a pass that ended with the decode still says it is in one: kept,
        // it reads a model in passes of its own (``decodeInLatePass(_:at:path:isCurrent:)``).
        if inFoundationPass, probeHost == nil || !isAfterDecode {
            return try decodeInFoundationPass(type, at: index, path: path, isCurrent: isCurrent)
        }
        return try decodeFoundationFirst(type, at: index, path: path, isCurrent: isCurrent)
    }

    /// A type inside a Foundation-like pass: decoded as part of it, and remembered when it fails
    /// after a refusal, so that the second pass of the enclosing type does not try it strictly again.
    @inline(__always)
    private func decodeInFoundationPass<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        if let error = foundationFailure(of: T.self, at: index) {
            return try decodeAfterRememberedFailure(type, error, at: index, path: path, isCurrent: isCurrent)
        }
        let before = refusals
        let mark = reportMark
        let looseBefore = looseMatches
        let looseFailuresBefore = looseFailures
        let logged = (callLogCount, logsCalls)
        modelLevel &+= 1
        defer { modelLevel &-= 1 }
        do {
            // A call inside that failed on a value found under another spelling and was caught
            // (``looseFailures``) is answered for by the outermost type of the pass, once
            // (``decodeFoundationFirstOnce(_:at:path:isCurrent:)``): looking here would cost every
            // value of every document a copy of its value.
            return try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent)
        } catch {
            // A value that was not decoded leaves nothing in the report (a probe's `try?`).
            rollbackReport(to: mark)
            // No `try?` here: an optional of `T` would have this generic function look up its
            // metadata on every call.
            if looseMatches != looseBefore, !suppressesLooseMatching, !withdrawsLooseMatching {
                // Past the retry budget, Foundation's value, and no loose matching from here on.
                if retryBudget <= 0 || looseBookkeepingBudget <= 0 { prepareFoundationsOnlyRetry(on: index) }
                do {
                    let value = try decodeAfterFailedLooseMatch(
                        type, failure: error, at: index, path: path, isCurrent: isCurrent, refusalsBefore: before,
                        logged: logged)
                    // Its loose matches answered for here: no type around it need look again.
                    looseFailures = looseFailuresBefore
                    return value
                } catch {
                    // Foundation fails it too: its failure is not loose matching's.
                    looseFailures = looseFailuresBefore
                }
            }
            if refusals != before { rememberFoundationFailure(of: T.self, at: index, error) }
            throw error
        }
    }

    /// A type inside a Foundation-like pass that failed after a loose key match. Foundation's
    /// decoder, which matches no other spelling, may decode it all the same: a model that catches
    /// the failure (`if let inner = try? c.decode(Inner.self) … else …`) must then take
    /// Foundation's branch, and a model that does not must not fail its pass for it. So the type
    /// is decoded once more without loose matching, in the pass, to learn whether Foundation
    /// decodes it; when it does not, this throws, and the type fails as it did. When it does, the
    /// failure is remembered as one of loose matching alone (``FailedByLooseMatch``), and the
    /// type is decoded with loose matching and forgiveness, every probe answered as in the decode
    /// without (``decodeForgivingInPass(_:at:path:isCurrent:)``): what it holds under other
    /// spellings is found, forgiven and reported, as the documented exception of loose matching
    /// says, and nothing else changes; where that fails, Foundation's value stands.
    ///
    /// What the failed attempt left is taken back first: its keys read loosely, its logged calls
    /// (kept for the pass if the type fails anyway) and its refusals. The retry budget bounds
    /// it: the caller asks that some is left, and this takes the work it did. `logged` is the
    /// length of the pass's call log and whether it was logging, before the failed attempt.
    @inline(never)
    private func decodeAfterFailedLooseMatch<T: Decodable>(
        _ type: T.Type, failure: any Error, at index: Int, path: CodingPathNode, isCurrent: Bool,
        refusalsBefore before: Int, logged: (count: Int, isLogging: Bool)
    ) throws -> T {
        // Charged what it does: its own decodes, the types inside it that were retried already
        // answered from what their retries kept (``LooseRetryValues``), so that a chain of them
        // costs each level once, and a long array of them does not spend the budget of its last.
        // The bookkeeping of keys read loosely inside it has a budget of its own.
        let foundationsOnly = retriesForFoundationsOnly || withdrawsLooseMatching
        retriesForFoundationsOnly = false
        let work = containersMade
        var bookkeeping = forgetLooseReads(inside: index)
        // (A class's values are not kept, below: the types around it decode its value again,
        // and those decodes are charged to their own retries.)
        let keeps = !(T.self is AnyObject.Type)
        defer {
            if foundationsOnly {
                foundationRetryBudget -= max(1, containersMade &- work)
            } else {
                retryBudget -= max(1, containersMade &- work)
            }
            looseBookkeepingBudget -= bookkeeping
        }
        let attempt = FoundationAttempt(index: index, type: ObjectIdentifier(T.self))
        // The failed attempt's calls, set aside: the pass keeps them if the type fails anyway.
        let failedAttempt = (
            calls: Array(callLog[min(logged.count, callLogCount)...]), last: lastLoggedAtLevel, logsCalls: logsCalls
        )
        trimCallLog(to: logged.count)
        let afterFirst = refusals
        let mark = reportMark
        // Every call of the retry is logged: each one that failed there, the model went on after.
        logsCalls = true
        let foundations: T
        let countsBefore = (keysFound, missingValuesDefaulted)
        do {
            foundations = try decodeInPassWithoutLooseMatching(type, at: index, path: path, isCurrent: isCurrent)
        } catch {
            trimCallLog(to: logged.count)
            callLog.append(contentsOf: failedAttempt.calls)
            lastLoggedAtLevel = failedAttempt.last
            logsCalls = failedAttempt.logsCalls
            throw error
        }
        keepEveryFailedCall(loggedFrom: logged.count, owner: attempt)
        trimCallLog(to: logged.count)
        logsCalls = logged.isLogging
        refusals = before &+ (refusals &- afterFirst)
        // Foundation decodes it: remembered, and decoded again with what loose matching finds.
        rememberFoundationFailure(of: T.self, at: index, FailedByLooseMatch(failure: failure))
        let foundationsIssues = report.map { Array($0.issues[mark...]) } ?? []
        let foundationsCounts = (keysFound &- countsBefore.0, missingValuesDefaulted &- countsBefore.1)
        /// Keeps Foundation's value alone for the types around it, as the one this returns.
        func keepFoundationsValue() -> T {
            if keeps {
                looseRetryValues[attempt] = LooseRetryValues(
                    step: LooseRetryValues.step(of: path),
                    foundations: (foundations, foundationsIssues, foundationsCounts), forgiven: nil,
                    forgivingFailed: true)
            }
            return foundations
        }
        // Past the retry budget (``prepareFoundationsOnlyRetry(on:)``): Foundation's value, without
        // a decode with what loose matching finds.
        if foundationsOnly { return keepFoundationsValue() }
        rollbackReport(to: mark)
        let forgivingCountsBefore = (keysFound, missingValuesDefaulted)
        // An instance of a class is never handed out twice: two properties would share it, and
        // a type around it that changes it would change it again in its own retry.
        do {
            let value = try decodeForgivingInPass(type, at: index, path: path, isCurrent: isCurrent)
            if keeps {
                looseRetryValues[attempt] = LooseRetryValues(
                    step: LooseRetryValues.step(of: path),
                    foundations: (foundations, foundationsIssues, foundationsCounts),
                    forgiven: (
                        value, report.map { Array($0.issues[mark...]) } ?? [],
                        looseReads(inside: index, cost: &bookkeeping),
                        (keysFound &- forgivingCountsBefore.0, missingValuesDefaulted &- forgivingCountsBefore.1)
                    ),
                    forgivingFailed: false)
            }
            return value
        } catch {
            rollbackReport(to: mark)
            report?.issues.append(contentsOf: foundationsIssues)
            return keepFoundationsValue()
        }
    }

    /// The outermost type of a Foundation-like pass, which succeeded though a call inside it
    /// failed on a value found under another spelling (``looseFailures``), a failure the model
    /// caught where Foundation, which does not see the key, succeeds: a model's own
    /// `init(from:)` called directly behind `try?` (`kid = try? Kid(from:
    /// container.superDecoder(forKey: .kid))`, `try? Meta(from: decoder)`), which no type
    /// boundary of the decoder's sees, so the pass around it succeeds with `nil` where Foundation
    /// has a value. So the type is decoded as after a failed loose
    /// match (``decodeAfterFailedLooseMatch(_:failure:at:path:isCurrent:refusalsBefore:logged:)``):
    /// without loose matching, then with it and forgiveness, each call that failed without it
    /// answered as it failed there. Where Foundation fails the type, the value the pass made
    /// stands, with what it reported and read.
    @inline(never)
    private func decodeAfterSucceededLooseMatch<T: Decodable>(
        _ type: T.Type, value: T, at index: Int, path: CodingPathNode, isCurrent: Bool, refusalsBefore before: Int,
        reportMark mark: Int
    ) -> T {
        let passIssues = report.map { Array($0.issues[mark...]) } ?? []
        var cost = 0
        let passLooseReads = looseReads(inside: index, cost: &cost)
        looseBookkeepingBudget -= cost
        let passCounts = (keysFound, missingValuesDefaulted)
        let passRefusals = refusals
        rollbackReport(to: mark)
        do {
            return try decodeAtTopAfterFailedLooseMatch(
                type, failure: PassSucceededAfterLooseMatch(), at: index, path: path, isCurrent: isCurrent,
                refusalsBefore: before)
        } catch {
            rollbackReport(to: mark)
            report?.issues.append(contentsOf: passIssues)
            for key in passLooseReads { looselyReadKeys.insert(key) }
            (keysFound, missingValuesDefaulted) = passCounts
            refusals = passRefusals
            return value
        }
    }

    /// What ``decodeAfterSucceededLooseMatch(_:value:at:path:isCurrent:refusalsBefore:reportMark:)``
    /// remembers a type's pass ended with: it did not fail, but loose matching may have changed it.
    struct PassSucceededAfterLooseMatch: Error {}

    /// Foundation's value of a type at a node, from its decode after a failed loose match, for
    /// the decode without loose matching of a type around it: taken once, with what it reported.
    private func takeFoundationsValue<T>(of type: T.Type, at index: Int, path: CodingPathNode) -> T? {
        let attempt = FoundationAttempt(index: index, type: ObjectIdentifier(T.self))
        guard let values = looseRetryValues[attempt], values.step == LooseRetryValues.step(of: path),
            let kept = values.foundations, let value = kept.value as? T
        else { return nil }
        looseRetryValues[attempt]?.foundations = nil
        report?.issues.append(contentsOf: kept.issues)
        keysFound &+= kept.counts.keysFound
        missingValuesDefaulted &+= kept.counts.defaulted
        return value
    }

    /// The forgiving value of a type at a node, from its decode after a failed loose match, for
    /// the forgiving decode of a type around it: taken once, with what it reported and the keys
    /// it read loosely.
    private func takeForgivenValue<T>(of type: T.Type, at index: Int, path: CodingPathNode) -> T? {
        let attempt = FoundationAttempt(index: index, type: ObjectIdentifier(T.self))
        guard let values = looseRetryValues[attempt], values.step == LooseRetryValues.step(of: path),
            let kept = values.forgiven, let value = kept.value as? T
        else { return nil }
        looseRetryValues[attempt]?.forgiven = nil
        report?.issues.append(contentsOf: kept.issues)
        for key in kept.looseReads { looselyReadKeys.insert(key) }
        looseBookkeepingBudget -= kept.looseReads.count
        keysFound &+= kept.counts.keysFound
        missingValuesDefaulted &+= kept.counts.defaulted
        return value
    }

    /// The keys read loosely inside the value at `index`: by the value's nodes or by the keys
    /// read, whichever are fewer; what it looked at is added to `cost`.
    private func looseReads(inside index: Int, cost: inout Int) -> [Int] {
        guard !looselyReadKeys.isEmpty else { return [] }
        let nodes = index..<tree.next(after: index)
        cost &+= min(nodes.count, looselyReadKeys.count)
        if nodes.count < looselyReadKeys.count { return nodes.filter { looselyReadKeys.contains($0) } }
        return looselyReadKeys.filter { nodes.contains($0) }
    }

    /// ``decodeAfterFailedLooseMatch(_:failure:at:path:isCurrent:refusalsBefore:logged:)`` for a
    /// type whose own pass failed after a loose match, at the top of a decode or of a value
    /// decoded apart: where Foundation's decoder decodes the type, every probe keeps its answer,
    /// and only what loose matching found is forgiven. Throws where Foundation fails too: the
    /// type then takes its forgiving pass.
    @inline(never)
    private func decodeAtTopAfterFailedLooseMatch<T: Decodable>(
        _ type: T.Type, failure: any Error, at index: Int, path: CodingPathNode, isCurrent: Bool,
        refusalsBefore before: Int
    ) throws -> T {
        inFoundationPass = true
        defer { inFoundationPass = false }
        return try decodeAfterFailedLooseMatch(
            type, failure: failure, at: index, path: path, isCurrent: isCurrent, refusalsBefore: before,
            logged: (callLogCount, logsCalls))
    }

    /// Drops the calls logged from `count` on, and the levels' last calls among them.
    private func trimCallLog(to count: Int) {
        guard callLogCount > count else { return }
        callLog.removeSubrange(count...)
        lastLoggedAtLevel = lastLoggedAtLevel.map { $0.flatMap { $0 < count ? $0 : nil } }
    }

    /// A type met again in a Foundation-like pass at a node where it failed one: it fails again,
    /// unless it failed by loose matching alone (``FailedByLooseMatch``), where Foundation decodes
    /// it. Then, as the first time: with forgiveness, or Foundation's value where that fails; and
    /// while the pass learns whether Foundation decodes an enclosing type, without loose matching.
    @inline(never)
    private func decodeAfterRememberedFailure<T: Decodable>(
        _ type: T.Type, _ error: any Error, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        guard error is FailedByLooseMatch else { throw error }
        if suppressesLooseMatching || withdrawsLooseMatching {
            if let value = takeFoundationsValue(of: T.self, at: index, path: path) { return value }
            return try decodeInPassWithoutLooseMatching(type, at: index, path: path, isCurrent: isCurrent)
        }
        if let value = takeForgivenValue(of: T.self, at: index, path: path) { return value }
        let attempt = FoundationAttempt(index: index, type: ObjectIdentifier(T.self))
        if looseRetryValues[attempt]?.forgivingFailed != true {
            let mark = reportMark
            do {
                return try decodeForgivingInPass(type, at: index, path: path, isCurrent: isCurrent)
            } catch {
                rollbackReport(to: mark)
            }
        }
        if let value = takeFoundationsValue(of: T.self, at: index, path: path) { return value }
        return try decodeInPassWithoutLooseMatching(type, at: index, path: path, isCurrent: isCurrent)
    }

    /// A type decoded in a Foundation-like pass without loose matching: what Foundation's decoder,
    /// which matches no other spelling, makes of it. Leaves nothing in the report when it fails.
    private func decodeInPassWithoutLooseMatching<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        let wasSuppressing = suppressesLooseMatching
        suppressesLooseMatching = true
        defer { suppressesLooseMatching = wasSuppressing }
        let mark = reportMark
        do {
            return try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent)
        } catch {
            rollbackReport(to: mark)
            throw error
        }
    }

    /// A type that failed a Foundation-like pass by loose matching alone, decoded inside the pass
    /// with forgiveness, every call that failed in its decode without loose matching answered as
    /// it failed there (``keepEveryFailedCall(loggedFrom:owner:)``): the model takes Foundation's
    /// branch at every probe, and what is forgiven is what loose matching found, where Foundation
    /// found nothing. The pass's call log, refusals and state are left as they were; the report
    /// keeps what was forgiven, which the pass takes back if it fails. Throws where that decode
    /// fails; the caller then keeps Foundation's value.
    private func decodeForgivingInPass<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        let passLog = (callLog, lastLoggedAtLevel, logsCalls)
        let passRefusals = refusals
        callLog.removeAll()
        lastLoggedAtLevel.removeAll()
        logsCalls = false
        inFoundationPass = false
        let wasAnswering = answersCaughtCalls
        answersCaughtCalls = true
        defer {
            answersCaughtCalls = wasAnswering
            inFoundationPass = true
            (callLog, lastLoggedAtLevel, logsCalls) = passLog
            refusals = passRefusals
        }
        let attempt = FoundationAttempt(index: index, type: ObjectIdentifier(T.self))
        if hasCaughtCalls { restartCaughtCalls(of: attempt) }
        return try answeringCalls(of: attempt) {
            try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent)
        }
    }

    /// Forgets the keys read loosely inside the value at `index`, for a decode of it that
    /// starts over: by the value's nodes or by the keys read, whichever are fewer. Returns what
    /// it looked at, for ``TreeDecoder/looseBookkeepingBudget``.
    @discardableResult
    private func forgetLooseReads(inside index: Int) -> Int {
        guard !looselyReadKeys.isEmpty else { return 0 }
        let nodes = index..<tree.next(after: index)
        let cost = min(nodes.count, looselyReadKeys.count)
        if nodes.count < looselyReadKeys.count {
            for node in nodes { looselyReadKeys.remove(node) }
        } else {
            looselyReadKeys = looselyReadKeys.filter { !nodes.contains($0) }
        }
        return cost
    }

    /// The two passes of ``decodeWithInit(_:at:path:isCurrent:)`` in `.lenient`, in a function of
    /// their own so that the frames of the strict path, which every nesting level stacks, stay small.
    ///
    /// Loose key matching answers in both passes (it fills an optional that Foundation leaves
    /// `nil`), but a model's own code may then fail on what it found (`contains` answers `true`,
    /// and the value is of another kind than the model reads): a type that fails after a loose
    /// match decodes once more without loose matching, so that it never fails where Foundation
    /// succeeds. The retry budget bounds these passes as it bounds the others.
    @inline(never)
    private func decodeFoundationFirst<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    )
        throws -> T
    {
        let looseBefore = looseMatches
        if ownPasses == 0 && isAfterDecode {
            return try decodeInLatePass(type, at: index, path: path, isCurrent: isCurrent)
        }
        ownPasses &+= 1
        defer { ownPasses &-= 1 }
        do {
            return try decodeFoundationFirstOnce(type, at: index, path: path, isCurrent: isCurrent)
        } catch {
            guard looseMatches != looseBefore, !suppressesLooseMatching, !withdrawsLooseMatching else { throw error }
            // Past the retry budget, this retry is the last: no loose matching from here on.
            if !spendRetryBudget(on: index) && !spendFoundationRetryBudget(on: index) { withdrawsLooseMatching = true }
            let failure = error
            suppressesLooseMatching = true
            defer { suppressesLooseMatching = false }
            do {
                return try decodeFoundationFirstOnce(type, at: index, path: path, isCurrent: isCurrent)
            } catch {
                // Failing either way, the value fails as it did first.
                throw failure
            }
        }
    }

    /// ``decodeFoundationFirst(_:at:path:isCurrent:)`` for a value that a decoder kept past the
    /// decode call (the document's, or a super decoder) decodes for a kept container: in a
    /// ``LatePass`` of its own.
    @inline(never)
    private func decodeInLatePass<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        let pass = LatePass()
        currentLatePass = pass
        defer {
            pass.isOver = true
            currentLatePass = nil
        }
        ownPasses &+= 1
        defer { ownPasses &-= 1 }
        return try decodeFoundationFirst(type, at: index, path: path, isCurrent: isCurrent)
    }

    private func decodeFoundationFirstOnce<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    )
        throws -> T
    {
        // The package's wrappers forgive on purpose, as they do under Foundation's decoder; a type
        // known to fail the pass, or met once the retry budget is spent, takes one lenient pass.
        let mark = reportMark
        if traits(of: T.self).isForgivingWrapper || retryBudget <= 0 || foundationFailure(of: T.self, at: index) != nil
        {
            return try decodeInOnePass(type, at: index, path: path, isCurrent: isCurrent, reportMark: mark)
        }
        let before = refusals
        let looseBefore = looseMatches
        let looseFailuresBefore = looseFailures
        let work = containersMade
        let rewrites = rewriteBudget
        inFoundationPass = true
        modelLevel &+= 1
        defer { modelLevel &-= 1 }
        do {
            let value = try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent)
            inFoundationPass = false
            if logsCalls { endCallLog(passFailed: false) }
            if looseFailures != looseFailuresBefore {
                defer { looseFailures = looseFailuresBefore }
                // Paid for before it starts, by the value's nodes: a chain whose every level calls
                // such an `init(from:)` retries each level's subtree inside the retry of the level
                // around it, and without the budget would cost the cube of its depth.
                if !suppressesLooseMatching, !withdrawsLooseMatching {
                    // Past the retry budget, Foundation's value, and no loose matching from here on.
                    if looseBookkeepingBudget <= 0 || !spendRetryBudget(on: index) {
                        prepareFoundationsOnlyRetry(on: index)
                    }
                    return decodeAfterSucceededLooseMatch(
                        type, value: value, at: index, path: path, isCurrent: isCurrent, refusalsBefore: before,
                        reportMark: mark)
                }
            }
            return value
        } catch {
            inFoundationPass = false
            // A value that was not decoded leaves nothing in the report (a probe's `try?`).
            rollbackReport(to: mark)
            // The second pass answers the probes the model went on after as this one did.
            if logsCalls {
                endCallLog(
                    passFailed: refusals != before,
                    owner: FoundationAttempt(index: index, type: ObjectIdentifier(T.self)))
            }
            guard refusals != before else { throw error }
            // No `try?`: an optional of `T` would have this generic function look up its metadata.
            if looseMatches != looseBefore, !suppressesLooseMatching, !withdrawsLooseMatching {
                // Past the retry budget, Foundation's value, and no loose matching from here on.
                if retryBudget <= 0 || looseBookkeepingBudget <= 0 { prepareFoundationsOnlyRetry(on: index) }
                do {
                    return try decodeAtTopAfterFailedLooseMatch(
                        type, failure: error, at: index, path: path, isCurrent: isCurrent, refusalsBefore: before)
                } catch {}
            }
            rememberFoundationFailure(of: T.self, at: index, error)
            // Paid for even when the budget runs out here: the types inside then take one pass.
            // The failed pass's own work counts too: it may have gone deep into JSON hooks made.
            retryBudget -= containersMade &- work
            // So does what it rewrote through hooks, a node for every eight bytes, given back to
            // the rewrite budget, which bounds the JSON of the passes that succeed: otherwise one
            // forgivable value deep in a hooked document would spend every level's rewrites
            // again, and a document within the budget when clean would be cut short.
            let rewritten = rewrites &- rewriteBudget
            if rewritten > 0 {
                _ = spendRewriteBudget(-rewritten)
                retryBudget -= rewritten / 8
            }
            _ = spendRetryBudget(on: index)
            return try decodeForgiving(type, at: index, path: path, isCurrent: isCurrent, reportMark: mark)
        }
    }

    /// A type that takes one forgiving pass (see ``decodeFoundationFirstOnce(_:at:path:isCurrent:)``),
    /// out of line so that the function of every value's two passes never names `T?`, whose
    /// metadata it would otherwise look up on every call.
    @inline(never)
    private func decodeInOnePass<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool, reportMark mark: Int
    ) throws -> T {
        // Decoded already after a failed loose match, inside a pass of the type around it.
        if hasLooseRetryValues, let value = takeForgivenValue(of: T.self, at: index, path: path) { return value }
        // Decoded again after its first pass failed (an element of a lossy array read twice):
        // its probes are answered as that pass answered them, from the first call again.
        guard hasCaughtCalls else {
            return try decodeForgiving(type, at: index, path: path, isCurrent: isCurrent, reportMark: mark)
        }
        let attempt = FoundationAttempt(index: index, type: ObjectIdentifier(T.self))
        restartCaughtCalls(of: attempt)
        return try answeringCalls(of: attempt) {
            try decodeForgiving(type, at: index, path: path, isCurrent: isCurrent, reportMark: mark)
        }
    }

    /// A type's forgiving pass. Its probes are answered as its first pass answered them
    /// (TreeDecoder+Probes.swift); should that lead the model where forgiveness cannot follow — a
    /// forgiven probe took another branch, in which a call that was a probe before is a plain
    /// read — the pass runs once more forgiving every call, as it did before probes were answered.
    private func decodeForgiving<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool, reportMark mark: Int
    ) throws -> T {
        let answered = caughtCallsAnswered
        do {
            return try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent)
        } catch {
            rollbackReport(to: mark)
            guard caughtCallsAnswered != answered, answersCaughtCalls, spendRetryBudget(on: index) else { throw error }
            answersCaughtCalls = false
            defer { answersCaughtCalls = true }
            do {
                return try decodeWithInitOnce(type, at: index, path: path, isCurrent: isCurrent)
            } catch {
                rollbackReport(to: mark)
                throw error
            }
        }
    }

    @inline(__always)
    private func decodeWithInitOnce<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool)
        throws -> T
    {
        if isCurrent {
            let savedType = currentType
            currentType = T.self
            defer { currentType = savedType }
            return try T(from: self)
        }
        return try withNode(index, path: path, type: T.self) { try T(from: $0) }
    }

    /// Refuses to decode a model deeper when the thread's stack is nearly spent (``StackGuard``).
    @inline(never)
    func checkStack(at index: Int, path: CodingPathNode) throws {
        guard stackGuard.isExhausted() else { return }
        let error = DecodingError.dataCorrupted(
            .init(
                codingPath: path.path,
                debugDescription:
                    "The value nests \(depth(at: index)) levels deep, more than the stack of this thread leaves room to decode; decode it on a thread with a larger stack."
            ))
        if stackExhaustion == nil { stackExhaustion = error }
        // Up the chain of super decoders to the decoder of the document, which fails the decode
        // with it even where a model's `try?` swallowed it.
        var parent = refusalSink
        while let decoder = parent {
            if decoder.stackExhaustion == nil { decoder.stackExhaustion = error }
            parent = decoder.refusalSink
        }
        if let owner, owner.stackExhaustion == nil { owner.stackExhaustion = error }
        throw error
    }

    /// A type's own decoding, then the second chances of the coercion table when it fails.
    private func unwrapLenientSlowPath<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        let mark = reportMark
        do {
            let traits = traits(of: T.self)
            if case .collection = traits.kind, !traits.needsRawJSON, !hasConverters, !inFoundationPass,
                !elidesErrorPaths, tree[index].kind != .array, tree[index].kind != .null
            {
                return try unwrapListAtSingleValue(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
            }
            let value = try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
            // A wrapper's value is reported where the wrapped type is decoded; the wrapper reads
            // nothing itself (an element a `LossyArray` drops, a `LossyDictionary`'s keys).
            if readKeys != nil && !traits.isForgivingWrapper { reportUnreadKeysOfModel(at: index, path: path) }
            return value
        } catch {
            guard mayForgive() else { throw error }
            return try secondChance(type, after: error, at: index, path: path, reportMark: mark)
        }
    }

    /// An array or set where the document holds one value or JSON text (`"tags": 1`,
    /// `"tags": "[1,2]"`), outside a Foundation-like pass. The standard library's `init(from:)`
    /// fails at once, asking for an unkeyed container, and the value is then wrapped or parsed
    /// (``coerceAfterFailure(_:at:path:failure:)``). Nothing but the decoder's code and the
    /// standard library's sees that first error, so it is built without its coding path, which
    /// would cost the depth at every level of a chain of such values; an error that reaches
    /// the caller is built again, with its path, by the same call, which fails the same way.
    @inline(never)
    private func unwrapListAtSingleValue<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool, traits: TypeTraits
    ) throws -> T {
        let mark = reportMark
        let elided: any Error
        elidesErrorPaths = true
        do {
            let value = try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
            elidesErrorPaths = false
            return value
        } catch {
            elidesErrorPaths = false
            elided = error
        }
        func failure() -> any Error {
            do {
                _ = try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
                return elided
            } catch {
                return error
            }
        }
        guard mayForgive() else { throw failure() }
        rollbackReport(to: mark)
        if let value = try coerceAfterFailure(type, at: index, path: path, failure: failure()) { return value }
        throw failure()
    }

    /// The coercion table's second chances, apart so that the hot path never mentions `T?`.
    @inline(never)
    private func secondChance<T: Decodable>(
        _ type: T.Type, after error: any Error, at index: Int, path: CodingPathNode, reportMark mark: Int
    ) throws -> T {
        rollbackReport(to: mark)
        if let value = try coerceAfterFailure(type, at: index, path: path, failure: error) { return value }
        throw error
    }

    /// Returns a value as the generic type it is already known to be, without a dynamic cast.
    @inline(__always)
    func reinterpret<Value, T>(_ value: Value, as type: T.Type) -> T {
        unsafeBitCast(value, to: T.self)
    }

    // MARK: Scalars

    @inline(never)
    func typeMismatch(_ type: Any.Type, at index: Int, path: CodingPathNode) -> DecodingError {
        let node = tree[index]
        if node.kind == .invalid { return invalidText(at: index, path: path, reading: type) }
        // Foundation reports null as a missing value for every type but Bool, whose unwrapping
        // checks only for `true` and `false`.
        if node.kind == .null && type != Bool.self {
            return DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: errorPath(path),
                    debugDescription: "Cannot get value of type \(type) -- found null value instead"))
        }
        return DecodingError.typeMismatch(
            type,
            .init(
                codingPath: errorPath(path),
                debugDescription: "Expected to decode \(type) but found \(TreeDecoder.describe(node.kind)) instead."))
    }

    /// The error of reading an ``JSONNode/Kind/invalid`` node, as Foundation's: read as its own
    /// kind (a string as `String`, a number as a number type) or whole (`type` `nil`: a
    /// `JSONValue`, a hook's input), "not valid JSON", with the parse error the node stands for,
    /// its line and column, and the coding path; read as another type, the type mismatch
    /// Foundation names by the token's kind, with the parse error as its underlying error.
    @inline(never)
    func invalidText(at index: Int, path: CodingPathNode, reading type: Any.Type? = nil) -> DecodingError {
        let error = tree.deferredError(at: index)
        let isString = tree[index].has(JSONNode.wasString)
        if let type, isString ? type != String.self : !TreeDecoder.isNumeric(type) {
            return DecodingError.typeMismatch(
                type,
                .init(
                    codingPath: errorPath(path),
                    debugDescription:
                        "Expected to decode \(type) but found \(isString ? "a string" : "number") instead; its text is not valid JSON: \(error.message)",
                    underlyingError: error))
        }
        return DecodingError.dataCorrupted(
            .init(
                codingPath: errorPath(path), debugDescription: "The given data was not valid JSON. \(error.message)",
                underlyingError: error))
    }

    /// Whether Foundation reads the type from a number token: the integers, the floating-point
    /// types and `Decimal`. Asked only of a value whose text is not valid JSON.
    static func isNumeric(_ type: Any.Type) -> Bool {
        type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type || type == Decimal.self
    }

    @inline(never)
    func numberOutOfRange(_ type: Any.Type, at index: Int, path: CodingPathNode) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: errorPath(path),
                debugDescription: "Parsed JSON number <\(tree.numberText(at: index))> does not fit in \(type)."))
    }

    /// How Foundation names a JSON kind in its messages.
    static func describe(_ kind: JSONNode.Kind) -> String {
        switch kind {
        case .null: "null"
        case .true, .false: "bool"
        case .number: "number"
        case .string: "a string"
        case .invalid: "text that is not valid JSON"
        case .array: "an array"
        case .object: "a dictionary"
        }
    }

    // MARK: Plain scalars
    //
    // A value that is plainly of a scalar type, which its `unwrap` function returns as it is with
    // no error to build and nothing to report: read without a coding path. `nil` for every other
    // value, which the `unwrap` function then reads with its path.

    @inline(__always)
    func plainBool(at index: Int) -> Bool? {
        switch tree[index].kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    @inline(__always)
    func plainString(at index: Int) -> String? {
        tree[index].kind == .string ? tree.string(at: index) : nil
    }

    /// An integer literal in the range of `T`.
    @inline(__always)
    func plainInteger<T: FixedWidthInteger>(at index: Int) -> T? {
        let node = tree[index]
        guard node.kind == .number, node.has(JSONNode.isInteger), !node.has(JSONNode.json5),
            let (magnitude, negative) = NumberConversion.parseSmallInteger(tree.bytes(of: node))
        else { return nil }
        return NumberConversion.integer(magnitude: magnitude, negative: negative, as: T.self)
    }

    /// A number in the range of `Double`.
    @inline(__always)
    func plainDouble(at index: Int) -> Double? {
        let node = tree[index]
        guard node.kind == .number && !node.has(JSONNode.json5) else { return nil }
        return NumberConversion.double(tree.bytes(of: node), isInteger: node.has(JSONNode.isInteger))
    }

    func unwrapBool(at index: Int, path: CodingPathNode) throws -> Bool {
        if let value = plainBool(at: index) { return value }
        if hasConverters && hasScalarConverter(Bool.self, at: index) {
            return try convertScalar(Bool.self, at: index, path: path, table: coerceBool(at:path:))
        }
        if isLenient, mayForgive() { return try coerceBool(at: index, path: path) }
        throw typeMismatch(Bool.self, at: index, path: path)
    }

    func unwrapString(at index: Int, path: CodingPathNode) throws -> String {
        if let value = plainString(at: index) { return value }
        if hasConverters && hasScalarConverter(String.self, at: index) {
            return try convertScalar(String.self, at: index, path: path, table: coerceString(at:path:))
        }
        if isLenient, mayForgive() { return try coerceString(at: index, path: path) }
        throw typeMismatch(String.self, at: index, path: path)
    }

    func unwrapInteger<T: FixedWidthInteger>(at index: Int, path: CodingPathNode) throws -> T {
        if let value: T = plainInteger(at: index) { return value }
        let node = tree[index]
        guard node.kind == .number else {
            if hasConverters && hasScalarConverter(T.self, at: index) {
                return try convertScalar(T.self, at: index, path: path, table: coerceInteger(at:path:))
            }
            if isLenient, mayForgive() { return try coerceInteger(at: index, path: path) }
            throw typeMismatch(T.self, at: index, path: path)
        }
        // A plain integer literal that `plainInteger` refused is out of `T`'s range.
        if node.has(JSONNode.isInteger), !node.has(JSONNode.json5),
            NumberConversion.parseSmallInteger(tree.bytes(of: node)) != nil
        {
            throw numberOutOfRange(T.self, at: index, path: path)
        }
        return try unwrapIntegerSlowPath(at: index, path: path)
    }

    private func unwrapIntegerSlowPath<T: FixedWidthInteger>(at index: Int, path: CodingPathNode) throws -> T {
        let node = tree[index]
        let bytes = tree.bytes(of: node)
        if node.has(JSONNode.json5) {
            switch NumberConversion.json5Value(bytes) {
            case .hexadecimal(let magnitude, let negative):
                if let value = NumberConversion.integer(magnitude: magnitude, negative: negative, as: T.self) {
                    return value
                }
            case .decimal(let text):
                var text = text
                let value = text.withUTF8 { NumberConversion.integerSlowPath($0, as: T.self) }
                if let value { return value }
            case .double, .invalid:
                break
            }
            throw numberOutOfRange(T.self, at: index, path: path)
        }
        guard let value = NumberConversion.integerSlowPath(bytes, as: T.self) else {
            if isLenient, mayForgive() { return try coerceInteger(at: index, path: path) }
            throw numberOutOfRange(T.self, at: index, path: path)
        }
        return value
    }

    func unwrapDouble(at index: Int, path: CodingPathNode) throws -> Double {
        if let value = plainDouble(at: index) { return value }
        let node = tree[index]
        // A number that `plainDouble` refused is out of `Double`'s range.
        if node.kind == .number && !node.has(JSONNode.json5) {
            throw numberOutOfRange(Double.self, at: index, path: path)
        }
        return try unwrapFloatingPointSlowPath(Double.self, at: index, path: path)
    }

    func unwrapFloat(at index: Int, path: CodingPathNode) throws -> Float {
        let node = tree[index]
        if node.kind == .number && !node.has(JSONNode.json5) {
            guard let value = NumberConversion.float(tree.bytes(of: node), isInteger: node.has(JSONNode.isInteger))
            else {
                throw numberOutOfRange(Float.self, at: index, path: path)
            }
            return value
        }
        return try unwrapFloatingPointSlowPath(Float.self, at: index, path: path)
    }

    /// JSON5 numbers, and strings that the non-conforming float strategy names.
    private func unwrapFloatingPointSlowPath<T: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: T.Type, at index: Int, path: CodingPathNode
    ) throws -> T {
        let node = tree[index]
        if node.kind == .number {
            switch NumberConversion.json5Value(tree.bytes(of: node)) {
            case .double(let value):
                return T(value)
            case .hexadecimal(let magnitude, let negative):
                let value = T(magnitude)
                return negative ? -value : value
            case .decimal(let text):
                if let value = T(text), value.isFinite { return value }
            case .invalid:
                break
            }
            throw numberOutOfRange(T.self, at: index, path: path)
        }
        if node.kind == .string,
            case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = settings
                .nonConformingFloatDecodingStrategy
        {
            let text = tree.string(at: index)
            if text == positiveInfinity { return .infinity }
            if text == negativeInfinity { return -.infinity }
            if text == nan { return .nan }
        }
        if hasConverters && hasScalarConverter(T.self, at: index) {
            return try convertScalar(T.self, at: index, path: path, table: coerceFloatingPoint(at:path:))
        }
        if isLenient, mayForgive() { return try coerceFloatingPoint(at: index, path: path) }
        throw typeMismatch(T.self, at: index, path: path)
    }

    func unwrapDecimal(at index: Int, path: CodingPathNode) throws -> Decimal {
        let node = tree[index]
        guard node.kind == .number else {
            if hasConverters && hasScalarConverter(Decimal.self, at: index) {
                return try convertScalar(Decimal.self, at: index, path: path, table: coerceDecimal(at:path:))
            }
            if isLenient, mayForgive() { return try coerceDecimal(at: index, path: path) }
            throw typeMismatch(Decimal.self, at: index, path: path)
        }
        var text = tree.numberText(at: index)
        if node.has(JSONNode.json5) {
            switch NumberConversion.json5Value(tree.bytes(of: node)) {
            case .decimal(let decimalText): text = decimalText
            case .hexadecimal(let magnitude, let negative): return negative ? -Decimal(magnitude) : Decimal(magnitude)
            case .double, .invalid: throw numberOutOfRange(Decimal.self, at: index, path: path)
            }
        }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw numberOutOfRange(Decimal.self, at: index, path: path)
        }
        return value
    }

    // MARK: Strategies

    func unwrapDate(at index: Int, path: CodingPathNode) throws -> Date {
        // Foundation refuses `null` as a missing `Date` before any strategy reads it.
        if tree[index].kind == .null { throw typeMismatch(Date.self, at: index, path: path) }
        if isLenient && options.decodesDatesWithFormatList && !settings.dateDecodingStrategyIsSet {
            return try dateFromFormatList(at: index, path: path)
        }
        switch settings.dateDecodingStrategy {
        case .deferredToDate:
            return try finiteDate(at: index, path: path) { try withNode(index, path: path) { try Date(from: $0) } }
        case .secondsSince1970:
            return try finiteDate(at: index, path: path) {
                Date(timeIntervalSince1970: try unwrapDouble(at: index, path: path))
            }
        case .millisecondsSince1970:
            return try finiteDate(at: index, path: path) {
                Date(timeIntervalSince1970: try unwrapDouble(at: index, path: path) / 1000)
            }
        case .iso8601:
            let text = try unwrapString(at: index, path: path)
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: errorPath(path), debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        #if canImport(Darwin)
        // Elsewhere `.formatted` is built on `.custom`, and arrives as that case.
        case .formatted(let formatter):
            let text = try unwrapString(at: index, path: path)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: errorPath(path),
                        debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        #endif
        case .custom(let closure):
            if let date = foundationAnswer(at: index, path: path, closure) { return date }
            return try finiteDate(at: index, path: path) { try withNode(index, path: path) { try closure($0) } }
        @unknown default:
            return try finiteDate(at: index, path: path) { try withNode(index, path: path) { try Date(from: $0) } }
        }
    }

    /// What a `.custom` date or data strategy's closure makes with nothing forgiven, in the
    /// lenient decoder's own pass: a closure that probes (`try? container.decode(Double.self)`,
    /// then a string) takes the branch it takes under Foundation's decoder, wherever the value
    /// is (a model's values already get this from the model's Foundation-like pass). `nil` when
    /// it fails that way, or in `.strict`; the closure then runs as usual.
    private func foundationAnswer<Value>(
        at index: Int, path: CodingPathNode, _ closure: (any Decoder) throws -> Value
    ) -> Value? {
        guard isLenient, !inFoundationPass else { return nil }
        let mark = reportMark
        if let value = try? readingAsFoundation({ try withNode(index, path: path) { try closure($0) } }) {
            return value
        }
        rollbackReport(to: mark)
        return nil
    }

    /// The text of a string for a type that only strings stand for (a `URL`, base64 `Data`):
    /// a number or a boolean is refused as Foundation refuses it, never turned into text that
    /// such a type would then read (`42` as the URL "42", `true` as three bytes of base64).
    private func unwrapStringOnly(at index: Int, path: CodingPathNode) throws -> String {
        switch tree[index].kind {
        case .number, .true, .false: throw typeMismatch(String.self, at: index, path: path)
        default: return try unwrapString(at: index, path: path)
        }
    }

    /// Runs a date strategy that reads numbers, and refuses the date it makes when that date is
    /// not finite and the coercion table made a number that is not finite on the way (`"NaN"`,
    /// `"Infinity"` in a string, inside JSON text too): a date that is not finite can be neither
    /// written nor described, and Foundation makes one only from a number the
    /// `nonConformingFloatDecodingStrategy` names, or that the strategy's own closure computes,
    /// which are kept.
    private func finiteDate(at index: Int, path: CodingPathNode, _ strategy: () throws -> Date) throws -> Date {
        let before = nonFiniteCoercions
        let mark = reportMark
        let date = try strategy()
        guard nonFiniteCoercions != before, !date.timeIntervalSinceReferenceDate.isFinite else { return date }
        rollbackReport(to: mark)
        throw DecodingError.typeMismatch(
            Date.self,
            .init(
                codingPath: errorPath(path),
                debugDescription:
                    "Cannot make a date from \(describeFound(at: index)): a number read from a string that is not finite is no date."
            ))
    }

    func unwrapData(at index: Int, path: CodingPathNode) throws -> Data {
        // Foundation refuses `null` as missing `Data` before any strategy reads it.
        if tree[index].kind == .null { throw typeMismatch(Data.self, at: index, path: path) }
        switch settings.dataDecodingStrategy {
        case .deferredToData:
            return try withNode(index, path: path) { try Data(from: $0) }
        case .base64:
            let text = try unwrapStringOnly(at: index, path: path)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: errorPath(path), debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let closure):
            if let data = foundationAnswer(at: index, path: path, closure) { return data }
            return try withNode(index, path: path) { try closure($0) }
        @unknown default:
            return try withNode(index, path: path) { try Data(from: $0) }
        }
    }

    func unwrapURL(at index: Int, path: CodingPathNode) throws -> URL {
        // Foundation refuses `null` as a missing `URL`, not as a string that is not there.
        if tree[index].kind == .null { throw typeMismatch(URL.self, at: index, path: path) }
        let text = try unwrapStringOnly(at: index, path: path)
        if let url = URL(string: text) { return url }
        if isLenient, mayForgive() {
            let trimmed = CoercionRules.trimmed(text)
            if trimmed != text, let url = URL(string: trimmed) {
                record(
                    .coerced, path: path, found: index,
                    "Coerced \(describeFound(at: index)) to URL \(url.absoluteString).")
                return url
            }
        }
        throw DecodingError.dataCorrupted(.init(codingPath: errorPath(path), debugDescription: "Invalid URL string."))
    }
}

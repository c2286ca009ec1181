// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// What the decoder needs to know about a type before decoding it, found once per type and
/// decode, so that the hot path asks no runtime conformance question per value.
struct TypeTraits {
    enum Kind {
        /// A type that decodes itself through `init(from:)`.
        case model
        case float, int64, date, data, url, decimal, jsonValue
        /// A dictionary, read from the object's members (see `DictionaryDecodable`).
        case dictionary(any DictionaryDecodable.Type)
        /// An array or set, read straight from the array's elements.
        case collection(any LenientCollection.Type)
        /// A type that is not a standard scalar and has a converter in the decode's options: its
        /// own decoding, then the converter. A case of its own, so that testing for it costs the
        /// other types nothing: the switch on the kind takes it like any other.
        case converted
    }

    var kind: Kind
    var hasHooks: Bool
    var isPolymorphic: Bool
    /// Whether the type conforms to ``KeyMapping`` or ``DeclaredDefaults``; its keyed containers
    /// look up a plan only then.
    var hasKeyPlan: Bool
    /// Whether the decode's options register a converter for the type. A flag rather than the
    /// converter itself: a reference would make every copy of the traits retain and release it.
    /// Always `false` in the process-wide cache; set per decode by ``withConverters(_:for:)``.
    var hasConverter = false
    /// The type as a wrapper whose default a report names (``Defaulted``), or `nil`.
    var defaultingWrapper: (any DefaultingWrapper.Type)?

    /// Whether the type is one of the package's wrappers, which forgive on purpose and decode
    /// without the Foundation-like first pass of ``TreeDecoder/decodeWithInit(_:at:path:isCurrent:)``.
    var isForgivingWrapper: Bool
    /// Whether decoding the type runs no code but the decoder's own (registered converters aside,
    /// which never see the decoder's errors): an enclosing lossy collection catches its errors
    /// before anything else can see them, so they are built without their coding path.
    var isPlainScalar: Bool

    var needsRawJSON: Bool { hasHooks || isPolymorphic }

    /// The traits of a type, found with as few runtime conformance checks as the type allows:
    /// none for the standard scalars, compared by metatype; one, for the decoding marker, for any
    /// other type that conforms to none of the package's protocols; and one per protocol only
    /// for a type outside the package that adopts some of them (see `LenientMarkers.swift`).
    /// The traits of a model with no hooks, mapping or converter.
    private init() {
        kind = .model
        hasHooks = false
        isPolymorphic = false
        hasKeyPlan = false
        defaultingWrapper = nil
        isForgivingWrapper = false
        isPlainScalar = false
    }

    init(of type: Any.Type) {
        defaultingWrapper = nil
        isForgivingWrapper = false
        hasHooks = false
        isPolymorphic = false
        hasKeyPlan = false
        isPlainScalar = TypeTraits.isPlainScalar(type)
        if isPlainScalar {
            kind = type == Float.self ? .float : type == Int64.self ? .int64 : type == Decimal.self ? .decimal : .model
            return
        }
        if type == Date.self {
            kind = .date
        } else if type == Data.self {
            kind = .data
        } else if type == URL.self {
            kind = .url
        } else if type == JSONValue.self {
            kind = .jsonValue
        } else if let marked = type as? any _LenientDecodingMarker.Type {
            kind = .model
            switch marked._lenientDecodingRole.kind {
            case .adopter:
                hasHooks = type is any DecodingHooks.Type
                isPolymorphic = type is any PolymorphicDecodable.Type
                hasKeyPlan = type is any KeyMapping.Type || type is any DeclaredDefaults.Type
            case .collection(let collection):
                kind = .collection(collection)
            case .dictionary(let dictionary):
                kind = .dictionary(dictionary)
            case .forgivingWrapper(let defaulting):
                isForgivingWrapper = true
                defaultingWrapper = defaulting
            }
        } else {
            kind = .model
        }
    }

    /// The traits with the converter facts of one decode's options; converters belong to an
    /// options value, so they cannot live in the process-wide cache.
    func withConverters(_ converters: DecodingConverters, for type: Any.Type) -> TypeTraits {
        var traits = self
        traits.hasConverter = converters.converter(for: type) != nil
        // The standard scalars call their converter from their own unwrapping, on JSON of another kind.
        if traits.hasConverter && !TypeTraits.isStandardScalar(type) { traits.kind = .converted }
        return traits
    }

    /// The types whose converter runs whenever the JSON is not of their own kind.
    private static func isStandardScalar(_ type: Any.Type) -> Bool {
        isPlainScalar(type) || type is any FixedWidthInteger.Type
    }

    /// The standard scalars the decoder reads itself, compared by metatype.
    private static func isPlainScalar(_ type: Any.Type) -> Bool {
        type == Int.self || type == String.self || type == Double.self || type == Bool.self || type == Int64.self
            || type == Float.self || type == UInt.self || type == Int32.self || type == UInt64.self
            || type == Int16.self || type == UInt32.self || type == Int8.self || type == UInt8.self
            || type == UInt16.self || type == Decimal.self
    }
}

/// The traits of the types that the decodes of one ``DecodeContext`` met, in an open-addressing
/// hash table keyed by the types' addresses. Immutable once built: a decode takes the context's
/// current one under its lock, then reads it without one; a decode that meets new types builds
/// the next one (``DecodeContext/learn(_:after:)``).
///
/// `@unchecked Sendable`: every property is a `let` set in `init`, and `TypeTraits` holds only
/// metatypes and flags.
final class KnownTraits: @unchecked Sendable {
    let entries: [(id: ObjectIdentifier, traits: TypeTraits)]
    /// Indices into `entries`, -1 for an empty slot: a power of two, at least twice as many
    /// slots as entries, so that a probe meets an empty slot soon.
    private let slots: [Int32]
    /// The number of slots less one.
    private let mask: Int

    static let empty = KnownTraits([])

    init(_ entries: [(id: ObjectIdentifier, traits: TypeTraits)]) {
        precondition(entries.count <= DecodeContext.maximumKnownTraits)
        self.entries = entries
        var slotCount = 16
        while slotCount < 2 * entries.count { slotCount &<<= 1 }
        mask = slotCount - 1
        var slots = [Int32](repeating: -1, count: slotCount)
        for (position, entry) in entries.enumerated() {
            var slot = KnownTraits.slot(of: entry.id, mask: mask)
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position)
        }
        self.slots = slots
    }

    /// The first slot to probe for a type: bits of its address above the alignment of metadata.
    @inline(__always)
    private static func slot(of id: ObjectIdentifier, mask: Int) -> Int {
        let bits = UInt(bitPattern: id)
        return Int(truncatingIfNeeded: (bits &>> 4) ^ (bits &>> 10)) & mask
    }

    @inline(__always)
    func traits(for id: ObjectIdentifier) -> TypeTraits? {
        var slot = KnownTraits.slot(of: id, mask: mask)
        while true {
            let position = Int(slots[slot])
            guard position >= 0 else { return nil }
            if entries[position].id == id { return entries[position].traits }
            slot = (slot + 1) & mask
        }
    }
}

extension TypeTraits {
    /// A value for a slot that holds no type's traits yet; built without asking the runtime anything.
    static var placeholder: TypeTraits { TypeTraits() }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [ObjectIdentifier: TypeTraits] = [:]

    /// The traits of a type from the process-wide cache, so that the runtime's conformance
    /// checks run once per type and process rather than once per decode.
    static func shared(for type: Any.Type, id: ObjectIdentifier) -> TypeTraits {
        lock.lock()
        let cached = cache[id]
        lock.unlock()
        if let cached { return cached }
        let traits = TypeTraits(of: type)
        lock.lock()
        cache[id] = traits
        lock.unlock()
        return traits
    }
}

extension TreeDecoder {
    /// The first words of the message of a rejection, which tells rejections from other failures.
    static let rejectionPrefix = "Rejected by "

    /// The traits of a type: the last type asked about first, then the types that earlier decodes
    /// with the same settings met (``KnownTraits``, a hash table read without a lock), then the
    /// types this decode met that they did not (a short list), and only then the process-wide
    /// cache. A small response's decode finds its types without a lock or an allocation, and a
    /// document whose values alternate between many types finds each in one probe.
    @inline(__always)
    func traits(of type: Any.Type) -> TypeTraits {
        let id = ObjectIdentifier(type)
        if lastTraitsID == id { return lastTraits }
        // The types of earlier decodes, without a call: models alternate between their types,
        // so most lookups miss the last type and find the one they want here.
        if let known = knownTraits.traits(for: id) {
            lastTraitsID = id
            lastTraits = known
            return known
        }
        return traitsSlowPath(of: type, id: id)
    }

    @inline(never)
    private func traitsSlowPath(of type: Any.Type, id: ObjectIdentifier) -> TypeTraits {
        for entry in newTraits where entry.id == id {
            lastTraitsID = id
            lastTraits = entry.traits
            return entry.traits
        }
        var traits = TypeTraits.shared(for: type, id: id)
        if hasConverters { traits = traits.withConverters(options.converters, for: type) }
        newTraits.append((id, traits))
        lastTraitsID = id
        lastTraits = traits
        return traits
    }

    /// Decodes a type that has hooks or chooses its concrete type: builds the value's raw JSON,
    /// lets the type pick a subtype, rewrite the JSON, and check the result.
    func unwrapWithHooks<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool) throws -> T
    {
        // A level through hooks (the value's JSON built, rewritten, written and parsed again, and
        // decoded by an inner decoder) takes several times the stack of a plain model's level:
        // the stack guard looks here too, not only where the model asks for its container.
        if stackGuard.needsCheck(depth: depth(at: index)) { try checkStack(at: index, path: path) }
        if let hookRejections {
            let attempt = HookAttempt(index: index, type: ObjectIdentifier(T.self), inFoundationPass: inFoundationPass)
            if let error = hookRejections[attempt] { throw error }
        }
        do {
            return try unwrapWithHooksOnce(type, at: index, path: path, isCurrent: isCurrent)
        } catch let error as DecodingError where TreeDecoder.isRejection(error, at: path) {
            let attempt = HookAttempt(index: index, type: ObjectIdentifier(T.self), inFoundationPass: inFoundationPass)
            hookRejections = hookRejections ?? [:]
            hookRejections![attempt] = error
            throw error
        }
    }

    /// A value a hook rejected, by node, type and pass: the same JSON decoded the same way is
    /// rejected again, so a model that asks for it twice (`try?`, then `decodeIfPresent`) at
    /// every level costs one decode per level, not twice as many as the level below.
    struct HookAttempt: Hashable {
        let index: Int
        let type: ObjectIdentifier
        let inFoundationPass: Bool
    }

    private func unwrapWithHooksOnce<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool)
        throws -> T
    {
        try checkValidText(at: index, path: path)
        let json = sharedJSONValue(at: index)
        if let polymorphic = T.self as? any PolymorphicDecodable.Type, let chosen = polymorphic.decodingType(for: json),
            chosen != T.self
        {
            return try decodeChosenType(chosen, as: T.self, at: index, path: path)
        }
        guard let hooked = T.self as? any DecodingHooks.Type else {
            return try decodeWithInit(T.self, at: index, path: path, isCurrent: isCurrent)
        }
        var rewritten: JSONValue
        do {
            rewritten = try hooked.willDecode(json)
        } catch {
            throw rejection(of: T.self, by: "willDecode", error: error, path: path)
        }
        var value: T
        if rewritten.isIdentical(to: json) || rewritten == json {
            value = try decodeWithInit(T.self, at: index, path: path, isCurrent: isCurrent)
        } else {
            value = try decodeRewritten(T.self, from: &rewritten, at: index, path: path)
        }
        guard var hookedValue = value as? any DecodingHooks else { return value }
        do {
            try hookedValue.didDecode(from: rewritten)
        } catch {
            throw rejection(of: T.self, by: "didDecode(from:)", error: error, path: path)
        }
        if let completed = hookedValue as? T { value = completed }
        return value
    }

    /// Decodes the type that `decodingType(for:)` chose, which must be a subtype of the requested one.
    private func decodeChosenType<T>(
        _ chosen: any Decodable.Type, as requested: T.Type, at index: Int, path: CodingPathNode
    ) throws -> T {
        guard chosen is T.Type else {
            throw DecodingError.typeMismatch(
                T.self,
                .init(
                    codingPath: path.path,
                    debugDescription: "decodingType(for:) of \(T.self) returned \(chosen), which is not a \(T.self)."))
        }
        func decode<Chosen: Decodable>(_ type: Chosen.Type) throws -> Any {
            let traits = traits(of: Chosen.self)
            // In `.lenient` the requested type's own decode, which this runs inside, lists the
            // object's unread keys and gives the second chances: decoding the chosen type through
            // `unwrap` would do both again, and list each unknown key twice.
            guard isLenient, case .model = traits.kind else { return try unwrap(Chosen.self, at: index, path: path) }
            return try decodeModel(Chosen.self, at: index, path: path, isCurrent: false, traits: traits)
        }
        guard let value = try decode(chosen) as? T else {
            throw DecodingError.typeMismatch(
                T.self, .init(codingPath: path.path, debugDescription: "A \(chosen) could not be used as a \(T.self)."))
        }
        return value
    }

    /// Decodes a value from the JSON its `willDecode` returned, through a tree of its own.
    private func decodeRewritten<T: Decodable>(
        _ type: T.Type, from json: inout JSONValue, at index: Int, path: CodingPathNode
    )
        throws -> T
    {
        let value = try withSubtree(
            of: &json, replacing: index, path: path, producedBy: "willDecode of \(T.self)",
            origin: "willDecode of \(ObjectIdentifier(T.self))"
        ) {
            inner, json in
            // The value's own JSON is the one the hook returned: nested hooked types find theirs
            // inside it, without building it again from the tree.
            inner.builtValues = inner.tree.cache(ofWritten: json)
            let mark = inner.reportMark
            let value: T
            do {
                value = try inner.decodeWithInit(T.self, at: 0, path: path, isCurrent: false)
            } catch {
                // What the hook returned has the second chances of the document's own JSON in
                // `.lenient` (JSON text in a string is parsed, a raw value's case matched); each
                // decodes the type whole, its hooks and report included.
                // Once per type down a chain of trees: a hook that returns JSON text again from
                // the value parsed out of its JSON text would otherwise never end.
                let type = ObjectIdentifier(T.self)
                guard inner.isLenient, inner.mayForgive(), !inner.hookTextTypes.contains(type)
                else { throw error }
                inner.rollbackReport(to: mark)
                inner.occasional.hookTextTypes.append(type)
                guard let coerced = try inner.coerceAfterFailure(T.self, at: 0, path: path, failure: error) else {
                    throw error
                }
                return coerced
            }
            // The model read the JSON its hook returned: what it left unread there is unknown.
            if inner.readKeys != nil { inner.reportUnreadKeysOfModel(at: 0, path: path) }
            return value
        }
        // ...and nothing of the JSON it replaced, which the report does not list again.
        if readKeys != nil { markSubtreeRead(index) }
        return value
    }

    /// Runs `body` with a decoder over a tree of its own holding `json`, which replaces the value
    /// at `index`, at `path`, sharing this decoder's settings and report. For JSON that a hook or
    /// transform produced. The new tree counts its levels from the depth of the value it
    /// replaces, so that JSON which hooks return level after level cannot nest past the one
    /// budget of the decode.
    ///
    /// - Parameters:
    ///   - json: The JSON, which the caller owns. When it nests past the budget it is taken
    ///     (left `null`) and released one level at a time: user code can build JSON far deeper
    ///     than the stack that releasing it by recursion would take.
    ///   - producer: What produced the JSON, for the error when it cannot be read.
    ///   - origin: What produced the JSON, for telling its report entries from those of another
    ///     tree built for the same node (``subtreeProducer``).
    ///   - body: Decodes from the inner decoder; it also receives the JSON.
    func withSubtree<R>(
        of json: inout JSONValue, replacing index: Int, path: CodingPathNode,
        producedBy producer: @autoclosure () -> String, origin: @autoclosure () -> String,
        _ body: (TreeDecoder, JSONValue) throws -> R
    ) throws -> R {
        let budget = remainingDepth(at: index)
        let bytes: [UInt8]
        do {
            bytes = try JSONValueWriter.compactUTF8(json, maxDepth: budget, allowsNonFiniteNames: tree.isJSON5)
        } catch {
            if case .tooDeep = error.problem {
                JSONValue.releaseIteratively(&json)
            }
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path.path + error.codingPath,
                    debugDescription: "\(producer()) returned JSON that cannot be decoded: \(error).",
                    underlyingError: error))
        }
        guard spendRewriteBudget(bytes.count) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: path.path,
                    debugDescription:
                        "\(producer()) \(TreeDecoder.rewriteRefusal): hooks and transforms that change their "
                        + "values wrote more than eight times the input's size. A hook that changes its "
                        + "value at every level of a deep document writes each level's whole subtree again."))
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            let subtree: JSONTree
            do {
                // A JSON5 document's values keep the names of non-finite numbers, which only JSON5 reads.
                subtree = try JSONParser.parse(
                    buffer, options: JSONParser.Options(allowsJSON5: tree.isJSON5, maximumDepth: budget))
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: path.path,
                        debugDescription:
                            "\(producer()) returned JSON that cannot be read: \(TreeDecoder.reason(error, under: path)).",
                        underlyingError: error))
            }
            return try withInnerDecoder(over: subtree, replacing: index, path: path) { inner in
                if report != nil { inner.subtreeProducer = origin() }
                return try body(inner, json)
            }
        }
    }

    /// Runs `body` with a decoder over `tree`, a document of its own that stands for the value at
    /// `index` (JSON text in a string, JSON a hook returned), sharing this decoder's settings,
    /// report and nesting budget. Like the top-level decode, it makes the tree keep its input
    /// when something that `body` created still refers to it.
    ///
    /// - Parameter addsAllowance: Whether the inner tree brings its own retry allowance: JSON text
    ///   in a string, which is part of the input, does; JSON that user code returned does not, or a
    ///   hook that wraps its value again at every level would bring a fresh allowance at every level.
    func withInnerDecoder<R>(
        over tree: JSONTree, replacing index: Int, path: CodingPathNode, addsAllowance: Bool = false,
        _ body: (TreeDecoder) throws -> R
    ) rethrows -> R {
        var inner = TreeDecoder(
            tree: tree, context: context, codingPathNode: path, depthBase: depth(at: index))
        // The inner tree takes part in this decode's Foundation-like pass and draws on its retry
        // budget (with its own allowance added, for JSON text); it gives back what it refused and
        // what it overspent.
        let budget = retryBudget
        inner.retryBudget = addsAllowance ? budget &+ inner.retryBudget : budget
        let foundationBudget = foundationRetryBudget
        inner.foundationRetryBudget =
            addsAllowance ? foundationBudget &+ inner.foundationRetryBudget : foundationBudget
        let rewrites = rewriteBudget
        // JSON text adds eight times its own size, without the floor a whole document brings:
        // many small strings must not bring a mebibyte each.
        inner.rewriteBudget = addsAllowance ? rewrites &+ 8 &* tree.input.count : rewrites
        inner.inFoundationPass = inFoundationPass
        inner.stackExhaustion = stackExhaustion
        if case let types = hookTextTypes, !types.isEmpty { inner.occasional.hookTextTypes = types }
        // The thread's stack bounds, found once: asking for them reads the process's memory map
        // on a main thread, a cost that a hook at every level paid at every level.
        inner.stackGuard = stackGuard
        defer {
            materializedNodes += inner.materializedNodes
            refusals &+= inner.refusals
            nonFiniteCoercions &+= inner.nonFiniteCoercions
            containersMade &+= inner.containersMade
            // What the inner decoder found and defaulted belongs to the value it replaced, for the
            // check of a collection element of which no property was present.
            keysFound &+= inner.keysFound
            missingValuesDefaulted &+= inner.missingValuesDefaulted
            if stackExhaustion == nil { stackExhaustion = inner.stackExhaustion }
            retryBudget = min(budget, inner.retryBudget)
            foundationRetryBudget = min(foundationBudget, inner.foundationRetryBudget)
            // What the inner decoder overspent of this one's budget, charged here and up the
            // chain of super decoders.
            _ = spendRewriteBudget(rewrites - min(rewrites, inner.rewriteBudget))
            TreeDecoder.keepInputIfRetained(&inner)
        }
        inner.report = report
        if report != nil { inner.host = (self, index) }
        let result = try body(inner)
        // A model with hooks may be decoded only through such decoders: share what they learned.
        inner.shareKeyOrders()
        return result
    }

    @inline(never)
    private func rejection(of type: Any.Type, by hook: String, error: any Error, path: CodingPathNode) -> DecodingError
    {
        DecodingError.dataCorrupted(
            .init(
                codingPath: path.path, debugDescription: "\(TreeDecoder.rejectionPrefix)\(type).\(hook): \(error)",
                underlyingError: error))
    }

    /// The words that tell a value refused for the rewrite budget (``rewriteBudget``).
    static let rewriteRefusal = "returned JSON past what this decode may rewrite"

    /// Whether an error is a refusal for the rewrite budget, of this value or one inside it.
    static func isRewriteRefusal(_ error: any Error) -> Bool {
        guard case DecodingError.dataCorrupted(let context) = error else { return false }
        return context.debugDescription.contains(rewriteRefusal)
    }

    /// Whether an error is a hook's rejection of the value at `path` itself.
    static func isRejection(_ error: any Error, at path: CodingPathNode) -> Bool {
        guard case DecodingError.dataCorrupted(let context) = error,
            context.debugDescription.hasPrefix(rejectionPrefix)
        else { return false }
        return context.codingPath.count == path.depth
    }
}

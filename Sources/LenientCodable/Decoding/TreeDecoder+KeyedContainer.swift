// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// What a ``KeyedContainer`` reads, in one object. The standard library's box around a
/// keyed container copies the container for every key it decodes, retaining each of the
/// container's references: with one reference, a key costs one retain instead of two. Not
/// generic, so there is no type metadata per coding-key type, and one object serves the
/// containers of every model: the decoder recycles it (``TreeDecoder/containerState(plan:order:)``).
/// What a keyed container's searches of a large object that found nothing left behind.
final class SearchesInVain {
    /// How many nodes they scanned, and, once they outgrow the object
    /// (``JSONTree/missesOutgrowObject(_:scannedFrom:cursor:)``), indexes of all its keys, exact
    /// and converted from snake case, that later searches ask instead.
    @exclusivity(unchecked) var missedNodes = 0
    @exclusivity(unchecked) var exactIndex: MemberIndex?
    @exclusivity(unchecked) var snakeCaseIndex: MemberIndex?
    /// How many loose searches the summary did not rule out, and, past a few, the index of the
    /// object's keys as loose matching compares them.
    @exclusivity(unchecked) var looseSearches = 0
    @exclusivity(unchecked) var looseIndex: [[UInt8]: Int]?
}

final class KeyedContainerState {
    /// Strong: a container kept past its value (or past the decode) keeps its decoder, and
    /// the tree and plans that the decoder keeps. The decoder refers back to a state only
    /// while its decode call runs (``TreeDecoder/recyclesContainerStates``).
    let decoder: TreeDecoder
    /// The decoder's tree, held here too: a lookup that reached it through the decoder
    /// retained and released its storage for every key.
    let tree: JSONTree
    /// The object node; changed only when the decoder recycles the state, which no
    /// container holds then.
    @exclusivity(unchecked) private(set) var objectIndex: Int
    /// The container's own path, which its members' paths refer to; `nil` only while the
    /// state waits as its decoder's spare, so that the box can be recycled too.
    @exclusivity(unchecked) private var pathBoxOwner: PathBox?
    var pathBox: PathBox {
        @inline(__always) get { pathBoxOwner! }
    }
    /// The model's key mapping, when it has one. Plans are cached for the life of the
    /// process (``KeyPlan/plan(for:keys:)`` never drops one), so the state need not retain
    /// its plan.
    @exclusivity(unchecked) private(set) var planReference: Unmanaged<KeyPlan>?
    /// The order in which the model asks for its keys, when it has a plan. The decoder,
    /// which this object retains, keeps it alive.
    @exclusivity(unchecked) private(set) var keyOrder: UnsafeMutablePointer<KeyOrder.Storage>?
    /// Whether the key strategy converts JSON keys through a table (not the default, not
    /// snake case).
    let usesConvertedKeys: Bool
    /// Whether JSON keys are converted from snake case (compared without a table).
    let convertsFromSnakeCase: Bool
    /// Whether a key missing exactly may be found ignoring case and separators.
    let matchesLoosely: Bool
    /// The container's place in its model's ``KeyOrder``: the next key it will probably ask for.
    @exclusivity(unchecked) var keyCursor = 0
    /// For a container without a key table: where its searches of exact keys start
    /// (``JSONTree/findMember(in:key:cursor:)``), and of keys converted from snake case, which
    /// summarize keys by another hash (``JSONTree/findMemberFromSnakeCase(in:key:cursor:)``). A
    /// container of a model that maps some keys makes both kinds of search, each from its own place.
    @exclusivity(unchecked) var exactKeys = MemberCursor()
    @exclusivity(unchecked) var snakeCaseKeys = MemberCursor()
    /// The loose summary of the object's keys, built by its first loose search
    /// (``JSONTree/findMemberLoosely(in:key:from:cursor:)``).
    @exclusivity(unchecked) var looseKeys: LooseKeySummary?
    /// For an object with many members before a cursor's place, where the cursor's summary holds
    /// every hash and so rules nothing out: the keys before the place, exact and converted from
    /// snake case, each to its first member (``MemberIndex``), so that such a search costs the
    /// same however many members came before. Made by the first such search only.
    @exclusivity(unchecked) var exactKeyIndex: MemberIndex?
    @exclusivity(unchecked) var snakeCaseKeyIndex: MemberIndex?
    /// The object's keys beyond ASCII or escaped, each as Swift's `String` compares it, to the
    /// first member that has it (``JSONTree/findMember(in:key:cursor:)``). Made by the first
    /// lookup of such a key only.
    @exclusivity(unchecked) var canonicalKeys: [String: Int]?
    /// What searches of a large object that found nothing left, made by the first of them: one
    /// reference, so that a container of a model's small object pays one field for them.
    @exclusivity(unchecked) var searchesInVainState: SearchesInVain?
    var searchesInVain: SearchesInVain {
        if let searchesInVainState { return searchesInVainState }
        let made = SearchesInVain()
        searchesInVainState = made
        return made
    }

    init(
        decoder: TreeDecoder, objectIndex: Int, pathBox: PathBox, plan: KeyPlan?,
        order: UnsafeMutablePointer<KeyOrder.Storage>?
    ) {
        self.decoder = decoder
        self.tree = decoder.tree
        self.objectIndex = objectIndex
        self.pathBoxOwner = pathBox
        self.planReference = plan.map(Unmanaged.passUnretained)
        self.keyOrder = order
        self.matchesLoosely = decoder.settings.options.allowsLooseKeyMatching
        switch decoder.settings.keyDecodingStrategy {
        case .useDefaultKeys:
            usesConvertedKeys = false
            convertsFromSnakeCase = false
        case .convertFromSnakeCase:
            // Compared key by key as they are converted: no table per object.
            usesConvertedKeys = false
            convertsFromSnakeCase = true
        default:
            usesConvertedKeys = true
            convertsFromSnakeCase = false
        }
    }

    /// Points a state that no container holds at another object, for a new container of
    /// the same decoder (so with the same tree and settings).
    @inline(__always)
    func reuse(
        objectIndex: Int, pathBox: PathBox, plan: KeyPlan?, order: UnsafeMutablePointer<KeyOrder.Storage>?
    ) {
        self.objectIndex = objectIndex
        pathBoxOwner = pathBox
        planReference = plan.map(Unmanaged.passUnretained)
        keyOrder = order
        keyCursor = 0
        exactKeys = MemberCursor()
        snakeCaseKeys = MemberCursor()
        if looseKeys != nil { looseKeys = nil }
        if exactKeyIndex != nil { exactKeyIndex = nil }
        if snakeCaseKeyIndex != nil { snakeCaseKeyIndex = nil }
        if canonicalKeys != nil { canonicalKeys = nil }
        if searchesInVainState != nil { searchesInVainState = nil }
    }

    /// The next of the decoder's spare states, while this one is a spare; `nil` otherwise.
    @exclusivity(unchecked) var nextSpare: KeyedContainerState?

    /// Lets go of the path box while the state waits to be reused.
    @inline(__always)
    func releasePathBox() { pathBoxOwner = nil }

    /// Notes that a name that need not be a coding key of the container (`"super"`, the names
    /// an ``UnknownKeys`` property checks) is about to be looked up: a member it finds is not
    /// another property's, and loose searches look at every member from then on.
    @inline(__always)
    func noteLookupOutsideCodingKeys() {
        exactKeys.passedOverMembers = true
    }

    /// Where a loose search of the container's object starts: past the members its exact
    /// searches found in order, when each of them is another property's own key and so never
    /// a loose match (``TreeDecoder/KeyedContainer/firstLooseMember(spelled:besides:)``); `nil`
    /// for the first member. Holds for a container without a key plan, key conversion or skipped
    /// member, whose key type names only its own keys (`namesOnlyItsKeys`, asked last).
    @inline(__always)
    func looseSearchStart(namesOnlyItsKeys: () -> Bool) -> Int? {
        guard !exactKeys.passedOverMembers, exactKeys.nextKey > objectIndex + 1, planReference == nil,
            !usesConvertedKeys, !convertsFromSnakeCase, namesOnlyItsKeys()
        else { return nil }
        return exactKeys.nextKey
    }

    /// The value for a key spelled as the decoder's key strategy spells it, when the strategy
    /// needs no table: a method of this object, so that the lookup borrows its references.
    @inline(__always)
    func exactValueIndex(named name: String) -> Int? {
        if convertsFromSnakeCase {
            return name.withUTF8Bytes { tree.findMemberFromSnakeCase(in: objectIndex, key: $0, cursor: self) }
        }
        return name.withUTF8Bytes { tree.findMember(in: objectIndex, key: $0, cursor: self) }
    }
}

extension TreeDecoder {
    /// A keyed container over an object node.
    ///
    /// With the default key strategy a key is found by comparing its UTF-8 bytes with the
    /// members' raw key bytes, in order, so no dictionary is built per object. The first of
    /// duplicate keys wins. Other key strategies convert each JSON key once, into a table.
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        private let state: KeyedContainerState
        var decoder: TreeDecoder {
            @inline(__always) get { state.decoder }
        }
        var objectIndex: Int {
            @inline(__always) get { state.objectIndex }
        }
        var pathBox: PathBox {
            @inline(__always) get { state.pathBox }
        }
        var codingPathNode: CodingPathNode { pathBox.node }
        /// For key strategies other than the default: converted key -> value node. Kept in the
        /// path box, which belongs to the object.
        var convertedKeys: [String: Int]? { state.usesConvertedKeys ? pathBox.convertedKeys : nil }
        var convertsFromSnakeCase: Bool {
            @inline(__always) get { state.convertsFromSnakeCase }
        }
        var plan: KeyPlan? { state.planReference?.takeUnretainedValue() }
        private var keyOrder: UnsafeMutablePointer<KeyOrder.Storage>? {
            @inline(__always) get { state.keyOrder }
        }
        var matchesLoosely: Bool {
            @inline(__always) get {
                state.matchesLoosely && !decoder.suppressesLooseMatching && !decoder.withdrawsLooseMatching
            }
        }

        init(
            decoder: TreeDecoder, objectIndex: Int, pathBox: PathBox, plan: KeyPlan? = nil,
            order: UnsafeMutablePointer<KeyOrder.Storage>? = nil
        ) {
            self.init(
                state: KeyedContainerState(
                    decoder: decoder, objectIndex: objectIndex, pathBox: pathBox, plan: plan, order: order))
        }

        init(state: KeyedContainerState) {
            self.state = state
            if state.usesConvertedKeys && state.pathBox.convertedKeys == nil {
                state.pathBox.convertedKeys = KeyedContainer.convertKeys(
                    decoder: state.decoder, objectIndex: state.objectIndex, path: state.pathBox.node)
            }
        }

        var codingPath: [any CodingKey] { codingPathNode.path }

        var allKeys: [Key] {
            let tree = decoder.tree
            let end = tree[objectIndex].containerEnd
            var keys: [Key] = []
            keys.reserveCapacity(tree.count(of: objectIndex))
            if let plan {
                // Mapped properties whose value is present, then the JSON keys nobody maps.
                for name in plan.mappedPropertyNames {
                    if let key = Key(stringValue: name), valueIndex(forKey: key) != nil { keys.append(key) }
                }
            }
            var seen = Set(keys.map(\.stringValue))
            var keyIndex = objectIndex + 1
            while keyIndex < end {
                let valueIndex = keyIndex + 1
                let name = convertedName(ofKeyAt: keyIndex)
                let isFirst = convertedKeys.map { $0[name] == valueIndex } ?? true
                if isFirst, plan?.entry(for: name) == nil, seen.insert(name).inserted, let key = Key(stringValue: name)
                {
                    keys.append(key)
                }
                keyIndex = tree.next(after: valueIndex)
            }
            return keys
        }

        func contains(_ key: Key) -> Bool { valueIndex(forKey: key) != nil }

        // MARK: Lookup

        /// The node of the value for a key, or `nil` when the object has no such member.
        @inline(__always)
        func valueIndex(forKey key: Key) -> Int? {
            let index: Int?
            if let keyOrder {
                let name = key.stringValue
                let found = decoder.mappedValueIndex(named: name, in: objectIndex, order: keyOrder, cursor: state)
                if case .found(let foundIndex) = found {
                    index = foundIndex
                } else {
                    index = mappedValueIndexSlowPath(found, named: name, forKey: key)
                }
            } else {
                // No mapping: the exact key, then (in lenient mode, on a miss only) loose matching.
                index = exactValueIndex(forKey: key) ?? (matchesLoosely ? valueIndexLoosely(forKey: key) : nil)
            }
            if let index {
                decoder.keysFound &+= 1
                if decoder.readKeys != nil { decoder.markRead(valueIndex: index, in: objectIndex) }
                if decoder.callLogging != 0 { decoder.logCall(at: index) }
            }
            return index
        }

        /// The value for the key as the decoder's key strategy spells it.
        @inline(__always)
        private func exactValueIndex(forKey key: Key) -> Int? {
            exactValueIndex(named: key.stringValue)
        }

        @inline(__always)
        func exactValueIndex(named name: String) -> Int? {
            if let convertedKeys { return convertedKeys[name] }
            return state.exactValueIndex(named: name)
        }

        /// ``exactValueIndex(named:)`` for a name that need not be one of the coding keys.
        func exactValueIndex(outsideCodingKeys name: String) -> Int? {
            state.noteLookupOutsideCodingKeys()
            return exactValueIndex(named: name)
        }

        /// A mapped key whose value is not simply its first candidate's: records a fallback for
        /// the report, or looks the coding key up, then tries loose matching.
        @inline(never)
        private func mappedValueIndexSlowPath(_ found: MappedValue, named name: String, forKey key: Key) -> Int? {
            switch found {
            case .found(let index):
                return index
            case .fallback(let index, let position):
                if decoder.report != nil {
                    let mark = decoder.reportMark
                    recordFallback(key, position: position)
                    decoder.noteFallback(node: index, mark: mark)
                }
                if decoder.readKeys != nil { markNullCandidatesRead(before: position, forKey: key) }
                return index
            case .unmapped:
                if let index = exactValueIndex(named: name) { return index }
            case .missing:
                break
            case .ignored:
                return nil
            }
            guard matchesLoosely else { return nil }
            return valueIndexLoosely(forKey: key)
        }

        /// The candidates of a key, matched ignoring case and separators: the last resort.
        /// Optional properties missing from the document come here on every decode, so a miss
        /// allocates nothing.
        ///
        /// A `null` under another spelling is no value found: the key is missing, as Foundation's
        /// decoder sees it (`contains` answers `false`, `decodeNil` and `decode(Int?.self, …)`
        /// meet a missing key), and an `UnknownKeys` property keeps the member. Among a fallback
        /// list's candidates, the first that holds a value wins.
        @inline(never)
        private func valueIndexLoosely(forKey key: Key) -> Int? {
            let name = key.stringValue
            switch plan?.entry(for: name) {
            case .ignored?:
                return nil
            case .sources(let candidates)?:
                for path in candidates {
                    if let (index, matched) = decoder.tree.resolveLoosely(path, in: objectIndex) {
                        if decoder.tree[index].kind == .null { continue }
                        let mark = decoder.reportMark
                        recordFallback(key, found: matched, tried: candidates)
                        decoder.noteFallback(node: index, mark: mark)
                        decoder.countLooseMatch()
                        return index
                    }
                }
                return nil
            case nil:
                let spelled = plan?.strategyKey(for: name)?.text ?? name
                let tree = decoder.tree
                guard let keyIndex = firstLooseMember(spelled: spelled, besides: name) else { return nil }
                let mark = decoder.reportMark
                recordFallback(key, found: [KeyBytes(tree.string(at: keyIndex))], tried: [[KeyBytes(spelled)]])
                decoder.noteFallback(node: keyIndex + 1, mark: mark)
                decoder.looselyReadKeys.insert(keyIndex)
                LooselyMatchedKeys.record(name, for: Key.self)
                decoder.countLooseMatch()
                return keyIndex + 1
            }
        }

        /// The key node of the first member that matches `spelled` loosely and that no other
        /// property reads under its own key. A member another property reads is that property's:
        /// taken here too, `{"userName": null, "username": 5}` would give both properties 5 once
        /// encoded without the `nil` (`{"username": 5}`).
        func firstLooseMember(spelled: String, besides name: String) -> Int? {
            let tree = decoder.tree
            // The members the model found exactly, in order, are other properties' own keys: a
            // missing optional property read after them (the common case) looks at the rest.
            let start = state.looseSearchStart { decoder.keyTypeNamesOnlyItsKeys(Key.self) }
            if let start, start >= tree[objectIndex].containerEnd { return nil }
            var found = spelled.withUTF8Bytes {
                tree.findMemberLoosely(in: objectIndex, key: $0, from: start, cursor: state)
            }
            // A `null` is no value found: the next spelling that holds one is read, whatever the
            // members' order.
            while let keyIndex = found,
                tree[keyIndex + 1].kind == .null || isOwnKeyOfAnotherProperty(keyIndex, besides: name)
            {
                let after = tree.next(after: keyIndex + 1)
                found = spelled.withUTF8Bytes { tree.findMemberLoosely(in: objectIndex, key: $0, from: after) }
            }
            return found
        }

        /// Whether the member at `keyIndex` is read exactly by a property of this type other than
        /// `name`: its key, as the decoder's key strategy converts it, is one of the coding keys;
        /// or the type's key mapping or key strategy spells another property's key so
        /// (``KeyPlan/propertyReads(jsonKey:besides:isCodingKey:)``); or it is the tag of a ``TaggedCodable``
        /// enum whose payload this is. Coding keys that take any string (a dynamic key type) name
        /// no properties of their own.
        private func isOwnKeyOfAnotherProperty(_ keyIndex: Int, besides name: String) -> Bool {
            let tree = decoder.tree
            if let plan,
                plan.propertyReads(
                    jsonKey: tree.string(at: keyIndex), besides: name,
                    isCodingKey: { Key(stringValue: $0) != nil && decoder.keyTypeNamesOnlyItsKeys(Key.self) })
            {
                return true
            }
            if isTagBesidePayload(keyIndex) { return true }
            let memberName = plan?.strategy != nil ? tree.string(at: keyIndex) : convertedName(ofKeyAt: keyIndex)
            guard memberName != name, Key(stringValue: memberName) != nil else { return false }
            return decoder.keyTypeNamesOnlyItsKeys(Key.self)
        }

        /// Whether the member at `keyIndex` is the tag of a ``TaggedCodable`` enum whose payload
        /// is decoded beside it in this object: the member under the tag key, or, where none is,
        /// one that matches the tag key loosely, as the enum found it.
        private func isTagBesidePayload(_ keyIndex: Int) -> Bool {
            let tagKeys = decoder.tagKeys(besidePayloadIn: objectIndex)
            guard !tagKeys.isEmpty else { return false }
            let memberName = decoder.tree.string(at: keyIndex)
            return tagKeys.contains { tagKey in
                if memberName == tagKey { return true }
                guard exactValueIndex(outsideCodingKeys: tagKey) == nil else { return false }
                return memberName.withUTF8Bytes { member in
                    tagKey.withUTF8Bytes { JSONTree.looselyEqual(member, $0) }
                }
            }
        }

        /// Marks as read the candidates before the one a mapped key's value came from that hold
        /// `null`: the decoder looked at them and passed over them, so an ``UnknownKeys`` property
        /// does not keep them, to be written over by the value when encoding (and lost on the way
        /// back).
        private func markNullCandidatesRead(before position: Int, forKey key: Key) {
            guard case .sources(let sources)? = plan?.entry(for: key.stringValue) else { return }
            for path in sources.prefix(position) {
                if let node = decoder.tree.resolve(path, in: objectIndex), decoder.tree[node].kind == .null {
                    decoder.markRead(valueIndex: node, in: objectIndex)
                }
            }
        }

        /// Records that a mapped key's value came from a later candidate than the first.
        private func recordFallback(_ key: Key, position: Int) {
            guard case .sources(let sources)? = plan?.entry(for: key.stringValue) else { return }
            recordFallback(key, found: sources[position], tried: sources)
        }

        private func recordFallback(_ key: Key, found: [KeyBytes], tried: [[KeyBytes]]) {
            guard let report = decoder.report else { return }
            let spell = { (path: [KeyBytes]) in "\"" + KeyBytes.spelled(path) + "\"" }
            let first = tried.first.map(spell) ?? "\"\(key.stringValue)\""
            var message = "Found \(key.stringValue) under \(spell(found)) instead of \(first)."
            if spell(found) == first {
                // The key is spelled as looked for, but the key strategy read it as another key
                // (`html_url` as `htmlUrl`, which is not the coding key `html_url`).
                let spelled = KeyBytes.spelled(found)
                let converted = KeyConversion.camelCase(fromSnakeCase: spelled)
                message =
                    convertsFromSnakeCase && found.count == 1 && converted != spelled
                    ? "Found \(key.stringValue) under \(spell(found)), which .convertFromSnakeCase reads as the key \"\(converted)\"."
                    : "Found \(key.stringValue) under \(spell(found)), matched ignoring case and separators."
            }
            report.record(
                .keyFallback, path: pathBox.appending(key),
                jsonPath: decoder.jsonPath(ofObject: objectIndex, keys: found),
                message: message,
                origin: decoder.issueOrigin(node: objectIndex, missingKey: key.stringValue))
        }

        /// The keys the decoder looks for first for a property, as the JSON spells them: the first
        /// source of its mapping, its type's key strategy, or the decoder's (snake case as
        /// `JSONEncoder` writes it). For the report's JSON path of a missing value.
        private func firstJSONKeys(for key: Key) -> [KeyBytes] {
            let name = key.stringValue
            if case .sources(let sources)? = plan?.entry(for: name), let first = sources.first { return first }
            if let spelled = plan?.strategyKey(for: name) { return [spelled] }
            if convertsFromSnakeCase { return [KeyBytes(FoundationSnakeCase.convert(name))] }
            return [KeyBytes(name)]
        }

        @inline(__always)
        func requireValueIndex(forKey key: Key) throws -> Int {
            guard let index = valueIndex(forKey: key) else { throw keyNotFound(key) }
            return index
        }

        @inline(never)
        func keyNotFound(_ key: Key) -> DecodingError {
            var description = "No value associated with key \(key) (\"\(key.stringValue)\")."
            if case .sources(let sources)? = plan?.entry(for: key.stringValue) {
                let tried = sources.map { "\"" + KeyBytes.spelled($0) + "\"" }.joined(separator: ", ")
                description = "No value for key \"\(key.stringValue)\"; tried \(tried)."
            }
            return DecodingError.keyNotFound(key, .init(codingPath: codingPathNode.path, debugDescription: description))
        }

        func convertedName(ofKeyAt keyIndex: Int) -> String {
            KeyedContainer.convert(
                decoder.tree.string(at: keyIndex), strategy: decoder.settings.keyDecodingStrategy, path: codingPathNode)
        }

        private static func convertKeys(decoder: TreeDecoder, objectIndex: Int, path: CodingPathNode) -> [String: Int] {
            let tree = decoder.tree
            let end = tree[objectIndex].containerEnd
            var table: [String: Int] = [:]
            table.reserveCapacity(tree.count(of: objectIndex))
            var keyIndex = objectIndex + 1
            while keyIndex < end {
                let valueIndex = keyIndex + 1
                let name = convert(
                    tree.string(at: keyIndex), strategy: decoder.settings.keyDecodingStrategy, path: path)
                if table[name] == nil { table[name] = valueIndex }
                keyIndex = tree.next(after: valueIndex)
            }
            return table
        }

        static func convert(_ name: String, strategy: JSONDecoder.KeyDecodingStrategy, path: CodingPathNode) -> String {
            switch strategy {
            case .useDefaultKeys: return name
            case .convertFromSnakeCase: return KeyConversion.camelCase(fromSnakeCase: name)
            case .custom(let closure): return closure(path.path + [AnyCodingKey(name)]).stringValue
            @unknown default: return name
            }
        }

        // MARK: Lenient decoding

        /// Decodes a non-optional property: in lenient mode a missing, null or unusable value takes
        /// the type's default, and the report says so.
        @inline(__always)
        private func decodeValue<T>(
            _ type: T.Type, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            if plan?.hasPropertyRules == true { return try decodeValueWithRules(type, forKey: key, body) }
            guard decoder.isLenient else {
                return try body(decoder, try requireValueIndex(forKey: key), pathBox.appending(key))
            }
            return try decodeValueLeniently(type, forKey: key, body)
        }

        @inline(__always)
        private func decodeValueLeniently<T>(
            _ type: T.Type, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            // The rare cases live in their own functions: in unspecialized generic code, merely
            // mentioning `T?` here would look up its metadata on every call.
            guard let index = valueIndex(forKey: key) else { return try missingValue(T.self, forKey: key) }
            return try decodeFoundValueLeniently(type, at: index, forKey: key, body)
        }

        /// A scalar property (`Bool`, `String`, a number): a value that is plainly of the type is
        /// read without its coding path, which is built, with the key boxed in it, only for what
        /// reads it, an error or a report entry. `plainly` returns `nil` for every other value,
        /// which then takes ``decodeValue(_:forKey:_:)``'s way from the index already found.
        /// (``decodeValue(_:forKey:_:)`` and ``decodeOptional(_:forKey:_:)`` stay apart: they serve
        /// generic `T`, where a `plainly` that returns `nil` still costs a lookup of `T?`'s
        /// metadata per call; merged, twitter decoded 4% slower.)
        @inline(__always)
        private func decodeScalar<T>(
            _ type: T.Type, forKey key: Key, plainly: (TreeDecoder, Int) -> T?,
            read body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            if plan?.hasPropertyRules == true { return try decodeValueWithRules(type, forKey: key, body) }
            guard decoder.isLenient else {
                let index = try requireValueIndex(forKey: key)
                if let value = plainly(decoder, index) { return value }
                return try body(decoder, index, pathBox.appending(key))
            }
            guard let index = valueIndex(forKey: key) else { return try missingValue(T.self, forKey: key) }
            if let value = plainly(decoder, index) { return value }
            return try decodeFoundValueLeniently(type, at: index, forKey: key) {
                try $0.readForgivableScalar(at: $1, path: $2, body)
            }
        }

        /// An optional scalar property, as ``decodeScalar(_:forKey:plainly:read:)`` reads a
        /// non-optional one.
        @inline(__always)
        private func decodeOptionalScalar<T>(
            _ type: T.Type, forKey key: Key, plainly: (TreeDecoder, Int) -> T?,
            read body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T? {
            if plan?.hasPropertyRules == true { return try decodeOptionalWithRules(type, forKey: key, body) }
            guard let index = valueIndex(forKey: key) else { return nil }
            if let value = plainly(decoder, index) { return value }
            if decoder.tree[index].kind == .null { return nil }
            return try Self.decodeFoundOptional(type, decoder: decoder, index: index, path: pathBox.appending(key)) {
                try $0.readForgivableScalar(at: $1, path: $2, body)
            }
        }

        /// The rest of ``decodeValueLeniently(_:forKey:_:)`` once the value is found.
        @inline(__always)
        private func decodeFoundValueLeniently<T>(
            _ type: T.Type, at index: Int, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            if decoder.hasCaughtCalls,
                decoder.isCaughtCall(node: index, type: T.self)
                    || decoder.isCaughtMissingKey(in: objectIndex, key: key.stringValue, type: T.self)
            {
                return try decoder.answeringAsFoundation { try forgivingFoundValue(type, at: index, forKey: key, body) }
            }
            return try forgivingFoundValueInline(type, at: index, forKey: key, body)
        }

        /// ``decodeFoundValueLeniently(_:at:forKey:_:)`` past the probe check, out of line for the
        /// rare answer as Foundation.
        @inline(never)
        private func forgivingFoundValue<T>(
            _ type: T.Type, at index: Int, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            try forgivingFoundValueInline(type, at: index, forKey: key, body)
        }

        @inline(__always)
        private func forgivingFoundValueInline<T>(
            _ type: T.Type, at index: Int, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            let path = pathBox.appending(key)
            if decoder.isNullish(at: index, for: T.self) {
                return try Self.nullishValue(T.self, decoder: decoder, at: index, path: path, body)
            }
            let mark = decoder.reportMark
            do {
                return try body(decoder, index, path)
            } catch  where decoder.options.defaultsInvalidValues {
                return try invalidValue(T.self, error: error, at: index, path: path, reportMark: mark)
            }
        }

        /// The value of a null-like string (`"null"`, `"nil"`, `"<null>"`, `"(null)"`) as
        /// Foundation's decoder reads it for `T`, if it reads one: such a string counts as `null`
        /// only for a type that cannot read it (an `Int?`, not a `URL?`, a `JSONValue?` or an
        /// enum with a `nil` case). Asked only for null-like strings, in the forgiving pass.
        ///
        /// Kept out of line with its callers below, as is every `T?` they make: a generic optional
        /// in an inlined function has its metadata looked up on the hot path of every property.
        @inline(never)
        static func foundationValue<T>(
            _ type: T.Type, decoder: TreeDecoder, at index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) -> T? {
            guard decoder.tree[index].kind == .string else { return nil }
            // Integers and booleans never read a string under Foundation: no attempt (and no
            // error built) for the usual `"null"` for an `Int?`.
            if T.self is any FixedWidthInteger.Type || T.self == Bool.self { return nil }
            return try? decoder.readingAsFoundation { try body(decoder, index, path) }
        }

        /// Whether Foundation's decoder reads the null-like string at `index` as a `T`.
        @inline(never)
        static func readsNullLike<T>(
            _ type: T.Type, decoder: TreeDecoder, at index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) -> Bool {
            foundationValue(T.self, decoder: decoder, at: index, path: path, body) != nil
        }

        /// A `null`, or null-like string, for a non-optional property: Foundation's value of the
        /// string if it has one, else what `null` gives.
        @inline(never)
        static func nullishValue<T>(
            _ type: T.Type, decoder: TreeDecoder, at index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            if let value = foundationValue(T.self, decoder: decoder, at: index, path: path, body) { return value }
            return try nullValue(T.self, decoder: decoder, at: index, path: path, body)
        }

        // The container's own decoder, in the hot path's calling convention.

        @inline(never)
        private func nullValue<T>(
            _ type: T.Type, at index: Int, path: CodingPathNode, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            try Self.nullValue(T.self, decoder: decoder, at: index, path: path, body)
        }

        @inline(never)
        private func invalidValue<T>(
            _ type: T.Type, error: any Error, at index: Int, path: CodingPathNode, reportMark mark: Int
        ) throws -> T {
            try Self.invalidValue(T.self, decoder: decoder, error: error, at: index, path: path, reportMark: mark)
        }

        /// A present non-optional property of a transformed value in lenient mode, as
        /// ``decodeValueLeniently(_:forKey:_:)`` treats the others: a null or unusable value takes
        /// the type's default.
        private static func decodeFoundLeniently<T>(
            _ type: T.Type, decoder: TreeDecoder, index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            if decoder.isNullish(at: index, for: T.self) {
                return try nullishValue(T.self, decoder: decoder, at: index, path: path, body)
            }
            let mark = decoder.reportMark
            do {
                return try body(decoder, index, path)
            } catch  where decoder.options.defaultsInvalidValues {
                return try invalidValue(T.self, decoder: decoder, error: error, at: index, path: path, reportMark: mark)
            }
        }

        @inline(never)
        private func missingValue<T>(_ type: T.Type, forKey key: Key) throws -> T {
            let call = TreeDecoder.ProbeCall(
                node: objectIndex, missingKey: key.stringValue, type: ObjectIdentifier(T.self))
            guard decoder.options.defaultsMissingValues, let value = defaultValue(of: T.self), !decoder.isCaught(call),
                decoder.mayForgive()
            else {
                decoder.recordFailedCall(call)
                throw keyNotFound(key)
            }
            decoder.missingValuesDefaulted &+= 1
            if !isIgnored(key) {
                decoder.record(
                    .defaulted, path: pathBox.appending(key), found: nil,
                    jsonPath: decoder.jsonPath(ofObject: objectIndex, keys: firstJSONKeys(for: key)),
                    missingIn: (objectIndex, key.stringValue),
                    "Missing value; used the default \(TreeDecoder.describeDefault(value)).")
            }
            return value
        }

        @inline(never)
        private static func nullValue<T>(
            _ type: T.Type, decoder: TreeDecoder, at index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            // An optional asked for with `decode(_:forKey:)` (a generic property whose type is
            // `Int?`, or `Int??`) reads `null` as Foundation does: `nil`, nothing forgiven.
            if decoder.tree[index].kind == .null, T.self is any DeclaredAsOptional.Type,
                let value = try? decoder.readingAsFoundation({ try body(decoder, index, path) })
            {
                return value
            }
            guard decoder.options.defaultsNullValues, let value = defaultValue(of: T.self), decoder.mayForgive() else {
                // Null is not an invalid value: only `defaultsNullValues` forgives it.
                do {
                    return try body(decoder, index, path)
                } catch {
                    // A call of a Foundation-like pass that failed: the model may go on after it (a probe).
                    decoder.recordFailedCall(.init(node: index, missingKey: nil, type: ObjectIdentifier(T.self)))
                    throw error
                }
            }
            decoder.record(
                .defaulted, path: path, found: index,
                "Found \(decoder.describeFound(at: index)); used the default \(TreeDecoder.describeDefault(value)).")
            return value
        }

        @inline(never)
        private static func invalidValue<T>(
            _ type: T.Type, decoder: TreeDecoder, error: any Error, at index: Int, path: CodingPathNode,
            reportMark mark: Int
        ) throws -> T {
            guard let value = defaultValue(of: T.self), decoder.mayForgive() else {
                // A call of a Foundation-like pass that failed: the model may go on after it (a probe).
                decoder.recordFailedCall(.init(node: index, missingKey: nil, type: ObjectIdentifier(T.self)))
                decoder.withdrawFallback(for: index)
                throw error
            }
            decoder.rollbackReport(to: mark)
            recordReplacement(
                of: error, as: "\(T.self)", decoder: decoder, at: index, path: path,
                used: "used the default \(TreeDecoder.describeDefault(value))")
            return value
        }

        /// Decodes an optional property: in lenient mode a null-like string or an unusable value
        /// becomes `nil`, and the report says so.
        @inline(__always)
        private func decodeOptional<T>(
            _ type: T.Type, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T? {
            if plan?.hasPropertyRules == true { return try decodeOptionalWithRules(type, forKey: key, body) }
            guard let index = valueIndex(forKey: key) else { return nil }
            // Before the path is built: most optional properties of real documents are null.
            if decoder.tree[index].kind == .null { return nil }
            return try Self.decodeFoundOptional(
                type, decoder: decoder, index: index, path: pathBox.appending(key), body)
        }

        /// A present optional property. `decoder` is the container's, or the decoder of a
        /// transformed value. What forgives lives in functions of its own: this one is inlined into
        /// every optional property's path, and its frame is on the stack once per nesting level.
        @inline(__always)
        private static func decodeFoundOptional<T>(
            _ type: T.Type, decoder: TreeDecoder, index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T? {
            let kind = decoder.tree[index].kind
            if kind == .null { return nil }
            guard decoder.isLenient else { return try body(decoder, index, path) }
            // Known as a call for `T`: whether it reads `T` or `T?` makes no difference to a probe.
            if decoder.hasCaughtCalls, decoder.isCaughtCall(node: index, type: T.self) {
                return try decoder.answeringAsFoundation {
                    try decodeFoundOptional(type, decoder: decoder, index: index, path: path, body)
                }
            }
            if kind == .string, decoder.isNullish(at: index, for: T.self) {
                return nullishOptional(T.self, decoder: decoder, at: index, path: path, body)
            }
            let mark = decoder.reportMark
            do {
                return try body(decoder, index, path)
            } catch  where decoder.options.defaultsInvalidValues {
                try invalidOptional(T.self, decoder: decoder, error: error, at: index, path: path, reportMark: mark)
                return nil
            }
        }

        /// A null-like string for an optional: Foundation's value of it if it has one, else `nil`.
        @inline(never)
        private static func nullishOptional<T>(
            _ type: T.Type, decoder: TreeDecoder, at index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) -> T? {
            if let value = foundationValue(T.self, decoder: decoder, at: index, path: path, body) { return value }
            decoder.record(
                .defaulted, path: path, found: index, "Found \(decoder.describeFound(at: index)); used nil.")
            return nil
        }

        @inline(never)
        private static func invalidOptional(
            _ type: Any.Type, decoder: TreeDecoder, error: any Error, at index: Int, path: CodingPathNode,
            reportMark mark: Int
        ) throws {
            guard decoder.mayForgive() else {
                // A call of a Foundation-like pass that failed: the model may go on after it (a probe).
                decoder.recordFailedCall(.init(node: index, missingKey: nil, type: ObjectIdentifier(type)))
                decoder.withdrawFallback(for: index)
                throw error
            }
            decoder.rollbackReport(to: mark)
            recordReplacement(
                of: error, as: TreeDecoder.describeType(type), decoder: decoder, at: index, path: path, used: "used nil"
            )
        }

        /// Records a value that failed and what took its place (`used`, as `used nil`): `.rejected`
        /// when a hook refused the value (an object wrapped as a list's one element, say), said as
        /// such; otherwise `.defaulted`, with what was found and why it could not be decoded.
        private static func recordReplacement(
            of error: any Error, as typeName: String, decoder: TreeDecoder, at index: Int, path: CodingPathNode,
            used: String
        ) {
            if TreeDecoder.isRejection(error, at: path) {
                decoder.record(
                    .rejected, path: path, found: index, "\(TreeDecoder.reason(error, under: path)); \(used).")
                return
            }
            decoder.record(
                .defaulted, path: path, found: index,
                "Cannot decode \(decoder.describeFound(at: index)) as \(typeName) (\(TreeDecoder.reason(error, under: path))); \(used)."
            )
        }

        // MARK: Property rules

        /// A non-optional property of a type that declares transforms, required properties or
        /// declared defaults, apart so that the code inlined for every property of every type
        /// stays a test of one Bool.
        @inline(never)
        private func decodeValueWithRules<T>(
            _ type: T.Type, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            let name = key.stringValue
            let isRequired = plan?.isRequired(name) == true
            if !isRequired && plan?.hasDeclaredDefault(name) == true {
                return try decodeValueWithDeclaredDefault(
                    type, forKey: key, transform: plan?.transform(for: name), body)
            }
            // In `.strict` a non-optional property is required already, with Foundation's errors.
            let isLenientlyRequired = isRequired && decoder.isLenient
            if let transform = plan?.transform(for: name) {
                return try decodeTransformedValue(
                    type, forKey: key, transform: transform, isRequired: isLenientlyRequired, body)
            }
            if isLenientlyRequired {
                guard let index = valueIndex(forKey: key) else { throw requiredKeyNotFound(key) }
                return try Self.decodeRequired(type, decoder: decoder, index: index, path: pathBox.appending(key), body)
            }
            guard decoder.isLenient else {
                return try body(decoder, try requireValueIndex(forKey: key), pathBox.appending(key))
            }
            return try decodeValueLeniently(type, forKey: key, body)
        }

        /// A non-optional property of a ``DeclaredDefaults`` type: missing or null (in any mode) or
        /// invalid (in `.lenient`), it takes its value in `Self()`. The stored default is cast to
        /// `T` only then.
        private func decodeValueWithDeclaredDefault<T>(
            _ type: T.Type, forKey key: Key, transform: JSONTransform?,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            let name = key.stringValue
            guard let index = valueIndex(forKey: key) else {
                if let value = plan?.declaredDefault(for: name, as: T.self) {
                    if !isIgnored(key) {
                        decoder.record(
                            .defaulted, path: pathBox.appending(key), found: nil,
                            jsonPath: decoder.jsonPath(ofObject: objectIndex, keys: firstJSONKeys(for: key)),
                            missingIn: (objectIndex, key.stringValue),
                            "Missing value; used the declared default \(TreeDecoder.describeDefault(value)).")
                    }
                    return value
                }
                guard decoder.isLenient else { throw keyNotFound(key) }
                return try missingValue(T.self, forKey: key)
            }
            let path = pathBox.appending(key)
            if decoder.isNullish(at: index, for: T.self),
                !Self.readsNullLike(T.self, decoder: decoder, at: index, path: path, body),
                let value = plan?.declaredDefault(for: name, as: T.self)
            {
                decoder.record(
                    .defaulted, path: path, found: index,
                    "Found \(decoder.describeFound(at: index)); used the declared default \(TreeDecoder.describeDefault(value))."
                )
                return value
            }
            if let transform {
                return try decodeTransformedValue(
                    type, at: index, forKey: key, transform: transform, isRequired: false,
                    declaredDefault: plan?.declaredDefault(for: name, as: T.self), body)
            }
            guard decoder.isLenient else { return try body(decoder, index, path) }
            if decoder.isNullish(at: index, for: T.self) {
                return try Self.nullishValue(T.self, decoder: decoder, at: index, path: path, body)
            }
            let mark = decoder.reportMark
            do {
                return try body(decoder, index, path)
            } catch  where decoder.options.defaultsInvalidValues && decoder.mayForgive() {
                guard let value = plan?.declaredDefault(for: name, as: T.self) else {
                    return try invalidValue(T.self, error: error, at: index, path: path, reportMark: mark)
                }
                decoder.rollbackReport(to: mark)
                Self.recordDeclaredDefault(value, for: error, decoder: decoder, at: index, path: path)
                return value
            }
        }

        /// Records a declared default that took the place of a value that failed: `.rejected`
        /// when a hook refused the value, as ``invalidValue(_:decoder:error:at:path:reportMark:)``
        /// says it, otherwise `.defaulted`.
        private static func recordDeclaredDefault<T>(
            _ value: T, for error: any Error, decoder: TreeDecoder, at index: Int, path: CodingPathNode
        ) {
            recordReplacement(
                of: error, as: "\(T.self)", decoder: decoder, at: index, path: path,
                used: "used the declared default \(TreeDecoder.describeDefault(value))")
        }

        /// An optional property of a type that declares transforms or required properties.
        @inline(never)
        private func decodeOptionalWithRules<T>(
            _ type: T.Type, forKey key: Key, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T? {
            let name = key.stringValue
            let isRequired = plan?.isRequired(name) == true
            if let transform = plan?.transform(for: name) {
                return try decodeTransformedOptional(
                    type, forKey: key, transform: transform, isRequired: isRequired, body)
            }
            guard let index = valueIndex(forKey: key) else {
                if isRequired { throw requiredKeyNotFound(key) }
                return nil
            }
            let path = pathBox.appending(key)
            if isRequired { return try Self.decodeRequired(type, decoder: decoder, index: index, path: path, body) }
            return try Self.decodeFoundOptional(type, decoder: decoder, index: index, path: path, body)
        }

        /// A present required property: `null` (or, in `.lenient`, a null-like string) fails, and so
        /// does a value that no coercion makes valid; nothing is defaulted.
        private static func decodeRequired<T>(
            _ type: T.Type, decoder: TreeDecoder, index: Int, path: CodingPathNode,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            let isNull =
                decoder.isLenient
                ? decoder.isNullish(at: index, for: T.self)
                    && !readsNullLike(T.self, decoder: decoder, at: index, path: path, body)
                : decoder.tree[index].kind == .null
            if isNull {
                throw DecodingError.valueNotFound(
                    T.self,
                    .init(
                        codingPath: path.path,
                        debugDescription:
                            "Found \(decoder.describeFound(at: index)) for a required property; expected \(T.self)."))
            }
            return try body(decoder, index, path)
        }

        @inline(never)
        private func requiredKeyNotFound(_ key: Key) -> DecodingError {
            guard case .keyNotFound(let missing, let context) = keyNotFound(key) else { return keyNotFound(key) }
            return DecodingError.keyNotFound(
                missing,
                .init(
                    codingPath: context.codingPath,
                    debugDescription: context.debugDescription + " The property is required."))
        }

        /// A non-optional property whose type declares a transform of its JSON: the transformed JSON
        /// is decoded from a tree of its own, with the usual lenient treatment.
        @inline(never)
        private func decodeTransformedValue<T>(
            _ type: T.Type, forKey key: Key, transform: JSONTransform, isRequired: Bool,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            guard let index = valueIndex(forKey: key) else {
                if isRequired { throw requiredKeyNotFound(key) }
                guard decoder.isLenient else { throw keyNotFound(key) }
                return try missingValue(T.self, forKey: key)
            }
            return try decodeTransformedValue(
                type, at: index, forKey: key, transform: transform, isRequired: isRequired, body)
        }

        /// A present non-optional property whose type declares a transform of its JSON. With
        /// `declaredDefault`, a transform that gives `null` gives the property that value, in any
        /// mode, as a `null` in the document does.
        private func decodeTransformedValue<T>(
            _ type: T.Type, at index: Int, forKey key: Key, transform: JSONTransform, isRequired: Bool,
            declaredDefault: T? = nil, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            let path = pathBox.appending(key)
            let mark = decoder.reportMark
            // A transform that throws, or whose JSON comes past the rewrite budget: in `.lenient`,
            // the property's default, reported.
            func forgive(_ failure: any Error) throws -> T {
                guard !isRequired, decoder.isLenient, decoder.options.defaultsInvalidValues,
                    let value = declaredDefault ?? defaultValue(of: T.self), decoder.mayForgive()
                else { throw failure }
                decoder.rollbackReport(to: mark)
                let described = declaredDefault == nil ? "the default" : "the declared default"
                decoder.record(
                    .defaulted, path: path, found: index,
                    "\(TreeDecoder.reason(failure, under: path)); used \(described) \(TreeDecoder.describeDefault(value))."
                )
                return value
            }
            var json: JSONValue
            do {
                try decoder.checkValidText(at: index, path: path)
            } catch {
                return try forgive(error)
            }
            do {
                json = try transform(decoder.sharedJSONValue(at: index))
            } catch {
                return try forgive(transformFailure(key, error: error, at: index, path: path))
            }
            do {
                return try decodeTransformedJSON(
                    &json, type, at: index, path: path, key: key, isRequired: isRequired,
                    declaredDefault: declaredDefault, body)
            } catch  where TreeDecoder.isRewriteRefusal(error) {
                return try forgive(error)
            }
        }

        /// The transformed JSON of a non-optional property, decoded through a tree of its own.
        private func decodeTransformedJSON<T>(
            _ json: inout JSONValue, _ type: T.Type, at index: Int, path: CodingPathNode, key: Key, isRequired: Bool,
            declaredDefault: T?, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T {
            try decoder.withSubtree(
                of: &json, replacing: index, path: path, producedBy: "The transform of \(key.stringValue)",
                origin: "transform of \(key.stringValue)"
            ) {
                inner, _ in
                if let declaredDefault, inner.isNullish(at: 0, for: T.self),
                    !Self.readsNullLike(T.self, decoder: inner, at: 0, path: path, body)
                {
                    inner.record(
                        .defaulted, path: path, found: 0,
                        "Found \(inner.describeFound(at: 0)) after the transform; used the declared default \(TreeDecoder.describeDefault(declaredDefault))."
                    )
                    return declaredDefault
                }
                guard inner.isLenient else { return try body(inner, 0, path) }
                if isRequired { return try Self.decodeRequired(type, decoder: inner, index: 0, path: path, body) }
                if let declaredDefault {
                    // An unusable transformed value takes the declared value, as an untransformed one does.
                    let mark = inner.reportMark
                    do {
                        return try body(inner, 0, path)
                    } catch  where inner.options.defaultsInvalidValues && inner.mayForgive() {
                        inner.rollbackReport(to: mark)
                        Self.recordDeclaredDefault(declaredDefault, for: error, decoder: inner, at: 0, path: path)
                        return declaredDefault
                    }
                }
                return try Self.decodeFoundLeniently(type, decoder: inner, index: 0, path: path, body)
            }
        }

        /// An optional property whose type declares a transform of its JSON.
        @inline(never)
        private func decodeTransformedOptional<T>(
            _ type: T.Type, forKey key: Key, transform: JSONTransform, isRequired: Bool,
            _ body: (TreeDecoder, Int, CodingPathNode) throws -> T
        ) throws -> T? {
            guard let index = valueIndex(forKey: key) else {
                if isRequired { throw requiredKeyNotFound(key) }
                return nil
            }
            let path = pathBox.appending(key)
            let mark = decoder.reportMark
            // A transform that throws, or whose JSON comes past the rewrite budget: in `.lenient`,
            // `nil`, reported.
            func forgive(_ failure: any Error) throws -> T? {
                guard !isRequired, decoder.isLenient, decoder.options.defaultsInvalidValues, decoder.mayForgive() else {
                    throw failure
                }
                decoder.rollbackReport(to: mark)
                decoder.record(
                    .defaulted, path: path, found: index, "\(TreeDecoder.reason(failure, under: path)); used nil.")
                return nil
            }
            var json: JSONValue
            do {
                try decoder.checkValidText(at: index, path: path)
            } catch {
                return try forgive(error)
            }
            do {
                json = try transform(decoder.sharedJSONValue(at: index))
            } catch {
                return try forgive(transformFailure(key, error: error, at: index, path: path))
            }
            do {
                return try decoder.withSubtree(
                    of: &json, replacing: index, path: path, producedBy: "The transform of \(key.stringValue)",
                    origin: "transform of \(key.stringValue)"
                ) {
                    inner, _ in
                    if isRequired { return try Self.decodeRequired(type, decoder: inner, index: 0, path: path, body) }
                    return try Self.decodeFoundOptional(type, decoder: inner, index: 0, path: path, body)
                }
            } catch  where TreeDecoder.isRewriteRefusal(error) {
                return try forgive(error)
            }
        }

        @inline(never)
        private func transformFailure(_ key: Key, error: any Error, at index: Int, path: CodingPathNode)
            -> DecodingError
        {
            let typeName = plan?.typeName ?? "the type"
            return DecodingError.dataCorrupted(
                .init(
                    codingPath: path.path,
                    debugDescription:
                        "The transform of \(typeName).\(key.stringValue) cannot rewrite \(decoder.describeFound(at: index)): \(TreeDecoder.reason(error, under: path)).",
                    underlyingError: error))
        }

        private func isIgnored(_ key: Key) -> Bool {
            if case .ignored? = plan?.entry(for: key.stringValue) { return true }
            return false
        }

        // MARK: Decoding

        func decodeNil(forKey key: Key) throws -> Bool {
            decoder.tree[try requireValueIndex(forKey: key)].kind == .null
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try decodeScalar(
                type, forKey: key, plainly: { $0.plainBool(at: $1) }, read: { try $0.unwrapBool(at: $1, path: $2) })
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try decodeScalar(
                type, forKey: key, plainly: { $0.plainString(at: $1) }, read: { try $0.unwrapString(at: $1, path: $2) })
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try decodeScalar(
                type, forKey: key, plainly: { $0.plainDouble(at: $1) }, read: { try $0.unwrapDouble(at: $1, path: $2) })
        }

        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try decodeValue(type, forKey: key) { try $0.unwrapFloat(at: $1, path: $2) }
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeInteger(forKey: key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(forKey: key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(forKey: key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(forKey: key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(forKey: key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(forKey: key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(forKey: key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(forKey: key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(forKey: key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(forKey: key) }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decodeInteger(forKey: key) }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decodeInteger(forKey: key) }

        @inline(__always)
        private func decodeInteger<T: FixedWidthInteger>(forKey key: Key) throws -> T {
            try decodeScalar(
                T.self, forKey: key, plainly: { $0.plainInteger(at: $1) },
                read: { try $0.unwrapInteger(at: $1, path: $2) })
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decodeValue(type, forKey: key) { try $0.unwrap(type, at: $1, path: $2) }
        }

        // One lookup instead of the three (contains, decodeNil, decode) of the default implementations.

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try decodeOptionalScalar(
                type, forKey: key, plainly: { $0.plainBool(at: $1) }, read: { try $0.unwrapBool(at: $1, path: $2) })
        }

        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try decodeOptionalScalar(
                type, forKey: key, plainly: { $0.plainString(at: $1) }, read: { try $0.unwrapString(at: $1, path: $2) })
        }

        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try decodeOptionalScalar(
                type, forKey: key, plainly: { $0.plainDouble(at: $1) }, read: { try $0.unwrapDouble(at: $1, path: $2) })
        }

        // Every scalar type has its own, so that a lenient decoder's `nil` for a null-like or
        // unusable value holds for all of them: the protocol's default implementation calls
        // `decode`, whose lenient default is the type's `0`.

        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            try decodeOptional(type, forKey: key) { try $0.unwrapFloat(at: $1, path: $2) }
        }

        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
            try decodeOptionalInteger(forKey: key)
        }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
            try decodeOptionalInteger(forKey: key)
        }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
            try decodeOptionalInteger(forKey: key)
        }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
            try decodeOptionalInteger(forKey: key)
        }

        @inline(__always)
        private func decodeOptionalInteger<T: FixedWidthInteger>(forKey key: Key) throws -> T? {
            try decodeOptionalScalar(
                T.self, forKey: key, plainly: { $0.plainInteger(at: $1) },
                read: { try $0.unwrapInteger(at: $1, path: $2) })
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            // One test on the common path: a second call out of line here made every call ask the
            // runtime for `Optional<T>`'s metadata.
            if plan?.hasPropertyRules == true
                || (decoder.report != nil && TreeDecoder.defaultingWrapper(of: T.self, in: decoder) != nil)
            {
                return try decodeIfPresentSlowPath(type, forKey: key)
            }
            return try decodeOptional(type, forKey: key) { try $0.unwrap(type, at: $1, path: $2) }
        }

        /// `decodeIfPresent` in a type with property rules, or of a defaulting wrapper when a
        /// report is asked for.
        @inline(never)
        private func decodeIfPresentSlowPath<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if plan?.hasPropertyRules == true { return try decodeIfPresentWithRules(type, forKey: key) }
            if let wrapper = TreeDecoder.defaultingWrapper(of: T.self, in: decoder) {
                return try decodeDefaultingWrapper(type, wrapper: wrapper, declaredDefault: nil, forKey: key)
            }
            return try decodeOptional(type, forKey: key) { try $0.unwrap(type, at: $1, path: $2) }
        }

        /// `decodeIfPresent` in a type that declares transforms, required properties or declared
        /// defaults. A defaulting wrapper (``Defaulted``, ``LossyArray``, ``LossyDictionary``)
        /// asks for its property here, through its container overload, and gives its own empty
        /// default for `nil`: in a ``DeclaredDefaults`` type the property's declared value is
        /// returned instead, so the wrapper keeps it. A transform or a required property reads its
        /// own way, with no default, and so does a property declared as an optional of a wrapper
        /// (`var x: Defaulted<Int>?`), which asks for it the same way.
        @inline(never)
        private func decodeIfPresentWithRules<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            let name = key.stringValue
            if let plan, plan.transform(for: name) == nil, !plan.isRequired(name), !plan.isDeclaredOptional(name),
                let wrapper = TreeDecoder.defaultingWrapper(of: T.self, in: decoder)
            {
                if let declared = plan.declaredDefault(for: name, as: T.self) {
                    return try decodeDefaultingWrapper(type, wrapper: wrapper, declaredDefault: declared, forKey: key)
                }
                if decoder.report != nil {
                    return try decodeDefaultingWrapper(type, wrapper: wrapper, declaredDefault: nil, forKey: key)
                }
            }
            if let plan, plan.transform(for: name) != nil, !plan.isRequired(name), !plan.isDeclaredOptional(name),
                let wrapper = TreeDecoder.defaultingWrapper(of: T.self, in: decoder)
            {
                return try decodeTransformedDefaultingWrapper(
                    type, wrapper: wrapper, declaredDefault: plan.declaredDefault(for: name, as: T.self), forKey: key)
            }
            return try decodeOptionalWithRules(type, forKey: key) { try $0.unwrap(type, at: $1, path: $2) }
        }

        /// A defaulting wrapper whose property has a decoding transform: the transformed value as
        /// any optional reads it, and for `nil` the declared default (or the wrapper's own, which
        /// its container overload then gives), reported once, as for a property without a transform.
        @inline(never)
        private func decodeTransformedDefaultingWrapper<T: Decodable>(
            _ type: T.Type, wrapper: any DefaultingWrapper.Type, declaredDefault: T?, forKey key: Key
        ) throws -> T? {
            let mark = decoder.reportMark
            if let value = try decodeOptionalWithRules(type, forKey: key, { try $0.unwrap(type, at: $1, path: $2) }) {
                return value
            }
            guard decoder.report != nil, !isIgnored(key) else { return declaredDefault }
            let described =
                declaredDefault.map { "the declared default \(TreeDecoder.describeDefault($0))" }
                ?? "the default \(wrapper.defaultDescription)"
            let since = decoder.report?.issues[mark...] ?? []
            if let last = since.indices.last, since[last].kind != .keyFallback,
                since[last].message.hasSuffix("; used nil.")
            {
                // The optional's own entry for an unusable value: the value used is the default.
                let message = since[last].message
                decoder.report?.issues[last].message = message.dropLast("; used nil.".count) + "; used \(described)."
            } else if !since.contains(where: { $0.kind == .defaulted || $0.kind == .rejected }) {
                // Nothing was said of the value yet (a fallback key's entry says where it was found).
                let what = valueIndex(forKey: key) == nil ? "Missing value" : "No value after the transform"
                decoder.record(
                    .defaulted, path: pathBox.appending(key), found: nil,
                    jsonPath: decoder.jsonPath(ofObject: objectIndex, keys: firstJSONKeys(for: key)),
                    missingIn: (objectIndex, key.stringValue), "\(what); used \(described).")
            }
            return declaredDefault
        }

        /// A wrapper that gives a missing or null value its default (``Defaulted``), read through
        /// `decodeIfPresent` by its container overload: the default it is about to give is a
        /// forgiven value, reported as the decoder reports its own defaults.
        ///
        /// With `declaredDefault` (the property's value in a ``DeclaredDefaults`` type's `Self()`),
        /// that value is returned and named instead of `nil`, for a missing or null value in every
        /// mode, and for an invalid one in `.lenient`.
        @inline(never)
        private func decodeDefaultingWrapper<T: Decodable>(
            _ type: T.Type, wrapper: any DefaultingWrapper.Type, declaredDefault: T?, forKey key: Key
        ) throws -> T? {
            // The wrapper forgives on purpose, as it does under Foundation's decoder: no
            // Foundation-like pass applies to its value.
            let wasInPass = decoder.inFoundationPass
            decoder.inFoundationPass = false
            defer { decoder.inFoundationPass = wasInPass }
            let described =
                declaredDefault.map { "the declared default \(TreeDecoder.describeDefault($0))" }
                ?? "the default \(wrapper.defaultDescription)"
            guard let index = valueIndex(forKey: key) else {
                if !isIgnored(key) {
                    decoder.record(
                        .defaulted, path: pathBox.appending(key), found: nil,
                        jsonPath: decoder.jsonPath(ofObject: objectIndex, keys: firstJSONKeys(for: key)),
                        missingIn: (objectIndex, key.stringValue),
                        "Missing value; used \(described).")
                }
                return declaredDefault
            }
            if decoder.tree[index].kind == .null {
                decoder.record(.defaulted, path: pathBox.appending(key), found: index, "Found null; used \(described).")
                return declaredDefault
            }
            // As ``decodeFoundOptional(_:decoder:index:path:_:)``, naming the default instead of nil.
            let path = pathBox.appending(key)
            guard decoder.isLenient else { return try decoder.unwrap(type, at: index, path: path) }
            if decoder.isNullish(at: index, for: T.self),
                !Self.readsNullLike(
                    T.self, decoder: decoder, at: index, path: path, { try $0.unwrap(type, at: $1, path: $2) })
            {
                decoder.record(
                    .defaulted, path: path, found: index,
                    "Found \(decoder.describeFound(at: index)); used \(described).")
                return declaredDefault
            }
            let mark = decoder.reportMark
            do {
                return try decoder.unwrap(type, at: index, path: path)
            } catch  where decoder.options.defaultsInvalidValues {
                decoder.rollbackReport(to: mark)
                let kind: DecodingIssue.Kind = TreeDecoder.isRejection(error, at: path) ? .rejected : .defaulted
                decoder.record(
                    kind, path: path, found: index, "\(TreeDecoder.reason(error, under: path)); used \(described).")
                return declaredDefault
            }
        }

        // MARK: Nested containers

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            guard let index = valueIndex(forKey: key) else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: codingPathNode.path,
                        debugDescription:
                            "Cannot get nested keyed container -- no value found for key \(key) (\"\(key.stringValue)\")"
                    ))
            }
            let path = pathBox.appending(key)
            let node = decoder.tree[index]
            guard node.kind == .object else {
                throw decoder.containerMismatch(
                    node, expected: [String: Any].self, container: "keyed decoding container", path: path.path)
            }
            return KeyedDecodingContainer(
                KeyedContainer<NestedKey>(decoder: decoder, objectIndex: index, pathBox: PathBox(path)))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            guard let index = valueIndex(forKey: key) else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(
                        codingPath: codingPathNode.path,
                        debugDescription:
                            "Cannot get UnkeyedDecodingContainer -- no value found for key \(key) (\"\(key.stringValue)\")"
                    ))
            }
            let path = pathBox.appending(key)
            let node = decoder.tree[index]
            guard node.kind == .array else {
                throw decoder.containerMismatch(
                    node, expected: [Any].self, container: "unkeyed decoding container", path: path.path)
            }
            return UnkeyedContainer(decoder: decoder, arrayIndex: index, pathBox: PathBox(path))
        }

        func superDecoder() throws -> any Decoder {
            let superDecoder = decoderForKey(
                AnyCodingKey.super, valueIndex: exactValueIndex(outsideCodingKeys: "super"))
            // How an `UnknownKeys` property, decoding through its static type, reaches this
            // container: see `KeyedDecodingContainer.decode(_:forKey:)` in UnknownKeys.swift.
            let container = self
            superDecoder.unknownKeysCollector = { name in container.collectUnknownKeys(excluding: name) }
            return superDecoder
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            decoderForKey(key, valueIndex: valueIndex(forKey: key))
        }

        /// A separate decoder for one member; a missing member reads as `null`, as in Foundation.
        private func decoderForKey(_ key: some CodingKey, valueIndex: Int?) -> TreeDecoder {
            let path = pathBox.appending(key)
            guard let valueIndex else {
                let null = TreeDecoder.nullDecoder(sharing: decoder, path: path)
                null.takePart(in: decoder)
                if decoder.report != nil {
                    let name = key.stringValue
                    null.occasional.missingMemberPath = decoder.jsonPath(
                        ofObject: objectIndex,
                        keys: [KeyBytes(convertsFromSnakeCase ? FoundationSnakeCase.convert(name) : name)])
                }
                return null
            }
            let superDecoder = decoder.superDecoder(at: valueIndex, path: path)
            if decoder.readKeys != nil {
                // Once the model decodes through the super decoder, the member is read, and what
                // the model leaves unread inside it is reported with the model. Asked for and not
                // used (as `UnknownKeys` asks for one to reach this container), it reads nothing.
                superDecoder.occasional.pendingSuperNote = (decoder, decoder.nodeIndex, objectIndex)
            }
            return superDecoder
        }
    }

    /// A decoder whose value is `null`, for a super decoder of a missing key of `parent`'s.
    static func nullDecoder(sharing parent: TreeDecoder, path: CodingPathNode) -> TreeDecoder {
        TreeDecoder(tree: JSONTree.null, context: parent.context, nodeIndex: 0, codingPathNode: path)
    }
}

extension JSONTree {
    /// A one-node tree holding `null`, whose input is a static string.
    static var null: JSONTree {
        JSONTree(
            nodes: NodeStorage(
                [JSONNode(scalar: .null, flags: 0, depth: 0, shortLength: 4, offset: 0)], immortalInput: "null"),
            isJSON5: false)
    }
}

/// Foundation's conversions between Swift's camel case and JSON's snake case.
enum KeyConversion {
    /// `"first_name"` → `"firstName"`; leading and trailing underscores are kept, and a key
    /// without inner underscores is returned unchanged.
    static func camelCase(fromSnakeCase key: String) -> String {
        guard !key.isEmpty, let firstNonUnderscore = key.firstIndex(where: { $0 != "_" }) else { return key }
        var lastNonUnderscore = key.index(before: key.endIndex)
        while lastNonUnderscore > firstNonUnderscore && key[lastNonUnderscore] == "_" {
            key.formIndex(before: &lastNonUnderscore)
        }
        let core = key[firstNonUnderscore...lastNonUnderscore]
        let leading = key[key.startIndex..<firstNonUnderscore]
        let trailing = key[key.index(after: lastNonUnderscore)...]
        let words = core.split(separator: "_")
        guard words.count > 1 else { return key }
        let joined = words[0].lowercased() + words.dropFirst().map { $0.capitalized }.joined()
        return String(leading) + joined + String(trailing)
    }
}

extension TreeDecoder {
    /// Whether a coding-key type names only its own keys: it makes no key of a name that is
    /// not one (a dynamic key type makes one of any string). A member such a type's key finds
    /// exactly belongs to that property, never to another's loose search. Remembered for the
    /// last few types this decoder asked about, since asking a synthesized `CodingKeys` compares
    /// the name with every case.
    func keyTypeNamesOnlyItsKeys<Key: CodingKey>(_ type: Key.Type) -> Bool {
        let id = ObjectIdentifier(type)
        if keyTypesNamingOnlyTheirKeys.contains(id) { return true }
        guard Key(stringValue: "\u{0}\u{1}") == nil else { return false }
        keyTypesNamingOnlyTheirKeys.insert(id)
        return true
    }
}

/// The last four types a ``TreeDecoder`` found to name only their own keys
/// (``TreeDecoder/keyTypeNamesOnlyItsKeys(_:)``), the oldest replaced first: no allocation.
struct KeyTypeMemo {
    private var types: (ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?, ObjectIdentifier?)
    private var oldest = 0

    init() {
        types = (nil, nil, nil, nil)
    }

    @inline(__always)
    func contains(_ id: ObjectIdentifier) -> Bool {
        types.0 == id || types.1 == id || types.2 == id || types.3 == id
    }

    mutating func insert(_ id: ObjectIdentifier) {
        switch oldest {
        case 0: types.0 = id
        case 1: types.1 = id
        case 2: types.2 = id
        default: types.3 = id
        }
        oldest = (oldest + 1) & 3
    }
}

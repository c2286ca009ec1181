// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// The `Decoder` that walks a parsed ``JSONTree``.
///
/// One instance serves a whole decode: nested values are decoded by pointing it at another
/// node and restoring it afterwards, so a nested struct costs no decoder allocation. The
/// instance is also its own single-value container, as in Foundation.
final class TreeDecoder: Decoder {
    // The mutable state below is read and written on every value. One decode runs on one
    // thread and never holds an access to it across a call that could touch it again, so its
    // accesses are not checked dynamically for exclusivity (the checks cost about 3% of a decode).
    let tree: JSONTree
    /// The settings of the decode call, shared with the decoder that made them.
    let context: DecodeContext
    var settings: DecoderSettings {
        _read { yield context.settings }
    }
    /// The node of the value being decoded.
    @exclusivity(unchecked) var nodeIndex: Int
    /// The coding path of the value being decoded, boxed so that containers can extend it
    /// without copying.
    @exclusivity(unchecked) var pathBox: PathBox
    /// The path box of the last nested value decoded, when nothing else held it once that value
    /// was done: the next nested value (the next element or property) takes it instead of
    /// allocating its own.
    @exclusivity(unchecked) private var sparePathBox: PathBox?
    /// Whether keyed containers' states are tracked and recycled: only while the decode call
    /// that made this decoder runs, whose end drops both references below (each state refers
    /// to its decoder, so a reference kept here after the call would be a cycle).
    @exclusivity(unchecked) var recyclesContainerStates = false
    /// The state of the last keyed container made on the value being decoded, while states
    /// are recycled: when the value is done and nothing holds the state, it becomes the spare.
    @exclusivity(unchecked) private var currentContainerState: KeyedContainerState?
    /// States that no container holds, for the next keyed containers, linked through their
    /// ``KeyedContainerState/nextSpare``: one for each level of nesting that a document's values
    /// repeat (a status, its user, the user's entities), up to ``maximumSpareContainerStates``.
    @exclusivity(unchecked) private var spareContainerStates: KeyedContainerState?
    @exclusivity(unchecked) private var spareContainerStateCount = 0
    private static let maximumSpareContainerStates = 8
    var codingPathNode: CodingPathNode { pathBox.node }
    /// The model type being decoded, whose key mapping applies to the keyed containers it asks for.
    @exclusivity(unchecked) var currentType: Any.Type?
    /// Where forgiven values are recorded; `nil` when nobody asked for a report.
    @exclusivity(unchecked) var report: ReportCollector?
    /// The decode's `userInfo`, shared through its context by every decoder of the decode.
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }
    /// The decode's options, read on every value.
    var options: LenientJSONDecoder.Options {
        _read { yield context.settings.options }
    }
    /// Whether any value may be forgiven; when not, only Foundation's paths run.
    let isLenient: Bool
    /// Whether the options register any converter; when not, no value looks for one.
    let hasConverters: Bool
    /// The key nodes a model read, when unknown keys are reported; `nil` otherwise.
    @exclusivity(unchecked) var readKeys: Set<Int>?
    /// The last coding-key types found to name only their own keys (``keyTypeNamesOnlyItsKeys(_:)``).
    @exclusivity(unchecked) var keyTypesNamingOnlyTheirKeys = KeyTypeMemo()
    /// The last type whose traits were looked up, and its traits (``traits(of:)``).
    @exclusivity(unchecked) var lastTraitsID: ObjectIdentifier?
    @exclusivity(unchecked) var lastTraits = TypeTraits.placeholder
    /// The state that only some decodes need (key plans, hooks, Foundation-like passes that
    /// failed, JSON paths, unknown keys), in one object made by the first of them to need it:
    /// a decode that needs none of it creates and destroys one reference instead of ten fields.
    final class OccasionalState {
        @exclusivity(unchecked) var planTable: [PlanEntry] = []
        @exclusivity(unchecked) var keyOrders: [KeyOrder] = []
        @exclusivity(unchecked) var activeWraps: [(index: Int, type: ObjectIdentifier)] = []
        @exclusivity(unchecked) var builtValues: [Int: JSONValue]?
        @exclusivity(unchecked) var unknownKeysCollector: ((String) -> UnknownKeys)?
        @exclusivity(unchecked) var host: (decoder: TreeDecoder, index: Int)?
        @exclusivity(unchecked) var jsonPathIndex: JSONPathIndex?
        /// The keys of the object whose dropped members were last reported, to their members
        /// (``recordDroppedMember(key:reason:)``): one index per object, not a scan per member.
        @exclusivity(unchecked) var droppedMemberIndex: (object: Int, index: MemberIndex)?
        @exclusivity(unchecked) var foundationFailures: [FoundationAttempt: any Error]?
        @exclusivity(unchecked) var looseRetryValues: [FoundationAttempt: LooseRetryValues] = [:]
        @exclusivity(unchecked) var hookRejections: [HookAttempt: any Error]?
        @exclusivity(unchecked) var failedNodes: [UInt64] = []
        @exclusivity(unchecked) var callLog: [LoggedCall] = []
        @exclusivity(unchecked) var lastLoggedAtLevel: [Int?] = []
        @exclusivity(unchecked) var caughtCalls: [ProbeCall: CaughtCall] = [:]
        @exclusivity(unchecked) var caughtCallsByOwner: [FoundationAttempt: [ProbeCall]] = [:]
        /// The counted calls of ``caughtCalls`` (not those answered always), by their node.
        @exclusivity(unchecked) var caughtCallsByNode: [Int: [ProbeCall]] = [:]
        /// The types whose decode with loose matching and forgiveness is under way, after a
        /// failed loose match, with how many of each: the calls kept for them answer only inside.
        @exclusivity(unchecked) var activeRetries: [FoundationAttempt: Int] = [:]
        @exclusivity(unchecked) var looselyReadKeys: Set<Int> = []
        /// The last `keyFallback` entry a keyed container recorded: the value's node and the
        /// report's length before it (``withdrawFallback(for:)``).
        @exclusivity(unchecked) var lastFallback: (node: Int, mark: Int)?
        @exclusivity(unchecked) var passedKeys: Set<Int> = []
        /// The values that containers of this decoder handed to super decoders while unknown keys
        /// are reported, by the node of the model that asked: see ``reportSuperDecodedValues(of:)``.
        @exclusivity(unchecked) var superDecodedValues: [Int: [SuperDecodedValue]] = [:]
        /// For a super decoder made while unknown keys are reported: the decoder whose container
        /// made it, which takes over its reads when it goes (see `deinit`).
        @exclusivity(unchecked) var readsCreator: TreeDecoder?
        /// For a super decoder made while unknown keys are reported and not used yet: the decoder
        /// whose container made it, the model that decoder was decoding, and for a keyed
        /// container its object (see ``noteUseAsSuperDecoder()``).
        @exclusivity(unchecked) var pendingSuperNote: (creator: TreeDecoder, model: Int, object: Int?)?
        /// The super decoders of this decoder's tree used while unknown keys are reported, weakly:
        /// those still held when the document is decoded hand over their reads then.
        @exclusivity(unchecked) var usedSuperDecoders: [WeakDecoder] = []
        /// The types whose `willDecode` returned JSON text that this decoder's tree, or a tree
        /// around it, was parsed from: such a type's hook returning JSON text again inside it is
        /// not parsed a second time, so that a hook that always returns a string cannot loop.
        @exclusivity(unchecked) var hookTextTypes: [ObjectIdentifier] = []
        /// The members an `UnknownKeys` property kept, while unknown keys are reported.
        @exclusivity(unchecked) var keptMembers: Set<Int> = []
        /// For the decoder of a missing member (a super decoder's `null`): where the member would
        /// be in the JSON, the path of what its report entries say.
        @exclusivity(unchecked) var missingMemberPath: JSONPathStep?
        /// The pairs of coding-key types this decode recorded in ``SiblingCodingKeys``, by model:
        /// each value of a class hierarchy after the first skips the process-wide lock.
        @exclusivity(unchecked) var recordedSiblings: Set<[ObjectIdentifier]> = []
        /// The tags of the ``TaggedCodable`` payloads being decoded beside them: each one's
        /// object and tag key (``decodingPayload(besideTag:_:)``).
        @exclusivity(unchecked) var tagMembers: [(object: Int, key: String)] = []
        /// For the decoder of a tree built from a hook's or a transform's JSON: what built it
        /// (``subtreeProducer``).
        @exclusivity(unchecked) var subtreeProducer: String?
    }

    /// ``OccasionalState``, `nil` until a decode needs some of it.
    @exclusivity(unchecked) private var occasionalState: OccasionalState?

    /// A super decoder made while unknown keys are reported hands what it read to the decoder
    /// that made it (``takeOverReads(of:)``).
    deinit {
        if let creator = occasionalState?.readsCreator { creator.takeOverReads(of: self) }
    }

    /// ``OccasionalState``, made on first use.
    /// ``OccasionalState/hookTextTypes``, read without making the state.
    var hookTextTypes: [ObjectIdentifier] { occasionalState?.hookTextTypes ?? [] }

    var occasional: OccasionalState {
        if let occasionalState { return occasionalState }
        let made = OccasionalState()
        occasionalState = made
        return made
    }

    /// The types that earlier decodes with the same settings met, with their traits.
    let knownTraits: KnownTraits
    /// The types this decode met that ``knownTraits`` does not hold, in the order they were met.
    @exclusivity(unchecked) var newTraits: [(id: ObjectIdentifier, traits: TypeTraits)] = []
    /// The last plan looked up, so that the elements of an array of one model skip the cache.
    @exclusivity(unchecked) var cachedPlan: PlanEntry?
    /// The plans this decode has used, searched before the process-wide cache and its lock.
    var planTable: [PlanEntry] {
        get { occasionalState?.planTable ?? [] }
        _modify { yield &occasional.planTable }
    }
    /// The key orders of the plans in `planTable`, which the decoder keeps alive.
    var keyOrders: [KeyOrder] {
        get { occasionalState?.keyOrders ?? [] }
        _modify { yield &occasional.keyOrders }
    }
    /// The single values being wrapped in a collection, innermost last, by node and collection
    /// type: no wrap starts again on the same value for the same type while one is under way.
    var activeWraps: [(index: Int, type: ObjectIdentifier)] {
        get { occasionalState?.activeWraps ?? [] }
        _modify { yield &occasional.activeWraps }
    }
    /// The JSON values of the containers built for hooks, type choices and transforms, by node;
    /// `nil` until the first is built. See ``sharedJSONValue(at:)``.
    var builtValues: [Int: JSONValue]? {
        get { occasionalState?.builtValues }
        _modify { yield &occasional.builtValues }
    }
    /// For a super decoder that a keyed container handed out: collects the members of the
    /// container's object that no property reads, for an ``UnknownKeys`` property of the given name.
    var unknownKeysCollector: ((String) -> UnknownKeys)? {
        get { occasionalState?.unknownKeysCollector }
        set { if newValue != nil || occasionalState != nil { occasional.unknownKeysCollector = newValue } }
    }
    /// For a decoder over a document of its own that stands for a value of another (JSON text in
    /// a string, JSON a hook returned), that value's decoder and node: the start of the JSON paths
    /// of the report. Set only when a report is collected.
    var host: (decoder: TreeDecoder, index: Int)? {
        get { occasionalState?.host }
        set { if newValue != nil || occasionalState != nil { occasional.host = newValue } }
    }
    /// The parents of this decoder's tree, built for the first JSON path a report needs.
    var jsonPathIndex: JSONPathIndex? {
        get { occasionalState?.jsonPathIndex }
        set { occasional.jsonPathIndex = newValue }
    }
    /// How many nodes this decoder and its inner decoders turned into ``JSONValue``s, at most: the
    /// work that hooks and type choices cost, which tests hold to the size of the input.
    @exclusivity(unchecked) var materializedNodes = 0
    /// How many times folding a report's issues compared two written JSON paths, each of which
    /// costs its depth: a test's measure (``fold(into:issuesSince:of:)``).
    @exclusivity(unchecked) var jsonPathsCompared = 0
    /// How many nodes this decoder indexed for the JSON paths of its report: its tree's, once,
    /// which tests hold to the size of the input.
    @exclusivity(unchecked) var pathIndexedNodes = 0
    /// Set while the lenient decoder decodes an element of a plain scalar type (no user code
    /// runs) whose failure only drops it: the error is caught and reported under the element's
    /// path, so it is built without the coding path, which would cost the path's depth for every
    /// bad element (300 000 bad integers at depth 500 took 150 million key copies).
    @exclusivity(unchecked) var elidesErrorPaths = false
    /// The node of the `null` element being decoded, which the enum coercions give no fallback
    /// case (``unwrapNullElement(_:at:path:isCurrent:)``); -1 otherwise.
    @exclusivity(unchecked) var nullElementNode = -1

    /// Reads a scalar property that is not plainly of its type (a value to coerce, say) with its
    /// error built without the coding path, where a failure is forgiven by the caller: in the
    /// lenient pass, with no converter to run (a scalar's read then runs no code of the user's),
    /// invalid and null values defaulted. The error is then caught and reported under the
    /// property's path, and building its own would cost the depth for every forgiven value: a
    /// chain with one at every level took time that grew with the square of its depth. Should
    /// the stack run short meanwhile, nothing is forgiven any more: the value is read again for
    /// the error with its path.
    @inline(never)
    func readForgivableScalar<T>(
        at index: Int, path: CodingPathNode, _ read: (TreeDecoder, Int, CodingPathNode) throws -> T
    ) throws -> T {
        guard isLenient, !elidesErrorPaths, !inFoundationPass, !hasConverters, options.defaultsInvalidValues,
            options.defaultsNullValues
        else { return try read(self, index, path) }
        elidesErrorPaths = true
        do {
            let value = try read(self, index, path)
            elidesErrorPaths = false
            return value
        } catch {
            elidesErrorPaths = false
            guard stackExhaustion == nil else { return try read(self, index, path) }
            throw error
        }
    }

    /// The coding path for an error at `path`: empty while ``elidesErrorPaths`` is set.
    @inline(__always)
    func errorPath(_ path: CodingPathNode) -> [any CodingKey] {
        guard !elidesErrorPaths else { return [] }
        let keys = path.path
        errorPathKeys &+= keys.count
        return keys
    }

    /// Whether a Foundation-like first pass is under way (``decodeWithInit(_:at:path:isCurrent:)``):
    /// the outermost type not yet known to fail as Foundation would decodes its whole value
    /// with nothing forgiven — no coercion, no default, no dropped element — so that every type
    /// inside it, and the type itself when it probes with `try?` through any container, sees
    /// Foundation's answers. Only when that pass fails after something was refused does the type
    /// decode again with forgiveness, and the types inside take passes of their own.
    @exclusivity(unchecked) var inFoundationPass = false
    /// How many numbers that are not finite the coercion table read from strings, in this decoder
    /// and the decoders it made (super decoders, JSON text): a date strategy refuses a date that
    /// is not finite when one was read while it ran.
    @exclusivity(unchecked) var nonFiniteCoercions = 0

    /// Counts a number that is not finite read from a string, here and up the chain of decoders
    /// that made this one, each of which may be running a date strategy.
    func countNonFiniteCoercion() { countUpTheChain(\.nonFiniteCoercions) }

    /// Adds one to `counter` here and in every decoder up the chain of those that made this one
    /// (``refusalSink``). For counts that change rarely: ``mayForgive()`` counts refusals in a
    /// loop of its own.
    private func countUpTheChain(_ counter: ReferenceWritableKeyPath<TreeDecoder, Int>) {
        self[keyPath: counter] &+= 1
        // Once the decode returns, a kept super decoder counts only its own (``mayForgive()``).
        var sink = isAfterDecode ? nil : refusalSink
        while let decoder = sink {
            decoder[keyPath: counter] &+= 1
            // A decoder kept past the decode, running a late pass of its own, is the last.
            sink = decoder.isAfterDecode ? nil : decoder.refusalSink
        }
    }
    /// How many types' `init(from:)` are running in `.lenient`: the level a failed call was made
    /// from (see TreeDecoder+Probes.swift).
    @exclusivity(unchecked) var modelLevel = 0
    /// How many values this decoder is decoding in two passes of its own (a Foundation-like
    /// pass, then, where it fails, a forgiving one): nonzero while its passes are under way, so
    /// that a super decoder made then logs its calls in them and asks them for answers
    /// (``superDecoder(at:path:)``), rather than in those of the decoder at the root of its chain,
    /// which are not under way then, or are another value's.
    @exclusivity(unchecked) var ownPasses = 0
    /// Whether a failed pass left calls to answer as Foundation would (``caughtCalls``).
    @exclusivity(unchecked) var hasCaughtCalls = false
    /// Whether caught calls are answered as Foundation would: not in a pass that runs again
    /// because answering them failed it (``decodeForgiving(_:at:path:isCurrent:reportMark:)``).
    @exclusivity(unchecked) var answersCaughtCalls = true
    /// How many calls were answered as Foundation would so far.
    @exclusivity(unchecked) var caughtCallsAnswered = 0
    /// Whether the Foundation-like pass under way logs the calls through containers: from its
    /// first failed call on (see TreeDecoder+Probes.swift).
    var logsCalls: Bool {
        get { callLogging & 1 != 0 }
        set { callLogging = newValue ? callLogging | 1 : callLogging & ~1 }
    }
    /// ``logsCalls`` in its lowest bit, and in the next whether this is a super decoder with a
    /// ``probeHost``, which logs there: the read of every found value tests both at once.
    @exclusivity(unchecked) var callLogging: UInt8 = 0
    /// The key nodes that loose key matching gave to a property (an exact key being absent):
    /// read, for an ``UnknownKeys`` property decoded after that property, however the key is
    /// spelled (`USERID` for `userID`).
    var looselyReadKeys: Set<Int> {
        get { occasionalState?.looselyReadKeys ?? [] }
        _modify { yield &occasional.looselyReadKeys }
    }
    /// The key nodes (and array elements) that a nested key went through to a value inside them,
    /// and that nothing read whole, when unknown keys are reported: the report looks inside them
    /// for members that no property reads (``reportUnreadKeys(of:path:)``).
    var passedKeys: Set<Int> {
        get { occasionalState?.passedKeys ?? [] }
        _modify { yield &occasional.passedKeys }
    }
    /// The super decoders of this decoder's tree used while unknown keys are reported.
    var usedSuperDecoders: [WeakDecoder] { occasionalState?.usedSuperDecoders ?? [] }
    /// The members an `UnknownKeys` property kept, while unknown keys are reported.
    var keptMembers: Set<Int> { occasionalState?.keptMembers ?? [] }
    /// For the decoder of a missing member: where the member would be in the JSON.
    var missingMemberPath: JSONPathStep? { occasionalState?.missingMemberPath }
    /// The values this decoder's containers handed to super decoders, while unknown keys are
    /// reported.
    var superDecodedValues: [Int: [SuperDecodedValue]] {
        get { occasionalState?.superDecodedValues ?? [:] }
        _modify { yield &occasional.superDecodedValues }
    }
    /// The calls the pass under way logged, in order.
    var callLog: [LoggedCall] {
        get { occasionalState?.callLog ?? [] }
        _modify { yield &occasional.callLog }
    }
    /// How many calls ``callLog`` holds.
    var callLogCount: Int { occasionalState?.callLog.count ?? 0 }
    /// For each level of model, the index in ``callLog`` of its last logged call.
    var lastLoggedAtLevel: [Int?] {
        get { occasionalState?.lastLoggedAtLevel ?? [] }
        _modify { yield &occasional.lastLoggedAtLevel }
    }
    /// The calls that a failed pass's model went on after: its second pass answers them as
    /// Foundation would.
    var caughtCalls: [ProbeCall: CaughtCall] {
        get { occasionalState?.caughtCalls ?? [:] }
        _modify { yield &occasional.caughtCalls }
    }
    /// The caught calls of each type's failed first pass, by the value and type that failed it.
    var caughtCallsByOwner: [FoundationAttempt: [ProbeCall]] {
        get { occasionalState?.caughtCallsByOwner ?? [:] }
        _modify { yield &occasional.caughtCallsByOwner }
    }
    /// ``OccasionalState/caughtCallsByNode``.
    var caughtCallsByNode: [Int: [ProbeCall]] {
        get { occasionalState?.caughtCallsByNode ?? [:] }
        _modify { yield &occasional.caughtCallsByNode }
    }
    /// ``OccasionalState/activeRetries``.
    var activeRetries: [FoundationAttempt: Int] {
        get { occasionalState?.activeRetries ?? [:] }
        _modify { yield &occasional.activeRetries }
    }
    /// How many times forgiveness was refused in Foundation-like passes so far: a pass that
    /// fails without one would fail the same way with forgiveness.
    @exclusivity(unchecked) var refusals = 0
    /// The types that failed a Foundation-like pass, by node, with their error: no pass tries them
    /// again, so that a value is decoded at most about twice however deep the failures nest.
    /// `nil` until the first failure.
    var foundationFailures: [FoundationAttempt: any Error]? {
        get { occasionalState?.foundationFailures }
        _modify { yield &occasional.foundationFailures }
    }
    /// The values hooks rejected (``unwrapWithHooks(_:at:path:isCurrent:)``); `nil` until the first.
    var hookRejections: [HookAttempt: any Error]? {
        get { occasionalState?.hookRejections }
        _modify { yield &occasional.hookRejections }
    }
    /// One bit per node of the tree, set where ``foundationFailures`` holds a type: most values
    /// are asked about, and a bit costs less to test than a hash. Empty until the first failure.
    var failedNodes: [UInt64] {
        get { occasionalState?.failedNodes ?? [] }
        _modify { yield &occasional.failedNodes }
    }

    /// The failure remembered for `type` at `index`, if any.
    @inline(__always)
    func foundationFailure(of type: Any.Type, at index: Int) -> (any Error)? {
        guard let state = occasionalState else { return nil }
        let word = index &>> 6
        guard word < state.failedNodes.count, state.failedNodes[word] & (1 &<< UInt64(index & 63)) != 0 else {
            return nil
        }
        return rememberedFailure(of: type, at: index)
    }

    /// The hash lookup behind ``foundationFailure(of:at:)``, apart so that a hasher's state takes
    /// no room in the frames that every nesting level stacks.
    @inline(never)
    private func rememberedFailure(of type: Any.Type, at index: Int) -> (any Error)? {
        foundationFailures?[FoundationAttempt(index: index, type: ObjectIdentifier(type))]
    }

    /// Remembers that `type` failed a Foundation-like pass at `index`, with `error`.
    @inline(never)
    func rememberFoundationFailure(of type: Any.Type, at index: Int, _ error: any Error) {
        if failedNodes.isEmpty { failedNodes = Array(repeating: 0, count: (tree.nodes.count &+ 63) &>> 6) }
        failedNodes[index &>> 6] |= 1 &<< UInt64(index & 63)
        foundationFailures = foundationFailures ?? [:]
        foundationFailures![FoundationAttempt(index: index, type: ObjectIdentifier(type))] = error
    }

    /// The failure remembered for a type that failed a Foundation-like pass only for what loose
    /// matching found, where the same pass without loose matching decodes it (as Foundation's
    /// decoder does): met again in a pass, the type is decoded with forgiveness instead of
    /// failing (``decodeAfterFailedLooseMatch(_:failure:at:path:isCurrent:refusalsBefore:logged:)``).
    struct FailedByLooseMatch: Error {
        /// The error the type failed the pass with.
        let failure: any Error
    }

    /// The values a type's decode after a failed loose match made
    /// (``decodeAfterFailedLooseMatch(_:failure:at:path:isCurrent:refusalsBefore:logged:)``), each
    /// kept for the one decode of the enclosing type that asks for it next: the enclosing type's
    /// own decode without loose matching takes `foundations`, its forgiving decode `forgiven`.
    /// So a chain of such types costs each level's own decodes, not its whole subtree's again at
    /// every level above. Each is taken once, so that no instance of a class is handed out twice.
    struct LooseRetryValues {
        /// The last step of the coding path the values were decoded at: a type that reads its
        /// coding path (for an id, a log) gets values made at its own key only, not at another
        /// key mapped to the same member.
        let step: String
        /// What a decode found and defaulted (``keysFound``, ``missingValuesDefaulted``), which
        /// the element of a collection that takes a kept value counts as it would its own decode's.
        typealias Counts = (keysFound: Int, defaulted: Int)
        /// Foundation's value, decoded without loose matching, what that decode reported, and its counts.
        var foundations: (value: Any, issues: [DecodingIssue], counts: Counts)?
        /// The forgiving decode's value, what it reported, the keys it read loosely, and its
        /// counts; `nil` once taken, or when that decode failed (`forgivingFailed`).
        var forgiven: (value: Any, issues: [DecodingIssue], looseReads: [Int], counts: Counts)?
        var forgivingFailed: Bool

        /// The last step of a coding path, as ``step`` keeps it.
        static func step(of path: CodingPathNode) -> String {
            switch path {
            case .root: ""
            case .key(let key, _): "." + key.stringValue
            case .index(let index, _): "[\(index)]"
            }
        }
    }

    /// Whether any ``LooseRetryValues`` are kept, without copying them.
    var hasLooseRetryValues: Bool { occasionalState?.looseRetryValues.isEmpty == false }

    /// The values of ``LooseRetryValues`` not yet taken, by the node and type they were decoded for.
    var looseRetryValues: [FoundationAttempt: LooseRetryValues] {
        get { occasionalState?.looseRetryValues ?? [:] }
        _modify { yield &occasional.looseRetryValues }
    }

    /// A type decoded at a node in a Foundation-like pass.
    struct FoundationAttempt: Hashable {
        let index: Int
        let type: ObjectIdentifier
    }

    /// Whether a value may be forgiven now (coerced, defaulted, dropped, wrapped); records a
    /// refusal in a Foundation-like pass.
    @inline(__always)
    func mayForgive() -> Bool {
        guard inFoundationPass else { return stackExhaustion == nil }
        // Past an exhausted stack a second pass could not end differently.
        if stackExhaustion == nil {
            refusals &+= 1
            // Every decoder up the chain of super decoders may have a pass under way, until the
            // decode returns: kept super decoders, which may be read from several tasks, then
            // count only their own.
            var sink = isAfterDecode ? nil : refusalSink
            while let decoder = sink {
                decoder.refusals &+= 1
                // A decoder kept past the decode, running a late pass of its own, is the last.
                sink = decoder.isAfterDecode ? nil : decoder.refusalSink
            }
        }
        return false
    }

    /// Set on the document's decoder as its decode call returns. A super decoder that a model
    /// kept then neither logs calls nor asks its ``probeHost`` for answers: a super decoder made
    /// in a Foundation-like pass still says it is in one, and read again and again it would grow
    /// its log without end; and kept super decoders read from several tasks, as Foundation's
    /// allow, would write their host's log and counts at once. A kept document decoder that
    /// starts a pass of its own (`decode(Inner.self, forKey:)`) logs and answers in it as before.
    @exclusivity(unchecked) var decodeIsOver = false

    /// Whether the decode call of this decoder's document has returned (``decodeIsOver``), and
    /// this decoder was not made in a pass that a decoder kept past it runs and that is still
    /// under way (``LatePass``): a kept container's `decode(Inner.self, forKey:)` runs passes of
    /// its own, and the super decoders made in them take part as during the decode.
    var isAfterDecode: Bool {
        guard (owner ?? self).decodeIsOver else { return false }
        if let latePass, !latePass.isOver { return false }
        return true
    }

    /// A pass that a decoder kept past its decode call (the document's, or a super decoder) runs
    /// for a value a kept container reads: its super decoders take part in it until it ends. Set over once, by the
    /// thread that ran the pass, as the value it decoded is returned; a super decoder made in it
    /// reaches another thread only after that, through the value.
    final class LatePass {
        var isOver = false
    }

    /// For a decoder kept past the decode (the document's or a super decoder): the pass under way
    /// that it runs after the decode call, if any.
    @exclusivity(unchecked) var currentLatePass: LatePass?
    /// For a super decoder: the pass after the decode call it was made in, if any.
    @exclusivity(unchecked) var latePass: LatePass?

    /// For a super decoder: the decoder that handed it out, which counts its refusals, so that
    /// a pass under way there sees what a superclass's `init(from:)` was refused. The super
    /// decoder holds it as it holds its ``owner``: strongly, and nothing refers back.
    var refusalSink: TreeDecoder?

    /// A decoder for the value at `index` that a model's `init(from:)` asked for as a super
    /// decoder: it reads the same tree, reports into the same report, and takes part in the
    /// Foundation-like pass under way, so a superclass decodes as its subclass does.
    func superDecoder(at index: Int, path: CodingPathNode) -> TreeDecoder {
        let decoder = TreeDecoder(
            tree: tree, context: context, nodeIndex: index, codingPathNode: path, depthBase: depthBase,
            owner: owner ?? self)
        decoder.takePart(in: self)
        // It reads this decoder's tree: its calls are logged and answered by the passes under
        // way (which only `.lenient` runs): this decoder's own, or else those its own probe host
        // runs.
        if isLenient {
            decoder.probeHost = ownPasses > 0 ? self : probeHost ?? self
            decoder.latePass = currentLatePass ?? latePass
            decoder.callLogging |= 2
            decoder.hasCaughtCalls = true
        }
        return decoder
    }

    /// For a super decoder of the same tree: the decoder at the root of its chain, whose
    /// Foundation-like passes log the calls made through this one and, in their second pass,
    /// answer them as Foundation did, as they do the calls of the model that asked for it (a
    /// superclass's probe, a child decoded through `superDecoder(forKey:)`). Held strongly, as
    /// ``refusalSink`` is: nothing refers back.
    @exclusivity(unchecked) var probeHost: TreeDecoder?

    /// Shares `parent`'s report, pass and stack state, as a super decoder of it.
    func takePart(in parent: TreeDecoder) {
        report = parent.report
        host = parent.host
        inFoundationPass = parent.inFoundationPass
        stackExhaustion = parent.stackExhaustion
        retryBudget = min(retryBudget, parent.retryBudget)
        foundationRetryBudget = min(foundationRetryBudget, parent.foundationRetryBudget)
        looseBookkeepingBudget = min(looseBookkeepingBudget, parent.looseBookkeepingBudget)
        rewriteBudget = min(rewriteBudget, parent.rewriteBudget)
        stackGuard = parent.stackGuard
        suppressesLooseMatching = parent.suppressesLooseMatching
        withdrawsLooseMatching = parent.withdrawsLooseMatching
        refusalSink = parent
    }

    /// Notes that the report's entry at `mark` is the `keyFallback` of the value at `node`, so
    /// that a call that then fails on the value takes it back (``withdrawFallback(for:)``).
    /// An entry merged into an earlier one (the value read before, under the same spelling) is
    /// not noted: taking it back would take back the earlier read's.
    func noteFallback(node: Int, mark: Int) {
        guard let report else { return }
        if report.issues.count == mark &+ 1 {
            occasional.lastFallback = (node, mark)
        } else if occasionalState?.lastFallback != nil {
            occasionalState?.lastFallback = nil
        }
    }

    /// Takes back the `keyFallback` entry of the value at `node` when it is the last one
    /// recorded and still in the report: a call that found its key under another spelling and
    /// then failed on its value decoded nothing (a probe's `try?` goes on after it).
    func withdrawFallback(for node: Int) {
        guard let fallback = occasionalState?.lastFallback, fallback.node == node else { return }
        occasionalState?.lastFallback = nil
        guard let report, report.issues.count > fallback.mark, report.issues[fallback.mark].kind == .keyFallback
        else { return }
        rollbackReport(to: fallback.mark)
    }

    /// Counts a key found by loose matching, here and in every decoder up the chain of super
    /// decoders, whose passes retry a type that fails after one (``mayForgive()`` counts
    /// refusals the same way).
    func countLooseMatch() { countUpTheChain(\.looseMatches) }

    /// Work the lenient decoder may spend decoding a value a second time — a type's second pass
    /// after its Foundation-like first one, a single object wrapped in an array and decoded again
    /// as the element type — counted in nodes and proportional to the tree. Once spent, types
    /// decode in one lenient pass and objects and arrays are no longer wrapped, so that a model
    /// that probes one key as `T` and then as `[T]` at every level of a deep document costs
    /// time linear in it, not doubling with each level. Inner decoders draw on it too: JSON text
    /// in a string adds its own tree's allowance (it is part of the input); JSON that hooks and
    /// transforms return adds none.
    @exclusivity(unchecked) var retryBudget: Int

    /// What the retries after a failed loose match may still spend on the keys read loosely
    /// inside the values they decode again (forgetting, listing and restoring them by node
    /// range): thirty-two times the tree's nodes, and a mebibyte more. A deep chain of such
    /// types over a large value read loosely would otherwise do it again at every level, a cost
    /// of depth times size; once spent, such types fail their passes as they did.
    @exclusivity(unchecked) var looseBookkeepingBudget: Int

    /// The keys found by loose matching so far (``KeyedContainer``'s last resort), and whether a
    /// type that failed after one is being decoded again without it
    /// (``decodeFoundationFirst(_:at:path:isCurrent:)``).
    @exclusivity(unchecked) var looseMatches = 0
    /// How many calls of a Foundation-like pass failed on a value found under another spelling
    /// (``recordFailedCall(_:)``) and were not answered for at a type's boundary: a pass that
    /// succeeded though this grew may owe it to a `try?` that caught such a failure
    /// (``decodeAfterSucceededLooseMatch(_:value:at:path:isCurrent:refusalsBefore:reportMark:)``).
    @exclusivity(unchecked) var looseFailures = 0
    @exclusivity(unchecked) var suppressesLooseMatching = false
    /// Whether loose matching stopped for the rest of the decode: a failure it caused met both
    /// the retry budget and ``foundationRetryBudget`` spent, and the type took Foundation's value
    /// instead (without this, it would fail where Foundation decodes). From then on every key is
    /// matched exactly, as Foundation matches it, so no later failure needs a retry, and the
    /// decode stays linear.
    @exclusivity(unchecked) var withdrawsLooseMatching = false
    /// Whether the retry about to start after a failure loose matching caused keeps Foundation's
    /// value alone (set by ``prepareFoundationsOnlyRetry(on:)``, taken by the retry).
    @exclusivity(unchecked) var retriesForFoundationsOnly = false
    /// What retries past the retry budget may still cost: each decodes a value once more
    /// without loose matching, for Foundation's value, where a type failed on what loose
    /// matching found. As large as the retry budget: a chain of such types a few dozen levels
    /// deep spends it, so that what follows keeps loose matching, and a longer one cannot more
    /// than double the decode's retries (which cost a chain of classes, each decoded again by
    /// every retry around it, the square of its depth).
    @exclusivity(unchecked) var foundationRetryBudget: Int

    /// The bytes that JSON returned by hooks and transforms may still take, when it differs from
    /// what they were given: such JSON is written and parsed into a tree of its own, at the cost
    /// of its size, so a hook that changes its value at every level of a deep document would
    /// write each level's whole subtree again (a cost of depth times size). Proportional to the
    /// input (``rewriteAllowance(for:)``); inner decoders and super decoders draw on it, JSON
    /// text in a string adds eight times its size (it is part of the input), and what a failed
    /// Foundation-like pass rewrote is given back and charged to ``retryBudget``. Once spent, a
    /// value whose JSON a hook or transform changed fails with a `DecodingError`.
    @exclusivity(unchecked) var rewriteBudget: Int

    /// The rewrite budget a tree brings: eight times its input, and a mebibyte more, so that
    /// a small document is never refused for its hooks.
    static func rewriteAllowance(for tree: JSONTree) -> Int { 8 * tree.input.count + (1 << 20) }

    /// Takes the size of rewritten JSON from the budget, of this decoder and of those that
    /// handed it out as a super decoder; `false` once any of them has spent it (super decoders
    /// alive at once each took a copy of their parent's budget, which their parent's bounds).
    /// A negative size gives back what a failed pass spent.
    func spendRewriteBudget(_ bytes: Int) -> Bool {
        rewriteBudget -= bytes
        var withinBudget = rewriteBudget >= 0
        // Once the decode returns, a kept super decoder spends only its own copy (``mayForgive()``).
        var sink = isAfterDecode ? nil : refusalSink
        while let decoder = sink {
            decoder.rewriteBudget -= bytes
            withinBudget = withinBudget && decoder.rewriteBudget >= 0
            // A decoder kept past the decode, running a late pass of its own, is the last.
            sink = decoder.isAfterDecode ? nil : decoder.refusalSink
        }
        return withinBudget
    }

    /// How many keyed and unkeyed containers this decoder and its inner decoders made: the work of
    /// a Foundation-like pass that failed, which its second pass takes from ``retryBudget`` (a
    /// pass can go deep into JSON that hooks make up, far past the nodes of the tree it started in).
    @exclusivity(unchecked) var containersMade = 0

    /// The retry budget a tree brings: four times its nodes, which covers a second pass of every
    /// type whose first one failed at three levels of nesting, and more.
    static func retryAllowance(for tree: JSONTree) -> Int { 4 * tree.nodes.count + 64 }

    /// Takes the cost of decoding the value at `index` again from the budget; `false` when it is
    /// spent. A scalar costs nothing.
    func spendRetryBudget(on index: Int) -> Bool {
        let node = tree[index]
        guard node.kind == .array || node.kind == .object else { return true }
        guard retryBudget > 0 else { return false }
        retryBudget -= node.containerEnd - index
        return true
    }

    /// Takes the cost of decoding the value at `index` again from ``foundationRetryBudget``;
    /// `false` when it is spent. A scalar costs nothing.
    func spendFoundationRetryBudget(on index: Int) -> Bool {
        let node = tree[index]
        guard node.kind == .array || node.kind == .object else { return true }
        guard foundationRetryBudget > 0 else { return false }
        foundationRetryBudget -= node.containerEnd - index
        return true
    }

    /// For a type that failed on what loose matching found once the retry budget is spent: its
    /// retry keeps Foundation's value, paid from ``foundationRetryBudget``; once that is spent
    /// too, loose matching stops for the rest of the decode (``withdrawsLooseMatching``).
    func prepareFoundationsOnlyRetry(on index: Int) {
        // Charged what the retry does (the types inside it that were retried before answer from
        // what their retries kept), by the retry itself.
        if foundationRetryBudget > 0 {
            retriesForFoundationsOnly = true
        } else {
            withdrawsLooseMatching = true
        }
    }

    /// Counts of the lenient keyed containers' work, which tell an element object of which no
    /// property was present (every key missing, some defaulted) from one that had some. Decoders
    /// over JSON text in a string or JSON a hook returned add theirs to their host's; a tagged
    /// enum takes its tag and content key back out (``keyIsNotAProperty()``).
    @exclusivity(unchecked) var keysFound = 0
    @exclusivity(unchecked) var missingValuesDefaulted = 0

    /// Takes a found key back out of ``keysFound``: a tagged enum's tag or content key, which
    /// says which payload to decode but is none of its properties. So `{"type": "card"}` in a
    /// list is an element of which no property was present, not a card made up of defaults.
    func keyIsNotAProperty() { keysFound &-= 1 }

    /// What built this decoder's tree when a hook or a transform did: the hook's type or the
    /// transform's property, which tells apart the issues of trees built for one node
    /// (``issueOrigin(node:missingKey:)``). `nil` for the document and for JSON text in a string.
    var subtreeProducer: String? {
        get { occasionalState?.subtreeProducer }
        set { if newValue != nil || occasionalState != nil { occasional.subtreeProducer = newValue } }
    }

    /// Decodes a ``TaggedCodable`` payload whose members sit beside its tag, in the current
    /// object: the tag's member is the enum's, so no ``UnknownKeys`` property of the payload
    /// keeps it (the encoder writes the case's tag), and a value built in code round-trips.
    func decodingPayload<T>(besideTag key: String, _ body: () throws -> T) rethrows -> T {
        occasional.tagMembers.append((object: nodeIndex, key: key))
        defer { occasional.tagMembers.removeLast() }
        return try body()
    }

    /// The tag keys of the payloads being decoded beside their tags in the object at
    /// `objectIndex` (``decodingPayload(besideTag:_:)``).
    func tagKeys(besidePayloadIn objectIndex: Int) -> [String] {
        guard let members = occasionalState?.tagMembers, !members.isEmpty else { return [] }
        return members.filter { $0.object == objectIndex }.map(\.key)
    }

    /// How many nodes key searches of large objects scanned without finding their key (or, for
    /// loose searches, scanned at all): the work that lookups of absent keys cost, which the
    /// containers' indexes hold to the size of their objects; for tests.
    @exclusivity(unchecked) var nodesScannedInVain = 0

    /// How many keys the errors built so far hold: the work that paths cost, for tests.
    @exclusivity(unchecked) var errorPathKeys = 0

    /// A model's key plan for one coding-key type, with the key order this decode follows.
    /// Copied for every keyed container, so it holds no reference that needs counting: plans
    /// live for the process, and the decoder keeps the order alive.
    ///
    /// The plan is `Unmanaged` rather than `unowned(unsafe) let plan: KeyPlan?`: with Swift 6.3
    /// at `-Onone`, an array of structs holding an `unowned` or `unowned(unsafe)` optional never
    /// reports its end to a `for` loop (the iterator's `nil` reads as an element).
    struct PlanEntry {
        let model: ObjectIdentifier
        let keys: ObjectIdentifier
        /// `nil` when the type maps nothing.
        let plan: Unmanaged<KeyPlan>?
        let order: UnsafeMutablePointer<KeyOrder.Storage>?
    }

    /// How many containers enclose this decoder's document: 0 for the input itself, more for JSON
    /// text inside a string or JSON a hook returned. The one nesting budget of a decode is
    /// ``JSONParser/maximumDepth`` levels, counted from the input's top level across all of them.
    let depthBase: Int
    /// The stack of the thread decoding, looked at once a value nests deep or the decode has
    /// used some stack (``StackGuard/needsCheck(depth:)``).
    @exclusivity(unchecked) var stackGuard = StackGuard()
    /// The error of the first value refused because the thread's stack was nearly spent: from
    /// then on nothing is forgiven, and the decode fails with it. Always a `DecodingError`; held
    /// as `any Error`, one reference, because copying and destroying an optional of the resilient
    /// `DecodingError` goes through its value witnesses on every decode, even when it is `nil`.
    @exclusivity(unchecked) var stackExhaustion: (any Error)?
    /// The decoder whose tree this one shares, for a super decoder: holding it keeps that
    /// decoder referenced, so the check that decides whether the tree must keep its input
    /// (``keepInputIfRetained(_:)``) sees every decoder over the tree through one reference.
    let owner: TreeDecoder?

    // Inlined where a decode starts: called out of line, the coding path it is given was copied
    // through its value witnesses (measured: 160 instructions a call, 2% of a small object's decode).
    @inline(__always)
    init(
        tree: JSONTree, context: DecodeContext, nodeIndex: Int = 0, codingPathNode: CodingPathNode = .root,
        depthBase: Int = 0, owner: TreeDecoder? = nil
    ) {
        self.tree = tree
        retryBudget = TreeDecoder.retryAllowance(for: tree)
        foundationRetryBudget = retryBudget
        looseBookkeepingBudget = 32 &* tree.nodes.count &+ (1 << 20)
        rewriteBudget = TreeDecoder.rewriteAllowance(for: tree)
        self.depthBase = depthBase
        self.owner = owner
        self.context = context
        self.nodeIndex = nodeIndex
        self.pathBox = PathBox(codingPathNode)
        self.isLenient = context.forgivesValues
        self.hasConverters = context.hasConverters
        self.readKeys = context.reportsUnknownKeys ? [] : nil
        self.knownTraits = context.knownTraits
    }

    var codingPath: [any CodingKey] { codingPathNode.path }

    /// Parses the input and decodes the top-level value, or the value at `path`; hands the report
    /// to the decoder's report handler when it has one and the report is not empty.
    static func decode<T: Decodable>(
        _ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>, context: DecodeContext, isKnownUTF8: Bool = false,
        report: ReportCollector? = nil, at path: DocumentPath? = nil
    ) throws -> T {
        guard let handler = context.settings.reportHandler else {
            return try decodeDocument(
                type, from: buffer, context: context, isKnownUTF8: isKnownUTF8, report: report, at: path)
        }
        let collector = report ?? ReportCollector()
        let value = try decodeDocument(
            type, from: buffer, context: context, isKnownUTF8: isKnownUTF8, report: collector, at: path)
        if !collector.issues.isEmpty {
            // The type the caller asked for, not the box that carries a decoding configuration.
            let reported = (T.self as? any ConfigurationCarrying.Type)?.valueType ?? T.self
            handler(reported, collector.report)
        }
        return value
    }

    private static func decodeDocument<T: Decodable>(
        _ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>, context: DecodeContext, isKnownUTF8: Bool,
        report: ReportCollector?, at path: DocumentPath?
    ) throws -> T {
        let input: JSONInput.UTF8Input
        do {
            input = try JSONInput.utf8(buffer, isKnownUTF8: isKnownUTF8)
        } catch let error as JSONParseError {
            throw invalidJSON(error)
        }
        return try input.withBuffer { utf8 in
            let tree: JSONTree
            do {
                tree = try JSONParser.parse(utf8, options: context.parserOptions)
            } catch let error as JSONParseError {
                throw invalidJSON(error)
            }
            let (index, codingPath) = try path?.locate(in: tree) ?? (0, .root)
            // The decoder starts at the value, which it decodes as its current one.
            var decoder = TreeDecoder(tree: tree, context: context, nodeIndex: index, codingPathNode: codingPath)
            decoder.recyclesContainerStates = true
            defer {
                decoder.stopRecyclingContainerStates()
                // The report is handed out: what a kept container reads later changes neither it
                // nor the bookkeeping of reads that went into it.
                decoder.report = nil
                decoder.readKeys = nil
                // Kept super decoders no longer log in, nor ask, this decoder (``probeHost``).
                decoder.decodeIsOver = true
                keepInputIfRetained(&decoder)
            }
            decoder.report = report
            // Foundation decodes the top-level value as the runtime type passed in:
            // `decode(Child.self as Base.Type, from:)` gives a `Child`.
            let value =
                try type == T.self
                ? decoder.unwrap(type, at: index, path: codingPath, isCurrent: true)
                : decoder.unwrapRuntimeType(type, at: index, path: codingPath)
            // A value too deep for the thread's stack fails the decode, even where a model's
            // own `try?` swallowed the error: nothing below it was decoded.
            if let exhaustion = decoder.stackExhaustion { throw exhaustion }
            if decoder.readKeys != nil {
                decoder.takeOverReadsOfHeldSuperDecoders()
                decoder.withdrawUnknownKeysReadLater()
            }
            decoder.shareKeyOrders()
            if !decoder.newTraits.isEmpty { decoder.context.learn(decoder.newTraits) }
            return value
        }
    }

    /// Decodes the runtime type of `type`, a subclass of `T`, rather than `T` itself.
    @inline(never)
    private func unwrapRuntimeType<T: Decodable>(_ type: T.Type, at index: Int, path: CodingPathNode) throws -> T {
        let runtimeType: any Decodable.Type = type
        // Passing the existential opens it: `unwrap` runs with the subclass as its generic type.
        guard let value = try unwrap(runtimeType, at: index, path: path, isCurrent: true) as? T else {
            return try unwrap(type, at: index, path: path, isCurrent: true)
        }
        return value
    }

    /// Makes the decoder's tree copy its input when anything but the caller still refers to the
    /// decoder: a model that kept it, one of its containers, or a super decoder (which holds its
    /// ``owner``). Called as the decode call that borrowed the input returns, on every path.
    ///
    /// - Parameter decoder: The caller's only reference to the decoder.
    @inline(__always)
    static func keepInputIfRetained(_ decoder: inout TreeDecoder) {
        if !isKnownUniquelyReferenced(&decoder) { decoder.tree.nodes.keepInput() }
    }

    /// The nesting budget left for a document that replaces the value at `index`: JSON text in
    /// a string there, or the JSON a hook returned for it.
    func remainingDepth(at index: Int) -> Int {
        JSONParser.maximumDepth - depthBase - Int(tree[index].depth)
    }

    /// The depth that a document replacing the value at `index` starts at.
    func depth(at index: Int) -> Int { depthBase + Int(tree[index].depth) }

    /// Decodes the top-level value from a ``JSONValue``, through the JSON text it writes.
    ///
    /// The value was built in code or parsed before, so its text has no line or column the
    /// caller knows: what cannot be decoded (a `.number` whose text is not a number, nesting past
    /// the budget) is reported with the path to the offending value instead.
    static func decode<T: Decodable>(
        _ type: T.Type, fromValue value: JSONValue, context: DecodeContext, report: ReportCollector? = nil,
        at path: DocumentPath? = nil
    ) throws -> T {
        var context = context
        if context.settings.assumesTopLevelDictionary {
            // A value is whole: no braces are left out of its text.
            var settings = context.settings
            settings.assumesTopLevelDictionary = false
            context = DecodeContext(settings)
        }
        let settings = context.settings
        let bytes: [UInt8]
        do {
            // JSON5's non-finite numbers keep their names in a value; only a JSON5 decoder reads them.
            bytes = try JSONValueWriter.compactUTF8(
                value, maxDepth: JSONParser.maximumDepth, allowsNonFiniteNames: settings.allowsJSON5)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: error.codingPath, debugDescription: "The JSON value cannot be decoded: \(error).",
                    underlyingError: error))
        }
        return try bytes.withUnsafeBufferPointer { buffer in
            try decode(type, from: buffer, context: context, isKnownUTF8: true, report: report, at: path)
        }
    }

    /// Foundation's error for a document that is not JSON, keeping the parse error and its position.
    @inline(never)
    static func invalidJSON(_ error: JSONParseError) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(
                codingPath: [], debugDescription: "The given data was not valid JSON. \(error.message)",
                underlyingError: error))
    }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let node = tree[nodeIndex]
        guard node.kind == .object else {
            throw containerMismatch(
                node, expected: [String: Any].self, container: "keyed decoding container", path: codingPathNode.path)
        }
        containersMade &+= 1
        if occasionalState?.pendingSuperNote != nil { noteUseAsSuperDecoder() }
        // Every model level asks for a container: where the stack guard looks (``StackGuard``).
        if stackGuard.needsCheck(depth: depthBase &+ Int(node.depth)) {
            try checkStack(at: nodeIndex, path: codingPathNode)
        }
        if let first = pathBox.keyedBy {
            if first != Key.self {
                pathBox.siblingModel = currentType
                recordSiblings(first, Key.self)
            }
        } else {
            pathBox.keyedBy = Key.self
            // A reused box's model was another value's (the element before, of another class).
            pathBox.siblingModel = nil
        }
        guard let entry = try plan(for: Key.self) else {
            return KeyedDecodingContainer(KeyedContainer<Key>(state: containerState(plan: nil, order: nil)))
        }
        return KeyedDecodingContainer(
            KeyedContainer<Key>(state: containerState(plan: entry.plan?.takeUnretainedValue(), order: entry.order)))
    }

    /// The state of a keyed container over the current value: the spare when there is one.
    @inline(__always)
    private func containerState(plan: KeyPlan?, order: UnsafeMutablePointer<KeyOrder.Storage>?)
        -> KeyedContainerState
    {
        guard recyclesContainerStates else {
            return KeyedContainerState(
                decoder: self, objectIndex: nodeIndex, pathBox: pathBox, plan: plan, order: order)
        }
        let state: KeyedContainerState
        if let spare = spareContainerStates {
            spareContainerStates = spare.nextSpare
            spare.nextSpare = nil
            spareContainerStateCount &-= 1
            spare.reuse(objectIndex: nodeIndex, pathBox: pathBox, plan: plan, order: order)
            state = spare
        } else {
            state = KeyedContainerState(
                decoder: self, objectIndex: nodeIndex, pathBox: pathBox, plan: plan, order: order)
        }
        currentContainerState = state
        return state
    }

    /// Ends the recycling of container states (the decode call is over): drops the decoder's
    /// references to them, which would otherwise keep it alive through them.
    func stopRecyclingContainerStates() {
        recyclesContainerStates = false
        currentContainerState = nil
        // Released one by one: a long list released by recursion would take a frame per state.
        while let spare = spareContainerStates {
            spareContainerStates = spare.nextSpare
            spare.nextSpare = nil
        }
        spareContainerStateCount = 0
    }

    /// Records in ``SiblingCodingKeys`` that containers keyed by `first` and `second` read one
    /// value of the current model, once per decode: the process-wide record takes a lock.
    @inline(never)
    private func recordSiblings(_ first: Any.Type, _ second: any CodingKey.Type) {
        guard let model = currentType else { return }
        let pair = [ObjectIdentifier(model), ObjectIdentifier(first), ObjectIdentifier(second)]
        guard occasional.recordedSiblings.insert(pair).inserted else { return }
        SiblingCodingKeys.record(first, second, model: model)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let node = tree[nodeIndex]
        guard node.kind == .array else {
            throw containerMismatch(
                node, expected: [Any].self, container: "unkeyed decoding container", path: errorPath(codingPathNode))
        }
        containersMade &+= 1
        if occasionalState?.pendingSuperNote != nil { noteUseAsSuperDecoder() }
        if stackGuard.needsCheck(depth: depthBase &+ Int(node.depth)) {
            try checkStack(at: nodeIndex, path: codingPathNode)
        }
        return UnkeyedContainer(decoder: self, arrayIndex: nodeIndex, pathBox: pathBox)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        if occasionalState?.pendingSuperNote != nil { noteUseAsSuperDecoder() }
        if stackGuard.needsCheck(depth: depth(at: nodeIndex)) { try checkStack(at: nodeIndex, path: codingPathNode) }
        return self
    }

    /// The error for asking a node for a container of the wrong kind: `valueNotFound` for null,
    /// `typeMismatch` otherwise, as Foundation reports them.
    @inline(never)
    func containerMismatch(_ node: JSONNode, expected: Any.Type, container: String, path: [any CodingKey])
        -> DecodingError
    {
        if node.kind == .null {
            return DecodingError.valueNotFound(
                expected,
                .init(codingPath: path, debugDescription: "Cannot get \(container) -- found null value instead"))
        }
        return DecodingError.typeMismatch(
            expected,
            .init(
                codingPath: path,
                debugDescription: "Expected to decode \(expected) but found \(TreeDecoder.describe(node.kind)) instead."
            ))
    }

    /// The JSON value of the current node, with literal number text and member order kept.
    func currentJSONValue() -> JSONValue { tree.value(at: nodeIndex) }

    /// The JSON value of a node, for a hook, a type choice or a transform, from the values this
    /// decoder built before when it can: a hooked type nested in hooked types, level after
    /// level, finds its JSON inside its parent's instead of building the whole subtree again.
    func sharedJSONValue(at index: Int) -> JSONValue {
        // A super decoder reads its owner's tree: the values built there serve it too, so that
        // hooked types decoded through super decoders at every level build their JSON once.
        if let owner { return owner.sharedJSONValue(at: index) }
        if builtValues == nil { builtValues = [:] }
        // Counted into the owner even here, where there is none, so that the tally a test reads
        // from the top decoder would show a super decoder building its own JSON again: the
        // nodes built, not those found among the values built before.
        var built = 0
        let value = tree.value(at: index, cache: &builtValues, built: &built)
        (owner ?? self).materializedNodes += built
        return value
    }

    /// Decodes a nested value with this decoder pointed at its node, then points it back.
    @inline(__always)
    func withNode<T>(_ index: Int, path: CodingPathNode, type: Any.Type? = nil, _ body: (TreeDecoder) throws -> T)
        rethrows -> T
    {
        let savedIndex = nodeIndex
        let savedPath = pathBox
        let savedType = currentType
        let savedState = currentContainerState
        currentContainerState = nil
        nodeIndex = index
        if let spare = sparePathBox {
            sparePathBox = nil
            spare.reset(to: path)
            pathBox = spare
        } else {
            pathBox = PathBox(path)
        }
        currentType = type
        defer {
            if var state = currentContainerState {
                currentContainerState = nil
                // No container holds the state (none was kept): the next one reuses it.
                if isKnownUniquelyReferenced(&state)
                    && spareContainerStateCount < TreeDecoder.maximumSpareContainerStates
                {
                    state.releasePathBox()
                    state.nextSpare = spareContainerStates
                    spareContainerStates = state
                    spareContainerStateCount &+= 1
                }
            }
            currentContainerState = savedState
            var box = pathBox
            nodeIndex = savedIndex
            pathBox = savedPath
            currentType = savedType
            // Kept for the next value only when nothing holds it: no kept container, no path of
            // an error or a report entry below it (they hold their parent boxes strongly).
            if isKnownUniquelyReferenced(&box) { sparePathBox = box }
        }
        return try body(self)
    }

    /// The key plan for a keyed container that the current model asks for, and its key order;
    /// `nil` when the model conforms to neither ``KeyMapping`` nor ``DeclaredDefaults``, and an entry without a plan when
    /// its mapping is empty.
    func plan<Key: CodingKey>(for keys: Key.Type) throws -> PlanEntry? {
        try plan(for: keys, model: currentType)
    }

    /// The key plan for a keyed container of `keys` that `model` asks for (the current model,
    /// or, for an ``UnknownKeys`` property read after the decode, the one it was decoded for).
    @inline(__always)
    func plan<Key: CodingKey>(for keys: Key.Type, model: Any.Type?) throws -> PlanEntry? {
        guard let model, traits(of: model).hasKeyPlan else { return nil }
        let modelID = ObjectIdentifier(model)
        let keysID = ObjectIdentifier(keys)
        if let cachedPlan, cachedPlan.model == modelID, cachedPlan.keys == keysID { return cachedPlan }
        for entry in planTable where entry.model == modelID && entry.keys == keysID {
            cachedPlan = entry
            return entry
        }
        let plan: KeyPlan?
        do {
            plan = try KeyPlan.plan(for: model, keys: keys)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPathNode.path, debugDescription: error.description, underlyingError: error))
        }
        let order = plan?.keyOrder()
        if let order { keyOrders.append(order) }
        let entry = PlanEntry(
            model: modelID, keys: keysID, plan: plan.map(Unmanaged.passUnretained), order: order?.storage)
        cachedPlan = entry
        planTable.append(entry)
        return entry
    }

    /// Offers the key orders this decode learned to their plans, for later decodes to follow.
    /// Called once a decode (or the decode of a value through a decoder of its own) has
    /// succeeded, so that an order is learned from a whole document.
    func shareKeyOrders() {
        for order in keyOrders where !order.isFrozen { order.plan.adopt(order) }
    }
}

// MARK: - Single value container

extension TreeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { tree[nodeIndex].kind == .null }

    func decode(_ type: Bool.Type) throws -> Bool { try unwrapBool(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: String.Type) throws -> String { try unwrapString(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Double.Type) throws -> Double { try unwrapDouble(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Float.Type) throws -> Float { try unwrapFloat(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Int.Type) throws -> Int { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Int8.Type) throws -> Int8 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Int16.Type) throws -> Int16 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Int32.Type) throws -> Int32 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: Int64.Type) throws -> Int64 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: UInt.Type) throws -> UInt { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: Int128.Type) throws -> Int128 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    func decode(_ type: UInt128.Type) throws -> UInt128 { try unwrapInteger(at: nodeIndex, path: codingPathNode) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The decoder already points at this value: decode it in place, with no new path entry.
        guard isLenient else { return try unwrap(type, at: nodeIndex, path: codingPathNode, isCurrent: true) }
        if isCaught(ProbeCall(node: nodeIndex, missingKey: nil, type: ObjectIdentifier(T.self))) {
            return try answeringAsFoundation { try unwrap(type, at: nodeIndex, path: codingPathNode, isCurrent: true) }
        }
        if callLogging != 0 { logCall(at: nodeIndex) }
        do {
            return try unwrap(type, at: nodeIndex, path: codingPathNode, isCurrent: true)
        } catch {
            // A call of a Foundation-like pass that failed: the model may go on after it (a probe).
            recordFailedCall(ProbeCall(node: nodeIndex, missingKey: nil, type: ObjectIdentifier(T.self)))
            throw error
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 Probes that a type's second pass must answer as its first did.

 A type decodes first as Foundation would (``TreeDecoder/inFoundationPass``); only when that pass
 fails does it decode again with forgiveness. A model that probes — `if let flag = try?
 c.decode(Bool.self, forKey: .v) … else …` — took Foundation's branch in the first pass; if the
 pass then failed on another property (`"n": "5"`), the second pass would forgive the probe too
 (`1` as `true`) and take the other branch. So once a call through a container fails in a first
 pass, the pass logs every call that follows, with the level of model it is made from (how many
 `init(from:)` are running), and when the pass fails, looks at each failed call:

 - a call followed by another failed call at the same or a deeper level was caught: the model
   went on after it; the others are the chain of the failure that ended the pass (a model that
   logs the raw value and rethrows went on only to rethrow);
 - a caught call for a missing key, or for a value that a later call then read without failing
   (another branch at the same value), is answered as Foundation did in the second pass: the probe
   fails again and the model takes the same branch, nothing made up;
 - a caught call for a value no other call read (`child = try? c.decode(Child.self, forKey:
   .child)`, or probes that all failed) is forgiven in the second pass, as any value is: answering
   as Foundation would lose the value without a word in the report.

 A call is known by the value's node and the type asked for, or, for a missing key, by its object
 and the key, and by how many such calls came before it: a model may probe `v` as `Int` and read
 it as `Int` later, and only the probe is answered as Foundation did. In a first pass every such
 call fails alike, and the second pass makes them in the same order as long as each probe takes
 its first-pass branch.
 */

extension TreeDecoder {
    /// A call through a container, as a probe's identity: the node of the value and the type asked
    /// for; for a missing key, the object's node and the key.
    struct ProbeCall: Hashable {
        let node: Int
        let missingKey: String?
        let type: ObjectIdentifier
    }

    /// A call logged in a Foundation-like pass once a call failed, with the level of model it was
    /// made from: a call that found its value, logged as it starts (a read unless it fails), or a
    /// call that failed, logged as it ends, after everything that happened inside it.
    struct LoggedCall {
        let node: Int
        let failed: ProbeCall?
        let level: Int
        var isRead: Bool
    }

    /// Logs, in a Foundation-like pass, that a call failed; the calls after it are logged too.
    /// A call through a super decoder is logged in the pass of the decoder at the root of its
    /// chain too (``probeHost``), at the level of the model that asked for the super decoder.
    @inline(never)
    func recordFailedCall(_ call: ProbeCall) {
        // A call that failed on a value found under another spelling (its key read loosely).
        let failedLoosely = call.missingKey == nil && call.node > 0 && looselyReadKeys.contains(call.node &- 1)
        if let host = probeHost {
            // A super decoder kept past the decode logs nothing (``decodeIsOver``).
            guard !isAfterDecode else { return }
            if host.inFoundationPass {
                host.recordFailedCall(call, level: host.modelLevel &+ modelLevel)
                if failedLoosely { host.looseFailures &+= 1 }
            }
        }
        guard inFoundationPass else { return }
        recordFailedCall(call, level: modelLevel)
        if failedLoosely { looseFailures &+= 1 }
    }

    private func recordFailedCall(_ call: ProbeCall, level: Int) {
        // A call that found its value was logged as it started, the last at its level: it read nothing.
        // (A missing key's call found nothing: the node it is known by is its object's.)
        if call.missingKey == nil, level < lastLoggedAtLevel.count, let index = lastLoggedAtLevel[level],
            callLog[index].node == call.node
        {
            callLog[index].isRead = false
            lastLoggedAtLevel[level] = nil
        }
        callLog.append(LoggedCall(node: call.node, failed: call, level: level, isRead: false))
        logsCalls = true
    }

    /// Logs that a call found the value at `node`, once a call of the pass under way failed;
    /// through a super decoder, in its ``probeHost``'s pass too. The caller tests
    /// ``callLogging`` first.
    @inline(never)
    func logCall(at node: Int) {
        if let host = probeHost {
            guard !isAfterDecode else { return }
            if host.logsCalls, host.inFoundationPass { host.logRead(at: node, level: host.modelLevel &+ modelLevel) }
        }
        guard logsCalls, inFoundationPass else { return }
        logRead(at: node, level: modelLevel)
    }

    private func logRead(at node: Int, level: Int) {
        if level >= lastLoggedAtLevel.count {
            lastLoggedAtLevel.append(contentsOf: repeatElement(nil, count: level + 1 - lastLoggedAtLevel.count))
        }
        lastLoggedAtLevel[level] = callLog.count
        callLog.append(LoggedCall(node: node, failed: nil, level: level, isRead: true))
    }

    /// Ends the log of a first pass; when it failed, keeps the calls its second pass answers as
    /// Foundation did (see the top of this file).
    @inline(never)
    func endCallLog(passFailed: Bool, owner: FoundationAttempt? = nil) {
        logsCalls = false
        guard !callLog.isEmpty else { return }
        if passFailed { keepCaughtCalls(owner: owner) }
        callLog.removeAll(keepingCapacity: true)
        lastLoggedAtLevel.removeAll(keepingCapacity: true)
    }

    /// Keeps every failed call logged from `start` on as one to answer as Foundation did: the
    /// calls of a type's decode that succeeded without loose matching, where each call that
    /// failed was one the model went on after. Its decode with loose matching then takes the same
    /// branches (``TreeDecoder/decodeAfterFailedLooseMatch(_:failure:at:path:isCurrent:refusalsBefore:logged:)``).
    func keepEveryFailedCall(loggedFrom start: Int, owner: FoundationAttempt) {
        guard start < callLog.count else { return }
        var failed = Set<ProbeCall>()
        for entry in callLog[start...] {
            if let call = entry.failed { failed.insert(call) }
        }
        guard !failed.isEmpty else { return }
        // Every call with such an identity, however many the decode with loose matching makes:
        // a model may make one more there (`if c.contains(.userName) { … try? c.decode(…) }`),
        // and counting would leave the model's own probe to forgiveness. Answered as Foundation,
        // the call fails again on the value it failed on; on a value that only loose matching
        // found, it answers as it would have had the key been spelled as the model spells it.
        // Each names the types whose decode made it: in a pass that forgives every call, these
        // are still answered while one of them decodes (``answeringCalls(of:_:)``).
        for call in failed {
            if caughtCalls[call]?.always == true {
                if caughtCalls[call]?.owners.contains(owner) == false { caughtCalls[call]?.owners.append(owner) }
            } else {
                caughtCalls[call] = CaughtCall(occurrences: [], seen: 0, always: true, owners: [owner])
            }
        }
        hasCaughtCalls = true
        caughtCallsByOwner[owner] = Array(failed)
    }

    /// The calls of a failed pass's log that its second pass answers as Foundation did, each by
    /// its identity and the number of failed calls with that identity before it.
    private func keepCaughtCalls(owner: FoundationAttempt?) {
        // Most failed passes end with one failure, or a chain of them from an inner level out:
        // nothing was caught, which one look without allocating tells.
        var deepestLater = Int.min
        var anyCaught = false
        for entry in callLog.reversed() where entry.failed != nil {
            if deepestLater >= entry.level {
                anyCaught = true
                break
            }
            deepestLater = max(deepestLater, entry.level)
        }
        guard anyCaught else { return }
        var failures: [ProbeCall: Int] = [:]
        var occurrence = [Int](repeating: 0, count: callLog.count)
        for (position, entry) in callLog.enumerated() {
            guard let call = entry.failed else { continue }
            occurrence[position] = failures[call, default: 0]
            failures[call, default: 0] += 1
        }
        var deepestFailureLater = Int.min
        var nodesReadLater = Set<Int>()
        var caught: [ProbeCall: [Bool]] = [:]
        for position in callLog.indices.reversed() {
            let entry = callLog[position]
            if let call = entry.failed {
                if deepestFailureLater >= entry.level, call.missingKey != nil || nodesReadLater.contains(entry.node) {
                    caught[call, default: Array(repeating: false, count: failures[call] ?? 0)][occurrence[position]] =
                        true
                }
                deepestFailureLater = max(deepestFailureLater, entry.level)
            }
            if entry.isRead { nodesReadLater.insert(entry.node) }
        }
        for (call, occurrences) in caught {
            if caughtCalls[call] == nil { caughtCallsByNode[call.node, default: []].append(call) }
            caughtCalls[call] = CaughtCall(occurrences: occurrences, seen: 0)
            hasCaughtCalls = true
        }
        if let owner, !caught.isEmpty { caughtCallsByOwner[owner] = Array(caught.keys) }
    }

    /// Counts the caught calls of a type's failed first pass from the first again, for a decode
    /// of the same value by the same type that follows the one that used them; so too the calls
    /// inside the value that a type around it kept from its own failed pass: a model that reads
    /// one member twice as the same type (`first = try c.decode(Inner.self, forKey: .x)`, then
    /// `second = try? c.decode(Inner.self, forKey: .x)`) makes the same calls both times and gets
    /// the same answers, not a made-up value the second time. What it looks at is at most the
    /// value's nodes, which the decode that follows reads anyway.
    @inline(never)
    func restartCaughtCalls(of owner: FoundationAttempt) {
        if let calls = caughtCallsByOwner[owner] {
            for call in calls { caughtCalls[call]?.seen = 0 }
        }
        let byNode = caughtCallsByNode
        guard !byNode.isEmpty else { return }
        let nodes = owner.index..<tree.next(after: owner.index)
        if nodes.count <= byNode.count {
            for node in nodes {
                for call in byNode[node] ?? [] { caughtCalls[call]?.seen = 0 }
            }
        } else {
            for (node, calls) in byNode where nodes.contains(node) {
                for call in calls { caughtCalls[call]?.seen = 0 }
            }
        }
    }

    /// Which of the failed calls with one identity the second pass answers as Foundation did, and
    /// how many calls with that identity it has made.
    struct CaughtCall {
        let occurrences: [Bool]
        var seen: Int
        /// Whether every call with the identity is answered, however many come
        /// (``keepEveryFailedCall(loggedFrom:owner:)``); where ``answersCaughtCalls`` is off,
        /// while the decode of one of ``owners`` is under way.
        var always = false
        /// For a call answered ``always``: the types whose decode without loose matching made it.
        var owners: [FoundationAttempt] = []
    }

    /// Runs `body`, a decode of the type `owner` with loose matching and forgiveness, with the
    /// calls kept for it answered as its decode without loose matching answered them.
    @inline(never)
    func answeringCalls<R>(of owner: FoundationAttempt, _ body: () throws -> R) rethrows -> R {
        activeRetries[owner, default: 0] &+= 1
        defer {
            if let count = activeRetries[owner], count > 1 {
                activeRetries[owner] = count &- 1
            } else {
                activeRetries[owner] = nil
            }
        }
        return try body()
    }

    /// Whether a call was caught in the first pass of a type now in its second (see the top of this
    /// file); counts the call.
    @inline(__always)
    func isCaught(_ call: @autoclosure () -> ProbeCall) -> Bool {
        hasCaughtCalls && !inFoundationPass && takeCaughtOccurrence(of: call())
    }

    /// ``isCaught(_:)`` for a found value, out of line: the hot paths that call it test
    /// ``hasCaughtCalls`` first.
    @inline(never)
    func isCaughtCall(node: Int, type: Any.Type) -> Bool {
        !inFoundationPass
            && takeCaughtOccurrence(of: ProbeCall(node: node, missingKey: nil, type: ObjectIdentifier(type)))
    }

    /// ``isCaught(_:)`` for a value found under a spelling other than the model's: whether its
    /// key was missing in the decode of the same type without loose matching, for a call that the
    /// model went on after (``keepEveryFailedCall(loggedFrom:owner:)``).
    @inline(never)
    func isCaughtMissingKey(in object: Int, key: String, type: Any.Type) -> Bool {
        !inFoundationPass
            && takeCaughtOccurrence(of: ProbeCall(node: object, missingKey: key, type: ObjectIdentifier(type)))
    }

    @inline(never)
    private func takeCaughtOccurrence(of call: ProbeCall) -> Bool {
        guard let known = caughtCalls[call] else {
            // A call through a super decoder is answered as its probe host's pass answered it.
            guard let host = probeHost, !isAfterDecode, host.hasCaughtCalls, !host.inFoundationPass else {
                return false
            }
            return host.takeCaughtOccurrence(of: call)
        }
        if known.always {
            // Any such call, a probe of the type around the retried one included, which Foundation
            // answers alike. In the pass that runs again forgiving every call because answering
            // one failed it (``answersCaughtCalls`` off), still those of the retried type's own
            // decode: a read of its value by the type around it no longer costs it its probes.
            if answersCaughtCalls { return true }
            let active = activeRetries
            return known.owners.contains { active[$0] != nil }
        }
        guard answersCaughtCalls else { return false }
        caughtCalls[call]?.seen += 1
        return known.seen < known.occurrences.count && known.occurrences[known.seen]
    }

    /// Runs `body` with nothing forgiven, to learn Foundation's answer for one value inside a
    /// forgiving pass (a null-like string that the type may read as itself). Nothing it refuses
    /// counts against a pass, and it logs no call: the pass's own record of calls stays as it was.
    @inline(never)
    func readingAsFoundation<R>(_ body: () throws -> R) throws -> R {
        let wasInPass = inFoundationPass
        let refusalsBefore = refusals
        let wasLogging = logsCalls
        inFoundationPass = true
        logsCalls = false
        defer {
            inFoundationPass = wasInPass
            refusals = refusalsBefore
            logsCalls = wasLogging
        }
        return try body()
    }

    /// Runs `body` as the call it stands for ran in a failed Foundation-like pass: nothing forgiven,
    /// so a probe fails again and the model takes the branch it took then. Nothing it refuses
    /// counts against a pass, and nothing it logs stays: no pass is under way.
    @inline(never)
    func answeringAsFoundation<R>(_ body: () throws -> R) throws -> R {
        caughtCallsAnswered &+= 1
        if let host = probeHost, !isAfterDecode { host.caughtCallsAnswered &+= 1 }
        let refusalsBefore = refusals
        let wasLogging = logsCalls
        inFoundationPass = true
        defer {
            inFoundationPass = false
            refusals = refusalsBefore
            logsCalls = wasLogging
            if !wasLogging {
                callLog.removeAll(keepingCapacity: true)
                lastLoggedAtLevel.removeAll(keepingCapacity: true)
            }
        }
        return try body()
    }
}

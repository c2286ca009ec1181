// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// What a decoder accepts, its encoder must write or refuse cleanly on any thread: a `JSONValue`, a kept
/// `UnknownKeys` bag or a recursive model decoded from a document nested 500 levels deep can need more stack to
/// encode than a small thread has. The encode ends with an `EncodingError` that says so — never a crash, and never
/// JSON cut short where a model's own `try?` swallowed the error.
@Suite struct EncoderStackGuardTests {
    final class Node: Codable, Sendable {
        let child: Node?
        let number: Int
    }

    /// A model that swallows its child's error when it encodes, as hand-written models do.
    final class Swallowing: Codable, Sendable {
        let child: Swallowing?

        enum CodingKeys: String, CodingKey { case child }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try? container.encodeIfPresent(child, forKey: .child)
        }
    }

    /// A model whose hook sees every level's JSON as it is encoded.
    final class Hooked: Codable, EncodingHooks, Sendable {
        let child: Hooked?

        func didEncode(_ json: inout JSONValue) throws {
            json["hooked"] = true
        }
    }

    struct Bag: Codable, Sendable {
        var id: Int
        var rest: UnknownKeys
    }

    static let levels = 500

    static func nested(_ levels: Int) -> String {
        String(repeating: #"{"number":1,"child":"#, count: levels - 1) + #"{"number":1}"#
            + String(repeating: "}", count: levels - 1)
    }

    static func arrays(_ levels: Int) -> String {
        String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
    }

    enum Outcome: Sendable, Equatable {
        case encoded(Data)
        case refused(String)
        case otherError(String)
    }

    static func outcome(_ body: () throws -> Data) -> Outcome {
        do {
            return .encoded(try body())
        } catch EncodingError.invalidValue(_, let context)
            where context.debugDescription.contains("stack of this thread")
        {
            return .refused(context.debugDescription)
        } catch {
            return .otherError("\(error)")
        }
    }

    /// Where a value decoded on one thread is read on another. Read by one thread at a time: each thread that
    /// reads or writes it is waited for before the next starts.
    final class Holder<Value>: @unchecked Sendable {
        var value: Value?
    }

    /// Decodes `text` on a large stack, runs `body` with the value on a thread of `kilobytes`, and releases the
    /// value on a large stack again: a value nested 500 levels deep is released by recursion, which can need more
    /// stack than the small thread has (a limit of `JSONValue` and of every nested Swift value, `JSONEncoder`'s
    /// input included, not of the encoder).
    static func onSmallThread<T: Decodable & Sendable, R: Sendable>(
        _ type: T.Type, from text: String, kilobytes: Int, _ body: @escaping @Sendable (T) -> R
    ) throws -> R {
        let holder = Holder<T>()
        try runOnThread(stackSize: 16 << 20) {
            holder.value = try? LenientJSONDecoder().decode(T.self, from: Data(text.utf8))
        }
        try #require(holder.value != nil)
        let result = try runOnThread(stackSize: kilobytes << 10) { () -> R? in
            holder.value.map(body)
        }
        try runOnThread(stackSize: 16 << 20) { holder.value = nil }
        return try #require(result)
    }

    /// Decodes on a large stack, then encodes on a thread of `kilobytes`.
    static func encodeOnThread<T: Codable & Sendable>(_ type: T.Type, from text: String, kilobytes: Int) throws
        -> Outcome
    {
        try onSmallThread(T.self, from: text, kilobytes: kilobytes) { value in
            Self.outcome { try LenientJSONEncoder().encode(value) }
        }
    }

    /// Whether `data` decodes, on a large stack, to JSON equal to `text`.
    static func writes(_ data: Data, theJSONOf text: String) throws -> Bool {
        try runOnThread(stackSize: 16 << 20) {
            let decoder = LenientJSONDecoder(options: .strict)
            let written = try? decoder.decode(JSONValue.self, from: data)
            let expected = try? decoder.decode(JSONValue.self, from: Data(text.utf8))
            return written != nil && written == expected
        }
    }

    /// Checks what an encode on a thread of `kilobytes` gave: JSON equal to `expected`, or a
    /// refusal that says how deep the encode went. 500 levels of models or of a `JSONValue` take
    /// more than 96 KB in any build.
    static func expectWrittenOrRefused(
        _ outcome: Outcome, kilobytes: Int, expected: String, refusedOnTheSmallest: Bool = true
    ) throws {
        switch outcome {
        case .encoded(let data):
            if refusedOnTheSmallest { #expect(kilobytes > 96) }
            #expect(try writes(data, theJSONOf: expected))
        case .refused(let message): #expect(message.contains("levels deep"))
        case .otherError(let description): Issue.record("Unexpected error: \(description)")
        }
    }

    @Test(arguments: [96, 128, 256, 512])
    func aDeepJSONValueEncodesOrFailsCleanly(kilobytes: Int) throws {
        let text = Self.arrays(Self.levels)
        let outcome = try Self.encodeOnThread(JSONValue.self, from: text, kilobytes: kilobytes)
        try Self.expectWrittenOrRefused(outcome, kilobytes: kilobytes, expected: text)
    }

    @Test(arguments: [96, 128, 256, 512])
    func aDeepKeptUnknownKeyEncodesOrFailsCleanly(kilobytes: Int) throws {
        let text = #"{"id":1,"kept":"# + Self.arrays(Self.levels) + "}"
        let outcome = try Self.encodeOnThread(Bag.self, from: text, kilobytes: kilobytes)
        try Self.expectWrittenOrRefused(outcome, kilobytes: kilobytes, expected: text)
    }

    @Test(arguments: [96, 128, 256, 512])
    func aDeepModelEncodesOrFailsCleanly(kilobytes: Int) throws {
        let text = Self.nested(Self.levels)
        let outcome = try Self.encodeOnThread(Node.self, from: text, kilobytes: kilobytes)
        try Self.expectWrittenOrRefused(outcome, kilobytes: kilobytes, expected: text)
    }

    @Test(arguments: [96, 256])
    func deepHookedModelsEncodeOrFailCleanly(kilobytes: Int) throws {
        let text =
            String(repeating: #"{"child":"#, count: Self.levels - 1) + "{}"
            + String(repeating: "}", count: Self.levels - 1)
        let expected =
            String(repeating: #"{"hooked":true,"child":"#, count: Self.levels - 1) + #"{"hooked":true}"#
            + String(repeating: "}", count: Self.levels - 1)
        let outcome = try Self.encodeOnThread(Hooked.self, from: text, kilobytes: kilobytes)
        try Self.expectWrittenOrRefused(outcome, kilobytes: kilobytes, expected: expected)
    }

    /// A hook that returns JSON 500 levels deep, whose checks (numbers, depth) walk it by recursion.
    struct DeepHook: Encodable, EncodingHooks, Sendable {
        var id = 1

        func didEncode(_ json: inout JSONValue) throws {
            var deep: JSONValue = 1
            for _ in 0..<EncoderStackGuardTests.levels { deep = ["level": deep] }
            json["deep"] = deep
        }
    }

    @Test(arguments: [96, 128, 256, 512])
    func aHookReturningDeepJSONEncodesOrFailsCleanly(kilobytes: Int) throws {
        let expected =
            #"{"id":1,"deep":"# + String(repeating: #"{"level":"#, count: Self.levels) + "1"
            + String(repeating: "}", count: Self.levels + 1)
        let outcome = try runOnThread(stackSize: kilobytes << 10) {
            Self.outcome { try LenientJSONEncoder().encode(DeepHook()) }
        }
        // One level of models and 500 of JSON: a release build writes it on the smallest thread.
        try Self.expectWrittenOrRefused(outcome, kilobytes: kilobytes, expected: expected, refusedOnTheSmallest: false)
        // The same hook where the stack is large.
        let large = try runOnThread(stackSize: 16 << 20) {
            Self.outcome { try LenientJSONEncoder().encode(DeepHook()) }
        }
        guard case .encoded(let data) = large else {
            Issue.record("Expected the value to encode, got \(large)")
            return
        }
        #expect(try Self.writes(data, theJSONOf: expected))
    }

    @Test func aSwallowedRefusalStillFailsTheEncode() throws {
        let text =
            String(repeating: #"{"child":"#, count: Self.levels - 1) + "{}"
            + String(repeating: "}", count: Self.levels - 1)
        let outcome = try Self.encodeOnThread(Swallowing.self, from: text, kilobytes: 96)
        // Not JSON cut short where the stack ran out and the model's `try?` swallowed the refusal.
        guard case .refused = outcome else {
            Issue.record("Expected the encode to be refused, got \(outcome)")
            return
        }
    }

    @Test func theSameValuesEncodeWhereTheStackIsLarge() throws {
        let arrays = Self.arrays(Self.levels)
        let bag = #"{"id":1,"kept":"# + Self.arrays(Self.levels) + "}"
        let nested = Self.nested(Self.levels)
        for (outcome, text) in [
            (try Self.encodeOnThread(JSONValue.self, from: arrays, kilobytes: 16 << 10), arrays),
            (try Self.encodeOnThread(Bag.self, from: bag, kilobytes: 16 << 10), bag),
            (try Self.encodeOnThread(Node.self, from: nested, kilobytes: 16 << 10), nested),
        ] {
            guard case .encoded(let data) = outcome else {
                Issue.record("Expected the value to encode, got \(outcome)")
                continue
            }
            #expect(try Self.writes(data, theJSONOf: text))
        }
    }

    /// Depths around where a release build's copy of the value fits the thread and its objects
    /// may not (`encodeToJSONObject` builds them by recursion after the copy).
    @Test(arguments: [96, 112])
    func objectsOfValuesNearTheLimitAreMadeOrRefused(kilobytes: Int) throws {
        for levels in stride(from: 300, through: 400, by: 10) {
            let outcome = try Self.onSmallThread(JSONValue.self, from: Self.arrays(levels), kilobytes: kilobytes) {
                value in
                Self.outcome {
                    var object = try LenientJSONEncoder().encodeToJSONObject(value)
                    var depth = 0
                    while let array = object as? [Any] {
                        depth += 1
                        object = array.first ?? NSNull()
                    }
                    return Data("\(depth)".utf8)
                }
            }
            switch outcome {
            case .encoded(let depth): #expect(String(decoding: depth, as: UTF8.self) == "\(levels)")
            case .refused(let message): #expect(message.contains("levels deep"))
            case .otherError(let description): Issue.record("Unexpected error: \(description)")
            }
        }
    }

    /// Containers nested inside one `encode(to:)`: the tree is built without recursion, and
    /// written with it, as JSON text, a ``JSONValue`` or `JSONSerialization` objects.
    struct NestedInOneEncode: Encodable, Sendable {
        let levels: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: TestCodingKey.self)
            var inner = container.nestedContainer(keyedBy: TestCodingKey.self, forKey: TestCodingKey("a"))
            for _ in 1..<levels {
                inner = inner.nestedContainer(keyedBy: TestCodingKey.self, forKey: TestCodingKey("a"))
            }
            try inner.encode(1, forKey: TestCodingKey("x"))
        }
    }

    /// A property written under a key path of 509 keys.
    struct UnderALongKeyPath: Encodable, KeyMapping, Sendable {
        var value = 1
        static let keyMapping: [String: KeySource] = ["value": .path(Array(repeating: "a", count: 509))]
    }

    /// What a tree built without recursion is written to: made, or refused for the stack, never
    /// a crash (a release build overflowed a thread of 64 KB at 400 levels, in the writer and in
    /// `encodeToJSONValue`, and a debug build threads of 96 to 256 KB at 509). Threads of 96 KB
    /// at least, as in the other tests here: AddressSanitizer's frames do not leave a test
    /// harness room to run on less.
    @Test(arguments: [96, 128, 256])
    func treesBuiltWithoutRecursionAreWrittenOrRefused(kilobytes: Int) throws {
        let levels = 500
        let expected =
            String(repeating: #"{"a":"#, count: levels) + #"{"x":1}"# + String(repeating: "}", count: levels)
        let path = String(repeating: #"{"a":"#, count: 508) + #"{"a":1}"# + String(repeating: "}", count: 508)
        let outcomes = try runOnThread(stackSize: kilobytes << 10) { () -> [Outcome] in
            let encoder = LenientJSONEncoder()
            let value = NestedInOneEncode(levels: levels)
            return [
                Self.outcome { try encoder.encode(value) },
                Self.outcome { Data("\(try encoder.encodeToJSONValue(value))".utf8) },
                Self.outcome { Data("\(try encoder.encodeToJSONObject(value) as AnyObject)".utf8) },
                Self.outcome { try encoder.encode(UnderALongKeyPath()) },
            ]
        }
        for (position, outcome) in outcomes.enumerated() {
            switch outcome {
            case .encoded(let data):
                if position == 0 { #expect(try Self.writes(data, theJSONOf: expected)) }
                if position == 3 { #expect(try Self.writes(data, theJSONOf: path)) }
            case .refused(let message): #expect(message.contains("levels deep"))
            case .otherError(let description): Issue.record("Unexpected error \(position): \(description)")
            }
        }
    }

    /// Each value encodes the next through its single value container: no level of the JSON,
    /// which is one string, but a level of recursion.
    final class Relay: Encodable, @unchecked Sendable {
        // Built and released on a large stack, and only read on the small one.
        let next: Relay?
        init(next: Relay?) { self.next = next }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let next { try container.encode(next) } else { try container.encode("end") }
        }
    }

    /// A chain through single value containers is encoded, or refused for the stack, never a
    /// crash (700 links overflowed a thread of 512 KB, and 10 000 the main thread).
    @Test(arguments: [(700, 512), (20_000, 4096)])
    func aChainThroughSingleValueContainersEncodesOrFailsCleanly(links: Int, kilobytes: Int) throws {
        let holder = Holder<Relay>()
        try runOnThread(stackSize: 64 << 20) {
            var chain: Relay?
            for _ in 0..<links { chain = Relay(next: chain) }
            holder.value = chain
        }
        let outcome = try runOnThread(stackSize: kilobytes << 10) { () -> Outcome in
            Self.outcome { try LenientJSONEncoder().encode(holder.value) }
        }
        try runOnThread(stackSize: 64 << 20) { holder.value = nil }
        switch outcome {
        case .encoded(let data): #expect(String(decoding: data, as: UTF8.self) == #""end""#)
        case .refused(let message): #expect(message.contains("levels deep"))
        case .otherError(let description): Issue.record("Unexpected error: \(description)")
        }
        if links > 1000 { #expect(outcome != .encoded(Data(#""end""#.utf8))) }
    }

    @Test func theEncodersOtherOutputsAreGuardedToo() throws {
        let text = Self.arrays(Self.levels)
        let outcomes = try Self.onSmallThread(JSONValue.self, from: text, kilobytes: 96) { value in
            let encoder = LenientJSONEncoder()
            return [
                Self.outcome { Data("\(try encoder.encodeToJSONValue(value))".utf8) },
                Self.outcome { Data("\(try encoder.encodeToJSONObject(value))".utf8) },
            ]
        }
        for outcome in outcomes {
            guard case .refused = outcome else {
                Issue.record("Expected the encode to be refused, got \(outcome)")
                continue
            }
        }
    }

    /// A model that keeps its keyed container, to read its child later, on other threads.
    final class KeepsItsContainer: Decodable, @unchecked Sendable {
        // Read by one thread at a time: each thread that reads it is waited for before the next.
        let container: KeyedDecodingContainer<CodingKeys>

        enum CodingKeys: String, CodingKey { case chain }

        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: CodingKeys.self)
        }
    }

    /// The system gives a thread that starts after a large one has ended the addresses of that
    /// thread's stack (and may give it its identifier too). An encoder reused from call to call,
    /// and a container kept past its decode, check each thread against the thread's own stack.
    /// Here the first thread's stack is a block of 64 MB and the second's a slice of 256 KB in
    /// its middle, where the system might have put it: the value, 500 levels deep, does not fit
    /// in the slice in any build, and is refused there. Checked against the first thread's
    /// stack, it would be encoded, running far past the end of the slice.
    @Test func aThreadStartedWhereAnEndedThreadsStackWasIsCheckedAgainstItsOwn() throws {
        let text = Self.nested(Self.levels)
        let encoder = LenientJSONEncoder()
        let value = Holder<Node>()
        let kept = Holder<KeepsItsContainer>()
        let outcomes = Holder<[Outcome]>()
        outcomes.value = []
        let large = 64 << 20
        let small = 256 << 10
        // The two threads' stacks, freed once both have been joined.
        let block = UnsafeMutableRawPointer.allocate(byteCount: large, alignment: 1 << 16)
        defer { block.deallocate() }
        try runOnThread(stack: block, size: large) {
            value.value = try? LenientJSONDecoder().decode(Node.self, from: Data(text.utf8))
            kept.value = try? LenientJSONDecoder().decode(
                KeepsItsContainer.self, from: Data(#"{"chain":\#(text)}"#.utf8))
            guard let node = value.value, let container = kept.value?.container else { return }
            outcomes.value?.append(Self.outcome { try encoder.encode(node) })
            outcomes.value?.append(Self.decodingOutcome { try container.decode(Node.self, forKey: .chain) })
        }
        try #require(outcomes.value?.count == 2)
        for outcome in outcomes.value ?? [] {
            guard case .encoded = outcome else {
                Issue.record("Expected the value to be read on the large stack, got \(outcome)")
                continue
            }
        }
        outcomes.value = []
        try runOnThread(stack: block + 48 << 20, size: small) {
            guard let node = value.value, let container = kept.value?.container else { return }
            outcomes.value?.append(Self.outcome { try encoder.encode(node) })
            outcomes.value?.append(Self.decodingOutcome { try container.decode(Node.self, forKey: .chain) })
        }
        try #require(outcomes.value?.count == 2)
        for outcome in outcomes.value ?? [] {
            guard case .refused(let message) = outcome else {
                Issue.record("Expected the value to be refused on the small stack, got \(outcome)")
                continue
            }
            #expect(message.contains("levels deep"))
        }
        // A value 500 levels deep is released by recursion: on a large stack.
        try runOnThread(stackSize: 64 << 20) {
            value.value = nil
            kept.value = nil
        }
    }

    /// ``outcome(_:)`` for a decode: `.encoded` with an empty `Data` for a value decoded (and
    /// released at once), `.refused` where the stack was nearly spent.
    static func decodingOutcome(_ body: () throws -> Node) -> Outcome {
        do {
            let node = try body()
            // Released by recursion, like every value 500 levels deep: only the small thread's
            // failure to refuse it gets here, and the test fails then anyway.
            withExtendedLifetime(node) {}
            return .encoded(Data())
        } catch DecodingError.dataCorrupted(let context) where context.debugDescription.contains("stack of this thread")
        {
            return .refused(context.debugDescription)
        } catch {
            return .otherError("\(error)")
        }
    }
}

/// Runs `body` on a thread whose stack is the `size` bytes at `stack`, which the caller owns and
/// keeps until this returns, and waits for the thread to end.
func runOnThread(stack: UnsafeMutableRawPointer, size: Int, _ body: @escaping @Sendable () -> Void) throws {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    try #require(pthread_attr_setstack(&attributes, stack, size) == 0)
    // Retained here, and released by the thread that takes it: alive until the thread runs it.
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    let created = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
    #else
    var thread = pthread_t()
    let created = pthread_create(
        &thread, &attributes,
        { context in
            if let context { Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run() }
            return nil
        }, context)
    #endif
    guard created == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        Issue.record("Could not start a thread: \(created)")
        return
    }
    #if canImport(Darwin)
    if let thread { pthread_join(thread, nil) }
    #else
    pthread_join(thread, nil)
    #endif
}

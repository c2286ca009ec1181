// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A document nested within the budget of 512 levels can still need more stack than a small thread has (Apple
/// platforms give secondary threads 512 KB; a `Codable` model level takes one to three kilobytes). Decoding it on
/// such a thread ends with a `DecodingError` that says so — never a crash, and never a value cut short where a
/// model's own `try?` swallowed the error.
@Suite struct StackGuardTests {
    final class Chain: Decodable, Sendable {
        let child: Chain?
        let number: Int

        var depth: Int {
            StackGuardTests.length(of: self, next: \.child)
        }
    }

    /// A model that swallows its child's error, as lenient hand-written models do.
    final class Swallowing: Decodable, Sendable {
        let child: Swallowing?

        enum CodingKeys: String, CodingKey { case child }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            child = try? container.decode(Swallowing.self, forKey: .child)
        }
    }

    /// How many nodes a chain holds, counted without recursion (a chain can be deeper than the stack).
    static func length<Node>(of first: Node, next: KeyPath<Node, Node?>) -> Int {
        var count = 1
        var node = first[keyPath: next]
        while let current = node {
            count += 1
            node = current[keyPath: next]
        }
        return count
    }

    static func chain(_ levels: Int) -> Data {
        Data(
            (String(repeating: #"{"number":1,"child":"#, count: levels - 1) + #"{"number":1}"#
                + String(repeating: "}", count: levels - 1)).utf8)
    }

    enum Outcome: Sendable, Equatable {
        case decoded(depth: Int)
        case refused(String)
        case otherError(String)
    }

    static func outcome(_ body: () throws -> Int) -> Outcome {
        do {
            return .decoded(depth: try body())
        } catch DecodingError.dataCorrupted(let context) where context.debugDescription.contains("stack of this thread")
        {
            return .refused(context.debugDescription)
        } catch {
            return .otherError("\(error)")
        }
    }

    @Test(arguments: [256, 512], ["lenient", "strict"])
    func deepDocumentsOnSmallThreadsDecodeOrFailCleanly(kilobytes: Int, mode: String) throws {
        let data = Self.chain(511)
        let outcome = try runOnThread(stackSize: kilobytes << 10) {
            Self.outcome {
                let decoder = mode == "strict" ? LenientJSONDecoder(options: .strict) : LenientJSONDecoder()
                return try decoder.decode(Chain.self, from: data).depth
            }
        }
        switch outcome {
        case .decoded(let depth):
            // 511 levels of a model take more than 256 KB in any build.
            #expect(kilobytes > 256)
            #expect(depth == 511)
        case .refused(let message): #expect(message.contains("levels deep"))
        case .otherError(let description): Issue.record("Unexpected error: \(description)")
        }
    }

    @Test func aSwallowedRefusalStillFailsTheDecode() throws {
        let data = Self.chain(511)
        let outcome = try runOnThread(stackSize: 256 << 10) {
            Self.outcome {
                Self.length(of: try LenientJSONDecoder().decode(Swallowing.self, from: data), next: \.child)
            }
        }
        // Not a chain cut short where the stack ran out and the model's `try?` swallowed the refusal.
        guard case .refused = outcome else {
            Issue.record("Expected the decode to be refused, got \(outcome)")
            return
        }
    }

    @Test func theSameDocumentDecodesWhereTheStackIsLarge() throws {
        let data = Self.chain(511)
        let outcome = try runOnThread(stackSize: 16 << 20) {
            Self.outcome { try LenientJSONDecoder().decode(Chain.self, from: data).depth }
        }
        #expect(outcome == .decoded(depth: 511))
    }

    @Test func aRetainedContainerReadOnAnotherThreadChecksThatThreadsStack() throws {
        final class Keeper: Decodable, @unchecked Sendable {
            // Written once in `init(from:)`, read after the decode on other threads.
            var kept: KeyedDecodingContainer<CodingKeys>?
            enum CodingKeys: String, CodingKey { case child }
            init(from decoder: any Decoder) throws { kept = try decoder.container(keyedBy: CodingKeys.self) }
        }
        let keeper = try LenientJSONDecoder().decode(Keeper.self, from: Self.chain(300))
        let container = try #require(keeper.kept)
        final class ContainerBox: @unchecked Sendable {
            // Set before the threads start, only read by them.
            let container: KeyedDecodingContainer<Keeper.CodingKeys>
            init(_ container: KeyedDecodingContainer<Keeper.CodingKeys>) { self.container = container }
        }
        let box = ContainerBox(container)
        let outcome = try runOnThread(stackSize: 256 << 10) {
            Self.outcome { try box.container.decode(Chain.self, forKey: .child).depth + 1 }
        }
        guard case .refused = outcome else {
            Issue.record("Expected 300 levels on a 256 KB thread to be refused, got \(outcome)")
            return
        }
        let large = try runOnThread(stackSize: 16 << 20) {
            Self.outcome { try box.container.decode(Chain.self, forKey: .child).depth + 1 }
        }
        #expect(large == .decoded(depth: 300))
    }

    /// Decodes its child through a super decoder, swallowing its error.
    final class ThroughSuper: Decodable, Sendable {
        let child: ThroughSuper?

        enum CodingKeys: String, CodingKey { case child }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            child = container.contains(.child) ? try? ThroughSuper(from: container.superDecoder(forKey: .child)) : nil
        }
    }

    @Test(arguments: [160, 256])
    func aChainThroughSuperDecodersIsNeverCutShort(kilobytes: Int) throws {
        let json = String(repeating: #"{"child":"#, count: 510) + "{}" + String(repeating: "}", count: 510)
        let data = Data(json.utf8)
        let outcome = try runOnThread(stackSize: kilobytes << 10) {
            Self.outcome {
                Self.length(of: try LenientJSONDecoder().decode(ThroughSuper.self, from: data), next: \.child)
            }
        }
        // A chain through super decoders takes little stack a level: it may fit, but it is never cut short.
        switch outcome {
        case .decoded(let depth): #expect(depth == 511)
        case .refused: break
        case .otherError(let description): Issue.record("Unexpected error: \(description)")
        }
        let large = try runOnThread(stackSize: 16 << 20) {
            Self.outcome {
                Self.length(of: try LenientJSONDecoder().decode(ThroughSuper.self, from: data), next: \.child)
            }
        }
        #expect(large == .decoded(depth: 511))
    }

    /// Two models with hooks, alternating: a type with hooks has its value built as JSON before
    /// its decoding reaches the stack guard, so building it must not take the thread's stack.
    struct HookedStruct: Decodable, DecodingHooks, Sendable {
        var child: HookedClass?
        var number: Int?
    }

    final class HookedClass: Decodable, DecodingHooks, Sendable {
        let child: HookedStruct?
        let number: Int?
    }

    static func hookedChain(_ levels: Int) -> Data {
        Data(
            (String(repeating: #"{"number":1,"child":"#, count: levels) + "null"
                + String(repeating: "}", count: levels)).utf8)
    }

    /// The levels of a decoded chain of hooked models, counted without recursion.
    static func depth(of first: HookedStruct) -> Int {
        var count = 1
        var next: HookedStruct? = first.child?.child
        var onClass = first.child != nil
        if onClass { count += 1 }
        while onClass, let current = next {
            count += 1
            onClass = current.child != nil
            if onClass { count += 1 }
            next = current.child?.child
        }
        return count
    }

    /// Whether the tests run under AddressSanitizer (`scripts/sanitizers.sh` sets its options), whose
    /// frames are several times larger: hooked models then take more than a 256 KB thread has
    /// between two of the guard's checks.
    static let underAddressSanitizer = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil

    @Test(arguments: [300, 511])
    func hookedModelsOnSmallThreadsDecodeOrFailCleanly(levels: Int) throws {
        let data = Self.hookedChain(levels)
        let sizes = Self.underAddressSanitizer ? [512] : [256, 512]
        for kilobytes in sizes {
            for decoder in [LenientJSONDecoder(options: .strict), LenientJSONDecoder()] {
                try Self.expectDecodedOrRefused(levels: levels, data: data, kilobytes: kilobytes, decoder: decoder)
            }
        }
        let large = try runOnThread(stackSize: 16 << 20) {
            Self.outcome { Self.depth(of: try LenientJSONDecoder().decode(HookedStruct.self, from: data)) }
        }
        #expect(large == .decoded(depth: levels))
    }

    /// Decodes a chain of hooked models on a thread of `kilobytes`: all of it, or the stack error.
    static func expectDecodedOrRefused(levels: Int, data: Data, kilobytes: Int, decoder: LenientJSONDecoder) throws {
        let outcome = try runOnThread(stackSize: kilobytes << 10) {
            Self.outcome { Self.depth(of: try decoder.decode(HookedStruct.self, from: data)) }
        }
        switch outcome {
        case .decoded(let depth): #expect(depth == levels)
        case .refused(let message): #expect(message.contains("levels deep"))
        case .otherError(let description): Issue.record("Unexpected error: \(description)")
        }
    }

    /// A level of a tagged enum whose payload has hooks, a fallback key list and a bag of unknown
    /// keys: several times the stack of a plain model's level, more in a debug build.
    struct TaggedNode: Codable, Equatable, Sendable, DecodingHooks, KeyMapping {
        var value: Int
        var next: [TaggedLevel]
        var extras = UnknownKeys()
        static let keyMapping: [String: KeySource] = ["value": ["v", "value", "val"]]
    }

    enum TaggedLevel: TaggedCodable, Equatable, Sendable {
        case node(TaggedNode)
        case leaf(Int)
        static let tagKey = "t"
        static let contentKey: String? = "c"
        static let variants: [TaggedVariant<TaggedLevel>] = [
            .init("n", TaggedNode.self, TaggedLevel.node), .init("l", Int.self, TaggedLevel.leaf),
        ]

        var depth: Int {
            var levels = 1
            var level = self
            while case .node(let node) = level, let next = node.next.first {
                levels += 1
                level = next
            }
            return levels
        }
    }

    static func taggedChain(_ levels: Int) -> Data {
        var json = #"{"t":"l","c":7}"#
        for level in 1..<levels { json = #"{"t":"n","c":{"v":\#(level),"next":[\#(json)],"x":1}}"# }
        return Data(json.utf8)
    }

    /// A shallow document of heavy levels on a small thread (musl gives new threads 128 KB): the
    /// guard looks at the stack once the decode has used some, not only past a depth, so the
    /// value decodes or is refused cleanly, never overflowing in the levels before the first look.
    @Test(arguments: [96, 128, 192])
    func shallowHeavyLevelsOnSmallThreadsDecodeOrFailCleanly(kilobytes: Int) throws {
        // The runtime makes the types' metadata on their first use, with frames of its own.
        let warm = try LenientJSONDecoder().decode(TaggedLevel.self, from: Self.taggedChain(3))
        #expect(warm.depth == 3)
        for levels in [2, 4, 6, 8, 12, 16, 24, 40] {
            let data = Self.taggedChain(levels)
            for options in [LenientJSONDecoder.Options.strict, .lenient] {
                // AddressSanitizer's frames are several times larger.
                let size = Self.underAddressSanitizer ? kilobytes * 8 : kilobytes
                let outcome = try runOnThread(stackSize: size << 10) {
                    Self.outcome { try LenientJSONDecoder(options: options).decode(TaggedLevel.self, from: data).depth }
                }
                switch outcome {
                case .decoded(let depth): #expect(depth == levels)
                case .refused(let message): #expect(message.contains("levels deep"))
                case .otherError(let description): Issue.record("Unexpected error: \(description)")
                }
            }
            // What decodes on a large thread comes back the same through the encoder.
            let value = try LenientJSONDecoder().decode(TaggedLevel.self, from: data)
            #expect(value.depth == levels)
            let again = try LenientJSONDecoder().decode(TaggedLevel.self, from: try LenientJSONEncoder().encode(value))
            #expect(again == value)
        }
    }

    /// Takes about `kilobytes` of the stack, then runs `body` at the bottom of it: as an app
    /// decodes from deep inside its own calls.
    @inline(never)
    static func usingStack<R>(_ kilobytes: Int, _ body: () -> R) -> R {
        // The buffer lives in this frame for the closure only, and is read only inside it.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            buffer.initialize(repeating: UInt8(truncatingIfNeeded: kilobytes))
            let result = kilobytes > 0 ? usingStack(kilobytes - 1, body) : body()
            // Read after the call, so that the buffer stays in its frame.
            return buffer[kilobytes % 512] == 255 && kilobytes == -1 ? body() : result
        }
    }

    /// A decode that begins with half of a small thread's stack already used: the guard looks
    /// early enough, and the refusal's own error is built while there is room.
    @Test(arguments: [(96, 40), (96, 48), (128, 72), (128, 80)])
    func aDecodeFromDeepInsideAnAppDecodesOrFailsCleanly(kilobytes: Int, used: Int) throws {
        for levels in [4, 12, 20, 40] {
            let data = Self.chain(levels)
            // AddressSanitizer's frames are several times larger, the test's own included.
            let size = Self.underAddressSanitizer ? kilobytes * 8 : kilobytes
            let outcome = try runOnThread(stackSize: size << 10) {
                Self.usingStack(used) {
                    Self.outcome { try LenientJSONDecoder().decode(Chain.self, from: data).depth }
                }
            }
            switch outcome {
            case .decoded(let depth): #expect(depth == levels)
            case .refused(let message): #expect(message.contains("levels deep"))
            case .otherError(let description): Issue.record("Unexpected error: \(description)")
            }
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A decode frees its decoder when it returns, unless the model kept the decoder or one of its
/// containers: the decoder recycles its keyed containers' states, which refer to it, and must
/// not keep them (and so itself) alive past the call.
@Suite struct DecoderLifetimeTests {
    /// Weak references to every decoder the models of one decode were handed.
    final class Watch: @unchecked Sendable {
        // Filled by one decode on one thread, read after it.
        private var decoders: [() -> AnyObject?] = []
        var kept: [KeyedDecodingContainer<Node.CodingKeys>] = []
        var keepContainers = false

        func watch(_ decoder: any Decoder) {
            weak let reference = decoder as AnyObject
            decoders.append { reference }
        }

        var watched: Int { decoders.count }
        var alive: Int { decoders.filter { $0() != nil }.count }
    }

    static let watchKey = CodingUserInfoKey(rawValue: "watch")!

    /// A tree of models: each level asks for a keyed container and decodes its children.
    struct Node: Decodable {
        enum CodingKeys: String, CodingKey { case id, children, text }
        let id: Int
        let children: [Node]

        init(from decoder: any Decoder) throws {
            let watch = try #require(decoder.userInfo[DecoderLifetimeTests.watchKey] as? Watch)
            watch.watch(decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            children = try container.decodeIfPresent([Node].self, forKey: .children) ?? []
            if watch.keepContainers && id == 1 { watch.kept.append(container) }
        }
    }

    enum Scenario: String, CaseIterable, Sendable {
        case nested, failsLate, report, jsonText, atPath
    }

    static func document(for scenario: Scenario) -> String {
        let leaves = (2..<8).map { #"{"id":\#($0)}"# }.joined(separator: ",")
        switch scenario {
        case .nested, .report:
            return #"{"id":0,"children":[{"id":1,"children":[\#(leaves)]},{"id":9}]}"#
        case .failsLate:
            return #"{"id":0,"children":[{"id":1,"children":[\#(leaves)]},{"id":"nine?"}]}"#
        case .jsonText:
            return #"{"id":0,"children":"[{\"id\":1,\"children\":[{\"id\":2}]}]"}"#
        case .atPath:
            return #"{"data":{"id":0,"children":[{"id":1,"children":[\#(leaves)]}]}}"#
        }
    }

    /// Decodes in a function of its own, so that no local of the caller holds a decoder.
    static func decode(_ scenario: Scenario, options: LenientJSONDecoder.Options, watch: Watch) {
        let decoder = LenientJSONDecoder(options: options)
        decoder.userInfo[watchKey] = watch
        let data = Data(document(for: scenario).utf8)
        switch scenario {
        case .nested, .failsLate:
            _ = try? decoder.decode(Node.self, from: data)
        case .report:
            _ = try? decoder.decodeWithReport(Node.self, from: data)
        case .jsonText:
            _ = try? decoder.decode(Node.self, from: data)
        case .atPath:
            _ = try? decoder.decode(Node.self, from: data, at: "data")
        }
    }

    @Test(arguments: Scenario.allCases, [LenientJSONDecoder.Options.strict, .lenient])
    func theDecoderIsFreedWhenTheDecodeReturns(_ scenario: Scenario, options: LenientJSONDecoder.Options) throws {
        let watch = Watch()
        Self.decode(scenario, options: options, watch: watch)
        // Strict mode does not read JSON text in a string: the root alone is decoded there.
        #expect(watch.watched >= (scenario == .jsonText && options == .strict ? 1 : 2))
        #expect(watch.alive == 0)
    }

    /// Reads the kept container in a function of its own, so that no local outlives the call.
    static func readKept(_ watch: Watch) throws {
        let kept = try #require(watch.kept.first)
        #expect(try kept.decode(Int.self, forKey: .id) == 1)
        #expect(try kept.decode([Node].self, forKey: .children).map(\.id) == Array(2..<8))
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func aKeptContainerKeepsItsDecoderUntilItIsReleased(options: LenientJSONDecoder.Options) throws {
        let watch = Watch()
        watch.keepContainers = true
        Self.decode(.nested, options: options, watch: watch)
        #expect(watch.alive > 0)
        try Self.readKept(watch)
        watch.kept.removeAll()
        #expect(watch.alive == 0)
    }
    /// A decoder's contexts refer to it weakly: a decoder that learned types, and whose model kept
    /// its `Decoder`, goes when its last owner lets go, and the kept decoder still reads, with the
    /// settings its call started with.
    @Test func aDecoderThatLearnedTypesGoesWithItsLastOwner() throws {
        struct Inner: Codable, Equatable { var n: Int }
        final class Keeper: Decodable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        enum Key: String, CodingKey { case inner }
        weak var released: LenientJSONDecoder?
        var keeper: Keeper?
        do {
            let decoder = LenientJSONDecoder()
            released = decoder
            for _ in 0..<3 { _ = try decoder.decode([Inner].self, from: #"[{"n":1},{"n":"2"}]"#) }
            keeper = try decoder.decode(Keeper.self, from: #"{"inner":{"n":"3"}}"#)
        }
        #expect(released == nil)
        let container = try #require(keeper).decoder.container(keyedBy: Key.self)
        #expect(try container.decode(Inner.self, forKey: .inner) == Inner(n: 3))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The rewrite budget bounds what hooks and transforms that change their JSON make the decoder
/// write again (eight times the input, and a mebibyte more): once per value that decodes, shared
/// by every decoder of the decode, never brought again by a retry, a super decoder or a string.
@Suite struct RewriteBudgetTests {
    /// A node whose `willDecode` adds a member at every level.
    final class Node: Decodable, DecodingHooks {
        let child: Node?
        let padding: String?

        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            guard case .object(var object) = json else { return json }
            object["seen"] = true
            return .object(object)
        }

        var depth: Int { 1 + (child?.depth ?? 0) }
    }

    static func chain(depth: Int, padding: Int, leaf: String = "null") -> String {
        let member = #"{"padding":"\#(String(repeating: "x", count: padding))","child":"#
        return String(repeating: member, count: depth) + leaf + String(repeating: "}", count: depth)
    }

    /// One value forgiven at the bottom of a hooked document that is within the budget: the
    /// Foundation-like passes that fail on the way down are paid from the retry budget, so the
    /// document still decodes whole, and the report names the one value forgiven.
    @Test func aForgivableValueDeepInAHookedDocumentKeepsTheDocumentWhole() throws {
        let document = Self.chain(depth: 20, padding: 2_000, leaf: #"{"padding":5}"#)
        let (node, report) = try LenientJSONDecoder().decodeWithReport(Node.self, from: document)
        #expect(node.depth == 21)
        #expect(report.issues.map(\.kind) == [.coerced])
        #expect(report.issues.first?.path.hasSuffix("child.padding") == true)
    }

    /// Super decoders alive at once each took their parent's budget: their spending is bounded
    /// by the parent's, as one decoder's is.
    @Test func superDecodersAliveAtOnceShareTheBudget() throws {
        struct AllAtOnce: Decodable {
            var count = 0
            init(from decoder: any Decoder) throws {
                var elements = try decoder.unkeyedContainer()
                var decoders: [any Decoder] = []
                while !elements.isAtEnd { decoders.append(try elements.superDecoder()) }
                for element in decoders {
                    _ = try Node(from: element)
                    count += 1
                }
            }
        }
        let document =
            "[" + Array(repeating: Self.chain(depth: 64, padding: 100), count: 20).joined(separator: ",") + "]"
        for decode in [
            { _ = try LenientJSONDecoder(options: .strict).decode(AllAtOnce.self, from: document) },
            { _ = try LenientJSONDecoder(options: .strict).decode([Node].self, from: document) },
        ] {
            let error = try #require(throws: DecodingError.self) { try decode() }
            #expect(String(describing: error).contains("past what this decode may rewrite"))
        }
    }

    /// JSON text in a string adds eight times its own size, not a floor of its own: two hundred
    /// small strings of hooked chains do not bring two hundred mebibytes.
    @Test func jsonTextInManyStringsBringsNoFloorOfItsOwn() throws {
        let text = String(decoding: try JSONEncoder().encode(Self.chain(depth: 50, padding: 10)), as: UTF8.self)
        let document = "[" + Array(repeating: text, count: 200).joined(separator: ",") + "]"
        let (nodes, report) = try LenientJSONDecoder().decodeWithReport([Node].self, from: document)
        // Each string still brings a little: the chains after the budget is spent decode a few
        // levels deep, their next level defaulted to `nil` and reported.
        #expect(nodes.count == 200)
        let cut = nodes.filter { $0.depth < 50 }
        #expect(!cut.isEmpty && cut.allSatisfy { $0.depth < 10 })
        let refused = report.issues.filter { $0.message.contains("past what this decode may rewrite") }
        #expect(refused.count == cut.count && refused.allSatisfy { $0.kind == .defaulted })
    }

    /// A transform whose JSON comes after the budget is spent is forgiven in `.lenient` as a
    /// transform that fails is (the property's default, reported), and fails the decode in
    /// `.strict`.
    struct Feed: Decodable, KeyMapping {
        var items: [Node?]
        var tags: [String]?
        var title: String

        static let keyMapping: [String: KeySource] = [:]
        static let decodingTransforms: [String: JSONTransform] = [
            "tags": JSONTransform { json in
                guard case .array(let tags) = json else { return json }
                return .array(tags + tags)
            },
            "title": JSONTransform { json in
                guard case .string(let title) = json else { return json }
                return .string(title.uppercased())
            },
        ]
    }

    @Test func aTransformPastTheBudgetIsForgivenAsAFailedTransform() throws {
        let items = Array(repeating: Self.chain(depth: 64, padding: 100), count: 20).joined(separator: ",")
        let document = #"{"items":[\#(items)],"tags":["a"],"title":"t"}"#
        let (feed, report) = try LenientJSONDecoder().decodeWithReport(Feed.self, from: document)
        #expect(feed.items.count < 20 && feed.tags == nil && feed.title == "")
        let forgiven = report.issues.filter { $0.message.contains("past what this decode may rewrite") }
        #expect(Set(forgiven.map(\.path)).isSuperset(of: ["tags", "title"]))
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Feed.self, from: document)
        }
        // Within the budget the transforms run, and nothing is reported.
        let small = #"{"items":[\#(Self.chain(depth: 3, padding: 1))],"tags":["a"],"title":"t"}"#
        let (clean, cleanReport) = try LenientJSONDecoder().decodeWithReport(Feed.self, from: small)
        #expect(clean.tags == ["a", "a"] && clean.title == "T" && cleanReport.issues.isEmpty)
    }
}

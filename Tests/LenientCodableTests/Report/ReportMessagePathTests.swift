// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A report entry's message says where the failure lay below the entry's own path, not the whole
/// path again: the entry gives its path, and repeating it in every entry of a deep chain made the
/// report's text, and the time to write it, grow with the square of the depth.
struct ReportMessagePathTests {
    final class Link: Codable, Equatable {
        var id: Int
        var count: Int?
        var next: Link?

        init(id: Int, count: Int?, next: Link?) {
            self.id = id
            self.count = count
            self.next = next
        }

        static func == (lhs: Link, rhs: Link) -> Bool {
            chainsAreEqual(lhs, rhs, next: \.next) { $0.id == $1.id && $0.count == $1.count }
        }
    }

    static func chain(depth: Int, count: String) -> String {
        var text = #"{"id":0,"count":\#(count)}"#
        for level in 1...depth { text = #"{"id":\#(level),"count":\#(count),"next":\#(text)}"# }
        return text
    }

    /// Every level of a chain 300 deep holds a count that no table reads as a number: each is
    /// `nil`, reported once at its own path, with a message that does not grow with the depth.
    @Test func aForgivenValueDeepInAChainIsReportedWithAShortMessage() throws {
        let depth = 300
        let (link, report) = try LenientJSONDecoder().decodeWithReport(
            Link.self, from: Self.chain(depth: depth, count: #""x""#))
        #expect(report.issues.count == depth + 1)
        #expect(report.issues.allSatisfy { $0.kind == .defaulted })
        #expect(report.issues.allSatisfy { !$0.message.contains("(at ") && $0.message.utf8.count < 120 })
        let paths = Set(report.issues.map(\.path))
        for level in [0, 1, 150, depth] {
            let path = String(repeating: "next.", count: level) + "count"
            #expect(paths.contains(path), "\(path)")
        }
        var node: Link? = link
        var levels = 0
        while let current = node {
            #expect(current.count == nil && current.id == depth - levels)
            node = current.next
            levels += 1
        }
        #expect(levels == depth + 1)

        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Link.self, from: LenientJSONEncoder().encode(link))
        #expect(again == link && reportAgain.isEmpty)
    }

    struct Inner: Codable, Equatable {
        var b: Int
    }

    struct Item: Codable, Equatable {
        var a: Inner
    }

    struct Wrapper: Codable, Equatable {
        var items: [Item]
    }

    /// An element dropped for a failure inside it (invalid values are not defaulted here): the
    /// message names the failure's place inside the element, and the entry's path names the
    /// element.
    @Test func aDroppedElementNamesTheFailureBelowIt() throws {
        let text = #"{"items":[{"a":{"b":1}},{"a":{"b":{"c":2}}},{"a":{"b":3}}]}"#
        var options = LenientJSONDecoder.Options.lenient
        options.defaultsInvalidValues = false
        let (wrapper, report) = try LenientJSONDecoder(options: options).decodeWithReport(Wrapper.self, from: text)
        #expect(wrapper.items == [Item(a: Inner(b: 1)), Item(a: Inner(b: 3))])
        let issue = try #require(report.issues.first { $0.kind == .droppedElement })
        #expect(issue.path == "items[1]")
        #expect(issue.message == "Dropped element: Cannot coerce an object to Int (at a.b).")
        #expect(report.issues.count == 1)

        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Wrapper.self, from: LenientJSONEncoder().encode(wrapper))
        #expect(again == wrapper && reportAgain.isEmpty)
    }
}

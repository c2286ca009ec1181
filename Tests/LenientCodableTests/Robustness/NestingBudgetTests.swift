// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

@testable import LenientCodable

/// One nesting budget of 512 levels for the whole decode, counted across JSON text inside strings and the JSON that
/// hooks return; hooked types nested in each other build their JSON once; coercions never re-enter the decode of the
/// value they coerce. Each case used to overflow the stack or grow with depth × size.
@Suite struct NestingBudgetTests {
    struct List: Decodable, Equatable {
        var items: [List]
    }

    /// `levels` strings nested in each other, each holding JSON text `{"items":[` repeated `depth` times around the
    /// next string.
    static func listsInStrings(levels: Int, depth: Int) -> String {
        var document = #"{"items":[]}"#
        for _ in 0..<levels {
            let quoted = String(decoding: try! JSONEncoder().encode(document), as: UTF8.self)
            document = String(repeating: #"{"items":["#, count: depth) + quoted + String(repeating: "]}", count: depth)
        }
        return document
    }

    static func chainLength(_ list: List) -> Int {
        var length = 0
        var current = list
        while let first = current.items.first {
            length += 1
            current = first
        }
        return length
    }

    @Test func jsonInStringsNestedWithinTheBudgetDecodes() throws {
        // 2 levels of 100 lists: 400 containers, and the innermost object.
        let (list, report) = try LenientJSONDecoder().decodeWithReport(
            List.self, from: Self.listsInStrings(levels: 2, depth: 100))
        #expect(Self.chainLength(list) == 200)
        #expect(report.issues.allSatisfy { $0.kind == .coerced })
    }

    @Test func jsonInStringsShareOneNestingBudget() throws {
        // 3 levels of 100 lists each: 600 containers, each string within the limit on its own. The third string's
        // text would nest past level 512: it is not read, and its element is dropped and reported.
        let (list, report) = try LenientJSONDecoder().decodeWithReport(
            List.self, from: Self.listsInStrings(levels: 3, depth: 100))
        // 200 lists: the last one's only element was the string.
        #expect(Self.chainLength(list) == 199)
        let dropped = try #require(report.issues.first { $0.kind == .droppedElement })
        #expect(dropped.message.contains("nested"))
        // Strict reads no JSON in strings at all.
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(List.self, from: Self.listsInStrings(levels: 1, depth: 1))
        }
    }

    /// The shape that overflowed the main thread's stack: 18 levels of strings, each holding 511 nested arrays.
    @Test func deepArraysInStringsInDeepArraysFailCleanly() throws {
        var document = "[]"
        for _ in 0..<18 {
            let quoted = String(decoding: try JSONEncoder().encode(document), as: UTF8.self)
            document = String(repeating: "[", count: 511) + quoted + String(repeating: "]", count: 511)
        }
        struct Nested: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                while !container.isAtEnd { _ = try container.decode(Nested.self) }
            }
        }
        let input = document
        // A thread with the main thread's 8 MB stack, which this input used to overflow.
        let result = try runOnThread(stackSize: 8 << 20) {
            Result { try LenientJSONDecoder().decode(Nested.self, from: input) }
        }
        #expect(throws: DecodingError.self) { try result.get() }
    }

    // MARK: Hooks

    struct Comment: Decodable, DecodingHooks {
        var replies: [Comment]?
        var scores: [Int]?
    }

    /// Decodes the top-level value through the decoder's own `unwrap`, and keeps the decoder to read its counters.
    struct Counted<Value: Decodable>: Decodable {
        var value: Value
        var decoder: TreeDecoder
        init(from decoder: any Decoder) throws {
            self.decoder = try #require(decoder as? TreeDecoder)
            value = try decoder.singleValueContainer().decode(Value.self)
        }
    }

    static func commentChain(depth: Int, scores: Int) -> String {
        let leaf = #"{"scores":["# + (0..<scores).map(String.init).joined(separator: ",") + "]}"
        return String(repeating: #"{"replies":["#, count: depth) + leaf + String(repeating: "]}", count: depth)
    }

    @Test func nestedHookedTypesBuildTheirJSONOnce() throws {
        let document = Self.commentChain(depth: 255, scores: 20_000)
        let counted = try LenientJSONDecoder().decode(Counted<Comment>.self, from: document)
        let nodes = try JSONValue(parsing: document).nodeCount
        // Each node is built once: the top-level comment's JSON holds every other one's.
        #expect(counted.decoder.materializedNodes <= nodes)
        var depth = 0
        var comment = counted.value
        while let reply = comment.replies?.first {
            depth += 1
            comment = reply
        }
        #expect(depth == 255)
        #expect(comment.scores?.count == 20_000)
    }

    /// A list at every level of a chain.
    struct Thread: Decodable {
        var r: [Thread]?
    }

    /// Objects where lists are expected, at every level of chains in a list, with a report: each wrap names the
    /// object it found, built from the JSON the levels inside it built already (each node once), and tells its own
    /// value from the wraps inside it by their nodes, not by writing out their paths. Each level's value built again
    /// and every path written out made the report cost the cube of the depth: 800 KB of chains 400 deep took 5 s,
    /// against 0.04 s without a report.
    @Test func objectsWrappedInListsAtEveryLevelBuildWhatTheReportFoundOnce() throws {
        let depth = 120
        let chain = String(repeating: #"{"r":"#, count: depth) + "{}" + String(repeating: "}", count: depth)
        let document = "[" + Array(repeating: chain, count: 8).joined(separator: ",") + "]"
        let (counted, report) = try LenientJSONDecoder().decodeWithReport(Counted<[Thread]>.self, from: document)
        let nodes = 1 + 8 * (2 * depth + 1)
        #expect(counted.decoder.materializedNodes <= nodes, "\(counted.decoder.materializedNodes)")
        #expect(counted.decoder.jsonPathsCompared == 0)
        let wraps = report.issues.filter { $0.message.hasPrefix("Wrapped an object in") }
        #expect(!wraps.isEmpty)
        for wrap in wraps {
            // The object found at `[k].r[0].r…`: as deep as the levels below its place.
            let levelsAbove = wrap.path.components(separatedBy: ".r").count - 1
            var found = try #require(wrap.found)
            var levels = 0
            while let next = found["r"] {
                levels += 1
                found = next
            }
            #expect(levels == depth - levelsAbove, "\(wrap.path)")
        }
        // Each place reported once.
        #expect(Set(report.issues.map(\.path)).count == report.issues.count)
    }

    // MARK: Decoding a value again

    /// The "one or many" pattern: a model probes one key as `T`, then as `[T]`. Wrapping the object in an array
    /// decodes it again as `T`, at every level: the work doubled with each level (22 levels, 222 bytes: 23 s).
    /// A hooked type that decodes its child through a super decoder, at every level.
    final class Relay: Decodable, DecodingHooks {
        var next: Relay?
        enum CodingKeys: String, CodingKey { case next }
        static func willDecode(_ json: JSONValue) throws -> JSONValue { json }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard try !container.decodeNil(forKey: .next) else { return }
            next = try container.superDecoder(forKey: .next).singleValueContainer().decode(Relay.self)
        }
    }

    @Test func hookedTypesDecodedThroughSuperDecodersBuildTheirJSONOnce() throws {
        let document = String(repeating: #"{"next":"#, count: 400) + "null" + String(repeating: "}", count: 400)
        let counted = try LenientJSONDecoder(options: .strict).decode(Counted<Relay>.self, from: document)
        let nodes = try JSONValue(parsing: document).nodeCount
        #expect(counted.decoder.materializedNodes <= nodes)
        var depth = 0
        var relay: Relay? = counted.value
        while let next = relay?.next {
            depth += 1
            relay = next
        }
        #expect(depth == 399)
    }

    final class Reply: Decodable {
        var one: Reply?
        var many: [Reply]?
        enum CodingKeys: String, CodingKey { case child }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            one = try? container.decode(Reply.self, forKey: .child)
            many = try? container.decode([Reply].self, forKey: .child)
        }
    }

    @Test func probingAKeyAsAValueAndAsAListCostsWorkLinearInTheInput() throws {
        for depth in [10, 60, 200] {
            let document = String(repeating: #"{"child":"#, count: depth) + "{}" + String(repeating: "}", count: depth)
            let counted = try LenientJSONDecoder().decode(Counted<Reply>.self, from: document)
            // The budget for decoding values again is proportional to the tree, and never overdrawn by more than
            // one subtree.
            #expect(counted.decoder.retryBudget > -(2 * depth + 2))
            // Each level's model asks for its container a bounded number of times, not 2^level.
            #expect(counted.decoder.containersMade < 16 * depth + 64, "\(counted.decoder.containersMade)")
            var levels = 0
            var reply: Reply? = counted.value
            while let next = reply?.one {
                levels += 1
                reply = next
            }
            #expect(levels == depth)
        }
    }

    /// A level of a chain that reads part of its own object as a model of its own, calling that
    /// model's `init(from:)` directly behind `try?`, and the next level through its container.
    struct FlatteningLevel: Decodable {
        struct Meta: Decodable, Equatable {
            var title: String
            var count: Int?
        }
        var id: Int
        var meta: Meta?
        var next: [FlatteningLevel]
        enum CodingKeys: String, CodingKey { case id, next }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            meta = try? Meta(from: decoder)
            next = container.contains(.next) ? [try container.decode(FlatteningLevel.self, forKey: .next)] : []
        }
    }

    /// Every level's `Meta` fails on what loose matching found (`"Count": "x"`), a failure the
    /// level catches where Foundation, which does not see the key, decodes `Meta`: each level is
    /// decoded again, as the level around it is, inside that level's retry. The retries are paid
    /// for from the retry budget, so the work stays linear in the depth (it grew with its cube:
    /// 1.9 s at 400 levels); and every level keeps Foundation's value.
    @Test func directCallsAtEveryLevelOfAChainCostWorkLinearInTheInput() throws {
        for depth in [10, 60, 200] {
            var document = #"{"id":0,"title":"t","Count":"x"}"#
            for level in 1...depth { document = #"{"id":\#(level),"title":"t","Count":"x","next":\#(document)}"# }
            let counted = try LenientJSONDecoder().decode(Counted<FlatteningLevel>.self, from: document)
            #expect(counted.decoder.containersMade < 40 * depth + 64, "\(counted.decoder.containersMade)")
            var levels = 0
            var level: FlatteningLevel? = counted.value
            while let current = level {
                #expect(current.meta == FlatteningLevel.Meta(title: "t", count: nil))
                levels += 1
                level = current.next.first
            }
            #expect(levels == depth + 1)
        }
    }

    final class Forgiven: Codable, Equatable {
        var count: Int?
        var total: Int
        var next: Forgiven?

        init(count: Int?, total: Int, next: Forgiven?) {
            self.count = count
            self.total = total
            self.next = next
        }

        static func == (lhs: Forgiven, rhs: Forgiven) -> Bool {
            chainsAreEqual(lhs, rhs, next: \.next) { $0.count == $1.count && $0.total == $1.total }
        }
    }

    /// Every level of a chain holds two scalars that no table reads (an object for an `Int?`, a
    /// word for an `Int`): each is forgiven where it is read, so its error is built without the
    /// coding path, which would cost the depth at every level (the square of the depth in all).
    /// Only the few Foundation-like passes the retry budget pays for build theirs.
    @Test func scalarsForgivenAtEveryLevelOfAChainCostNoWorkPerLevel() throws {
        for depth in [10, 100, 400] {
            var document = #"{"count":{"a":1},"total":"x"}"#
            for _ in 1...depth { document = #"{"count":{"a":1},"total":"x","next":\#(document)}"# }
            let counted = try LenientJSONDecoder().decode(Counted<Forgiven>.self, from: document)
            #expect(counted.decoder.errorPathKeys < 8 * depth + 64, "\(counted.decoder.errorPathKeys)")
            var levels = 0
            var level: Forgiven? = counted.value
            while let current = level {
                #expect(current.count == nil && current.total == 0)
                levels += 1
                level = current.next
            }
            #expect(levels == depth + 1)

            let (value, report) = try LenientJSONDecoder().decodeWithReport(Forgiven.self, from: document)
            #expect(value == counted.value)
            #expect(report.issues.count == 2 * (depth + 1))
            #expect(report.issues.allSatisfy { $0.kind == .defaulted && !$0.message.contains("(at ") })
            let deepest = String(repeating: "next.", count: depth)
            #expect(report.issues.contains { $0.path == deepest + "count" })
            #expect(report.issues.contains { $0.path == deepest + "total" })
            let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
                Forgiven.self, from: LenientJSONEncoder().encode(value))
            #expect(again == value && reportAgain.isEmpty)
        }
    }

    /// Where the same value is not forgiven, its error still names its whole path.
    @Test func anUnforgivenScalarDeepInAChainNamesItsPath() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.defaultsInvalidValues = false
        var document = #"{"total":"x"}"#
        for _ in 1...50 { document = #"{"total":1,"next":\#(document)}"# }
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Forgiven.self, from: document)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == Array(repeating: "next", count: 50) + ["total"])
    }

    final class Listed: Codable, Equatable {
        var tags: [Int]
        var next: Listed?

        init(tags: [Int], next: Listed?) {
            self.tags = tags
            self.next = next
        }

        static func == (lhs: Listed, rhs: Listed) -> Bool {
            chainsAreEqual(lhs, rhs, next: \.next) { $0.tags == $1.tags }
        }
    }

    /// Every level holds one number, or JSON text, where a list is expected: the standard
    /// library's `init(from:)` fails at once before the value is wrapped or parsed, and that
    /// first error, which only the decoder sees, is built without the coding path.
    @Test(arguments: [#"1"#, #""[1]""#])
    func listsWrappedAtEveryLevelOfAChainCostNoWorkPerLevel(_ tags: String) throws {
        for depth in [10, 100, 400] {
            var document = #"{"tags":\#(tags)}"#
            for _ in 1...depth { document = #"{"tags":\#(tags),"next":\#(document)}"# }
            let counted = try LenientJSONDecoder().decode(Counted<Listed>.self, from: document)
            #expect(counted.decoder.errorPathKeys < 8 * depth + 64, "\(counted.decoder.errorPathKeys)")
            var levels = 0
            var level: Listed? = counted.value
            while let current = level {
                #expect(current.tags == [1])
                levels += 1
                level = current.next
            }
            #expect(levels == depth + 1)

            let (value, report) = try LenientJSONDecoder().decodeWithReport(Listed.self, from: document)
            #expect(value == counted.value)
            #expect(report.issues.count == depth + 1)
            #expect(report.issues.contains { $0.path == String(repeating: "next.", count: depth) + "tags" })
            let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
                Listed.self, from: LenientJSONEncoder().encode(value))
            #expect(again == value && reportAgain.isEmpty)
        }
    }

    /// A value that is neither a list nor one element of it still fails with its whole path.
    @Test func aListThatCannotBeWrappedDeepInAChainNamesItsPath() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.defaultsInvalidValues = false
        var document = #"{"tags":{"a":1}}"#
        for _ in 1...50 { document = #"{"tags":[2],"next":\#(document)}"# }
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Listed.self, from: document)
        }
        let foundation = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Listed.self, from: Data(document.utf8))
        }
        let expected = Array(repeating: "next", count: 50) + ["tags"]
        #expect(Self.codingPath(of: foundation) == expected)
        #expect(Self.codingPath(of: error) == expected, "\(error)")
    }

    static func codingPath(of error: DecodingError) -> [String] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            context.codingPath.map(\.stringValue)
        @unknown default: []
        }
    }

    // MARK: Paths

    final class Chain: Decodable {
        var next: Chain?
        var values: [Int]?
        var names: Set<String>?
    }

    /// Every bad element of a lossy collection is dropped; its error must not cost the depth of its path, or
    /// 300 000 bad integers at depth 500 cost 150 million key copies (9.9 s).
    @Test(arguments: [1, 300])
    func droppedElementsCostNoWorkPerLevel(depth: Int) throws {
        let bad = Array(repeating: #""x""#, count: 20_000).joined(separator: ",")
        let document =
            String(repeating: #"{"next":"#, count: depth) + #"{"values":[1,\#(bad),2],"names":[{},"a",[]]}"#
            + String(repeating: "}", count: depth)
        let counted = try LenientJSONDecoder().decode(Counted<Chain>.self, from: document)
        #expect(counted.decoder.errorPathKeys < document.utf8.count / 100)
        var leaf = counted.value
        while let next = leaf.next { leaf = next }
        #expect(leaf.values == [1, 2])
        #expect(leaf.names == ["a"])
        // With a report, each dropped element is reported once, at its own path.
        let (_, report) = try LenientJSONDecoder().decodeWithReport(Chain.self, from: document)
        #expect(report.issues(ofKind: .droppedElement).count == 20_002)
        let prefix = String(repeating: "next.", count: depth)
        #expect(report.issues.first?.path == prefix + "values[1]")
        #expect(report.issues.last?.path == prefix + "names[2]")
    }

    /// Returns JSON that its type also keeps: shared at every level, too deep to decode.
    struct KeepsWhatItReturns: Decodable, DecodingHooks {
        static let kept: JSONValue = {
            var deep: JSONValue = 7
            for _ in 0..<2_000 { deep = [deep, deep] }
            return deep
        }()
        static func willDecode(_ json: JSONValue) throws -> JSONValue { kept }
    }

    /// Letting go of refused JSON frees nothing its author still holds: the kept value is whole
    /// after the decode (AddressSanitizer runs this suite in CI).
    @Test func refusedJSONItsAuthorKeepsStaysWhole() throws {
        #expect(throws: DecodingError.self) { try LenientJSONDecoder().decode(KeepsWhatItReturns.self, from: "{}") }
        var levels = 0
        var value = KeepsWhatItReturns.kept
        while case .array(let elements) = value {
            #expect(elements.count == 2)
            levels += 1
            value = elements[1]
        }
        #expect(levels == 2_000)
        #expect(value == 7)
    }

    /// Values forgiven through many super decoders are reported with the JSON paths of one index
    /// of the document, not one index per super decoder.
    @Test func reportsThroughManySuperDecodersIndexTheDocumentOnce() throws {
        // Each `Derived` decodes its superclass from `superDecoder()`.
        let elements = Array(repeating: #"{"b":1,"super":{"a":"5"}}"#, count: 2_000).joined(separator: ",")
        let pad = (0..<20_000).map(String.init).joined(separator: ",")
        let document = #"{"value":[\#(elements)],"pad":[\#(pad)]}"#
        struct Kennel: Decodable { var value: [SuperDecoderUnknownKeysTests.Derived] }
        let (counted, report) = try LenientJSONDecoder().decodeWithReport(Counted<Kennel>.self, from: document)
        #expect(counted.value.value.count == 2_000)
        #expect(counted.value.value.last?.a == 5)
        #expect(report.issues.count == 2_000)
        #expect(report.issues.last?.jsonPath == "value[1999].super.a")
        #expect(counted.decoder.pathIndexedNodes <= (try JSONValue(parsing: document).nodeCount))
    }

    class Shape: Decodable, PolymorphicDecodable {
        var children: [Shape]?
        static func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
            json["kind"]?.stringValue == "group" ? Group.self : nil
        }
    }
    final class Group: Shape {}

    @Test func nestedPolymorphicTypesBuildTheirJSONOnce() throws {
        let document =
            String(repeating: #"{"kind":"group","children":["#, count: 200) + #"{"kind":"leaf","data":["#
            + (0..<20_000).map(String.init).joined(separator: ",") + "]}" + String(repeating: "]}", count: 200)
        let counted = try LenientJSONDecoder().decode(Counted<Shape>.self, from: document)
        #expect(counted.decoder.materializedNodes <= (try JSONValue(parsing: document).nodeCount))
        #expect(counted.value is Group)
    }

    final class Russian: Decodable, DecodingHooks {
        var child: Russian?
        static func willDecode(_ json: JSONValue) throws -> JSONValue { ["child": json] }
    }

    /// A `willDecode` that wraps the value in another level each time would recurse until the stack overflows. The
    /// budget stops it at 512 levels; a level of hooks takes more stack than a plain one, most of all in a debug
    /// build under AddressSanitizer, so the decode runs on a thread with room for 512 of them in any build.
    @Test func hookThatNestsItsValueDeeperEachTimeStopsAtTheBudget() throws {
        let strict = try runOnThread(stackSize: 64 << 20) {
            Result { _ = try LenientJSONDecoder(options: .strict).decode(Russian.self, from: "{}") }
        }
        let error = try #require(throws: DecodingError.self) { try strict.get() }
        #expect(String(describing: error).contains("nested"))
        // Lenient forgives the optional that cannot be read, and says so.
        let lenient = try runOnThread(stackSize: 64 << 20) {
            Result { () -> (depth: Int, reportsNesting: Bool) in
                let (russian, report) = try LenientJSONDecoder().decodeWithReport(Russian.self, from: "{}")
                var depth = 0
                var current = russian
                while let child = current.child {
                    depth += 1
                    current = child
                }
                return (depth, report.issues.contains { $0.message.contains("nested") })
            }
        }
        let (depth, reportsNesting) = try lenient.get()
        #expect(depth < 512)
        #expect(reportsNesting)
    }

    @Test func hookReturningAValueDeeperThanTheBudgetFailsCleanly() throws {
        struct Deep: Decodable, DecodingHooks {
            var value: JSONValue
            static func willDecode(_ json: JSONValue) throws -> JSONValue {
                var deep: JSONValue = 0
                for _ in 0..<200_000 { deep = [deep] }
                return ["value": deep]
            }
        }
        let error = try #require(throws: DecodingError.self) { try LenientJSONDecoder().decode(Deep.self, from: "{}") }
        #expect(String(describing: error).contains("willDecode of Deep"))
    }

    /// How ``Shared`` repeats its container at every level.
    protocol SharingShape: SendableMetatype { static func level(_ inner: JSONValue) -> JSONValue }
    enum SharedInArrays: SharingShape { static func level(_ inner: JSONValue) -> JSONValue { [inner, inner] } }
    enum SharedInObjects: SharingShape {
        static func level(_ inner: JSONValue) -> JSONValue { ["a": inner, "b": inner] }
    }

    /// Returns JSON that shares its one container at every level, from a decoding hook, a
    /// decoding transform and an encoding hook.
    struct Shared<Shape: SharingShape>: Codable, DecodingHooks, EncodingHooks, KeyMapping {
        var value: JSONValue?
        static var keyMapping: [String: KeySource] { [:] }
        static var decodingTransforms: [String: JSONTransform] { ["value": JSONTransform { _ in deep() }] }
        static func deep() -> JSONValue {
            var deep: JSONValue = 0
            for _ in 0..<200_000 { deep = Shape.level(deep) }
            return deep
        }
        static func willDecode(_ json: JSONValue) throws -> JSONValue { json["hook"] == nil ? json : ["value": deep()] }
        func didEncode(_ json: inout JSONValue) throws { json = Self.deep() }
    }

    /// JSON shared at every level (`[x, x]`, `{"a": x, "b": x}`) too deep to write is refused, and
    /// let go without the recursion that releasing it by Swift would take.
    @Test func sharedContainersDeeperThanTheBudgetAreLetGoCleanly() throws {
        func check<Shape: SharingShape>(_: Shape.Type) {
            #expect(throws: DecodingError.self) {
                try LenientJSONDecoder().decode(Shared<Shape>.self, from: #"{"hook":1}"#)
            }
            #expect(throws: DecodingError.self) {
                try LenientJSONDecoder().decode(Shared<Shape>.self, from: #"{"value":1}"#)
            }
            #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(Shared<Shape>(value: 1)) }
        }
        check(SharedInArrays.self)
        check(SharedInObjects.self)
    }

    /// A link whose `willDecode` changes its JSON at every level: each level's JSON is written
    /// and parsed again, the whole subtree below it.
    final class Link: Codable, DecodingHooks, Equatable {
        var value: Int
        var doubled: Int?
        var next: Link?

        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            guard case .object(var object) = json, case .number(let text) = object["value"] ?? .null,
                let value = Int(text)
            else { return json }
            object["doubled"] = .number(String(value * 2))
            return .object(object)
        }

        static func == (lhs: Link, rhs: Link) -> Bool {
            lhs.value == rhs.value && lhs.doubled == rhs.doubled && lhs.next == rhs.next
        }
    }

    static func linkChain(depth: Int, from start: Int = 0) -> String {
        (0..<depth).map { #"{"value":\#(start + $0),"next":"# }.joined() + "null" + String(repeating: "}", count: depth)
    }

    /// Within the rewrite budget (eight times the input, and a mebibyte more), every level's
    /// hook runs on its own changed JSON, and the value round-trips.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func aHookThatChangesItsValueAtEveryLevelOfASmallDocumentDecodes(options: LenientJSONDecoder.Options) throws {
        let document = Self.linkChain(depth: 200)
        let (link, report) = try LenientJSONDecoder(options: options).decodeWithReport(Link.self, from: document)
        #expect(report.issues.isEmpty)
        var current: Link? = link
        var depth = 0
        while let level = current {
            #expect(level.value == depth && level.doubled == 2 * depth)
            depth += 1
            current = level.next
        }
        #expect(depth == 200)
        let encoded = try LenientJSONEncoder().encode(link)
        #expect(try LenientJSONDecoder(options: options).decode(Link.self, from: encoded) == link)
    }

    /// Chains of 64 changing levels fill 200 KB: rewriting each level's subtree would write 30
    /// times the input. The budget stops it: strict fails with a clear error, lenient drops the
    /// chains it cannot afford and reports each; both stop rewriting at the budget, so the time
    /// stays linear in the input (it grew with depth × size).
    @Test func hooksThatChangeTheirValueAtEveryLevelOfADeepDocumentStopAtTheRewriteBudget() throws {
        let chains = (0..<220).map { Self.linkChain(depth: 64, from: 1_000 * $0) }
        let document = "[" + chains.joined(separator: ",") + "]"
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode([Link].self, from: document)
        }
        #expect(String(describing: error).contains("past what this decode may rewrite"))
        let (links, report) = try LenientJSONDecoder().decodeWithReport([Link].self, from: document)
        #expect(!links.isEmpty && links.count < chains.count)
        #expect(links.map(\.value) == (0..<links.count).map { 1_000 * $0 })
        let dropped = report.issues.filter { $0.kind == .droppedElement }
        #expect(dropped.count == chains.count - links.count)
        #expect(dropped.allSatisfy { $0.message.contains("past what this decode may rewrite") })
    }

    /// JSON text in a string brings its own allowance, as it is part of the input; the hooks
    /// inside it draw on the decode's one budget.
    @Test func rewritesInsideJSONTextShareTheBudget() throws {
        struct Envelope: Decodable {
            var links: [Link]
        }
        func quoted(_ text: String) throws -> String { String(decoding: try JSONEncoder().encode(text), as: UTF8.self) }
        let small = try quoted("[" + Self.linkChain(depth: 50) + "]")
        let (envelope, report) = try LenientJSONDecoder().decodeWithReport(Envelope.self, from: #"{"links":\#(small)}"#)
        #expect(envelope.links.count == 1 && envelope.links[0].next?.doubled == 2)
        #expect(!report.issues.contains { $0.kind == .droppedElement })
        let chains = (0..<220).map { Self.linkChain(depth: 64, from: 1_000 * $0) }
        let large = try quoted("[" + chains.joined(separator: ",") + "]")
        let (partial, partialReport) = try LenientJSONDecoder().decodeWithReport(
            Envelope.self, from: #"{"links":\#(large)}"#)
        #expect(!partial.links.isEmpty && partial.links.count < chains.count)
        #expect(partialReport.issues.contains { $0.message.contains("past what this decode may rewrite") })
    }

    // MARK: Re-entrance

    /// TMDb's `AnyCodable` probes `[Self]` in its own `init(from:)`: wrapping the object in an array would decode
    /// the same type from the same value again, without end.
    indirect enum Node: Decodable, Equatable {
        case list([Node])
        case leaf

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([Node].self) {
                self = .list(list)
            } else {
                self = .leaf
            }
        }
    }

    @Test func typeProbingAnArrayOfItselfDoesNotRecurseForever() throws {
        let foundation = try JSONDecoder().decode(Node.self, from: Data("{}".utf8))
        #expect(foundation == .leaf)
        #expect(try LenientJSONDecoder().decode(Node.self, from: "{}") == foundation)
        #expect(try LenientJSONDecoder().decode([Node].self, from: "[{}, [{}], 1]") == [.leaf, .list([.leaf]), .leaf])
    }

    /// The same through another type: `Outer` at a value decodes `Middle` there, which probes `[Outer]`.
    @Test func probingThroughAnotherTypeDoesNotRecurseForever() throws {
        struct Outer: Decodable {
            var middle: Middle
            init(from decoder: any Decoder) throws { middle = try decoder.singleValueContainer().decode(Middle.self) }
        }
        struct Middle: Decodable {
            var outers: [Outer]?
            init(from decoder: any Decoder) throws { outers = try? decoder.singleValueContainer().decode([Outer].self) }
        }
        let outer = try LenientJSONDecoder().decode(Outer.self, from: "{}")
        #expect(outer.middle.outers?.count ?? 0 <= 1)
    }
}

extension JSONValue {
    /// The number of values in this value, itself included, and of keys.
    var nodeCount: Int {
        switch self {
        case .array(let elements): 1 + elements.reduce(0) { $0 + $1.nodeCount }
        case .object(let object): 1 + object.reduce(0) { $0 + 1 + $1.value.nodeCount }
        default: 1
        }
    }
}

/// Runs `body` on a thread of its own with the given stack size and returns its result.
func runOnThread<Result: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Result) throws -> Result {
    let slot = ResultSlot<Result>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        slot.result = body()
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return try #require(slot.result)
}

/// Where a thread leaves its result.
final class ResultSlot<Result: Sendable>: @unchecked Sendable {
    // Written by the thread before it signals its semaphore, read only after the wait.
    var result: Result?
}

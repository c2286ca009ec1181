// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct EncodingHooksTests {
    // MARK: The seed example

    @Test func seedExampleWritesTheTimestampBack() throws {
        let user = User(name: "Ann", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try encoded(user) == #"{"name":"Ann","timestamp":1700000000}"#)
        #expect(try encoded(User(name: "Bob", createdAt: nil)) == #"{"name":"Bob"}"#)
        let json = try LenientJSONEncoder().encodeToJSONValue(user)
        #expect(json["timestamp"]?.intValue == 1_700_000_000)
    }

    @Test func foundationDoesNotCallTheHook() throws {
        let user = User(name: "Ann", createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(String(decoding: try JSONEncoder().encode(user), as: UTF8.self) == #"{"name":"Ann"}"#)
    }

    // MARK: Changing members

    @Test func addRemoveAndRenameKeepTheEncodedOrderThenTheHooksOrder() throws {
        let value = Reshaped(a: 1, b: 2, c: 3)
        // "b" removed; "a" renamed to "alpha", which comes after the members kept, then "z".
        #expect(try encoded(value) == #"{"c":3,"alpha":1,"z":"added"}"#)
        #expect(try encoded(value, [.sortedKeys]) == #"{"alpha":1,"c":3,"z":"added"}"#)
        #expect(
            try encoded(value, [.prettyPrinted, .sortedKeys]) == """
                {
                  "alpha" : 1,
                  "c" : 3,
                  "z" : "added"
                }
                """)
    }

    @Test func hookSeesTheJSONAfterKeyMapping() throws {
        let value = MappedAndHooked(name: "n", desc: "d")
        #expect(try encoded(value) == #"{"n":"n","ext":{"desc":"d","seen":"n,ext"}}"#)
    }

    @Test func hookMayReplaceTheWholeValue() throws {
        #expect(try encoded(Replaced()) == #"[1,"two",null]"#)
    }

    @Test func hookedNumbersKeepTheirWrittenText() throws {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let value = Measured(ratio: 0.1, large: 1e21, whole: 2.0)
        let plain = try JSONEncoder.sorted.encode(Unhooked(ratio: 0.1, large: 1e21, whole: 2.0))
        // The hook leaves the members alone: the output is what Foundation writes without it.
        #expect(try encoder.encode(value) == plain)
    }

    // MARK: Where hooks run

    @Test func hooksRunForNestedValuesArrayElementsDictionaryValuesAndTheTopLevel() throws {
        let container = HookContainer(
            single: Tagged(id: 1), list: [Tagged(id: 2), Tagged(id: 3)], byName: ["x": Tagged(id: 4)],
            optional: Tagged(id: 5))
        #expect(
            try encoded(container, [.sortedKeys])
                == #"{"byName":{"x":{"id":4,"tag":"t4"}},"list":[{"id":2,"tag":"t2"},{"id":3,"tag":"t3"}],"optional":{"id":5,"tag":"t5"},"single":{"id":1,"tag":"t1"}}"#
        )
        #expect(try encoded([Tagged(id: 6)]) == #"[{"id":6,"tag":"t6"}]"#)
        #expect(try encoded(Tagged(id: 7)) == #"{"id":7,"tag":"t7"}"#)
        let asObject = try #require(try LenientJSONEncoder().encodeToJSONObject(Tagged(id: 8)) as? [String: Any])
        #expect(asObject["tag"] as? String == "t8")
    }

    // MARK: Hooked types inside hooked types

    /// Each level's hook sees its children's JSON as their hooks left it, and the text is what the
    /// same members written without hooks give (and, sorted, what `JSONEncoder` writes for them):
    /// compact, sorted and pretty, as a `JSONValue` and as `JSONSerialization`'s objects; the
    /// value decodes back.
    @Test(arguments: [1, 2, 40, 200])
    func nestedHookedTypesWriteWhatEveryHookReturned(depth: Int) throws {
        let hooked = Branch.chain(depth: depth)
        let plain = PlainBranch(hooked)
        for formatting in [[], [.sortedKeys], [.sortedKeys, .prettyPrinted]] as [JSONEncoder.OutputFormatting] {
            let encoder = LenientJSONEncoder()
            encoder.outputFormatting = formatting
            let written = try encoder.encode(hooked)
            #expect(written == (try encoder.encode(plain)))
            if formatting.contains(.sortedKeys) {
                // Foundation on Linux writes members in no fixed order unless sorted.
                let reference = JSONEncoder()
                reference.outputFormatting = formatting
                #expect(written == (try reference.encode(plain)))
            }
            #expect(try encoder.encodeToJSONValue(hooked) == (try encoder.encodeToJSONValue(plain)))
            let object = try encoder.encodeToJSONObject(hooked)
            #expect(
                try JSONSerialization.data(withJSONObject: object, options: .sortedKeys)
                    == (try JSONSerialization.data(
                        withJSONObject: try encoder.encodeToJSONObject(plain), options: .sortedKeys)))
            for options in [LenientJSONDecoder.Options.strict, .lenient] {
                let (back, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                    Branch.self, from: written)
                #expect(back == hooked)
                #expect(report.isEmpty)
            }
        }
    }

    /// A hook that changes the JSON of a hooked child deep inside it: the change is written, and a
    /// number that is not one is refused with the path to it, wherever the hook put it.
    @Test func aHookMayChangeItsHookedChildrenAndItsNumbersAreChecked() throws {
        let encoder = LenientJSONEncoder()
        let renamed = Renaming(child: Branch.chain(depth: 2), number: "7")
        #expect(
            String(decoding: try encoder.encode(renamed), as: UTF8.self)
                == #"{"child":{"name":"l1","leaf":[0,1],"children":[{"name":"l0","leaf":[0,1],"children":[{"name":"leaf","leaf":[0,1,2,3],"children":[],"level":0,"seen":7}],"level":1}],"level":2}}"#
        )
        let error = try #require(throws: EncodingError.self) {
            try encoder.encode(Renaming(child: Branch.chain(depth: 2), number: #"1,"x":2"#))
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        #expect(
            context.codingPath.map(\.stringValue) == ["child", "children", "Index 0", "children", "Index 0", "seen"])
    }

    /// Hooked types nested past the depth JSON text can be written to fail as Foundation fails for
    /// a value nested too deep, with an empty path; one level less is written.
    @Test func nestedHookedTypesPastTheWritableDepthFailCleanly() throws {
        // Each level is an object and its `children` array: 255 levels and the leaf make 512.
        let error = try #require(throws: EncodingError.self) {
            try LenientJSONEncoder().encode(Branch.chain(depth: 255))
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.isEmpty)
        let written = try LenientJSONEncoder().encode(Branch.chain(depth: 254))
        #expect(written == (try LenientJSONEncoder().encode(PlainBranch(Branch.chain(depth: 254)))))
        #expect(try LenientJSONDecoder().decode(Branch.self, from: written) == Branch.chain(depth: 254))
    }

    /// What the encoder does with a hooked value after its hook ran, as with any value: a keyed
    /// container opened again on it adds members; an internally tagged case's payload may be
    /// hooked; a key path through it is a conflict, as through any property's value.
    @Test func aHookedValueIsAnOrdinaryValueOnceItsHookRan() throws {
        let encoder = LenientJSONEncoder()
        #expect(
            String(decoding: try encoder.encode(Reopened(child: Tagged(id: 3))), as: UTF8.self)
                == #"{"child":{"id":3,"tag":"t3","extra":true}}"#)
        let shape = HookedShape.circle(Tagged(id: 4))
        let written = try encoder.encode(shape)
        #expect(String(decoding: written, as: UTF8.self) == #"{"kind":"circle","id":4,"tag":"t4"}"#)
        #expect(try LenientJSONDecoder().decode(HookedShape.self, from: written) == shape)
        #expect(throws: EncodingError.self) { try encoder.encode(ThroughHooked(child: Tagged(id: 5), extra: 1)) }
    }

    /// The hook of an internally tagged case's payload sees the payload's JSON alone, as under a
    /// content key: not the tag, which is the enum's. A hook that rebuilds its object keeps the
    /// tag, and one that counts its members counts its own.
    @Test func aTaggedPayloadsHookSeesThePayloadAlone() throws {
        let encoder = LenientJSONEncoder()
        for (value, expected) in [
            (Rebuilt.whitelist(Whitelist(id: 1, secret: "s")), #"{"type":"whitelist","id":1}"#),
            (Rebuilt.counted(CountsKeys(id: 3)), #"{"type":"counted","id":3,"memberCount":1}"#),
        ] {
            let written = try encoder.encode(value)
            #expect(String(decoding: written, as: UTF8.self) == expected)
            for options in [LenientJSONDecoder.Options.strict, .lenient] {
                let (back, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                    Rebuilt.self, from: written)
                #expect(back == value.withoutSecrets)
                #expect(report.isEmpty)
            }
        }
        // Alone, the payload's hook sees the same members.
        #expect(String(decoding: try encoder.encode(CountsKeys(id: 3)), as: UTF8.self) == #"{"id":3,"memberCount":1}"#)
        // A payload that writes the tag key with another value still replaces the tag: refused.
        #expect(throws: EncodingError.self) { try encoder.encode(Rebuilt.retagged(Retagging(id: 4))) }
    }

    /// A model that keeps an unkeyed container open on its node while a hooked value is encoded
    /// into that node, then appends hooked values to it: every API writes every element.
    @Test func elementsAppendedAfterAHookRanAreWritten() throws {
        let encoder = LenientJSONEncoder()
        let expected = #"[{"v":1},[{"v":1}],2,"after",[{"v":3},[{"v":3}],2]]"#
        #expect(String(decoding: try encoder.encode(KeptOpen()), as: UTF8.self) == expected)
        #expect(try encoder.encodeToJSONValue(KeptOpen()) == (try JSONValue(parsing: expected)))
        let object = try encoder.encodeToJSONObject(KeptOpen())
        #expect(
            try JSONValue(parsing: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
                == (try JSONValue(parsing: expected)))
    }

    // MARK: Errors

    @Test func errorsFromTheHookPropagateWithTheCodingPath() throws {
        let value = HookContainer(
            single: Tagged(id: 1), list: [Tagged(id: 2), Tagged(id: -1)], byName: [:], optional: nil)
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(value) }
        guard case .invalidValue(let invalid, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        #expect((invalid as? Tagged)?.id == -1)
        #expect(context.codingPath.map(\.stringValue) == ["list", "Index 1"])
        #expect(context.underlyingError as? TagError == TagError.negative(-1))
        #expect(context.debugDescription.contains("Tagged"))
    }

    @Test func topLevelHookErrorHasAnEmptyPath() throws {
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(Tagged(id: -2)) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.isEmpty)
        #expect(context.underlyingError as? TagError == TagError.negative(-2))
    }

    @Test func invalidNumberFromTheHookIsRejected() throws {
        #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(BadNumber()) }
    }

    private func encoded(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting = []) throws -> String {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

// MARK: - Fixtures

extension EncodingHooksTests {
    struct User: Codable, EncodingHooks {
        var name: String
        var createdAt: Date?

        private enum CodingKeys: String, CodingKey {
            case name
        }

        init(name: String, createdAt: Date?) {
            self.name = name
            self.createdAt = createdAt
        }

        func didEncode(_ json: inout JSONValue) throws {
            json["timestamp"] = createdAt.map { .number(String(Int($0.timeIntervalSince1970))) }
        }
    }

    struct Reshaped: Encodable, EncodingHooks {
        var a: Int
        var b: Int
        var c: Int

        func didEncode(_ json: inout JSONValue) throws {
            json["b"] = nil
            let a = json["a"]
            json["a"] = nil
            json["alpha"] = a
            json["z"] = "added"
        }
    }

    struct MappedAndHooked: Encodable, KeyMapping, EncodingHooks {
        var name: String
        var desc: String
        static let keyMapping: [String: KeySource] = ["name": "n", "desc": "ext.desc"]

        func didEncode(_ json: inout JSONValue) throws {
            let keys = json.objectValue.map { Array($0.keys).sorted(by: >).joined(separator: ",") } ?? ""
            json["ext"]?["seen"] = .string(keys)
        }
    }

    struct Replaced: Encodable, EncodingHooks {
        var ignored = 1
        func didEncode(_ json: inout JSONValue) throws {
            json = [1, "two", nil]
        }
    }

    struct Unhooked: Encodable {
        var ratio: Double
        var large: Double
        var whole: Double
    }

    struct Measured: Encodable, EncodingHooks {
        var ratio: Double
        var large: Double
        var whole: Double
        func didEncode(_ json: inout JSONValue) throws {}
    }

    enum TagError: Error, Equatable {
        case negative(Int)
    }

    struct Tagged: Codable, Equatable, EncodingHooks {
        var id: Int
        func didEncode(_ json: inout JSONValue) throws {
            guard id >= 0 else { throw TagError.negative(id) }
            json["tag"] = .string("t\(id)")
        }
    }

    struct HookContainer: Encodable {
        var single: Tagged
        var list: [Tagged]
        var byName: [String: Tagged]
        var optional: Tagged?
    }

    /// A tree of hooked levels: each hook adds its level and keeps its hooked children as their
    /// hooks wrote them.
    struct Branch: Codable, Equatable, EncodingHooks {
        var name: String
        var leaf: [Int]
        var children: [Branch]

        static func chain(depth: Int) -> Branch {
            var branch = Branch(name: "leaf", leaf: [0, 1, 2, 3], children: [])
            for level in 0..<depth { branch = Branch(name: "l\(level)", leaf: [0, 1], children: [branch]) }
            return branch
        }

        var level: Int { children.map { $0.level + 1 }.max() ?? 0 }

        func didEncode(_ json: inout JSONValue) throws {
            json["level"] = .number(String(level))
        }
    }

    /// ``Branch`` without the hook, with what the hook adds as a property.
    struct PlainBranch: Encodable {
        var name: String
        var leaf: [Int]
        var children: [PlainBranch]
        var level: Int

        init(_ branch: Branch) {
            name = branch.name
            leaf = branch.leaf
            children = branch.children.map(PlainBranch.init)
            level = branch.level
        }
    }

    /// Writes `number` into the deepest hooked child, through the JSON its children's hooks left.
    struct Renaming: Encodable, EncodingHooks {
        var child: Branch
        var number: String

        private enum CodingKeys: String, CodingKey {
            case child
        }

        func didEncode(_ json: inout JSONValue) throws {
            // The first child's first child, rebuilt on the way out (the index subscript only reads).
            guard case .array(var children)? = json["child"]?["children"],
                case .array(var grandchildren)? = children.first?["children"], var deepest = grandchildren.first
            else { return }
            deepest["seen"] = .number(number)
            grandchildren[0] = deepest
            children[0]["children"] = .array(grandchildren)
            json["child"]?["children"] = .array(children)
        }
    }

    /// Opens its keyed container again on a hooked child's value, after its hook ran.
    struct Reopened: Encodable {
        var child: Tagged

        private enum CodingKeys: String, CodingKey {
            case child
        }

        private enum ExtraKeys: String, CodingKey {
            case extra
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(child, forKey: .child)
            var nested = container.nestedContainer(keyedBy: ExtraKeys.self, forKey: .child)
            try nested.encode(true, forKey: .extra)
        }
    }

    /// Writes a property at a key path inside another property's hooked value.
    struct ThroughHooked: Encodable, KeyMapping {
        var child: Tagged
        var extra: Int
        static let keyMapping: [String: KeySource] = ["extra": "child.extra"]
    }

    /// An internally tagged enum whose payload is hooked.
    enum HookedShape: Codable, Equatable, TaggedCodable {
        case circle(Tagged)

        static let tagKey = "kind"
        static let variants: [TaggedVariant<HookedShape>] = [.init("circle", Tagged.self, HookedShape.circle)]
    }

    /// Keeps only `id`, rebuilding its object.
    struct Whitelist: Codable, Equatable, EncodingHooks {
        var id: Int
        var secret: String?

        func didEncode(_ json: inout JSONValue) throws {
            json = ["id": json["id"] ?? nil]
        }
    }

    /// Adds the number of members it was given.
    struct CountsKeys: Codable, Equatable, EncodingHooks {
        var id: Int

        private enum CodingKeys: String, CodingKey {
            case id
        }

        func didEncode(_ json: inout JSONValue) throws {
            json["memberCount"] = .number(String(json.objectValue?.count ?? -1))
        }
    }

    /// Writes the tag key with a value of its own.
    struct Retagging: Codable, Equatable, EncodingHooks {
        var id: Int
        func didEncode(_ json: inout JSONValue) throws {
            json["type"] = "other"
        }
    }

    enum Rebuilt: Codable, Equatable, TaggedCodable {
        case whitelist(Whitelist)
        case counted(CountsKeys)
        case retagged(Retagging)

        static let tagKey = "type"
        static let variants: [TaggedVariant<Rebuilt>] = [
            .init("whitelist", Whitelist.self, Rebuilt.whitelist), .init("counted", CountsKeys.self, Rebuilt.counted),
            .init("retagged", Retagging.self, Rebuilt.retagged),
        ]

        var withoutSecrets: Rebuilt {
            guard case .whitelist(let payload) = self else { return self }
            return .whitelist(Whitelist(id: payload.id, secret: nil))
        }
    }

    /// Wraps its JSON: `[json, [json], 2]`.
    struct Wrapping: Encodable, EncodingHooks {
        var v = 1
        func didEncode(_ json: inout JSONValue) throws {
            json = [json, [json], .number("2")]
        }
    }

    /// Keeps its unkeyed container open while a hooked value is encoded into its node.
    struct KeptOpen: Encodable {
        func encode(to encoder: any Encoder) throws {
            var elements = encoder.unkeyedContainer()
            try elements.encode(0)
            var single = encoder.singleValueContainer()
            try single.encode(Wrapping())
            try elements.encode("after")
            try elements.encode(Wrapping(v: 3))
        }
    }

    struct BadNumber: Encodable, EncodingHooks {
        func didEncode(_ json: inout JSONValue) throws {
            json["n"] = .number("1.")
        }
    }
}

extension JSONEncoder {
    fileprivate static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

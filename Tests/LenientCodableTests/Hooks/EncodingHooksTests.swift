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

    struct Tagged: Encodable, EncodingHooks {
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

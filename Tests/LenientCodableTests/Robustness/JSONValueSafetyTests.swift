// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `JSONValue`s are built by the parser, by hooks from what the server sent, and in code. Whatever
/// they hold, their operations must not trap, overflow the stack or write anything but JSON.
@Suite struct JSONValueSafetyTests {
    // MARK: Numbers with exponents at the edge of Int

    static let extremeExponents = [
        "10e9223372036854775807", "0.1e-9223372036854775808", "1e9223372036854775807", "-1e-9223372036854775808",
        "1e99999999999999999999", "100e9223372036854775807", "0.00001e-9223372036854775800",
    ]

    @Test(arguments: extremeExponents)
    func hashingAndComparingAnExtremeExponentDoNotTrap(_ text: String) throws {
        let value = try JSONValue(parsing: "[\(text)]")
        var set = Set<JSONValue>()
        set.insert(value)
        #expect(set.contains(value))
        #expect(value == value)
        #expect(value != [1])
        #expect(JSONValue.number(text) != .number("1"))
    }

    @Test func numbersStillCompareByValueNearTheEdge() {
        #expect(JSONValue.number("1e9223372036854775807") == .number("10e9223372036854775806"))
        #expect(
            JSONValue.number("1e9223372036854775807").hashValue == JSONValue.number("10e9223372036854775806").hashValue)
        #expect(JSONValue.number("1.0") == .number("10e-1"))
    }

    // MARK: Number text that is not a number

    struct Account: Codable, Equatable {
        var name: String
        var balance: Double
        var isAdmin: Bool?
    }

    static let injections: [String] = [#"1,"isAdmin":true"#, "1}", "", "0x10", "1.", "--1", "Infinity", "1 2", "1e"]

    @Test(arguments: injections, [LenientJSONDecoder.Options.strict, .lenient])
    func numberTextThatIsNotANumberIsRefusedWithItsPath(_ text: String, options: LenientJSONDecoder.Options) throws {
        let value: JSONValue = ["name": "mallory", "balance": .number(text)]
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Account.self, from: value)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["balance"])
        #expect(context.debugDescription.contains("not a JSON number"))
        #expect(!context.debugDescription.contains("line"))
    }

    /// A `willDecode` that turns the server's string into a number must not let the string's
    /// content become JSON structure.
    struct Wallet: Decodable, DecodingHooks {
        var balance: Double
        var isAdmin: Bool?

        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var json = json
            if let text = json["balance"]?.stringValue { json["balance"] = .number(text) }
            return json
        }
    }

    @Test func hookTurningServerTextIntoANumberCannotInjectMembers() throws {
        let payload = #"{"balance": "1,\"isAdmin\":true"}"#
        #expect(throws: DecodingError.self) { try LenientJSONDecoder().decode(Wallet.self, from: payload) }
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode(Wallet.self, from: payload) }
        // In a lossy array the element is dropped, and nothing is injected into the others.
        let (wallets, report) = try LenientJSONDecoder().decodeWithReport(
            [Wallet].self, from: #"[\#(payload), {"balance": "2"}]"#)
        #expect(wallets.map(\.balance) == [2])
        #expect(wallets.allSatisfy { $0.isAdmin == nil })
        #expect(report.issues(ofKind: .droppedElement).count == 1)
        // The well-formed number the hook makes decodes.
        #expect(try LenientJSONDecoder(.strict).decode(Wallet.self, from: #"{"balance": "2.5"}"#).balance == 2.5)
    }

    @Test(arguments: injections)
    func descriptionIsAlwaysJSON(_ text: String) throws {
        let value: JSONValue = ["balance": .number(text), "name": "x"]
        let reparsed = try JSONValue(parsing: value.description)
        #expect(reparsed["name"] == "x")
        #expect(reparsed["balance"] == .string(text))
    }

    @Test(arguments: injections)
    func encoderRefusesNumberTextThatIsNotANumber(_ text: String) throws {
        let value: JSONValue = ["name": "mallory", "balance": .number(text)]
        #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(value) }
    }

    /// Swift reads more than JSON's numbers; under Foundation's encoder too, only JSON's grammar is a number.
    @Test(arguments: ["0x10", "01", "+1", ".5", "1.", "1\u{0}", "1e", "Infinity"])
    func foundationsEncoderGetsNoNumberThatIsNotJSON(_ text: String) throws {
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(["x": JSONValue.number(text)]) }
        #expect(try JSONEncoder().encode(["x": JSONValue.number("1.5e3")]) == Data(#"{"x":1500}"#.utf8))
    }

    @Test func foundationsEncoderRefusesAValueTooDeepForJSON() throws {
        var value = Self.nested(20_000)
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(value) }
        Self.dismantle(&value)
        let shallow = Self.nested(100)
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(shallow)) == shallow)
    }

    // MARK: Depth

    static let veryDeep = 1_000_000

    /// A value nested `depth` levels, built in code as a user might.
    static func nested(_ depth: Int, leaf: JSONValue = 0, objects: Bool = false) -> JSONValue {
        var value = leaf
        for _ in 0..<depth { value = objects ? ["a": value] : [value] }
        return value
    }

    /// Takes a deep value apart one level at a time. Swift releases a nested array by recursion
    /// (an enum's array payload has no `deinit` of the package's to make iterative), so a value
    /// built a million levels deep in code is released level by level here; see
    /// Docs/Architecture.md, "Values built in code".
    static func dismantle(_ value: inout JSONValue) {
        while true {
            switch value {
            case .array(let elements) where elements.count == 1: value = elements[0]
            case .object(let object) where object.count == 1: value = object[0].value
            default: return
            }
        }
    }

    @Test(arguments: [false, true])
    func equalityAndHashingAtAMillionLevels(objects: Bool) {
        var first = Self.nested(Self.veryDeep, objects: objects)
        var second = Self.nested(Self.veryDeep, objects: objects)
        var third = Self.nested(Self.veryDeep, leaf: 1, objects: objects)
        #expect(first == second)
        #expect(first != third)
        #expect(first.hashValue == second.hashValue)
        var set: Set<JSONValue> = [first]
        set.insert(second)
        #expect(set.count == 1)
        set.removeAll()
        Self.dismantle(&first)
        Self.dismantle(&second)
        Self.dismantle(&third)
    }

    @Test(arguments: [false, true])
    func descriptionAtAMillionLevels(objects: Bool) {
        var value = Self.nested(Self.veryDeep, objects: objects)
        let text = value.description
        #expect(text.utf8.count == (objects ? 6 : 2) * Self.veryDeep + 1)
        #expect(text.hasPrefix(objects ? #"{"a":{"a":"# : "[[[["))
        Self.dismantle(&value)
    }

    @Test(arguments: [false, true])
    func encodingAndDecodingAtAMillionLevelsThrow(objects: Bool) throws {
        var value = Self.nested(Self.veryDeep, objects: objects)
        // Caught by hand: `#expect(throws:)` describes the error it catches, and with it the
        // value a million levels deep, which took minutes of a debug build.
        #expect(Self.throwsEncodingError { _ = try LenientJSONEncoder().encode(value) })
        #expect(Self.throwsEncodingError { _ = try LenientJSONEncoder().encodeToJSONValue(["deep": value]) })
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let error = try #require(throws: DecodingError.self) {
                try LenientJSONDecoder(options: options).decode(JSONValue.self, from: value)
            }
            #expect(String(describing: error).contains("nested more than 512 levels"))
        }
        Self.dismantle(&value)
    }

    /// Whether `body` throws an `EncodingError`.
    static func throwsEncodingError(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch {
            return error is EncodingError
        }
    }

    /// The deepest value the decoder reads and the encoder writes are the ones JSON text allows:
    /// 512 levels decode, 511 encode (as with Foundation), and the next level fails cleanly.
    @Test func valuesAtTheLimitsStillWork() throws {
        let atDecodingLimit = Self.nested(512)
        #expect(try LenientJSONDecoder(.strict).decode(JSONValue.self, from: atDecodingLimit) == atDecodingLimit)
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(JSONValue.self, from: Self.nested(513))
        }
        let atEncodingLimit = Self.nested(511)
        #expect(try JSONValue(parsing: LenientJSONEncoder().encode(atEncodingLimit)) == atEncodingLimit)
        #expect(throws: EncodingError.self) { try LenientJSONEncoder().encode(Self.nested(512)) }
    }

    /// A recursive class model as deep as memory allows: the encoder refuses it before its own
    /// recursion outgrows the stack.
    final class Link: Encodable {
        var next: Link?
        init(next: Link?) { self.next = next }
    }

    @Test func encodingARecursiveModelFarPastTheLimitThrows() throws {
        var head: Link? = nil
        for _ in 0..<200_000 { head = Link(next: head) }
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(head) }
        // Foundation's error for a value nested too deep: the top-level value, an empty path.
        guard case .invalidValue(_, let context) = error else {
            Issue.record("expected invalidValue, got \(error)")
            return
        }
        #expect(context.codingPath.isEmpty)
        #expect(context.debugDescription == "Unable to encode the given top-level value to JSON.")
        // Released link by link, for the same reason as `dismantle`.
        while let link = head {
            head = link.next
            link.next = nil
        }
    }

    // MARK: Deep JSON from user code, refused and released

    struct DeepOnEncode: Encodable, EncodingHooks {
        var id = 1
        func didEncode(_ json: inout JSONValue) throws { json = JSONValueSafetyTests.nested(300_000) }
    }

    @Test func encodingHookReturningJSONFarPastTheLimitThrows() throws {
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode([DeepOnEncode()]) }
        #expect(String(describing: error).contains("Unable to encode the given top-level value to JSON."))
    }

    /// `[x, x]` at every level: 600 containers, but 2^600 values when written out. The decoder
    /// refuses it at the first path past the budget and releases it container by container.
    struct Doubling: Decodable, DecodingHooks {
        var value: JSONValue
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var value: JSONValue = 0
            for _ in 0..<600 { value = [value, value] }
            return ["value": value]
        }
    }

    @Test func hookReturningARepeatedContainerPastTheBudgetFailsQuickly() throws {
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let error = try #require(throws: DecodingError.self) {
                try LenientJSONDecoder(options: options).decode(Doubling.self, from: "{}")
            }
            #expect(String(describing: error).contains("nested more than"))
        }
    }
}

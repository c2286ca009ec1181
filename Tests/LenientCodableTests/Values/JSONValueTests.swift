// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct JSONValueTests {
    @Test func numbersCompareByValue() {
        #expect(JSONValue.number("1") == .number("1.0"))
        #expect(JSONValue.number("10e-1") == .number("1"))
        #expect(JSONValue.number("-0") == .number("0.0"))
        #expect(JSONValue.number("1.5") != .number("1"))
        #expect(Set<JSONValue>([.number("2"), .number("2.00"), .number("20e-1")]).count == 1)
    }

    @Test func parsingKeepsLiteralNumberTextAndMemberOrder() throws {
        let value = try JSONValue(parsing: #"{"z": 1.10, "a": [true, null, "s"], "m": 12345678901234567890123}"#)
        guard case .object(let object) = value else {
            Issue.record("Expected an object, got \(value)")
            return
        }
        #expect(object.keys == ["z", "a", "m"])
        #expect(object["z"] == .number("1.10"))
        #expect(value["m"] == .number("12345678901234567890123"))
        #expect(value["a"]?[0]?.boolValue == true)
        #expect(value["a"]?[1]?.isNull == true)
        #expect(value["a"]?[2]?.stringValue == "s")
        #expect(value["a"]?[3] == nil)
        #expect(value.description == #"{"z":1.10,"a":[true,null,"s"],"m":12345678901234567890123}"#)
    }

    @Test func duplicateKeysKeepTheFirstValue() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "a": 2}"#)
        #expect(value["a"]?.intValue == 1)
        #expect(value.objectValue?.count == 1)
    }

    @Test func typedAccessors() {
        let value: JSONValue = [
            "n": 3, "x": 2.5, "big": .number("1e30"), "s": "t", "b": false, "l": [1], "o": ["k": nil],
        ]
        #expect(value["n"]?.intValue == 3)
        #expect(value["n"]?.doubleValue == 3)
        #expect(value["x"]?.intValue == nil)
        #expect(value["x"]?.doubleValue == 2.5)
        #expect(value["big"]?.intValue == nil)
        #expect(value["s"]?.stringValue == "t")
        #expect(value["b"]?.boolValue == false)
        #expect(value["l"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue == ["k": .null])
        #expect(value["s"]?.intValue == nil)
        #expect(JSONValue.number("3.0").intValue == 3)
    }

    @Test func subscriptSetsMembers() {
        var value: JSONValue = ["a": 1]
        value["b"] = "two"
        value["a"] = nil
        #expect(value == ["b": "two"])
        var empty = JSONValue.null
        empty["x"] = true
        #expect(empty == ["x": true])
    }

    /// An object built key by key keeps its members in order, finds, replaces and removes them as
    /// a small one does, past the size where it keeps an index of its keys; what is encoded of
    /// it decodes back, in a bag too.
    @Test(arguments: [5, 17, 3_000])
    func anObjectBuiltKeyByKeyBehavesAsASmallOne(count: Int) throws {
        var object = JSONObject()
        var bag = UnknownKeys()
        for position in 0..<count {
            object["k\(position)"] = .number(String(position))
            bag.members["k\(position)"] = .number(String(position))
        }
        #expect(object.keys == (0..<count).map { "k\($0)" })
        #expect(object["k\(count - 1)"] == .number(String(count - 1)))
        #expect(object["missing"] == nil)
        object["k0"] = "replaced"
        #expect(object["k0"] == "replaced" && object.keys.first == "k0")
        object["k1"] = nil
        #expect(object["k1"] == nil && object.count == count - 1)
        #expect(object["k2"] == .number("2") && object.keys.dropFirst().first == "k2")
        object["k1"] = true
        #expect(object.keys.last == "k1" && object["k1"] == true)
        // A copy changed afterwards leaves the original as it was.
        var copy = object
        copy["k2"] = nil
        copy["new"] = 1
        #expect(object["k2"] == .number("2") && object["new"] == nil)
        #expect(copy["k2"] == nil && copy["new"] == 1 && copy["k3"] == .number("3"))
        let decoded = try LenientJSONDecoder(options: .strict).decode(
            JSONValue.self, from: LenientJSONEncoder().encode(JSONValue.object(object)))
        #expect(decoded == .object(object))
        guard case .object(let back) = decoded else {
            Issue.record("expected an object, got \(decoded)")
            return
        }
        #expect(back.keys == object.keys)
        #expect(bag.members.count == count)
        #expect(bag.members["k\(count / 2)"] == .number(String(count / 2)))
    }

    @Test func objectsCompareRegardlessOfOrder() {
        let first: JSONValue = ["a": 1, "b": 2]
        let second: JSONValue = ["b": 2, "a": 1]
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    @Test func initializers() {
        #expect(JSONValue(true) == .bool(true))
        #expect(JSONValue(42) == .number("42"))
        #expect(JSONValue(2.0) == .number("2"))
        #expect(JSONValue(0.1) == .number("0.1"))
        #expect(JSONValue("s") == .string("s"))
        #expect(JSONValue([1, "a"]) == .array([.number("1"), .string("a")]))
        #expect(JSONValue(["k": 1]) == .object(["k": 1]))
    }

    @Test func codableUnderFoundation() throws {
        let value: JSONValue = ["id": 7, "name": "x", "tags": ["a"], "ok": true, "none": nil, "ratio": 0.25]
        let data = try JSONEncoder().encode(value)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded == value)
    }

    /// Under Foundation's decoders a value is read through their containers, each failed attempt an error built with
    /// the whole coding path: values nested as deep as JSON allows, arrays in arrays, objects in objects, the two
    /// taking turns, and empty containers beside scalars and `null`, decode as parsed (each level tried as scalars and an object
    /// before it was found to be an array took half a second for 400 levels; the shape of the sibling before, or of
    /// the grandparent, is tried first now). A property list holds the same.
    @Test(arguments: ["arrays", "objects", "alternating", "mixed"])
    func deepValuesDecodeUnderFoundationsDecoders(_ shape: String) throws {
        let text: String
        switch shape {
        case "arrays": text = String(repeating: "[", count: 500) + "1" + String(repeating: "]", count: 500)
        case "objects": text = String(repeating: #"{"a":"#, count: 500) + "1" + String(repeating: "}", count: 500)
        case "alternating":
            text = String(repeating: #"[{"a":"#, count: 250) + #""x""# + String(repeating: "}]", count: 250)
        default:
            text = #"{"a":[1,2.5,"x",true,{},[],{"b":[{"c":-3}]},[[]],[{}]],"e":"","o":{},"l":[]}"#
        }
        let parsed = try JSONValue(parsing: text)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == parsed)
        let withNull = "[null," + text + "]"
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(withNull.utf8)) == JSONValue(parsing: withNull))
        let array: JSONValue = .array([parsed, .object(JSONObject([(key: "k", value: parsed)]))])
        let plist = try PropertyListEncoder().encode(array)
        #expect(try PropertyListDecoder().decode(JSONValue.self, from: plist) == array)
    }

    /// Under a decoder that hands out every kind of container for any value, saying an unkeyed container's count or
    /// not, a value is what it is: a keyed view of an array with elements is no empty object, an unkeyed view of a
    /// scalar or of an object with members no empty array. (An empty array and an empty object look alike there; the
    /// empty object is what such a decoder gives.)
    @Test(arguments: [false, true])
    func valuesDecodeUnderADecoderThatGivesAnyContainer(countNil: Bool) throws {
        for text in [
            "1", #""s""#, "true", "null", "{}", "[1]", #"{"a":1}"#, "[[1],2]", #"[[1],{"a":[2]}]"#,
            #"{"a":{},"b":[1]}"#,
            #"{"a":[[1],2],"b":"x"}"#, #"[1,"a",true,null,[{}],{"k":[[1]]}]"#,
        ] {
            let parsed = try JSONValue(parsing: text)
            let decoded = try JSONValue(from: PermissiveDecoder(parsed, countNil: countNil))
            #expect(decoded == parsed, "\(text) -> \(decoded)")
        }
        #expect(try JSONValue(from: PermissiveDecoder(.array([]), countNil: countNil)) == .object(JSONObject([])))
    }

    @Test func decodesUnderLenientDecoderWithLiteralText() throws {
        struct Envelope: Decodable {
            var payload: JSONValue
        }
        let envelope = try LenientJSONDecoder().decode(Envelope.self, from: #"{"payload": {"price": 10.50}}"#)
        #expect(envelope.payload == ["price": .number("10.50")])
        guard case .number(let text)? = envelope.payload["price"] else {
            Issue.record("Expected a number")
            return
        }
        #expect(text == "10.50")
    }
}

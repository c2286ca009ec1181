// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `JSONValue` decodes its objects through a keyed container, whose keys the decoder's key strategy
/// converts: Foundation's `JSONDecoder` gives `{"aBC": 1}` for `{"a_b_c": 1}` with
/// `.convertFromSnakeCase`, at every level, and so does `LenientJSONDecoder` in every mode. What
/// hooks, type choices and `UnknownKeys` see stays the JSON as sent.
@Suite struct JSONValueKeyStrategyTests {
    /// A key strategy under test, set alike on both decoders.
    struct Strategy: CustomTestStringConvertible, Sendable {
        let name: String
        let strategy: JSONDecoder.KeyDecodingStrategy
        var testDescription: String { name }

        static let snakeCase = Strategy(name: "snake case", strategy: .convertFromSnakeCase)
        /// Every key becomes the same one: which member wins is Foundation's rule for a clash.
        static let same = Strategy(name: "same", strategy: .custom { _ in AnyKey("same") })
        /// The key as the coding path leading to it spells it, so that the path handed to the
        /// closure is compared too.
        static let pathed = Strategy(
            name: "pathed",
            strategy: .custom { path in
                AnyKey(path.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }.joined(separator: "/"))
            })
        static let all = [snakeCase, same, pathed]
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ stringValue: String) { self.stringValue = stringValue }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Keys that snake case converts in every way it can: inner, doubled, leading and trailing
    /// underscores, capitals, a titlecase letter, empty keys and underscores alone, nested
    /// objects and arrays of objects, and members that convert to the same key.
    static let documents = [
        #"{"a_b_c":1}"#,
        #"{"a_b_c":1,"a__b":2,"_a":3,"a_":4,"snake_Case":5,"ALL_CAPS":6,"my_URL":7,"ǅ_x":8,"":9,"_":10,"__":11}"#,
        #"{"__a_b__":1,"a_1":2,"a_b_":3,"é_b":4,"x-y_z":5}"#,
        #"{"outer_key":{"inner_key":{"deep_key":[1,{"in_array":true}]}}}"#,
        #"[{"first_name":"a"},{"last_name":"b","tags":[{"tag_id":1},{"tag_id":2}]}]"#,
        #"{"a_b":1,"aB":2,"a__b":3}"#,
        #"{"aB":1,"a_b":2}"#,
        #"{"a":1,"b":2}"#,
        #"{"b":{"x_y":1},"a":{"x_y":2}}"#,
        #"{"a_b":1,"a_b":2}"#,
        #"{}"#,
        #"[]"#,
        #""a_b""#,
        #"{"a_b":null,"c_d":"e_f","g_h":1.50}"#,
    ]

    /// A model that holds a `JSONValue` as a property, beside a property the strategy finds.
    struct Holder: Decodable, Equatable {
        var someValue: JSONValue
        var others: [JSONValue]?
    }

    static func foundation(_ strategy: Strategy) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = strategy.strategy
        return decoder
    }

    static func lenient(_ strategy: Strategy, _ options: LenientJSONDecoder.Options) -> LenientJSONDecoder {
        let decoder = LenientJSONDecoder(options: options)
        decoder.keyDecodingStrategy = strategy.strategy
        return decoder
    }

    @Test(arguments: Strategy.all, [LenientJSONDecoder.Options.strict, .lenient])
    func topLevelValueMatchesFoundation(strategy: Strategy, options: LenientJSONDecoder.Options) throws {
        for document in Self.documents {
            let data = Data(document.utf8)
            let expected = try Self.foundation(strategy).decode(JSONValue.self, from: data)
            let (value, report) = try Self.lenient(strategy, options).decodeWithReport(JSONValue.self, from: data)
            #expect(value == expected, "\(document)")
            #expect(report.isEmpty, "\(document)")
        }
    }

    @Test(arguments: Strategy.all, [LenientJSONDecoder.Options.strict, .lenient])
    func propertiesMatchFoundation(strategy: Strategy, options: LenientJSONDecoder.Options) throws {
        // The property's key is spelled as each strategy finds it.
        let key: String
        let othersKey: String
        switch strategy.name {
        case "snake case": (key, othersKey) = ("some_value", "others")
        case "pathed": (key, othersKey) = ("someValue", "others")
        default: return  // One key for every member cannot hold two properties.
        }
        for document in Self.documents {
            let json = "{\"\(key)\":\(document),\"\(othersKey)\":[\(document),\(document)]}"
            let data = Data(json.utf8)
            let expected = try Self.foundation(strategy).decode(Holder.self, from: data)
            let value = try Self.lenient(strategy, options).decode(Holder.self, from: data)
            #expect(value == expected, "\(json)")
        }
    }

    @Test func snakeCaseConvertsAsFoundationDoes() throws {
        let decoder = Self.lenient(.snakeCase, .strict)
        let value = try decoder.decode(JSONValue.self, from: #"{"a_b_c":1,"list":[{"x_y":{"p_q":2}}]}"#)
        #expect(value == ["aBC": 1, "list": [["xY": ["pQ": 2]]]])
        let same = try Self.lenient(.same, .lenient).decode(JSONValue.self, from: #"{"a":1,"b":2}"#)
        #expect(same == ["same": 1])
    }

    @Test func defaultKeysKeepTheJSONAsSent() throws {
        let document = #"{"a_b":{"c_d":[{"e_f":1}]},"aB":2}"#
        let value = try LenientJSONDecoder().decode(JSONValue.self, from: document)
        #expect(value == (try JSONValue(parsing: document)))
        #expect(value == (try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))))
    }

    /// A type whose hook and `didDecode` see the JSON, and which keeps what it does not read.
    struct Hooked: Decodable, DecodingHooks {
        var userName: String
        var payload: JSONValue
        var extras = UnknownKeys()

        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            #expect(json["user_name"] == "u")
            #expect(json["payload"]?["inner_key"] == 1)
            return json
        }

        mutating func didDecode(from json: JSONValue) throws {
            #expect(json["other_key"]?["deep_key"] == 2)
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func hooksAndUnknownKeysStillSeeTheJSONAsSent(options: LenientJSONDecoder.Options) throws {
        let decoder = Self.lenient(.snakeCase, options)
        let document = #"{"user_name":"u","payload":{"inner_key":1},"other_key":{"deep_key":2}}"#
        let value = try decoder.decode(Hooked.self, from: document)
        #expect(value.userName == "u")
        #expect(value.payload == ["innerKey": 1])
        // Kept as sent, so that the encoder writes it back as it came.
        #expect(value.extras["other_key"] == ["deep_key": 2])
        #expect(try JSONValue(parsing: document)["payload"] == ["inner_key": 1])
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func roundTripThroughTheEncoderReadsAsFoundationReadsIt(options: LenientJSONDecoder.Options) throws {
        for document in Self.documents {
            let decoder = Self.lenient(.snakeCase, options)
            let value = try decoder.decode(JSONValue.self, from: Data(document.utf8))
            let encoder = LenientJSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = .sortedKeys
            let encoded = try encoder.encode(value)
            // The encoder converts a JSONValue's keys as JSONEncoder does (the same JSON; numbers
            // keep their text, which JSONEncoder rewrites), and what it wrote decodes as
            // Foundation decodes it. (Neither pair gives every value back: `{"aBC":1}` is written
            // `"a_bc"` and read `"aBc"`.)
            let reference = JSONEncoder()
            reference.keyEncodingStrategy = .convertToSnakeCase
            reference.outputFormatting = .sortedKeys
            #expect(
                try JSONValue(parsing: String(decoding: encoded, as: UTF8.self))
                    == JSONValue(parsing: String(decoding: reference.encode(value), as: UTF8.self)),
                "\(document)")
            let again = try decoder.decode(JSONValue.self, from: encoded)
            #expect(again == (try Self.foundation(.snakeCase).decode(JSONValue.self, from: encoded)), "\(document)")
            // With the default keys on both sides, the JSON comes back as sent.
            let plain = try LenientJSONDecoder(options: options).decode(JSONValue.self, from: Data(document.utf8))
            let plainAgain = try LenientJSONDecoder(options: options).decode(
                JSONValue.self, from: try LenientJSONEncoder().encode(plain))
            #expect(plainAgain == (try JSONValue(parsing: document)), "\(document)")
        }
    }
}

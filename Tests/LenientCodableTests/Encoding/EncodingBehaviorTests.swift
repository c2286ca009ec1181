// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct EncodingBehaviorTests {
    // MARK: Order without sortedKeys

    @Test func keysComeInEncodeOrder() throws {
        let encoder = LenientJSONEncoder()
        let data = try encoder.encode(OrderedModel())
        #expect(
            String(decoding: data, as: UTF8.self) == #"{"zebra":1,"apple":{"mango":true,"kiwi":null},"banana":[2]}"#)
        encoder.outputFormatting = .prettyPrinted
        let pretty = try encoder.encode(OrderedModel())
        let expected = """
            {
              "zebra" : 1,
              "apple" : {
                "mango" : true,
                "kiwi" : null
              },
              "banana" : [
                2
              ]
            }
            """
        #expect(String(decoding: pretty, as: UTF8.self) == expected)
    }

    @Test(arguments: EncoderSetup.all)
    func unsortedOutputIsDeterministicAndDecodesToTheSameValue(setup: EncoderSetup) throws {
        for formatting: JSONEncoder.OutputFormatting in [[], [.prettyPrinted], [.withoutEscapingSlashes]] {
            let value = try RichModel.make(variant: 1)
            let encoder = setup.lenientEncoder(formatting)
            let first = try encoder.encode(value)
            #expect(try encoder.encode(value) == first)
            // Decoding the unsorted output and re-encoding it sorted must give Foundation's
            // sorted encoding of the original value.
            let canonical = setup.foundationEncoder([.sortedKeys])
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy =
                setup.name.contains("snake") || setup.name.contains("everything")
                ? .convertFromSnakeCase : .useDefaultKeys
            if setup.name == "defaults" || setup.name.hasPrefix("date seconds") || setup.name == "data deferredToData" {
                switch setup.date {
                case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
                default: break
                }
                if case .deferredToData = setup.data { decoder.dataDecodingStrategy = .deferredToData }
                let decoded = try decoder.decode(RichModel.self, from: first)
                #expect(decoded == value)
                #expect(try canonical.encode(decoded) == canonical.encode(value))
            } else {
                // Other strategies do not round-trip through a decoder; compare the shapes.
                let ours = try JSONSerialization.jsonObject(with: first) as? NSDictionary
                let theirs =
                    try JSONSerialization.jsonObject(with: setup.foundationEncoder([]).encode(value)) as? NSDictionary
                #expect(ours != nil)
                #expect(ours == theirs)
            }
        }
    }

    @Test func stringKeyedDictionariesDecodeToTheSameDictionary() throws {
        let value = ["b": 2, "a": 1, "c": 3, "é": 4]
        let data = try LenientJSONEncoder().encode(value)
        #expect(try JSONDecoder().decode([String: Int].self, from: data) == value)
    }

    // MARK: JSONValue

    @Test func jsonValueNumbersKeepTheirTextAndObjectsTheirOrder() throws {
        let value: JSONValue = ["z": .number("1.10"), "a": [.number("-0"), .number("1E+400")], "m": nil, "s": "x/y"]
        let encoder = LenientJSONEncoder()
        #expect(
            String(decoding: try encoder.encode(value), as: UTF8.self)
                == #"{"z":1.10,"a":[-0,1E+400],"m":null,"s":"x\/y"}"#)
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(value), as: UTF8.self)
                == #"{"a":[-0,1E+400],"m":null,"s":"x\/y","z":1.10}"#)
    }

    /// A JSONValue encoded as a value has its object keys converted, as JSONEncoder converts the
    /// keys JSONValue encodes itself with; a `[String: Int]` keeps its keys, as in Foundation.
    @Test func jsonValueKeysGoThroughTheKeyStrategyAsUnderJSONEncoder() throws {
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        let value = JSONWrapper(someValue: ["innerKey": 1, "list": [["deepKey": true]]])
        let written = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(written == #"{"some_value":{"inner_key":1,"list":[{"deep_key":true}]}}"#)
        let reference = JSONEncoder()
        reference.keyEncodingStrategy = .convertToSnakeCase
        reference.outputFormatting = .sortedKeys
        #expect(written == String(decoding: try reference.encode(value), as: UTF8.self))
        #expect(String(decoding: try encoder.encode(["innerKey": 1]), as: UTF8.self) == #"{"innerKey":1}"#)
    }

    @Test(arguments: ["", "-", "01", "1.", ".5", "1e", "+1", "NaN", "1 ", "0x10", "1.5e+"])
    func invalidJSONValueNumbersThrowWithTheirPath(text: String) throws {
        let value = JSONWrapper(someValue: ["list": [1, .number(text)]])
        let error = try #require(encodingError { try LenientJSONEncoder().encode(value) })
        #expect(error.path == ["someValue|-", "list|-", "Index 1|1"])
        #expect(error.valueType == "JSONValue")
    }

    @Test(arguments: ["0", "-0", "1.5", "1e5", "-1.25E-3", "123456789012345678901234567890"])
    func validJSONValueNumbersAreWrittenVerbatim(text: String) throws {
        let data = try LenientJSONEncoder().encode(JSONValue.number(text))
        #expect(String(decoding: data, as: UTF8.self) == text)
    }

    @Test func encodeToJSONValueBuildsTheTree() throws {
        let encoder = LenientJSONEncoder()
        let value = try encoder.encodeToJSONValue(OrderedModel())
        let object = try #require(value.objectValue)
        #expect(object["zebra"] == .number("1"))
        #expect(value["apple"]?["kiwi"] == .null)
        #expect(value["banana"] == [2])
        guard case .object(let members) = value else {
            Issue.record("Expected an object, got \(value).")
            return
        }
        #expect(members.keys == ["zebra", "apple", "banana"])
        encoder.outputFormatting = .sortedKeys
        guard case .object(let sorted) = try encoder.encodeToJSONValue(OrderedModel()) else {
            Issue.record("Expected an object.")
            return
        }
        #expect(sorted.keys == ["apple", "banana", "zebra"])
        #expect(try encoder.encodeToJSONValue(0.5) == .number("0.5"))
        #expect(try encoder.encodeToJSONValue(Decimal(string: "1.10")) == .number("1.10"))
    }

    @Test func encodeToJSONObjectMatchesJSONSerialization() throws {
        let value = SerializationModel()
        let object = try LenientJSONEncoder().encodeToJSONObject(value)
        let reference = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary["flag"] is NSNumber)
        #expect(dictionary["nothing"] is NSNull)
        #expect(dictionary["list"] is [Any])
        #expect(dictionary["text"] as? String == "t")
        #expect(NSDictionary(dictionary: dictionary) == reference as? NSDictionary)
        let options: JSONSerialization.WritingOptions = [.sortedKeys]
        #expect(
            try JSONSerialization.data(withJSONObject: object, options: options)
                == JSONSerialization.data(withJSONObject: reference, options: options))
        #expect(try LenientJSONEncoder().encodeToJSONObject("s") as? String == "s")
    }

    // MARK: Configuration

    @Test func configurationOverloadsMatchFoundation() throws {
        let value = ConfiguredModel(name: "n")
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let reference = JSONEncoder()
        reference.outputFormatting = .sortedKeys
        #expect(try encoder.encode(value, configuration: "pre-") == reference.encode(value, configuration: "pre-"))
        #expect(
            try encoder.encode(value, configuration: PrefixProvider.self)
                == reference.encode(value, configuration: PrefixProvider.self))
        #expect(String(decoding: try encoder.encode(value, configuration: "x"), as: UTF8.self) == #"{"name":"xn"}"#)
    }

    @Test func userInfoReachesEncodeTo() throws {
        let encoder = LenientJSONEncoder()
        let key = try #require(CodingUserInfoKey(rawValue: "prefix"))
        encoder.userInfo = [key: "u-"]
        #expect(String(decoding: try encoder.encode(UserInfoModel()), as: UTF8.self) == #""u-value""#)
    }

    @Test func settingsRoundTripThroughTheProperties() {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        #expect(encoder.outputFormatting == [.prettyPrinted, .withoutEscapingSlashes])
        encoder.keyEncodingStrategy = .convertToSnakeCase
        guard case .convertToSnakeCase = encoder.keyEncodingStrategy else {
            Issue.record("keyEncodingStrategy did not keep its value.")
            return
        }
        encoder.dataEncodingStrategy = .deferredToData
        guard case .deferredToData = encoder.dataEncodingStrategy else {
            Issue.record("dataEncodingStrategy did not keep its value.")
            return
        }
    }

    // MARK: Errors

    @Test(arguments: ErrorCase.all)
    func errorsMatchFoundation(errorCase: ErrorCase) throws {
        let expected = try #require(
            encodingError { try errorCase.setup.foundationEncoder([.sortedKeys]).encode(errorCase.value) })
        let actual = try #require(
            encodingError { try errorCase.setup.lenientEncoder([.sortedKeys]).encode(errorCase.value) })
        #expect(actual == expected)
        let asValue = try #require(
            encodingError { try errorCase.setup.lenientEncoder([]).encodeToJSONValue(errorCase.value) })
        #expect(asValue == expected)
    }

    struct Price: Codable, Equatable {
        var amount: Decimal
        var history: [Decimal]
    }

    /// `Decimal.nan` has no JSON spelling: `JSONEncoder` writes `NaN`, which no JSON parser reads
    /// back. The lenient encoder refuses it as it refuses `Double.nan`, with the path, in every
    /// form of output, and under a non-conforming float strategy too.
    @Test func decimalNaNIsRefused() throws {
        let value = Price(amount: 1, history: [2, .nan])
        let encoder = LenientJSONEncoder()
        for encode in [
            { _ = try encoder.encode(value) }, { _ = try encoder.encodeToJSONValue(value) },
            { _ = try encoder.encodeToJSONObject(value) },
        ] as [() throws -> Void] {
            let error = #expect(throws: EncodingError.self) { try encode() }
            guard case .invalidValue(_, let context)? = error else {
                Issue.record("Expected invalidValue, got \(String(describing: error))")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == ["history", "Index 1"])
            #expect(context.debugDescription == "Unable to encode Decimal.nan directly in JSON.")
        }
        #expect(throws: EncodingError.self) { try encoder.encode(Decimal.nan) }

        // No decoder reads a string back as a `Decimal` NaN: a float strategy does not write it either.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        #expect(throws: EncodingError.self) { try encoder.encode(value) }
        encoder.outputFormatting = .sortedKeys
        let finite = Price(amount: Decimal(string: "12345678901234567890.5")!, history: [-1, 0])
        #expect(try LenientJSONDecoder().decode(Price.self, from: encoder.encode(finite)) == finite)
    }
}

struct ErrorCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var value: any Encodable & Sendable
    var setup = EncoderSetup(name: "defaults")

    static let all: [ErrorCase] = [
        ErrorCase(testDescription: "top-level NaN", value: Double.nan),
        ErrorCase(testDescription: "Float infinity in a dictionary", value: ["a": Float.infinity]),
        ErrorCase(testDescription: "negative infinity in an array", value: [-Double.infinity]),
        ErrorCase(testDescription: "NaN in a struct's array", value: NonFiniteModel()),
        ErrorCase(testDescription: "NaN under a numeric string key", value: ["1": [Double.nan]]),
        ErrorCase(
            testDescription: "NaN under a dictionary key with snake case", value: ["outer": ["myKey": Double.nan]],
            setup: EncoderSetup(name: "snake", key: .convertToSnakeCase)),
        ErrorCase(testDescription: "NaN in a nested container", value: NestedContainerNaN()),
        ErrorCase(testDescription: "NaN date as deferred", value: ["d": Date(timeIntervalSince1970: .nan)]),
        ErrorCase(
            testDescription: "NaN date in milliseconds ignores convertToString",
            value: [Date(timeIntervalSince1970: .nan)],
            setup: EncoderSetup(
                name: "ms", date: .millisecondsSince1970,
                float: .convertToString(positiveInfinity: "a", negativeInfinity: "b", nan: "c"))),
        ErrorCase(testDescription: "top-level value encoding nothing", value: SilentModel()),
        ErrorCase(testDescription: "512 nested arrays", value: NestedArrays(depth: 512)),
        ErrorCase(testDescription: "600 nested arrays", value: NestedArrays(depth: 600)),
    ]
}

struct OrderedModel: Encodable {
    var zebra = 1
    var apple = Fruit()
    var banana = [2]
    struct Fruit: Encodable {
        var mango = true
        var kiwi: Int?
        enum CodingKeys: CodingKey {
            case mango
            case kiwi
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mango, forKey: .mango)
            try container.encode(kiwi, forKey: .kiwi)
        }
    }
}

struct JSONWrapper: Encodable {
    var someValue: JSONValue
}

struct SerializationModel: Encodable {
    var flag = true
    var nothing: Int?
    var list = [1, 2]
    var text = "t"
    var half = 0.5
    var big = UInt64.max
    var nested = ["k": -3]
    enum CodingKeys: CodingKey {
        case flag, nothing, list, text, half, big, nested
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flag, forKey: .flag)
        try container.encode(nothing, forKey: .nothing)
        try container.encode(list, forKey: .list)
        try container.encode(text, forKey: .text)
        try container.encode(half, forKey: .half)
        try container.encode(big, forKey: .big)
        try container.encode(nested, forKey: .nested)
    }
}

struct ConfiguredModel: EncodableWithConfiguration {
    var name: String
    enum CodingKeys: CodingKey {
        case name
    }
    func encode(to encoder: any Encoder, configuration: String) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(configuration + name, forKey: .name)
    }
}

enum PrefixProvider: EncodingConfigurationProviding {
    static var encodingConfiguration: String { "provided-" }
}

struct UserInfoModel: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        let prefix = CodingUserInfoKey(rawValue: "prefix").flatMap { encoder.userInfo[$0] as? String } ?? ""
        try container.encode(prefix + "value")
    }
}

struct SilentModel: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

struct NestedContainerNaN: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FixtureKey.self)
        var list = container.nestedUnkeyedContainer(forKey: FixtureKey("x"))
        var inner = list.nestedContainer(keyedBy: FixtureKey.self)
        try inner.encode(Double.nan, forKey: FixtureKey("y"))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Corners where Foundation's `JSONDecoder` and `JSONEncoder` do something a reimplementation easily gets wrong, each
/// compared live with Foundation: `LenientJSONDecoder(options: .strict)` and `LenientJSONEncoder` must do the same.
@Suite struct FoundationParityTests {
    class Base: Codable {
        var name = "base"
        init() {}
    }

    final class Child: Base {}

    /// Decodes a `Base` at `item` through a metatype whose runtime type is `Child`, as generic code does.
    struct Holder: Decodable {
        static let itemType: Base.Type = Child.self
        var item: Base
        enum CodingKeys: CodingKey { case item }
        init(from decoder: any Decoder) throws {
            item = try decoder.container(keyedBy: CodingKeys.self).decode(Self.itemType, forKey: .item)
        }
    }

    enum DuplicateKeyStrategy: String, CaseIterable, Sendable { case defaultKeys, snakeCase, custom }

    /// A `[String: T]` with a repeated key: Foundation keeps the first member, and under a key
    /// strategy that converts keys also reads the repeated ones, failing on one it cannot read.
    @Test(arguments: DuplicateKeyStrategy.allCases, [#"{"a":1,"a":2}"#, #"{"a":1,"a":"x"}"#, #"{"a":"x","a":1}"#])
    func repeatedKeysOfAStringKeyedDictionaryAsFoundationReadsThem(strategy: DuplicateKeyStrategy, json: String)
        throws
    {
        let foundation = JSONDecoder()
        let strict = LenientJSONDecoder(options: .strict)
        let lenient = LenientJSONDecoder()
        for decoder in [strict, lenient] {
            switch strategy {
            case .defaultKeys: break
            case .snakeCase: decoder.keyDecodingStrategy = .convertFromSnakeCase
            case .custom: decoder.keyDecodingStrategy = .custom { $0.last! }
            }
        }
        foundation.keyDecodingStrategy = strict.keyDecodingStrategy
        let expected = Result { try foundation.decode([String: Int].self, from: Data(json.utf8)) }
        let ours = Result { try strict.decode([String: Int].self, from: json) }
        switch (expected, ours) {
        case (.success(let value), .success(let strictValue)):
            #expect(strictValue == value)
        case (.failure(let error), .failure(let strictError)):
            guard case DecodingError.typeMismatch(_, let context) = error,
                case DecodingError.typeMismatch(_, let strictContext) = strictError
            else {
                Issue.record("Expected type mismatches, got \(error) and \(strictError)")
                return
            }
            #expect(strictContext.codingPath.map(\.stringValue) == context.codingPath.map(\.stringValue))
        default:
            Issue.record("Foundation gave \(expected), strict \(ours)")
        }
        // The lenient decoder gives Foundation's value where there is one, and the first
        // member's otherwise (a repeated key is no value of its own).
        let first = try lenient.decode([String: Int].self, from: json)
        if case .success(let value) = expected {
            #expect(first == value)
        } else if json.hasPrefix(#"{"a":1"#) {
            #expect(first == ["a": 1])
        }
    }

    @Test func topLevelDecodesTheRuntimeTypePassedIn() throws {
        let type: Base.Type = Child.self
        let foundation = try JSONDecoder().decode(type, from: Data(#"{"name":"x"}"#.utf8))
        let lenient = try LenientJSONDecoder(options: .strict).decode(type, from: #"{"name":"x"}"#)
        #expect(Swift.type(of: foundation) == Child.self)
        #expect(Swift.type(of: lenient) == Swift.type(of: foundation))
        #expect(lenient.name == "x")
        let empty = try LenientJSONDecoder().decode(type, from: "{}")
        #expect(Swift.type(of: empty) == Child.self)
    }

    @Test func insideAContainerTheTypeIsWhatFoundationDecodes() throws {
        let json = #"{"item":{"name":"x"}}"#
        let foundation = try JSONDecoder().decode(Holder.self, from: Data(json.utf8))
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let lenient = try LenientJSONDecoder(options: options).decode(Holder.self, from: json)
            #expect(Swift.type(of: lenient.item) == Swift.type(of: foundation.item))
            #expect(lenient.item.name == "x")
        }
    }

    /// Keeps its decoder and reads it later.
    struct Keeper: Decodable {
        var decoder: any Decoder
        init(from decoder: any Decoder) throws { self.decoder = decoder }
        enum CodingKeys: CodingKey { case a, b }
        func read() throws -> [String] {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            return [String(try container.decode(Int.self, forKey: .a)), try container.decode(String.self, forKey: .b)]
        }
    }

    @Test func topLevelDecoderKeptAfterDecodeReadsItsValues() throws {
        let json = #"{"a":1,"b":"two"}"#
        let foundation = try JSONDecoder().decode(Keeper.self, from: Data(json.utf8)).read()
        let lenient = try LenientJSONDecoder(options: .strict).decode(Keeper.self, from: json).read()
        #expect(lenient == foundation)
        #expect(lenient == ["1", "two"])
    }

    @Test func customDateAndDataStrategiesThatEncodeNothingWriteAnEmptyObject() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1)
        let values: [any Encodable] = [date, ["at": date], [date], Data([1]), ["bytes": Data([1])]]
        for value in values {
            let foundation = JSONEncoder()
            foundation.outputFormatting = .sortedKeys
            foundation.dateEncodingStrategy = .custom { _, _ in }
            foundation.dataEncodingStrategy = .custom { _, _ in }
            let lenient = LenientJSONEncoder()
            lenient.outputFormatting = .sortedKeys
            lenient.dateEncodingStrategy = .custom { _, _ in }
            lenient.dataEncodingStrategy = .custom { _, _ in }
            let expected = try foundation.encode(value)
            let actual = try lenient.encode(value)
            #expect(String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test func int128AndUInt128DecodeAndEncodeExactly() throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let json = #"[18446744073709551616,-170141183460469231731687303715884105728]"#
        let signed = try LenientJSONDecoder(options: .strict).decode([Int128].self, from: json)
        #expect(signed == (try JSONDecoder().decode([Int128].self, from: Data(json.utf8))))
        #expect(signed == [Int128(UInt64.max) + 1, .min])
        let unsigned = try LenientJSONDecoder(options: .strict).decode(
            UInt128.self, from: "340282366920938463463374607431768211455")
        #expect(unsigned == .max)
        let encoder = LenientJSONEncoder()
        #expect(try encoder.encode(signed) == (try JSONEncoder().encode(signed)))
        #expect(String(decoding: try encoder.encode(signed), as: UTF8.self) == json)
        #expect(try encoder.encode(unsigned) == (try JSONEncoder().encode(unsigned)))
    }

    /// Nineteen digits below `Int64.min` fit an unsigned 64-bit magnitude but no `Int64`: they
    /// are `Int128` values, read exactly in every mode, and they round-trip.
    @Test(arguments: [
        "-9223372036854775808", "-9223372036854775809", "-9999999999999999999", "-10000000000000000000",
        "-18446744073709551615", "-18446744073709551616", "9223372036854775808",
    ])
    func int128JustPastInt64DecodesExactly(_ text: String) throws {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
        let expected = try #require(Int128(text))
        let foundations = try JSONDecoder().decode([Int128].self, from: Data("[\(text)]".utf8))
        #expect(foundations == [expected])
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let (values, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                [Int128].self, from: "[\(text)]")
            #expect(values == [expected])
            #expect(report.issues.isEmpty)
            #expect(
                try LenientJSONDecoder(options: options).decode(
                    [Int128].self, from: LenientJSONEncoder().encode(values)) == values)
        }
        // Int64 still refuses what it cannot hold, as Foundation does.
        if Int64(text) == nil {
            #expect(throws: DecodingError.self) {
                try LenientJSONDecoder(options: .strict).decode(Int64.self, from: text)
            }
        }
    }

    struct TopLevelCase: Sendable, CustomTestStringConvertible {
        var text: String
        var json5: Bool
        var testDescription: String { "\(text.debugDescription)\(json5 ? " (JSON5)" : "")" }
    }

    @Test(arguments: [
        TopLevelCase(text: #""x" : 42"#, json5: false), TopLevelCase(text: #""x" : 42"#, json5: true),
        TopLevelCase(text: "", json5: false), TopLevelCase(text: " ", json5: false),
        TopLevelCase(text: "", json5: true), TopLevelCase(text: " ", json5: true),
    ])
    func assumesTopLevelDictionaryReadsMembersWithoutBraces(_ testCase: TopLevelCase) throws {
        let foundation = JSONDecoder()
        foundation.assumesTopLevelDictionary = true
        foundation.allowsJSON5 = testCase.json5
        let expected = try foundation.decode([String: Int].self, from: Data(testCase.text.utf8))
        let lenient = LenientJSONDecoder(options: .strict)
        lenient.assumesTopLevelDictionary = true
        lenient.allowsJSON5 = testCase.json5
        #expect(try lenient.decode([String: Int].self, from: testCase.text) == expected)
    }

    @Test func assumesTopLevelDictionaryRefusesANonObject() throws {
        let foundation = JSONDecoder()
        foundation.assumesTopLevelDictionary = true
        #expect(throws: DecodingError.self) { try foundation.decode(String.self, from: Data("abc".utf8)) }
        let lenient = LenientJSONDecoder(options: .strict)
        lenient.assumesTopLevelDictionary = true
        #expect(throws: DecodingError.self) { try lenient.decode(String.self, from: "abc") }
    }

    @Test(arguments: [#""hi\0there""#, #""\x00""#, #""\u0000""#])
    func json5StringsWithANulCharacterThrow(text: String) throws {
        let foundation = JSONDecoder()
        foundation.allowsJSON5 = true
        #expect(throws: DecodingError.self) { try foundation.decode(String.self, from: Data(text.utf8)) }
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let lenient = LenientJSONDecoder(options: options)
            lenient.allowsJSON5 = true
            #expect(throws: DecodingError.self) { try lenient.decode(String.self, from: text) }
        }
    }

    /// Encodes one member under a key made at run time.
    struct DynamicKeyed: Encodable {
        var key: String
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key(stringValue: key))
        }
    }

    @Test(arguments: ["aG\u{333}r", "myURLValue", "éA\u{301}b", "a👍🏽B"])
    func convertToSnakeCaseStepsByCharacters(key: String) throws {
        let foundation = JSONEncoder()
        foundation.keyEncodingStrategy = .convertToSnakeCase
        let lenient = LenientJSONEncoder()
        lenient.keyEncodingStrategy = .convertToSnakeCase
        let expected = try foundation.encode(DynamicKeyed(key: key))
        #expect(try lenient.encode(DynamicKeyed(key: key)) == expected)
        if key == "aG\u{333}r" {
            #expect(String(decoding: expected, as: UTF8.self) == "{\"a_g\u{333}r\":1}")
        }
    }

    static func utf32LittleEndian(_ text: String) -> [UInt8] {
        text.unicodeScalars.flatMap { scalar in withUnsafeBytes(of: scalar.value.littleEndian, Array.init) }
    }

    @Test func utf32LittleEndianByteOrderMarksAreSkipped() throws {
        let body = Self.utf32LittleEndian(#"{"a":[1,2]}"#)
        // Foundation reads FE FF 00 00 as the UTF-32LE mark (its own tests require it).
        let foundationsMark = Data([0xFE, 0xFF, 0x00, 0x00] + body)
        let expected = try JSONDecoder().decode([String: [Int]].self, from: foundationsMark)
        #expect(
            try LenientJSONDecoder(options: .strict).decode([String: [Int]].self, from: foundationsMark) == expected)
        // The correct mark, which Foundation mis-detects.
        let correctMark = Data([0xFF, 0xFE, 0x00, 0x00] + body)
        #expect(try LenientJSONDecoder(options: .strict).decode([String: [Int]].self, from: correctMark) == expected)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Invalid and mismatched inputs: `LenientJSONDecoder(.strict)` throws the `DecodingError` case, coding path and
/// missing key that Foundation's `JSONDecoder` throws, computed live, except for the two deliberate improvements
/// (DESIGN.md): syntax errors keep their position, and input outside RFC 8259 that Foundation lets through is rejected.
@Suite struct DecodingErrorDifferentialTests {
    @Test(arguments: syntaxCases + typeMismatchCases + missingValueCases + numberCases)
    func strictFailsLikeFoundation(_ testCase: DifferentialCase) {
        testCase.check()
    }

    @Test(arguments: strategyCases + containerCases)
    func strictFailsLikeFoundationWithStrategiesAndContainers(_ testCase: DifferentialCase) {
        testCase.check()
    }

    @Test func tableIsLargeEnough() {
        let all =
            Self.syntaxCases + Self.typeMismatchCases + Self.missingValueCases + Self.numberCases
            + Self.strategyCases + Self.containerCases
        #expect(all.count >= 40)
        #expect(Set(all.map(\.name)).count == all.count, "Case names are unique.")
    }

    /// Reads `null` past the end of an array.
    struct NilPastTheEnd: Decodable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            _ = try container.decodeNil()
        }
    }

    @Test func decodeNilPastTheEndNamesFoundationsType() throws {
        let data = Data("[]".utf8)
        for decoder in [LenientJSONDecoder(options: .strict), LenientJSONDecoder()] {
            let outcome = DifferentialOutcome(NilPastTheEnd.self, from: data)
            guard
                case .valueNotFound(let expectedType, let expectedContext) = outcome.foundation.error as? DecodingError,
                case .valueNotFound(let actualType, let actualContext) = try #require(
                    throws: DecodingError.self, performing: { try decoder.decode(NilPastTheEnd.self, from: data) })
            else {
                Issue.record("Both throw valueNotFound: \(String(describing: outcome.foundation.error))")
                return
            }
            #expect("\(actualType)" == "\(expectedType)")
            #expect(actualContext.codingPath.map(\.stringValue) == expectedContext.codingPath.map(\.stringValue))
        }
    }

    @Test func keyNotFoundNamesTheSameKey() throws {
        let data = Data(#"{"user":{"id":1}}"#.utf8)
        let outcome = DifferentialOutcome(Account.self, from: data)
        guard case .keyNotFound(let expectedKey, let expectedContext) = outcome.foundation.error as? DecodingError
        else {
            Issue.record("Foundation throws keyNotFound: \(String(describing: outcome.foundation.error))")
            return
        }
        guard case .keyNotFound(let actualKey, let actualContext) = outcome.lenient.error as? DecodingError else {
            Issue.record("Ours throws keyNotFound: \(String(describing: outcome.lenient.error))")
            return
        }
        #expect(actualKey.stringValue == expectedKey.stringValue)
        #expect(actualKey.intValue == expectedKey.intValue)
        #expect(
            actualContext.codingPath.map(CodingKeySummary.init) == expectedContext.codingPath.map(CodingKeySummary.init)
        )
        #expect(
            actualContext.debugDescription.contains("name"),
            "The message names the key: \(actualContext.debugDescription)")
    }
}

// MARK: - Cases

extension DecodingErrorDifferentialTests {
    static let syntaxCases: [DifferentialCase] = [
        DifferentialCase(
            "bad value on line 2", Pair.self, "{\"a\": 1,\n \"b\": x}",
            .syntaxError(.unexpectedCharacter, line: 2, columns: 7...7)),
        DifferentialCase(
            "double comma", [Int].self, "[1, 2,, 3]", .syntaxError(.unexpectedCharacter, line: 1, columns: 7...7)),
        DifferentialCase(
            "missing colon", [String: Int].self, #"{"a" 1}"#,
            .syntaxError(.unexpectedCharacter, line: 1, columns: 6...6)),
        DifferentialCase(
            "missing comma on line 3", [Int].self, "[1,\n2,\n3 4]",
            .syntaxError(.unexpectedCharacter, line: 3, columns: 3...3)),
        DifferentialCase(
            "content after the value", [String: Int].self, #"{"a":1}}"#,
            .syntaxError(.trailingContent, line: 1, columns: 8...8)),
        DifferentialCase("empty input", Int.self, "", .syntaxError(.emptyInput, line: 1, columns: 1...1)),
        DifferentialCase(
            "unterminated array", [Int].self, "[1, 2", .syntaxError(.unexpectedEndOfInput, line: 1, columns: 5...6)),
        DifferentialCase(
            "too deep", DecodedTree.self, String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
            .syntaxError(.tooDeeplyNested, line: 1, columns: 513...513)),
        DifferentialCase(
            "trailing comma in array", [Int].self, "[1,2,]",
            .strictParsingRejects(.unexpectedCharacter, line: 1, columns: 5...6)),
        DifferentialCase(
            "trailing comma in object", [String: Int].self, #"{"a":1,}"#,
            .strictParsingRejects(.unexpectedCharacter, line: 1, columns: 7...8)),
        DifferentialCase(
            "lone minus in an unread field", Pair.self, #"{"a":1,"b":2,"c":-}"#,
            .strictParsingRejects(.invalidNumber, line: 1, columns: 18...19)),
        DifferentialCase(
            "leading zero in an unread field", Pair.self, #"{"a":1,"b":2,"c":012}"#,
            .strictParsingRejects(.invalidNumber, line: 1, columns: 18...19)),
        DifferentialCase(
            "bad escape in an unread field", Pair.self, #"{"a":1,"b":2,"c":"\x"}"#,
            .strictParsingRejects(.invalidEscape, line: 1, columns: 19...20)),
    ]

    static let typeMismatchCases: [DifferentialCase] = [
        DifferentialCase("string for Int", Identified.self, #"{"id":"1"}"#, .sameError),
        DifferentialCase("number for String", Named.self, #"{"name":1}"#, .sameError),
        DifferentialCase("string in [Int]", [Int].self, #"[1,"a",3]"#, .sameError),
        DifferentialCase(
            "deep mismatch", Outer.self, #"{"middle":{"inners":[{"value":1},{"value":true}]}}"#, .sameError),
        DifferentialCase("Bool for Int at top", Int.self, "true", .sameError),
        DifferentialCase("number for Bool at top", Bool.self, "1", .sameError),
        DifferentialCase("string for Int?", OptionalIdentified.self, #"{"id":"x"}"#, .sameError),
        DifferentialCase("string in [Int?]", [Int?].self, #"[1,null,"x"]"#, .sameError),
        DifferentialCase("array for dictionary", Lists.self, #"{"map":[1],"list":[]}"#, .sameError),
        DifferentialCase("object for array", Lists.self, #"{"map":{},"list":{}}"#, .sameError),
        DifferentialCase("array for struct at top", Identified.self, "[1]", .sameError),
        DifferentialCase("object for array at top", [Int].self, "{}", .sameError),
        DifferentialCase("string for array at top", [Int].self, #""x""#, .sameError),
        DifferentialCase("object for single value in a field", Wrapper.self, #"{"wrapped":{}}"#, .sameError),
        DifferentialCase("non-integer key for [Int: Int]", [Int: Int].self, #"{"1":1,"a":2}"#, .sameError),
        DifferentialCase("object for [Bool: Int]", [Bool: Int].self, #"{"true":1}"#, .sameError),
        DifferentialCase("odd pairs for [Bool: Int]", [Bool: Int].self, "[true]", .sameError),
    ]

    static let missingValueCases: [DifferentialCase] = [
        DifferentialCase("missing key at top", Identified.self, "{}", .sameError),
        DifferentialCase("missing nested key", Account.self, #"{"user":{"id":1}}"#, .sameError),
        DifferentialCase("missing key in an element", [Identified].self, #"[{"id":1},{"ID":2}]"#, .sameError),
        DifferentialCase("null for Int", Identified.self, #"{"id":null}"#, .sameError),
        DifferentialCase("null at top", Int.self, "null", .sameError),
        DifferentialCase("null in [Int]", [Int].self, "[1,null]", .sameError),
        DifferentialCase("null for array", Lists.self, #"{"map":{},"list":null}"#, .sameError),
        DifferentialCase("null for struct", Account.self, #"{"user":null}"#, .sameError),
        DifferentialCase(
            "null for String in a deep array", [[Named]].self, #"[[],[{"name":"a"},{"name":null}]]"#, .sameError),
    ]

    static let numberCases: [DifferentialCase] = [
        DifferentialCase("128 as Int8", Small.self, #"{"int8":128,"uint8":0}"#, .sameError),
        DifferentialCase("-1 as UInt8", Small.self, #"{"int8":0,"uint8":-1}"#, .sameError),
        DifferentialCase("256 in [UInt8]", [UInt8].self, "[255,256]", .sameError),
        DifferentialCase("-32769 as Int16", Int16.self, "-32769", .sameError),
        DifferentialCase("65536 as UInt16", [UInt16].self, "[65536]", .sameError),
        DifferentialCase("2^31 as Int32", Int32.self, "2147483648", .sameError),
        DifferentialCase("-1 as UInt32", UInt32.self, "-1", .sameError),
        DifferentialCase("2^63 as Int", Int.self, "9223372036854775808", .sameError),
        DifferentialCase("2^64 as UInt64", UInt64.self, "18446744073709551616", .sameError),
        DifferentialCase("-1 as UInt", [UInt].self, "[0,-1]", .sameError),
        DifferentialCase("1.5 as Int", Int.self, "1.5", .sameError),
        DifferentialCase("1e400 as Double", Measure.self, #"{"value":1e400}"#, .sameError),
        DifferentialCase("1e-400 as Double", Double.self, "1e-400", .sameError),
        DifferentialCase("3.5e38 as Float", [Float].self, "[1,3.5e38]", .sameError),
        DifferentialCase("1e-50 as Float", Float.self, "1e-50", .sameError),
        DifferentialCase("1e20 as Int64", Int64.self, "1e20", .sameError),
        DifferentialCase("UInt64.max written with an exponent", UInt64.self, "1.8446744073709551615e19", .sameError),
    ]

    static let strategyCases: [DifferentialCase] = [
        DifferentialCase(
            "snake case: wrong type", SnakeModel.self, #"{"user_name":1,"sign_up_count":1}"#, .sameError,
            configuration: .snakeCase),
        DifferentialCase(
            "snake case: camel-cased key is not found", SnakeModel.self, #"{"username":"a","sign_up_count":1}"#,
            .sameError, configuration: .snakeCase),
        DifferentialCase(
            "snake case: null in a nested model", SnakeOuter.self, #"{"outer_value":{"inner_value":null}}"#, .sameError,
            configuration: .snakeCase),
        DifferentialCase(
            "ISO 8601 date that is not one", Dated.self, #"{"date":"yesterday"}"#, .sameError, configuration: .iso8601),
        DifferentialCase("ISO 8601 date as a number", Dated.self, #"{"date":0}"#, .sameError, configuration: .iso8601),
        DifferentialCase(
            "seconds since 1970 as a string", Dated.self, #"{"date":"0"}"#, .sameError, configuration: .secondsSince1970
        ),
        DifferentialCase(
            "milliseconds since 1970 as a Bool", [Date].self, "[0,true]", .sameError,
            configuration: .millisecondsSince1970),
        DifferentialCase("deferred date as a string", Dated.self, #"{"date":"2020-01-01"}"#, .sameError),
        DifferentialCase(
            "custom date strategy that throws", Dated.self, #"{"date":"x"}"#, .sameError, configuration: .customDate),
        DifferentialCase("base64 that is not", Blob.self, #"{"data":"%%%"}"#, .sameError),
        DifferentialCase("base64 as a number", Blob.self, #"{"data":1}"#, .sameError),
        DifferentialCase(
            "deferred data as a string", Blob.self, #"{"data":"AQID"}"#, .sameError, configuration: .deferredData),
        DifferentialCase(
            "deferred data byte out of range", Blob.self, #"{"data":[1,256]}"#, .sameError, configuration: .deferredData
        ),
        DifferentialCase("non-conforming float rejected", Measure.self, #"{"value":"NaN"}"#, .sameError),
        DifferentialCase(
            "non-conforming float unknown spelling", Measure.self, #"{"value":"Infinity"}"#, .sameError,
            configuration: .nonConformingStrings),
        DifferentialCase(
            "non-conforming float spelling for Int", Identified.self, #"{"id":"NaN"}"#, .sameError,
            configuration: .nonConformingStrings),
    ]

    static let containerCases: [DifferentialCase] = [
        DifferentialCase("nested keyed container on a number", NestedKeyedProbe.self, #"{"a":1}"#, .sameError),
        DifferentialCase("nested keyed container on a missing key", NestedKeyedProbe.self, #"{"b":{}}"#, .sameError),
        DifferentialCase("nested unkeyed container on an object", NestedUnkeyedProbe.self, #"{"a":{}}"#, .sameError),
        DifferentialCase("nested unkeyed container on null", NestedUnkeyedProbe.self, #"{"a":null}"#, .sameError),
        DifferentialCase("unkeyed container at end", UnkeyedPair.self, "[1]", .sameError),
        DifferentialCase("empty unkeyed container", UnkeyedPair.self, "[]", .sameError),
        DifferentialCase("keyed container inside unkeyed on a number", UnkeyedNestedProbe.self, "[[1]]", .sameError),
        DifferentialCase("unkeyed nested container at end", UnkeyedNestedProbe.self, "[]", .sameError),
        DifferentialCase("superDecoder on a wrong type", SuperProbe.self, #"{"super":"x"}"#, .sameError),
        DifferentialCase("decodeIfPresent past the end moves the index", OptionalsPastTheEnd.self, "[]", .sameError),
        DifferentialCase("decodeIfPresent of null then past the end", OptionalsPastTheEnd.self, "[null]", .sameError),
        DifferentialCase("decodeIfPresent of a value then past the end", OptionalsPastTheEnd.self, "[1]", .sameError),
    ]
}

// MARK: - Models

extension DifferentialCase {
    fileprivate init<Value: Decodable & Equatable & SendableMetatype>(
        _ name: String, _ type: Value.Type, _ json: String, _ expectation: Expectation,
        configuration: DecoderConfiguration.Preset
    ) {
        self.init(name, type, json, expectation, configuration: configuration.configuration)
    }
}

extension DecoderConfiguration {
    fileprivate enum Preset {
        case snakeCase, iso8601, secondsSince1970, millisecondsSince1970, customDate, deferredData, nonConformingStrings

        var configuration: DecoderConfiguration {
            var configuration = DecoderConfiguration()
            switch self {
            case .snakeCase:
                configuration.keyDecodingStrategy = .convertFromSnakeCase
            case .iso8601:
                configuration.dateDecodingStrategy = .iso8601
            case .secondsSince1970:
                configuration.dateDecodingStrategy = .secondsSince1970
            case .millisecondsSince1970:
                configuration.dateDecodingStrategy = .millisecondsSince1970
            case .customDate:
                configuration.dateDecodingStrategy = .custom { decoder in
                    Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
                }
            case .deferredData:
                configuration.dataDecodingStrategy = .deferredToData
            case .nonConformingStrings:
                configuration.nonConformingFloatDecodingStrategy = .convertFromString(
                    positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
            }
            return configuration
        }
    }
}

extension DecodingErrorDifferentialTests {
    struct Pair: Decodable, Equatable {
        var a: Int
        var b: Int
    }

    struct Identified: Decodable, Equatable {
        var id: Int
    }

    struct OptionalIdentified: Decodable, Equatable {
        var id: Int?
    }

    struct Named: Decodable, Equatable {
        var name: String
    }

    struct Account: Decodable, Equatable {
        struct User: Decodable, Equatable {
            var id: Int
            var name: String
        }
        var user: User
    }

    struct Outer: Decodable, Equatable {
        struct Middle: Decodable, Equatable {
            var inners: [Inner]
        }
        struct Inner: Decodable, Equatable {
            var value: Int
        }
        var middle: Middle
    }

    struct Lists: Decodable, Equatable {
        var map: [String: Int]
        var list: [Int]
    }

    struct Wrapper: Decodable, Equatable {
        struct Wrapped: Decodable, Equatable {
            var value: Int
            init(from decoder: any Decoder) throws {
                value = try decoder.singleValueContainer().decode(Int.self)
            }
        }
        var wrapped: Wrapped
    }

    struct Small: Decodable, Equatable {
        var int8: Int8
        var uint8: UInt8
    }

    struct Measure: Decodable, Equatable {
        var value: Double
    }

    struct SnakeModel: Decodable, Equatable {
        var userName: String
        var signUpCount: Int
    }

    struct SnakeOuter: Decodable, Equatable {
        struct Inner: Decodable, Equatable {
            var innerValue: Int
        }
        var outerValue: Inner
    }

    struct Dated: Decodable, Equatable {
        var date: Date
    }

    struct Blob: Decodable, Equatable {
        var data: Data
    }

    struct NestedKeyedProbe: Decodable, Equatable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            let nested = try container.nestedContainer(keyedBy: TestCodingKey.self, forKey: TestCodingKey("a"))
            _ = try nested.decode(Int.self, forKey: TestCodingKey("b"))
        }
    }

    struct NestedUnkeyedProbe: Decodable, Equatable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            var nested = try container.nestedUnkeyedContainer(forKey: TestCodingKey("a"))
            _ = try nested.decode(Int.self)
        }
    }

    struct UnkeyedPair: Decodable, Equatable {
        var first: Int
        var second: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Int.self)
            second = try container.decode(Int.self)
        }
    }

    /// Asks for optional elements past the end, then for one more: Foundation's index moves on
    /// with each `decodeIfPresent`, and the error names it.
    struct OptionalsPastTheEnd: Decodable, Equatable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            _ = try container.decodeIfPresent(Int.self)
            _ = try container.decodeIfPresent(String.self)
            _ = try container.decodeIfPresent([Int].self)
            _ = try container.decode(Int.self)
        }
    }

    struct UnkeyedNestedProbe: Decodable, Equatable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var inner = try container.nestedUnkeyedContainer()
            _ = try inner.nestedContainer(keyedBy: TestCodingKey.self)
        }
    }

    struct SuperProbe: Decodable, Equatable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            _ = try Int(from: container.superDecoder())
        }
    }
}

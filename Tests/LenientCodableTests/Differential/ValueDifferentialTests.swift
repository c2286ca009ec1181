// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Values that `LenientJSONDecoder(.strict)` must decode exactly as Foundation's `JSONDecoder` does, computed live:
/// integer bounds of every width, numbers written as floats, `Float`, `Decimal`, optionals, duplicate keys, the depth
/// limit, and each decoding strategy.
@Suite struct ValueDifferentialTests {
    @Test(arguments: numberCases + modelCases + strategyCases)
    func strictDecodesLikeFoundation(_ testCase: DifferentialCase) {
        testCase.check()
    }

    /// 512 levels decode in both; 513 is in the error table.
    @Test func deepestNestingDecodesLikeFoundation() {
        let json = String(repeating: "[", count: 512) + "1" + String(repeating: "]", count: 512)
        let outcome = DifferentialOutcome(DecodedTree.self, from: Data(json.utf8))
        #expect(outcome.foundation.value != nil)
        expectSameTree(outcome, "512 nested arrays")
    }
}

extension ValueDifferentialTests {
    static let numberCases: [DifferentialCase] = [
        DifferentialCase("integer bounds", Widths.self, Widths.bounds(minimum: true), .sameValue),
        DifferentialCase("integer bounds, maximum", Widths.self, Widths.bounds(minimum: false), .sameValue),
        DifferentialCase("integers written as floats", [Int].self, "[1e2,1.0,-0,1E+2,100e-2,0.0e5,-1.0e1]", .sameValue),
        DifferentialCase("unsigned written as floats", [UInt64].self, "[1e19,0.5e1,1.8e19]", .sameValue),
        DifferentialCase("Int8 from a float", [Int8].self, "[-1.28e2,1.27e2]", .sameValue),
        DifferentialCase(
            "doubles at the edges", [Double].self,
            "[-0.0,5e-324,1.7976931348623157e308,2.2250738585072014e-308,0.1,1e-7,123456789012345678901234567890]",
            .sameValue),
        DifferentialCase(
            "doubles that round", [Double].self,
            "[0.30000000000000004,9007199254740993,2.00000000000000011102230246251565404236316680908203125]", .sameValue
        ),
        DifferentialCase(
            "floats", [Float].self, "[3.4028234e38,1.17549435e-38,1e-45,0.1,16777217,-0.0,1.0000001]", .sameValue),
        DifferentialCase(
            "decimals", [Decimal].self,
            "[0.1,1.10,123456789012345678901234567890,-1e-10,3.14159265358979323846264338327950288,0,-0]", .sameValue),
        DifferentialCase(
            "big integers as Double", [Double].self, "[18446744073709551616,-9223372036854775809]", .sameValue),
        DifferentialCase("underflowing exponents as Int", [Int].self, "[1e-400,123e-10000000,-1e-400]", .sameValue),
    ]

    static let modelCases: [DifferentialCase] = [
        DifferentialCase(
            "optionals present, null and missing", Optionals.self,
            #"{"present":1,"null":null,"nested":{"value":"x"},"list":[1,null]}"#, .sameValue),
        DifferentialCase("duplicate keys: first wins", [String: Int].self, #"{"a":1,"b":2,"a":3}"#, .sameValue),
        DifferentialCase("duplicate keys in a model", Named.self, #"{"name":"first","name":"second"}"#, .sameValue),
        DifferentialCase(
            "escapes and unicode", [String].self, #"["\u00e9\ud83d\ude00","\"\\\/\b\f\n\r\t","é😀","\u0000"]"#,
            .sameValue),
        DifferentialCase(
            "integer dictionary keys", [Int: [String: Bool]].self, #"{"1":{"a":true},"-2":{},"30":{"b":false}}"#,
            .sameValue),
        DifferentialCase("key-value pairs for [Bool: Int]", [Bool: Int].self, "[true,1,false,0]", .sameValue),
        DifferentialCase("URL", [URL].self, #"["https://example.com/a?b=c","relative/path"]"#, .sameValue),
        DifferentialCase("unknown keys ignored", Named.self, #"{"extra":[1,{"x":null}],"name":"n"}"#, .sameValue),
        DifferentialCase(
            "white space everywhere", [String: [Int]].self, " \n\t{ \"a\" :\r\n [ 1 , 2 ] } \n", .sameValue),
        DifferentialCase("one followed by NUL", Int.self, "1\u{0}", .sameValue),
        // Keys are found as Foundation finds them, by `String` equality: a decomposed spelling, raw
        // or escaped, is the coding key's precomposed one.
        DifferentialCase("decomposed key", Accented.self, "{\"cafe\u{301}\":1,\"other\":2}", .sameValue),
        DifferentialCase("escaped decomposed key", Accented.self, #"{"caf\u0065\u0301":1}"#, .sameValue),
        DifferentialCase("precomposed key first", Accented.self, "{\"café\":1,\"cafe\u{301}\":2}", .sameValue),
        // The first of two spellings of one key wins, though the second has the coding key's bytes.
        DifferentialCase("decomposed key first", Accented.self, "{\"cafe\u{301}\":1,\"café\":2}", .sameValue),
        DifferentialCase(
            "escaped decomposed key first", Accented.self, #"{"caf\u0065\u0301":1,"other":3,"caf\u00e9":2}"#,
            .sameValue),
    ]

    static let strategyCases: [DifferentialCase] = [
        DifferentialCase(
            "snake case keys", SnakeModel.self,
            #"{"user_name":"a","sign_up_count":2,"_leading":1,"trailing_":2,"url_id":3}"#, .sameValue,
            configuration: .snakeCase),
        DifferentialCase(
            "snake case: exact camel key also present", SnakeModel.self,
            #"{"userName":"x","user_name":"a","sign_up_count":2,"_leading":1,"trailing_":2,"url_id":3}"#, .sameValue,
            configuration: .snakeCase),
        DifferentialCase(
            "custom key strategy", Named.self, #"{"NAME":"n"}"#, .sameValue, configuration: .lowercasedKeys),
        DifferentialCase(
            "ISO 8601 dates", [Date].self, #"["2020-01-02T03:04:05Z","1970-01-01T00:00:00+01:00"]"#, .sameValue,
            configuration: .iso8601),
        DifferentialCase(
            "seconds since 1970", [Date].self, "[0,1.5,-1e9,1700000000]", .sameValue, configuration: .secondsSince1970),
        DifferentialCase(
            "milliseconds since 1970", [Date].self, "[0,1500,1700000000123]", .sameValue,
            configuration: .millisecondsSince1970),
        DifferentialCase("deferred dates", [Date].self, "[0,1.5,-1e9]", .sameValue),
        DifferentialCase("custom dates", [Date].self, "[1,2.5]", .sameValue, configuration: .customDate),
        DifferentialCase("base64 data", [Data].self, #"["","AQID","AAECAwQFBgc=","/+8="]"#, .sameValue),
        DifferentialCase("deferred data", [Data].self, "[[],[1,2,255]]", .sameValue, configuration: .deferredData),
        DifferentialCase("custom data", [Data].self, #"["abc"]"#, .sameValue, configuration: .customData),
        DifferentialCase(
            "non-conforming floats as strings", NonConforming.self,
            #"{"double":["+Inf","-Inf",1.5],"float":["+Inf","-Inf"],"nan":"NaN"}"#, .sameValue,
            configuration: .nonConformingStrings),
    ]
}

// MARK: - Models

extension DifferentialCase {
    fileprivate init<Value: Decodable & Equatable & SendableMetatype>(
        _ name: String, _ type: Value.Type, _ json: String, _ expectation: Expectation, configuration: ValuePreset
    ) {
        self.init(name, type, json, expectation, configuration: configuration.configuration)
    }
}

private enum ValuePreset {
    case snakeCase, lowercasedKeys, iso8601, secondsSince1970, millisecondsSince1970, customDate, deferredData,
        customData
    case nonConformingStrings

    var configuration: DecoderConfiguration {
        var configuration = DecoderConfiguration()
        switch self {
        case .snakeCase:
            configuration.keyDecodingStrategy = .convertFromSnakeCase
        case .lowercasedKeys:
            configuration.keyDecodingStrategy = .custom { path in
                TestCodingKey(path.last?.stringValue.lowercased() ?? "")
            }
        case .iso8601:
            configuration.dateDecodingStrategy = .iso8601
        case .secondsSince1970:
            configuration.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970:
            configuration.dateDecodingStrategy = .millisecondsSince1970
        case .customDate:
            configuration.dateDecodingStrategy = .custom { decoder in
                Date(timeIntervalSinceReferenceDate: try decoder.singleValueContainer().decode(Double.self) * 86_400)
            }
        case .deferredData:
            configuration.dataDecodingStrategy = .deferredToData
        case .customData:
            configuration.dataDecodingStrategy = .custom { decoder in
                Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed())
            }
        case .nonConformingStrings:
            configuration.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")
        }
        return configuration
    }
}

extension ValueDifferentialTests {
    struct Widths: Decodable, Equatable {
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64

        static func bounds(minimum: Bool) -> String {
            func bound<T: FixedWidthInteger>(_ type: T.Type) -> String { minimum ? "\(T.min)" : "\(T.max)" }
            return """
                {"int":\(bound(Int.self)),"int8":\(bound(Int8.self)),"int16":\(bound(Int16.self)),\
                "int32":\(bound(Int32.self)),"int64":\(bound(Int64.self)),"uint":\(bound(UInt.self)),\
                "uint8":\(bound(UInt8.self)),"uint16":\(bound(UInt16.self)),"uint32":\(bound(UInt32.self)),\
                "uint64":\(bound(UInt64.self))}
                """
        }
    }

    struct Optionals: Decodable, Equatable {
        struct Nested: Decodable, Equatable {
            var value: String
        }
        var present: Int?
        var null: Int?
        var missing: Int?
        var nested: Nested?
        var list: [Int?]?
    }

    struct Accented: Codable, Equatable {
        var accented: Int
        var other: Int?
        enum CodingKeys: String, CodingKey {
            case accented = "café"
            case other
        }
    }

    struct Named: Decodable, Equatable {
        var name: String
    }

    struct SnakeModel: Decodable, Equatable {
        var userName: String
        var signUpCount: Int
        var leading: Int?
        var _leading: Int?
        var trailing_: Int?
        var trailing: Int?
        var urlId: Int?
    }

    /// Compared through bit patterns, since `NaN != NaN`.
    struct NonConforming: Decodable, Equatable {
        var double: [Double]
        var float: [Float]
        var nan: Double

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.double.map(\.bitPattern) == rhs.double.map(\.bitPattern)
                && lhs.float.map(\.bitPattern) == rhs.float.map(\.bitPattern)
                && lhs.nan.bitPattern == rhs.nan.bitPattern
        }
    }
}

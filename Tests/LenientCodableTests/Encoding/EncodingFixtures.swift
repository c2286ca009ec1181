// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

// Models and helpers shared by the encoder's tests.

struct Inner: Codable, Equatable, Sendable {
    var name: String
    var score: Double
    var tags: [String]
    var parentID: Int?
}

/// A model that touches every kind of value Foundation's encoder treats specially.
struct RichModel: Codable, Equatable, Sendable {
    var id: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var float: Float
    var double: Double
    var isActive: Bool
    var text: String
    var escapedText: String
    var optionalPresent: String?
    var optionalAbsent: Int?
    var createdAt: Date
    var payload: Data
    var homepage: URL
    var price: Decimal
    var inner: Inner
    var innerList: [Inner]
    var scores: [String: Int]
    var labelsByCode: [Int: String]
    var doubles: [Double]
    var floats: [Float]
    var matrix: [[Int]]
    var emptyList: [String]
    var emptyObject: [String: Int]
    var myURLValue: String
    var _leadingUnderscore: Int
    var a1b: Int

    static func make(variant: Int) throws -> RichModel {
        let small = variant == 0
        return RichModel(
            id: small ? 0 : 42,
            int8: small ? .min : .max,
            int16: small ? .min : .max,
            int32: small ? .min : .max,
            int64: small ? .min : .max,
            uint: small ? 0 : .max,
            uint8: small ? 0 : .max,
            uint16: small ? 0 : .max,
            uint32: small ? 0 : .max,
            uint64: small ? 0 : .max,
            float: small ? 0.1 : .greatestFiniteMagnitude,
            double: small ? -0.0 : .greatestFiniteMagnitude,
            isActive: small,
            text: small ? "" : "héllo wörld 🎉",
            escapedText:
                "quote \" backslash \\ slash / controls \u{0}\u{1}\u{8}\u{C}\u{1F}\t\n\r del \u{7F} sep \u{2028}",
            optionalPresent: small ? "x" : "http://a/b",
            optionalAbsent: small ? nil : 7,
            createdAt: Date(timeIntervalSince1970: small ? 0 : 1_234_567_890.123_456),
            payload: small ? Data() : Data([0, 1, 2, 250, 251, 252, 253, 254, 255]),
            homepage: try #require(URL(string: small ? "https://example.com/a?b=c&d=e" : "file:///tmp/x%20y")),
            price: try #require(Decimal(string: small ? "0" : "-12345678901234567890.125")),
            inner: Inner(name: "a/b", score: 1e-7, tags: [], parentID: nil),
            innerList: [
                Inner(name: "first", score: 1e21, tags: ["x", "y"], parentID: 1),
                Inner(name: "second", score: .leastNonzeroMagnitude, tags: ["é"], parentID: nil),
            ],
            scores: small ? [:] : ["b": 2, "a": 1, "B": 3, "a10": 4, "a9": 5, "é": 6, "_": 7, "1": 8, "myKey": 9],
            labelsByCode: small ? [:] : [10: "ten", 2: "two", -1: "minus one"],
            doubles: [1.0, 0.5, 1e16, 123_456_789_012_345_683_968, 2.2250738585072014e-308, -1e-300, 100],
            floats: [1e-7, 1e21, 16_777_216, .leastNonzeroMagnitude, 3.4e38],
            matrix: [[], [1], [2, 3]],
            emptyList: [],
            emptyObject: [:],
            myURLValue: "u",
            _leadingUnderscore: 1,
            a1b: 2
        )
    }
}

/// A model with non-finite floats, for the `.convertToString` strategy.
struct NonFiniteModel: Codable, Sendable {
    var nan: Double = .nan
    var positive: Double = .infinity
    var negative: Float = -.infinity
    var list: [Double] = [1, .nan, -.infinity]
}

/// One set of encoder settings, applied the same way to both encoders.
struct EncoderSetup: Sendable, CustomTestStringConvertible {
    var name: String
    var date: JSONEncoder.DateEncodingStrategy = .deferredToDate
    var data: JSONEncoder.DataEncodingStrategy = .base64
    var float: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var key: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys

    var testDescription: String { name }

    func foundationEncoder(_ formatting: JSONEncoder.OutputFormatting) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = date
        encoder.dataEncodingStrategy = data
        encoder.nonConformingFloatEncodingStrategy = float
        encoder.keyEncodingStrategy = key
        return encoder
    }

    func lenientEncoder(_ formatting: JSONEncoder.OutputFormatting) -> LenientJSONEncoder {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = date
        encoder.dataEncodingStrategy = data
        encoder.nonConformingFloatEncodingStrategy = float
        encoder.keyEncodingStrategy = key
        return encoder
    }

    static func utcFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
        return formatter
    }

    static let all: [EncoderSetup] = [
        EncoderSetup(name: "defaults"),
        EncoderSetup(name: "date secondsSince1970", date: .secondsSince1970),
        EncoderSetup(name: "date millisecondsSince1970", date: .millisecondsSince1970),
        EncoderSetup(name: "date iso8601", date: .iso8601),
        EncoderSetup(name: "date formatted", date: .formatted(utcFormatter())),
        EncoderSetup(
            name: "date custom",
            date: .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode("t=\(date.timeIntervalSince1970)")
            }),
        EncoderSetup(name: "date custom writing nothing", date: .custom { _, _ in }),
        EncoderSetup(name: "data deferredToData", data: .deferredToData),
        EncoderSetup(
            name: "data custom",
            data: .custom { data, encoder in
                var container = encoder.unkeyedContainer()
                try container.encode(data.count)
            }),
        EncoderSetup(name: "data custom writing nothing", data: .custom { _, _ in }),
        EncoderSetup(
            name: "float convertToString",
            float: .convertToString(positiveInfinity: "+∞", negativeInfinity: "-∞", nan: "n/a")),
        EncoderSetup(name: "key convertToSnakeCase", key: .convertToSnakeCase),
        EncoderSetup(
            name: "key custom",
            key: .custom { path in
                FixtureKey("\(path.count)-\(path.last?.stringValue.uppercased() ?? "")")
            }),
        EncoderSetup(
            name: "everything at once", date: .iso8601, data: .deferredToData,
            float: .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"),
            key: .convertToSnakeCase),
    ]
}

/// Every combination of output formatting that includes `.sortedKeys`.
let sortedFormattings: [JSONEncoder.OutputFormatting] = [
    [.sortedKeys],
    [.sortedKeys, .prettyPrinted],
    [.sortedKeys, .withoutEscapingSlashes],
    [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes],
]

struct FixtureKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Encodes with both encoders and expects the same bytes, compared as text for a readable diff.
func expectSameBytes<T: Encodable>(
    _ value: T, formatting: JSONEncoder.OutputFormatting, setup: EncoderSetup = EncoderSetup(name: "defaults"),
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let expected = try setup.foundationEncoder(formatting).encode(value)
    let actual = try setup.lenientEncoder(formatting).encode(value)
    #expect(
        String(decoding: actual, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
        "\(setup.name), \(formatting.rawValue)", sourceLocation: sourceLocation)
}

/// What an `EncodingError` says, in a form two errors can be compared by.
struct ErrorSummary: Equatable, CustomStringConvertible {
    var path: [String]
    var debugDescription: String
    var valueType: String

    init?(_ error: any Error) {
        guard case EncodingError.invalidValue(let value, let context) = error else { return nil }
        path = context.codingPath.map { "\($0.stringValue)|\($0.intValue.map(String.init) ?? "-")" }
        debugDescription = context.debugDescription
        valueType = "\(type(of: value))"
    }

    var description: String { "\(valueType) at \(path): \(debugDescription)" }
}

/// The error an encode throws, summarized; `nil` when it does not throw an `EncodingError`.
func encodingError(_ body: () throws -> some Any) -> ErrorSummary? {
    do {
        _ = try body()
        return nil
    } catch {
        return ErrorSummary(error)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `[String: Int]`, `[String: String]`, `[String: Double]` and `[String: Bool]` are built by code
/// compiled for their value type; every other dictionary by the generic code. Both must give the
/// same values, the same report and the same errors: each document below is decoded both as the
/// scalar dictionary and as a dictionary of a wrapper that decodes the same scalar through its
/// own single-value container, which takes the generic path.
@Suite struct ScalarDictionaryTests {
    /// The scalar, decoded through a type the decoder knows nothing about.
    struct Wrapped<Value: Decodable & Equatable & Sendable>: Decodable, Equatable, Sendable {
        var value: Value

        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Value.self)
        }
    }

    static let documents = [
        #"{"a":1,"b":"2","c":"x","a":3,"d":null,"e":true,"f":2.5,"g":[1]}"#,
        #"{"yes":true,"no":"false","one":1,"zero":"0","bad":"maybe","nul":null}"#,
        #"{"s":"text","n":42,"f":1.5,"b":false,"o":{"x":1},"esc\u0061ped":"v"}"#,
        #"{"pi":3.14159,"big":1e300,"str":"2.5","neg":-0.0,"x":"nan?"}"#,
        #"{}"#,
    ]

    /// Decodes `json` as `[String: Value]` and as `[String: Wrapped<Value>]` with `decoder`, and
    /// compares values, reports and errors.
    static func compare<Value: Codable & Equatable & Sendable>(
        _ type: Value.Type, _ json: String, strict: Bool
    ) throws {
        let data = Data(json.utf8)
        let decoder = LenientJSONDecoder(options: strict ? .strict : .lenient)
        let scalar = Result { try decoder.decodeWithReport([String: Value].self, from: data) }
        let generic = Result { try decoder.decodeWithReport([String: Wrapped<Value>].self, from: data) }
        switch (scalar, generic) {
        case (.success(let scalar), .success(let generic)):
            #expect(scalar.0 == generic.0.mapValues(\.value), "\(json) as [String: \(Value.self)]")
            #expect(scalar.1.issues.map(\.path) == generic.1.issues.map(\.path))
            #expect(scalar.1.issues.map(\.kind) == generic.1.issues.map(\.kind))
            // What the encoder writes decodes back to the same value, with nothing forgiven.
            let encoded = try LenientJSONEncoder().encode(scalar.0)
            let (again, report) = try decoder.decodeWithReport([String: Value].self, from: encoded)
            #expect(again == scalar.0)
            #expect(report.issues.isEmpty)
        case (.failure(let scalar as DecodingError), .failure(let generic as DecodingError)):
            #expect(scalar.context.codingPath.map(\.stringValue) == generic.context.codingPath.map(\.stringValue))
        default:
            Issue.record("\(json) as [String: \(Value.self)]: \(scalar) against \(generic)")
        }
    }

    @Test(arguments: documents, [true, false])
    func scalarDictionariesDecodeAsTheGenericPathDoes(json: String, strict: Bool) throws {
        try Self.compare(Int.self, json, strict: strict)
        try Self.compare(String.self, json, strict: strict)
        try Self.compare(Double.self, json, strict: strict)
        try Self.compare(Bool.self, json, strict: strict)
    }

    @Test func theFirstOfDuplicateKeysWinsAndForgivenValuesAreReported() throws {
        let json = Data(#"{"a":1,"b":"2","c":"x","a":3}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport([String: Int].self, from: json)
        #expect(value == ["a": 1, "b": 2])
        #expect(report.issues.map(\.path) == ["b", "c"])
        #expect(report.issues.map(\.kind) == [.coerced, .droppedElement])
        #expect(try JSONDecoder().decode([String: Int].self, from: Data(#"{"a":1,"b":2}"#.utf8)) == ["a": 1, "b": 2])
    }

    /// A first member that is dropped still wins over a repeated one: the key is left out once,
    /// and the report says so once, as for a property, `[Int: T]` and `LossyDictionary`.
    @Test(arguments: [#"{"c":"x","c":1}"#, #"{"c":"x","c":[]}"#, #"{"c":null,"c":1}"#, #"{"c":[],"c":"1"}"#])
    func aDroppedFirstMemberIsNotReplacedByARepeatedOne(json: String) throws {
        struct Holder: Codable, Equatable { var a: [String: Int] }
        let decoder = LenientJSONDecoder()
        let (value, report) = try decoder.decodeWithReport([String: Int].self, from: Data(json.utf8))
        #expect(value.isEmpty)
        #expect(report.issues.map(\.kind) == [.droppedElement])
        #expect(report.issues.map(\.path) == ["c"])
        let (holder, holderReport) = try decoder.decodeWithReport(Holder.self, from: Data(#"{"a":\#(json)}"#.utf8))
        #expect(holder == Holder(a: [:]))
        #expect(holderReport.issues.map(\.path) == ["a.c"])
        // Round trip: what the encoder writes decodes back with nothing forgiven.
        let (again, againReport) = try decoder.decodeWithReport(
            Holder.self, from: try LenientJSONEncoder().encode(holder))
        #expect(again == holder)
        #expect(againReport.isEmpty)
    }
}

extension DecodingError {
    /// The context of any case.
    fileprivate var context: Context {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            return Context(codingPath: [], debugDescription: "")
        }
    }
}

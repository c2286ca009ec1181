// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// An optional scalar property of every width: a lenient decoder turns a null-like or unusable
/// value into `nil` and reports it, never into the type's `0`; a strict one throws Foundation's
/// error; and what the encoder writes for `nil` and for values decodes back the same.
@Suite struct OptionalScalarTests {
    struct Widths: Codable, Equatable {
        var int: Int?
        var int8: Int8?
        var int16: Int16?
        var int32: Int32?
        var int64: Int64?
        var uint: UInt?
        var uint8: UInt8?
        var uint16: UInt16?
        var uint32: UInt32?
        var uint64: UInt64?
        var float: Float?
        var double: Double?

        static let keys = [
            "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "float", "double",
        ]
    }

    @Test(arguments: [#""null""#, #""""#, #""x""#, "[1]", "{}"])
    func unusableValuesBecomeNilAndAreReported(value: String) throws {
        let json = "{" + Widths.keys.map { "\"\($0)\":\(value)" }.joined(separator: ",") + "}"
        let (widths, report) = try LenientJSONDecoder().decodeWithReport(Widths.self, from: Data(json.utf8))
        #expect(widths == Widths(), "\(value)")
        #expect(report.issues.map(\.path) == Widths.keys, "\(report)")
        #expect(report.issues.allSatisfy { $0.kind == .defaulted }, "\(report)")
        #expect(report.issues.allSatisfy { $0.message.hasSuffix("used nil.") }, "\(report)")
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Widths.self, from: Data(json.utf8))
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Widths.self, from: Data(json.utf8)) }
    }

    @Test func outOfRangeNumbersBecomeNil() throws {
        let json = #"{"int8":300,"uint8":-1,"uint":-5,"int16":70000,"float":1e400,"double":1e400}"#
        let (widths, report) = try LenientJSONDecoder().decodeWithReport(Widths.self, from: Data(json.utf8))
        #expect(widths == Widths())
        #expect(report.issues.map(\.path) == ["int8", "int16", "uint", "uint8", "float", "double"], "\(report)")
    }

    @Test(arguments: [
        Widths(),
        Widths(
            int: .min, int8: -8, int16: 16, int32: .max, int64: -64, uint: .max, uint8: 255, uint16: 16, uint32: 32,
            uint64: .max, float: 1.5, double: -0.25),
    ])
    func roundTrip(widths: Widths) throws {
        let data = try LenientJSONEncoder().encode(widths)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(Widths.self, from: data)
        #expect(lenient == widths)
        #expect(report.issues.isEmpty)
        #expect(try LenientJSONDecoder(options: .strict).decode(Widths.self, from: data) == widths)
        #expect(try JSONDecoder().decode(Widths.self, from: data) == widths)
    }
}

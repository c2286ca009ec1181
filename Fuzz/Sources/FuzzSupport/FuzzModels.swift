// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// Models for the fuzz targets. Keys are one or two letters so that the fuzzer finds them by mutation; the seed corpus
// holds documents that fill every property (Fuzz/Corpus/model-*.json).

/// An enum with a raw string value and a fallback case.
enum Tone: String, Codable, Hashable, Sendable, CaseFallback {
    case red, green, blue, unknown

    static var fallbackCase: Tone { .unknown }
}

/// An enum with a raw integer value.
enum Level: Int, Codable, Hashable, Sendable {
    case low = 1
    case mid = 2
    case high = 3
}

/// Every standard scalar type Codable knows, as non-optional and optional properties.
struct Scalars: Codable, Hashable, Sendable {
    var b: Bool
    var s: String
    var i: Int
    var i8: Int8
    var i16: Int16
    var i32: Int32
    var i64: Int64
    var u: UInt
    var u8: UInt8
    var u16: UInt16
    var u32: UInt32
    var u64: UInt64
    var f: Float
    var d: Double
    var dc: Decimal
    var dt: Date
    var da: Data
    var ur: URL
    var id: UUID
    var t: Tone
    var l: Level
    var ob: Bool?
    var os: String?
    var oi: Int?
    var od: Double?
    var ot: Tone?

    /// Equal when every property is equal, NaN included: a lenient decode turns `"NaN"` into a NaN, and two decodes of
    /// one document must compare equal.
    static func == (left: Scalars, right: Scalars) -> Bool {
        func same<Number: FloatingPoint>(_ left: Number?, _ right: Number?) -> Bool {
            left == right || (left?.isNaN == true && right?.isNaN == true)
        }
        return left.b == right.b && left.s == right.s && left.i == right.i && left.i8 == right.i8
            && left.i16 == right.i16 && left.i32 == right.i32 && left.i64 == right.i64 && left.u == right.u
            && left.u8 == right.u8 && left.u16 == right.u16 && left.u32 == right.u32 && left.u64 == right.u64
            && same(left.f, right.f) && same(left.d, right.d) && same(left.od, right.od)
            && (left.dc == right.dc || (left.dc.isNaN && right.dc.isNaN)) && left.dt == right.dt && left.da == right.da
            && left.ur == right.ur && left.id == right.id && left.t == right.t && left.l == right.l
            && left.ob == right.ob
            && left.os == right.os && left.oi == right.oi && left.ot == right.ot
    }
}

/// Collections, nesting and recursion.
struct Containers: Codable, Hashable, Sendable {
    var a: [Int]
    var sa: [String]?
    var m: [String: Int]
    var im: [Int: String]?
    var st: Set<String>?
    var n: [[Bool?]]?
    var c: [Scalars]?
    var r: [Containers]?
    var o: Scalars?
}

/// A type whose keys come from `KeyMapping`: a renamed key, a nested key, a fallback list and an ignored property.
struct Mapped: Codable, Hashable, Sendable, KeyMapping {
    var name: String
    var detail: String?
    var ident: Int
    var skipped: Int?
    var userName: String?

    static var keyMapping: [String: KeySource] {
        ["name": "n", "detail": "e.d", "ident": ["id", "ID", "k_id"], "skipped": .ignored]
    }

    static var keyStrategy: KeyStrategy? { .snakeCase }
}

/// A type with decoding hooks: `willDecode` rewrites a bare number into an object, `didDecode` rejects a negative
/// count.
struct Hooked: Codable, Hashable, Sendable, DecodingHooks {
    struct Negative: Error {}

    var count: Int
    var label: String?

    static func willDecode(_ json: JSONValue) throws -> JSONValue {
        if case .number = json { return ["count": json] }
        return json
    }

    mutating func didDecode(from json: JSONValue) throws {
        if count < 0 { throw Negative() }
    }
}

/// The broad model: every standard type, optionals, nesting, collections, a key-mapped type and a hooked type.
struct Broad: Codable, Hashable, Sendable {
    var sc: Scalars?
    var co: Containers?
    var mp: Mapped?
    var hk: Hooked?
    var hs: [Hooked]?
    var mps: [String: Mapped]?
    var v: JSONValue?
}

/// The model for the differential target: standard types only, which Foundation decodes the same way.
struct Standard: Codable, Hashable, Sendable {
    var sc: Scalars?
    var co: Containers?
    var ss: [Scalars]?
}

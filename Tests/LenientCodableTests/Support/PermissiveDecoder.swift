// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

/// A decoder over a `JSONValue` that hands out every kind of container for any value, as some
/// decoders do: a keyed view of an array has no keys, an unkeyed view of an object no elements.
/// With `countNil`, its unkeyed containers do not say their count.
struct PermissiveDecoder: Decoder {
    let value: JSONValue
    var countNil = false
    var codingPath: [CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    init(_ v: JSONValue, countNil: Bool = false, path: [CodingKey] = []) {
        value = v
        self.countNil = countNil
        codingPath = path
    }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KC<Key>(d: self))
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { UC(d: self) }
    func singleValueContainer() throws -> SingleValueDecodingContainer { SC(d: self) }
    struct KC<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let d: PermissiveDecoder
        var codingPath: [CodingKey] { d.codingPath }
        var allKeys: [Key] {
            if case .object(let o) = d.value { return o.keys.compactMap { Key(stringValue: $0) } }
            return []
        }
        func contains(_ key: Key) -> Bool { d.value[key.stringValue] != nil }
        func sub(_ key: Key) throws -> PermissiveDecoder {
            guard let v = d.value[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: ""))
            }
            return PermissiveDecoder(v, countNil: d.countNil, path: codingPath + [key])
        }
        func decodeNil(forKey key: Key) throws -> Bool { try sub(key).value.isNull }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try T(from: sub(key)) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try Float(from: sub(key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Int(from: sub(key)) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Int8(from: sub(key)) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Int16(from: sub(key)) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Int32(from: sub(key)) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try UInt(from: sub(key)) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try UInt8(from: sub(key)) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try UInt16(from: sub(key)) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try UInt32(from: sub(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Bool(from: sub(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try String(from: sub(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Double(from: sub(key)) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Int64(from: sub(key)) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try UInt64(from: sub(key)) }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        { try sub(key).container(keyedBy: type) }
        func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
            try sub(key).unkeyedContainer()
        }
        func superDecoder() throws -> Decoder { d }
        func superDecoder(forKey key: Key) throws -> Decoder { try sub(key) }
    }
    struct UC: UnkeyedDecodingContainer {
        let d: PermissiveDecoder
        var codingPath: [CodingKey] { d.codingPath }
        var elements: [JSONValue] {
            if case .array(let a) = d.value { return a }
            return []
        }
        var count: Int? { d.countNil ? nil : elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }
        var currentIndex = 0
        init(d: PermissiveDecoder) { self.d = d }
        mutating func next() throws -> PermissiveDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Any.self, .init(codingPath: codingPath, debugDescription: "end"))
            }
            defer { currentIndex += 1 }
            return PermissiveDecoder(
                elements[currentIndex], countNil: d.countNil, path: codingPath + [AK(currentIndex)])
        }
        mutating func decodeNil() throws -> Bool {
            if !isAtEnd, elements[currentIndex].isNull {
                currentIndex += 1
                return true
            }
            return false
        }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next()) }
        mutating func decode(_ type: Float.Type) throws -> Float { try Float(from: next()) }
        mutating func decode(_ type: Int.Type) throws -> Int { try Int(from: next()) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try Int8(from: next()) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try Int16(from: next()) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try Int32(from: next()) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try UInt(from: next()) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try UInt8(from: next()) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try UInt16(from: next()) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try UInt32(from: next()) }
        mutating func decode(_ type: Bool.Type) throws -> Bool { try Bool(from: next()) }
        mutating func decode(_ type: String.Type) throws -> String { try String(from: next()) }
        mutating func decode(_ type: Double.Type) throws -> Double { try Double(from: next()) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try Int64(from: next()) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try UInt64(from: next()) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        { try next().container(keyedBy: type) }
        mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
        mutating func superDecoder() throws -> Decoder { try next() }
    }
    struct AK: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(_ i: Int) {
            stringValue = "\(i)"
            intValue = i
        }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { self.init(intValue) }
    }
    struct SC: SingleValueDecodingContainer {
        let d: PermissiveDecoder
        var codingPath: [CodingKey] { d.codingPath }
        func decodeNil() -> Bool { d.value.isNull }
        func mismatch<T>(_ t: T.Type) -> DecodingError {
            .typeMismatch(t, .init(codingPath: codingPath, debugDescription: "\(d.value)"))
        }
        func decode(_ type: Bool.Type) throws -> Bool {
            guard case .bool(let b) = d.value else { throw mismatch(type) }
            return b
        }
        func decode(_ type: String.Type) throws -> String {
            guard case .string(let s) = d.value else { throw mismatch(type) }
            return s
        }
        func decode(_ type: Double.Type) throws -> Double {
            guard case .number(let s) = d.value, let x = Double(s) else { throw mismatch(type) }
            return x
        }
        func decode(_ type: Int64.Type) throws -> Int64 {
            guard case .number(let s) = d.value, let x = Int64(s) else { throw mismatch(type) }
            return x
        }
        func decode(_ type: UInt64.Type) throws -> UInt64 {
            guard case .number(let s) = d.value, let x = UInt64(s) else { throw mismatch(type) }
            return x
        }
        func decode(_ type: Float.Type) throws -> Float { throw mismatch(type) }
        func decode(_ type: Int.Type) throws -> Int { throw mismatch(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { throw mismatch(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { throw mismatch(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { throw mismatch(type) }
        func decode(_ type: UInt.Type) throws -> UInt { throw mismatch(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { throw mismatch(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { throw mismatch(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { throw mismatch(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            if T.self == Bool.self { return try decode(Bool.self) as! T }
            if T.self == String.self { return try decode(String.self) as! T }
            if T.self == Double.self { return try decode(Double.self) as! T }
            if T.self == Int64.self { return try decode(Int64.self) as! T }
            if T.self == UInt64.self { return try decode(UInt64.self) as! T }
            return try T(from: d)
        }
    }
}

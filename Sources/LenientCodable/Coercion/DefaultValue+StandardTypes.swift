// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// The standard types conform to `DefaultValue` publicly: the lenient decoder and `Defaulted`
// read the same defaults, and users can see them.

import Foundation

extension Decimal: DefaultValue {
    /// Zero.
    public static var defaultValue: Decimal { 0 }
}

extension String: DefaultValue {
    /// The empty string.
    public static var defaultValue: String { "" }
}

extension Bool: DefaultValue {
    /// `false`.
    public static var defaultValue: Bool { false }
}

extension Int: DefaultValue {
    /// Zero.
    public static var defaultValue: Int { 0 }
}

extension Int8: DefaultValue {
    /// Zero.
    public static var defaultValue: Int8 { 0 }
}

extension Int16: DefaultValue {
    /// Zero.
    public static var defaultValue: Int16 { 0 }
}

extension Int32: DefaultValue {
    /// Zero.
    public static var defaultValue: Int32 { 0 }
}

extension Int64: DefaultValue {
    /// Zero.
    public static var defaultValue: Int64 { 0 }
}

extension UInt: DefaultValue {
    /// Zero.
    public static var defaultValue: UInt { 0 }
}

extension UInt8: DefaultValue {
    /// Zero.
    public static var defaultValue: UInt8 { 0 }
}

extension UInt16: DefaultValue {
    /// Zero.
    public static var defaultValue: UInt16 { 0 }
}

extension UInt32: DefaultValue {
    /// Zero.
    public static var defaultValue: UInt32 { 0 }
}

extension UInt64: DefaultValue {
    /// Zero.
    public static var defaultValue: UInt64 { 0 }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Int128: DefaultValue {
    /// Zero.
    public static var defaultValue: Int128 { 0 }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension UInt128: DefaultValue {
    /// Zero.
    public static var defaultValue: UInt128 { 0 }
}

extension Double: DefaultValue {
    /// Zero.
    public static var defaultValue: Double { 0 }
}

extension Float: DefaultValue {
    /// Zero.
    public static var defaultValue: Float { 0 }
}

extension Array: DefaultValue {
    /// The empty array.
    public static var defaultValue: [Element] { [] }
}

extension ContiguousArray: DefaultValue {
    /// The empty array.
    public static var defaultValue: ContiguousArray<Element> { [] }
}

extension Set: DefaultValue {
    /// The empty set.
    public static var defaultValue: Set<Element> { [] }
}

extension Dictionary: DefaultValue {
    /// The empty dictionary.
    public static var defaultValue: [Key: Value] { [:] }
}

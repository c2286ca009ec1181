// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A type with a value to use when the JSON has none.
///
/// In `.lenient`, a non-optional property whose value is missing, `null` or unusable takes
/// its type's default, and the report says so. The standard types have one built in (`""`, `0`,
/// `false`, `[]`, `[:]`); conform your own types to give them one:
///
/// ```swift
/// enum Plan: String, Codable, DefaultValue {
///     case free, pro
///     static let defaultValue = Plan.free
/// }
/// ```
///
/// A type without a default keeps failing: at the top level the error is thrown, an element of a
/// collection is left out, and an optional property becomes `nil`.
public protocol DefaultValue {
    /// The value used when the JSON has none.
    static var defaultValue: Self { get }
}

/// An enum that decodes unknown raw values as one of its cases.
///
/// In `.lenient`, a `RawRepresentable` enum that conforms decodes a raw value it does not know as
/// ``fallbackCase``, and the report says so — so a server can add a case without breaking
/// older apps:
///
/// ```swift
/// enum Status: String, Codable, CaseFallback {
///     case active, suspended, unknown
///     static let fallbackCase = Status.unknown
/// }
/// ```
public protocol CaseFallback: RawRepresentable {
    /// The case for raw values the enum does not know.
    static var fallbackCase: Self { get }
}

/// The defaults of the standard types, for the decoder's lookups by metatype.
protocol BuiltInDefault {
    static var builtInDefault: Self { get }
}

extension String: BuiltInDefault { static var builtInDefault: String { "" } }
extension Bool: BuiltInDefault { static var builtInDefault: Bool { false } }
extension Int: BuiltInDefault { static var builtInDefault: Int { 0 } }
extension Int8: BuiltInDefault { static var builtInDefault: Int8 { 0 } }
extension Int16: BuiltInDefault { static var builtInDefault: Int16 { 0 } }
extension Int32: BuiltInDefault { static var builtInDefault: Int32 { 0 } }
extension Int64: BuiltInDefault { static var builtInDefault: Int64 { 0 } }
extension UInt: BuiltInDefault { static var builtInDefault: UInt { 0 } }
extension UInt8: BuiltInDefault { static var builtInDefault: UInt8 { 0 } }
extension UInt16: BuiltInDefault { static var builtInDefault: UInt16 { 0 } }
extension UInt32: BuiltInDefault { static var builtInDefault: UInt32 { 0 } }
extension UInt64: BuiltInDefault { static var builtInDefault: UInt64 { 0 } }
extension Double: BuiltInDefault { static var builtInDefault: Double { 0 } }
extension Float: BuiltInDefault { static var builtInDefault: Float { 0 } }
extension Array: BuiltInDefault { static var builtInDefault: [Element] { [] } }
extension ContiguousArray: BuiltInDefault { static var builtInDefault: ContiguousArray<Element> { [] } }
extension Set: BuiltInDefault { static var builtInDefault: Set<Element> { [] } }
extension Dictionary: BuiltInDefault { static var builtInDefault: [Key: Value] { [:] } }

/// The default of a type: its ``DefaultValue`` conformance first, then the built-in ones.
func defaultValue<T>(of type: T.Type) -> T? {
    if let custom = type as? any DefaultValue.Type { return custom.defaultValue as? T }
    if let builtIn = type as? any BuiltInDefault.Type { return builtIn.builtInDefault as? T }
    return nil
}

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
/// A `RawRepresentable` enum that conforms decodes a raw value it does not know as
/// ``fallbackCase`` — so a server can add a case without breaking older apps. It is the enum's
/// own declaration, so it applies in every mode and under every decoder, Foundation's included
/// (for every raw type the standard library decodes: `String`, the integer types, `Float` and
/// `Double`); LenientCodable's decoders report it. A raw value Foundation reads takes its case
/// or the fallback in every mode, so `"ACTIVE"` for the enum below is `.unknown` in `.lenient`
/// too; a value of another JSON type still fails, except where `.lenient` coerces it. A
/// ``TaggedCodable`` enum that conforms takes its fallback case for a tag it does not know.
///
/// ```swift
/// enum Status: String, Codable, CaseFallback {
///     case active, suspended, unknown
///     static let fallbackCase = Status.unknown
/// }
/// ```
public protocol CaseFallback {
    /// The case for raw values the enum does not know.
    static var fallbackCase: Self { get }
}

/// The default of a type, from its ``DefaultValue`` conformance (the standard types conform
/// in `DefaultValue+StandardTypes.swift`).
func defaultValue<T>(of type: T.Type) -> T? {
    (type as? any DefaultValue.Type)?.defaultValue as? T
}

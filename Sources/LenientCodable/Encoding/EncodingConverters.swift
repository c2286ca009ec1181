// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Conversions an app teaches the encoder: how to write a type as JSON in place of its
/// `encode(to:)`, the inverse of the decoder's ``DecodingConverters``.
///
/// Register a converter once, on ``LenientJSONEncoder/converters``, for any `Encodable` type —
/// your own or a standard one:
///
/// ```swift
/// struct Money: Codable {
///     var amount: Decimal
///     var currency: String
/// }
///
/// let encoder = LenientJSONEncoder()
/// encoder.converters.register(Money.self) { money in
///     .string("\(money.amount) \(money.currency)")
/// }
/// encoder.converters.register(Bool.self) { flag in flag ? "T" : "F" }
/// let data = try encoder.encode(Money(amount: 12.5, currency: "USD"))   // "12.5 USD"
/// ```
///
/// The encoder calls the converter wherever it encodes a value whose static type is the
/// registered one, in place of the value's `encode(to:)` and of its ``EncodingHooks``; the JSON
/// it returns is written as it is (numbers keep their text, objects their member order, and no
/// key strategy applies to its keys). A converter that throws fails the encode with an
/// `EncodingError.invalidValue` at the value's path whose `underlyingError` is the converter's
/// error.
///
/// Converters belong to the encoder they are registered on: there is no global registry.
public struct EncodingConverters: Sendable {
    /// One registration of a converter from `Value`.
    final class Converter<Value>: Sendable {
        let convert: @Sendable (Value) throws -> JSONValue

        init(_ convert: @escaping @Sendable (Value) throws -> JSONValue) {
            self.convert = convert
        }
    }

    private var converters: [ObjectIdentifier: any Sendable] = [:]

    /// Creates an empty collection: every type encodes itself.
    ///
    /// ```swift
    /// var converters = EncodingConverters()
    /// converters.register(Bool.self) { flag in flag ? "T" : "F" }
    /// ```
    public init() {}

    /// Whether no converter is registered.
    ///
    /// An encoder without converters pays nothing for the feature.
    ///
    /// ```swift
    /// LenientJSONEncoder().converters.isEmpty   // true
    /// ```
    public var isEmpty: Bool { converters.isEmpty }

    /// Registers the converter of a type, replacing the one registered before for that type.
    ///
    /// ```swift
    /// let encoder = LenientJSONEncoder()
    /// encoder.converters.register(Bool.self) { flag in flag ? "T" : "F" }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the converter writes.
    ///   - convert: Returns the JSON for a value of the type; throws when the value cannot be written.
    public mutating func register<Value: Encodable>(
        _ type: Value.Type, _ convert: @escaping @Sendable (Value) throws -> JSONValue
    ) {
        converters[ObjectIdentifier(type)] = Converter(convert)
    }

    /// Removes the converter of a type, if it has one.
    ///
    /// ```swift
    /// let encoder = LenientJSONEncoder()
    /// encoder.converters.register(Bool.self) { flag in flag ? "T" : "F" }
    /// encoder.converters.removeConverter(for: Bool.self)   // true and false again
    /// ```
    ///
    /// - Parameter type: The type whose converter is removed.
    public mutating func removeConverter<Value: Encodable>(for type: Value.Type) {
        converters[ObjectIdentifier(type)] = nil
    }

    /// Whether a type has a converter.
    ///
    /// ```swift
    /// var converters = EncodingConverters()
    /// converters.register(Bool.self) { flag in flag ? "T" : "F" }
    /// converters.contains(Bool.self)   // true
    /// ```
    ///
    /// - Parameter type: The type to look up.
    /// - Returns: `true` when a converter is registered for exactly this type.
    public func contains<Value: Encodable>(_ type: Value.Type) -> Bool {
        converters[ObjectIdentifier(type)] != nil
    }

    /// Whether any converter is registered for a type, for the encoder's per-type traits.
    func hasConverter(for type: Any.Type) -> Bool {
        converters[ObjectIdentifier(type)] != nil
    }

    /// The converter of a type.
    func converter<Value>(for type: Value.Type) -> Converter<Value>? {
        converters[ObjectIdentifier(type)] as? Converter<Value>
    }
}

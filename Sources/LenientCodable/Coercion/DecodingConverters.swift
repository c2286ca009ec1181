// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Conversions an app teaches the decoder: from JSON the coercion table cannot read to a type.
///
/// Register a converter once, on a decoder's ``LenientJSONDecoder/Options``, for any `Decodable`
/// type: your own (`"12.5 USD"` to a `Money`, a hex string to a colour) or a standard one (a
/// service whose booleans are `"T"` and `"F"`). The decoder calls it when the JSON is not already
/// in the type's own form, and reports each use as ``DecodingIssue/Kind/coerced``:
///
/// ```swift
/// struct Money: Codable, Equatable {
///     var amount: Decimal
///     var currency: String
/// }
///
/// var options = LenientJSONDecoder.Options.lenient
/// options.converters.register(Money.self) { json in
///     guard let text = json.stringValue else { throw CocoaError(.coderReadCorrupt) }
///     let parts = text.split(separator: " ")
///     guard parts.count == 2, let amount = Decimal(string: String(parts[0])) else {
///         throw CocoaError(.coderReadCorrupt)
///     }
///     return Money(amount: amount, currency: String(parts[1]))
/// }
/// let decoder = LenientJSONDecoder(options: options)
/// let price = try decoder.decode(Money.self, from: #""12.5 USD""#)
/// ```
///
/// When a converter runs:
///
/// - For the standard scalars — `Bool`, `String`, the integer types, `Double`, `Float` and
///   `Decimal` — whenever the JSON is of another kind than the type's own (a JSON boolean for
///   `Bool`, a string for `String`, a number for the numbers), before the coercion table: a
///   converter for `Bool` sees `"T"`, `"yes"` and `1`.
/// - For every other type, when the type's own decoding fails, or succeeds only by forgiving
///   something inside the value (a defaulted or coerced property): the converter's result then
///   replaces the forgiven one.
/// - Never for `null`, which keeps its missing-value treatment, and in ``LenientJSONDecoder/Options/strict``
///   too: the converter is a rule you asked for, not a leniency.
///
/// When a converter throws, the coercion table's rules that its options leave on still apply;
/// when none applies, the value cannot be decoded, with the converter's error as the
/// `underlyingError` of a `DecodingError.dataCorrupted` at the value's path, and takes the usual
/// treatment: a default, `nil` or a dropped element in `.lenient`, the error in `.strict`.
///
/// Converters belong to the options value they are registered on: there is no global registry,
/// and two decoders with different options never see each other's converters. Two collections of
/// converters are equal when they hold the same registrations.
public struct DecodingConverters: Sendable, Hashable {
    /// One registration; its identity tells registrations apart, since closures cannot be compared.
    class Converter: @unchecked Sendable {}

    /// The registration of a converter to `Value`.
    final class TypedConverter<Value>: Converter, @unchecked Sendable {
        let convert: @Sendable (JSONValue) throws -> Value

        init(_ convert: @escaping @Sendable (JSONValue) throws -> Value) {
            self.convert = convert
        }
    }

    private var converters: [ObjectIdentifier: Converter] = [:]

    /// Creates an empty collection: no type has a converter.
    ///
    /// ```swift
    /// var converters = DecodingConverters()
    /// converters.register(Bool.self) { json in json == "T" }
    /// ```
    public init() {}

    /// Whether no converter is registered.
    ///
    /// A decoder whose options hold no converter pays nothing for the feature.
    ///
    /// ```swift
    /// LenientJSONDecoder.Options.lenient.converters.isEmpty   // true
    /// ```
    public var isEmpty: Bool { converters.isEmpty }

    /// Registers the converter of a type, replacing the one registered before for that type.
    ///
    /// The closure receives the value's JSON as a ``JSONValue`` (numbers keep their literal text)
    /// and returns the value, or throws when it cannot convert it.
    ///
    /// ```swift
    /// var options = LenientJSONDecoder.Options.strict
    /// options.converters.register(Bool.self) { json in
    ///     switch json.stringValue {
    ///     case "T": return true
    ///     case "F": return false
    ///     default: throw CocoaError(.coderReadCorrupt)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type the converter produces; the decoder calls it wherever it decodes this type.
    ///   - convert: Converts the JSON to the type.
    public mutating func register<Value: Decodable>(
        _ type: Value.Type, _ convert: @escaping @Sendable (JSONValue) throws -> Value
    ) {
        converters[ObjectIdentifier(type)] = TypedConverter(convert)
    }

    /// Removes the converter of a type, if it has one.
    ///
    /// ```swift
    /// var options = LenientJSONDecoder.Options.lenient
    /// options.converters.register(Bool.self) { json in json == "T" }
    /// options.converters.removeConverter(for: Bool.self)   // the coercion table alone again
    /// ```
    ///
    /// - Parameter type: The type whose converter is removed.
    public mutating func removeConverter<Value: Decodable>(for type: Value.Type) {
        converters[ObjectIdentifier(type)] = nil
    }

    /// Whether a type has a converter.
    ///
    /// ```swift
    /// var converters = DecodingConverters()
    /// converters.register(Bool.self) { json in json == "T" }
    /// converters.contains(Bool.self)   // true
    /// ```
    ///
    /// - Parameter type: The type to look up.
    /// - Returns: `true` when a converter is registered for exactly this type.
    public func contains<Value: Decodable>(_ type: Value.Type) -> Bool {
        converters[ObjectIdentifier(type)] != nil
    }

    /// The converter of a type; looked up once per type and decode.
    func converter(for type: Any.Type) -> Converter? {
        converters.isEmpty ? nil : converters[ObjectIdentifier(type)]
    }

    /// Whether both hold the same registrations: the same types, each with the same registered closure.
    ///
    /// - Parameters:
    ///   - lhs: A collection of converters.
    ///   - rhs: Another collection of converters.
    /// - Returns: `true` when every type has the identical registration in both.
    public static func == (lhs: DecodingConverters, rhs: DecodingConverters) -> Bool {
        guard lhs.converters.count == rhs.converters.count else { return false }
        return lhs.converters.allSatisfy { type, converter in rhs.converters[type] === converter }
    }

    /// Hashes the registered types.
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(Set(converters.keys))
    }
}

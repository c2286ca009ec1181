// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A property that decodes leniently under any decoder and encodes as a plain value.
///
/// `@Coerced` brings the coercion table of ``LenientJSONDecoder`` to models decoded by
/// Foundation's `JSONDecoder`, `PropertyListDecoder`, a ``LenientJSONDecoder`` in `.strict`
/// mode, or any other decoder: the value is read through the decoder's single value container,
/// trying the forms of the table in a fixed order (see ``CoercibleValue``).
///
/// ```swift
/// struct Book: Codable {
///     @Coerced var page: Int          // 42, "42", " 4.2e1 ", 42.0, true (1)
///     @Coerced var price: Decimal     // 9.99 or "9.99", digits kept
///     @Coerced var isVIP: Bool        // true, 1, "yes", "ON"
///     @Coerced var subtitle: String?  // nil when missing, null, "<null>" or an object
/// }
///
/// let book = try JSONDecoder().decode(Book.self, from: Data(#"{"page":"42","price":"9.99","isVIP":1}"#.utf8))
/// // book.page == 42, book.subtitle == nil
/// ```
///
/// The property encodes as its plain value: `{"page":42}`, never `{"page":{"wrappedValue":42}}`.
/// An optional property that is `nil` is left out of the encoded object, as a plain optional
/// property is.
///
/// A non-optional property still needs its key, and throws on `null` or on a value that cannot
/// be coerced; a number out of the type's range is refused, never wrapped or clamped. Make the
/// property optional to accept a missing key — `@Coerced var page: Int?` — or combine it with
/// ``Defaulted`` for a default: `@Defaulted @Coerced var page: Int`.
///
/// Under ``LenientJSONDecoder`` the decoder's own reading comes first, with its options; what it
/// cannot read, the wrapper's table coerces. Each value either of them changes is in the report
/// once, as a plain property's would be, and a value neither can read fails as a plain
/// property's does (in `.lenient`, the type's default, reported).
@propertyWrapper
public struct Coerced<Value: CoercibleValue> {
    /// The decoded value.
    public var wrappedValue: Value

    /// Wraps a value, as a property declaration with an initial value does.
    ///
    /// ```swift
    /// struct Query: Codable {
    ///     @Coerced var page: Int = 1
    /// }
    /// ```
    ///
    /// - Parameter wrappedValue: The value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Coerced: Decodable {
    /// Reads the value leniently with ``CoercibleValue/coerce(from:)``.
    ///
    /// ```swift
    /// let page = try JSONDecoder().decode(Coerced<Int>.self, from: Data(#""42""#.utf8)).wrappedValue  // 42
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Throws: The error of ``CoercibleValue/coerce(from:)``: `DecodingError.valueNotFound` for
    ///   `null` and `DecodingError.typeMismatch` for a value that cannot be coerced, with the
    ///   property's coding path.
    public init(from decoder: any Decoder) throws {
        wrappedValue = try Value.coerce(from: decoder)
    }
}

extension Coerced: Encodable where Value: Encodable {
    /// Writes the plain value, with no nesting for the wrapper.
    ///
    /// ```swift
    /// struct Book: Codable { @Coerced var page: Int }
    /// try JSONEncoder().encode(Book(page: 42))  // {"page":42}
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error for the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Coerced: Equatable where Value: Equatable {}
extension Coerced: Hashable where Value: Hashable {}
extension Coerced: Sendable where Value: Sendable {}

extension Coerced: DefaultValue where Value: DefaultValue {
    /// The default of the wrapped type, so that ``Defaulted`` and ``LenientJSONDecoder``'s
    /// defaults work through the wrapper.
    ///
    /// ```swift
    /// struct Book: Codable {
    ///     @Defaulted @Coerced var page: Int   // 0 when missing or null, 42 from "42"
    /// }
    /// ```
    public static var defaultValue: Coerced<Value> { Coerced(wrappedValue: Value.defaultValue) }
}

extension KeyedDecodingContainer {
    /// Decodes an optional ``Coerced`` property, treating a missing key as `nil`.
    ///
    /// Code that the compiler writes for `Decodable` asks for every wrapped property with
    /// `decode(_:forKey:)`, which throws `keyNotFound` for a missing key, even when the wrapped
    /// value is optional. This overload is more specific, so the compiler picks it for
    /// `@Coerced var x: T?`, and it reads the key only when it is present:
    ///
    /// ```swift
    /// struct Book: Decodable {
    ///     @Coerced var page: Int?
    /// }
    /// try JSONDecoder().decode(Book.self, from: Data("{}".utf8)).page  // nil
    /// ```
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, holding `nil` when the key is missing or the value is `null`.
    /// - Throws: Only an error of the container itself: the wrapped optional turns values it
    ///   cannot coerce into `nil`.
    public func decode<Wrapped: CoercibleValue>(_ type: Coerced<Wrapped?>.Type, forKey key: Key) throws -> Coerced<
        Wrapped?
    > {
        try decodeIfPresent(type, forKey: key) ?? Coerced(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// Encodes an optional ``Coerced`` property, leaving the key out when the value is `nil`.
    ///
    /// This keeps a wrapped optional encoding as a plain optional property does (the compiler's
    /// code uses `encodeIfPresent` for those), so that encoding and decoding round-trip:
    ///
    /// ```swift
    /// struct Book: Codable {
    ///     @Coerced var page: Int?
    /// }
    /// try JSONEncoder().encode(Book(page: nil))  // {}
    /// ```
    ///
    /// - Parameters:
    ///   - value: The wrapper.
    ///   - key: The property's key.
    /// - Throws: The encoder's error for the value.
    public mutating func encode<Wrapped: CoercibleValue & Encodable>(_ value: Coerced<Wrapped?>, forKey key: Key)
        throws
    {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// An array property that leaves out the elements that fail to decode.
///
/// Under any decoder — Foundation's `JSONDecoder` and `PropertyListDecoder` included — one bad
/// element no longer fails the whole model: each element is decoded on its own, and the ones
/// that throw are skipped, in order. In the spirit of ``LenientJSONDecoder``'s arrays:
///
/// - a missing key or `null` is the empty array;
/// - a single value where the array belongs is a one-element array when it decodes as an
///   element, and the empty array when it does not.
///
/// ```swift
/// struct Item: Codable { var id: Int }
///
/// struct Feed: Codable {
///     @LossyArray var items: [Item]
/// }
///
/// let feed = try JSONDecoder().decode(Feed.self, from: Data(#"{"items":[{"id":1},{"id":"x"},null,{"id":3}]}"#.utf8))
/// // feed.items.map(\.id) == [1, 3]
/// ```
///
/// The elements are decoded as they are, with no coercion: wrap them (`[Coerced<Int>]`) or decode
/// with ``LenientJSONDecoder`` to forgive their form too. The property encodes as a plain array.
///
/// - Complexity: O(*n*) in the number of elements; a failed element costs the error its decoder
///   throws.
@propertyWrapper
public struct LossyArray<Element> {
    /// The elements that decoded.
    public var wrappedValue: [Element]

    /// Wraps an array, as a property declaration with an initial value does.
    ///
    /// ```swift
    /// let items = LossyArray(wrappedValue: [1, 2, 3])
    /// ```
    ///
    /// - Parameter wrappedValue: The elements.
    public init(wrappedValue: [Element]) {
        self.wrappedValue = wrappedValue
    }
}

extension LossyArray: Decodable where Element: Decodable {
    /// Decodes the elements of an array, leaving out those that fail.
    ///
    /// `null` is the empty array; a single value that is not an array is a one-element array
    /// when it decodes as an `Element`, and the empty array otherwise.
    ///
    /// ```swift
    /// let numbers = try JSONDecoder().decode(LossyArray<Int>.self, from: Data(#"[1,"2",3]"#.utf8))
    /// // numbers.wrappedValue == [1, 3]
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the array.
    /// - Throws: Only an error of the decoder itself, when it offers neither an unkeyed nor a single
    ///   value container.
    public init(from decoder: any Decoder) throws {
        guard var container = try? decoder.unkeyedContainer() else {
            let single = try decoder.singleValueContainer()
            if let treeDecoder = decoder as? TreeDecoder {
                // Reported as a plain array property's would be.
                self = treeDecoder.decodeLossyArrayFromSingleValue(Element.self)
            } else if single.decodeNil() {
                wrappedValue = []
            } else {
                wrappedValue = (try? single.decode(Element.self)).map { [$0] } ?? []
            }
            return
        }
        var elements: [Element] = []
        elements.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            // The attempt never throws for a bad element, so the container always moves on; if the
            // container itself fails, stop rather than spin.
            guard let attempt = try? container.decode(DecodingAttempt<Element>.self) else { break }
            if let element = attempt.value { elements.append(element) }
        }
        wrappedValue = elements
    }
}

extension LossyArray: Encodable where Element: Encodable {
    /// Writes the plain array, with no nesting for the wrapper.
    ///
    /// ```swift
    /// struct Feed: Codable { @LossyArray var ids: [Int] }
    /// try JSONEncoder().encode(Feed(ids: [1, 3]))  // {"ids":[1,3]}
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error for an element.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension LossyArray: Equatable where Element: Equatable {}
extension LossyArray: Hashable where Element: Hashable {}
extension LossyArray: Sendable where Element: Sendable {}

extension LossyArray: DefaultValue {
    /// The empty array, so that ``Defaulted`` and ``LenientJSONDecoder``'s defaults work
    /// through the wrapper.
    ///
    /// ```swift
    /// let empty = LossyArray<Int>.defaultValue.wrappedValue  // []
    /// ```
    public static var defaultValue: LossyArray<Element> { LossyArray(wrappedValue: []) }
}

extension KeyedDecodingContainer {
    /// Decodes a ``LossyArray`` property, taking the empty array when the key is missing.
    ///
    /// The compiler's code for `Decodable` calls `decode(_:forKey:)`, which would throw
    /// `keyNotFound`; this overload is more specific, so the compiler picks it:
    ///
    /// ```swift
    /// struct Feed: Decodable {
    ///     @LossyArray var items: [Int]
    /// }
    /// try JSONDecoder().decode(Feed.self, from: Data("{}".utf8)).items  // []
    /// ```
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, holding the elements that decoded.
    /// - Throws: Only an error of the container itself.
    public func decode<T: Decodable>(_ type: LossyArray<T>.Type, forKey key: Key) throws -> LossyArray<T> {
        try decodeWrapperIfPresent(type, forKey: key) ?? LossyArray(wrappedValue: [])
    }

    /// Decodes a property declared as an optional ``LossyArray`` (`var ids: LossyArray<Int>?`):
    /// `nil` for a missing key or `null`, as any optional property.
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, or `nil` when the key is missing or its value is `null`.
    /// - Throws: Only an error of the container itself, or for a value that is no array.
    public func decodeIfPresent<T: Decodable>(_ type: LossyArray<T>.Type, forKey key: Key) throws -> LossyArray<T>? {
        try decodeWrapperIfPresent(OptionalWrapperProperty<LossyArray<T>>.self, forKey: key)?.wrapper
    }
}

/// One element of a lossy collection: decoding it never throws, so an unkeyed container moves
/// past a bad element instead of stopping at it.
/// The package's wrappers, which forgive on purpose: under ``LenientJSONDecoder`` they decode with
/// its coercions from the start, without the first pass that shows a type Foundation's answers.
protocol ForgivingWrapper: _LenientDecodingMarker {}

// Each wrapper says what it is through the marker's requirement, so that the decoder asks the
// runtime no question about it beyond the marker.
extension DecodingAttempt: ForgivingWrapper {
    static var _lenientDecodingRole: _LenientDecodingRole { _LenientDecodingRole(.forgivingWrapper(nil)) }
}

// The lossy wrappers give a missing or null value their empty collection, which the lenient
// decoder reports as it reports ``Defaulted``'s default.
extension LossyArray: ForgivingWrapper, DefaultingWrapper {
    /// Not API: one of the package's wrappers, whose default a report names.
    public static var _lenientDecodingRole: _LenientDecodingRole {
        _LenientDecodingRole(.forgivingWrapper(Self.self))
    }
    static var defaultDescription: String { "[]" }
}

extension LossyDictionary: ForgivingWrapper, DefaultingWrapper {
    /// Not API: one of the package's wrappers, whose default a report names.
    public static var _lenientDecodingRole: _LenientDecodingRole {
        _LenientDecodingRole(.forgivingWrapper(Self.self))
    }
    static var defaultDescription: String { "[:]" }
}

extension Coerced: ForgivingWrapper {
    /// Not API: one of the package's wrappers.
    public static var _lenientDecodingRole: _LenientDecodingRole { _LenientDecodingRole(.forgivingWrapper(nil)) }
}

extension Defaulted: ForgivingWrapper {
    /// Not API: one of the package's wrappers, whose default a report names.
    public static var _lenientDecodingRole: _LenientDecodingRole {
        _LenientDecodingRole(.forgivingWrapper(Self.self))
    }
}

struct DecodingAttempt<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: any Decoder) {
        // The lenient decoder reports what it leaves out, as it does for a plain collection.
        if let treeDecoder = decoder as? TreeDecoder {
            value = treeDecoder.decodeLossyElement(Value.self)
            return
        }
        // Through the single value container, so that decoders' own handling of Date, URL, Data
        // and Decimal applies as it would to a plain element.
        value = try? decoder.singleValueContainer().decode(Value.self)
    }
}

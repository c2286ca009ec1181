// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// `CaseFallback` is the enum's own declaration, so it applies under every decoder and in every
// mode: these `init(from:)`s are more specific than the standard library's for raw-value enums,
// and so become the enums' decoding wherever the standard library's would have been. There is
// one for each raw type the standard library decodes a raw-value enum by.

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue: Decodable {
    /// Decodes the raw value, and the fallback case for a raw value the enum does not know. A
    /// value of another JSON type fails as it does without a fallback. Under `LenientJSONDecoder`
    /// the coercions of its options come first, and a fallback is reported.
    static func decodeWithFallback(from decoder: any Decoder) throws -> Self {
        if let treeDecoder = decoder as? TreeDecoder { return try treeDecoder.decodeWithFallback(Self.self) }
        let raw = try decoder.singleValueContainer().decode(RawValue.self)
        return Self(rawValue: raw) ?? fallbackCase
    }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == String {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Int {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Int64 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == UInt {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Double {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Int8 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Int16 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Int32 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == UInt8 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == UInt16 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == UInt32 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == UInt64 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Float {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == Int128 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension CaseFallback where Self: RawRepresentable & Decodable, RawValue == UInt128 {
    /// Decodes the case with this raw value, or ``CaseFallback/fallbackCase`` for one the enum does not know.
    ///
    /// - Parameter decoder: The decoder to read from.
    public init(from decoder: any Decoder) throws { self = try Self.decodeWithFallback(from: decoder) }
}

extension TreeDecoder {
    /// A `CaseFallback` enum at the current node: for a raw value Foundation reads, its case or
    /// the fallback case, as under Foundation's decoder; for one Foundation refuses, in
    /// `.lenient`, the raw value's coercions (`"2"` for an `Int` enum), then the enum coercions (a
    /// raw string in another case), then the fallback case for a raw value of the right type.
    /// A fallback is reported.
    func decodeWithFallback<T: CaseFallback & RawRepresentable & Decodable>(_ type: T.Type) throws -> T
    where T.RawValue: Decodable {
        let index = nodeIndex
        let path = codingPathNode
        let mark = reportMark
        // A raw value Foundation reads: the case, or the fallback that Foundation's decoder takes
        // too, never a case the coercions would match (`"ACTIVE"` is not `.active` here).
        if let raw = readAsFoundation(T.RawValue.self) {
            return T(rawValue: raw) ?? recordedFallback(T.self, at: index, path: path)
        }
        if let raw = try? unwrap(T.RawValue.self, at: index, path: path), let value = T(rawValue: raw) {
            return value
        }
        rollbackReport(to: mark)
        if isLenient, options.coercesEnums, let value = coerceEnum(T.self, at: index, path: path) { return value }
        // Foundation's error for JSON of another type; the fallback for an unknown raw value.
        _ = try unwrap(T.RawValue.self, at: index, path: path)
        rollbackReport(to: mark)
        return recordedFallback(T.self, at: index, path: path)
    }

    /// The fallback case of an enum for the value at `index`, reported.
    private func recordedFallback<T: CaseFallback>(_ type: T.Type, at index: Int, path: CodingPathNode) -> T {
        record(
            .defaulted, path: path, found: index,
            "Unknown value \(describeFound(at: index)) for \(T.self); used the fallback case \(T.fallbackCase).")
        return T.fallbackCase
    }
}

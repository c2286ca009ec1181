// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// A type that ``Coerced`` can read leniently from whatever a decoder holds.
///
/// A conforming type reads itself from a decoder's single value container, trying the forms of
/// the coercion table in a fixed order, with nothing but the public `Decoder` API — so it works
/// under any decoder: Foundation's `JSONDecoder` and `PropertyListDecoder`, a
/// ``LenientJSONDecoder`` in `.strict` mode, or a decoder of your own.
///
/// The standard types conform: every integer type, `Double`, `Float`, `Decimal`, `Bool`,
/// `String`, `Date`, `URL`, `Data`, and `Optional` of any of them. Conform your own types to use
/// them with ``Coerced``:
///
/// ```swift
/// struct Cents: CoercibleValue, Codable {
///     var amount: Int
///
///     init(from decoder: any Decoder) throws { amount = try decoder.singleValueContainer().decode(Int.self) }
///     func encode(to encoder: any Encoder) throws {
///         var container = encoder.singleValueContainer()
///         try container.encode(amount)
///     }
///
///     static func coerce(from decoder: any Decoder) throws -> Cents {
///         Cents(amount: try Int.coerce(from: decoder))  // "1250", 1250.0 and true all work
///     }
/// }
/// ```
///
/// A foreign decoder does not show the text of a number as written, so a `String` read from a
/// number there is the number's Swift description (`1.10` becomes `"1.1"`); under
/// ``LenientJSONDecoder`` it keeps the text as written.
public protocol CoercibleValue: Decodable {
    /// Reads a value from the decoder, accepting the forms of the coercion table.
    ///
    /// ```swift
    /// let page = try Int.coerce(from: decoder)   // 42 from 42, "42", " 4.2e1 ", 42.0 or 42.9
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The value.
    /// - Throws: `DecodingError.valueNotFound` for `null`, and `DecodingError.typeMismatch` for a
    ///   value no coercion turns into `Self` (including a number out of range).
    static func coerce(from decoder: any Decoder) throws -> Self
}

// MARK: - Integers

extension CoercibleValue where Self: FixedWidthInteger {
    /// Reads an integer from an integer, an integral or fractional number (truncated toward zero),
    /// a numeric string (`"42"`, `" 42 "`, `"4.2e1"`, `"+7"`), or a boolean (1 or 0).
    ///
    /// A value out of the type's range is refused, never wrapped or clamped.
    ///
    /// ```swift
    /// let count = try UInt8.coerce(from: decoder)   // "255" works, "256" throws
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The integer.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> Self {
        let source = try CoercionSource(decoder, for: Self.self)
        try source.refuseNull(Self.self)
        if let value = source.attempt(Self.self) { return value }
        // Decimal keeps the digits of a foreign decoder's number where it can (JSONDecoder reads it
        // from the literal); Double is the fallback for decoders that only know binary floats.
        if let decimal = source.attempt(Decimal.self), decimal.isFinite,
            let (value, _) = CoercionRules.integer(fromString: decimal.description, as: Self.self)
        {
            return source.coerced(value)
        }
        if let double = source.attempt(Double.self) {
            guard double.isFinite, let (value, _) = CoercionRules.integer(fromString: "\(double)", as: Self.self) else {
                throw source.failure(Self.self)
            }
            return source.coerced(value)
        }
        if let bool = source.attempt(Bool.self) { return source.coerced(bool ? 1 : 0) }
        if let text = source.attempt(String.self),
            let (value, _) = CoercionRules.integer(fromString: text, as: Self.self)
        {
            return source.coerced(value)
        }
        throw source.failure(Self.self)
    }
}

extension Int: CoercibleValue {}
extension Int8: CoercibleValue {}
extension Int16: CoercibleValue {}
extension Int32: CoercibleValue {}
extension Int64: CoercibleValue {}
extension UInt: CoercibleValue {}
extension UInt8: CoercibleValue {}
extension UInt16: CoercibleValue {}
extension UInt32: CoercibleValue {}
extension UInt64: CoercibleValue {}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: CoercibleValue {}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: CoercibleValue {}

// MARK: - Floating point

extension CoercibleValue where Self: BinaryFloatingPoint {
    /// Reads a floating-point number from a number, a numeric string (`"2.5"`, `" 1e3 "`, and
    /// `"NaN"`, `"Infinity"`, `"-Infinity"` in any case), or a boolean (1 or 0).
    ///
    /// A finite value too large for the type (`1e300` as a `Float`) is refused, never made
    /// infinite.
    ///
    /// ```swift
    /// let price = try Double.coerce(from: decoder)   // 9.99 from 9.99 or "9.99"
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The number.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> Self {
        let source = try CoercionSource(decoder, for: Self.self)
        try source.refuseNull(Self.self)
        if let value = source.attempt(Self.self) { return value }
        if let double = source.attempt(Double.self) { return source.coerced(try narrowed(double, source: source)) }
        if let bool = source.attempt(Bool.self) { return source.coerced(bool ? 1 : 0) }
        if let text = source.attempt(String.self), let double = CoercionRules.double(fromString: text) {
            return source.coerced(try narrowed(double, source: source))
        }
        throw source.failure(Self.self)
    }

    /// The number in this type, refused when it does not fit: a finite number that would become
    /// infinite, or a non-zero one that would become zero (`1e-50` as a `Float`), as the
    /// decoders refuse them.
    private static func narrowed(_ double: Double, source: CoercionSource) throws -> Self {
        let value = Self(double)
        guard value.isFinite || !double.isFinite, value != 0 || double == 0 else { throw source.failure(Self.self) }
        return value
    }
}

extension Double: CoercibleValue {}
extension Float: CoercibleValue {}

// MARK: - Decimal

extension Decimal: CoercibleValue {
    /// Reads a `Decimal` from a number or from the digits of a numeric string (`"12.50"`,
    /// `" 1e-3 "`), or a boolean (1 or 0).
    ///
    /// The decoder's own `Decimal` is asked first, so `JSONDecoder` and ``LenientJSONDecoder``
    /// read the digits of the number as written. A decoder that has only binary numbers (such as
    /// `PropertyListDecoder` with a real) gives its integer exactly and its `Double` through the
    /// shortest text that reads back as the same `Double`. A string is read in the `en_US_POSIX`
    /// locale, never through `Double`. `Decimal` has no infinity, and `"NaN"` is refused.
    ///
    /// ```swift
    /// let amount = try Decimal.coerce(from: decoder)   // 0.1 from "0.1", exactly
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The decimal.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> Decimal {
        let source = try CoercionSource(decoder, for: Decimal.self)
        try source.refuseNull(Decimal.self)
        if let value = source.attempt(Decimal.self) { return value }
        if let integer = source.attempt(Int64.self) { return source.coerced(Decimal(integer)) }
        if let integer = source.attempt(UInt64.self) { return source.coerced(Decimal(integer)) }
        if let double = source.attempt(Double.self) {
            guard double.isFinite, let value = decimal(fromString: "\(double)") else {
                throw source.failure(Decimal.self)
            }
            return source.coerced(value)
        }
        if let bool = source.attempt(Bool.self) { return source.coerced(bool ? 1 : 0) }
        if let text = source.attempt(String.self), let value = decimal(fromString: text) {
            return source.coerced(value)
        }
        throw source.failure(Decimal.self)
    }

    /// The decimal of a string in JSON's number syntax; `Decimal(string:)` alone would accept a
    /// numeric prefix of anything (`"12abc"`).
    private static func decimal(fromString text: String) -> Decimal? {
        var text = CoercionRules.trimmed(text)
        if text.hasPrefix("+") { text.removeFirst() }
        guard CoercionRules.isNumberSyntax(text) else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}

// MARK: - Bool

extension Bool: CoercibleValue {
    /// Reads a `Bool` from a boolean, a number (0 is `false`, any other number `true`) or the
    /// strings `true`, `false`, `yes`, `no`, `y`, `n`, `1`, `0`, `on`, `off` in any case.
    ///
    /// ```swift
    /// let isVIP = try Bool.coerce(from: decoder)   // true from true, 1, "1", "YES" or "on"
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The boolean.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise
    ///   (including `NaN`).
    public static func coerce(from decoder: any Decoder) throws -> Bool {
        let source = try CoercionSource(decoder, for: Bool.self)
        try source.refuseNull(Bool.self)
        if let value = source.attempt(Bool.self) { return value }
        if let integer = source.attempt(Int64.self) { return source.coerced(integer != 0) }
        if let integer = source.attempt(UInt64.self) { return source.coerced(integer != 0) }
        if let double = source.attempt(Double.self) {
            guard !double.isNaN else { throw source.failure(Bool.self) }
            return source.coerced(double != 0)
        }
        if let text = source.attempt(String.self), let value = CoercionRules.bool(fromString: text) {
            return source.coerced(value)
        }
        throw source.failure(Bool.self)
    }
}

// MARK: - String

extension String: CoercibleValue {
    /// Reads a `String` from a string, a number or a boolean (`"true"`, `"false"`).
    ///
    /// Under ``LenientJSONDecoder`` a number keeps its text as written (`1.10` is `"1.10"`).
    /// Other decoders do not show that text: there an integer is its decimal digits and any other
    /// number is `Double`'s description (`1.10` is `"1.1"`, `1e21` is `"1e+21"`).
    ///
    /// ```swift
    /// let zip = try String.coerce(from: decoder)   // "02134" from "02134", "2134" from 2134
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The string.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> String {
        let source = try CoercionSource(decoder, for: String.self)
        try source.refuseNull(String.self)
        if let value = source.attempt(String.self) { return value }
        if let treeDecoder = source.treeDecoder, treeDecoder.currentNodeIsNumber,
            case .number(let text) = treeDecoder.currentJSONValue()
        {
            return source.coerced(text)
        }
        if let bool = source.attempt(Bool.self) { return source.coerced(bool ? "true" : "false") }
        if let integer = source.attempt(Int64.self) { return source.coerced(String(integer)) }
        if let integer = source.attempt(UInt64.self) { return source.coerced(String(integer)) }
        if let double = source.attempt(Double.self) { return source.coerced("\(double)") }
        throw source.failure(String.self)
    }
}

// MARK: - Date

extension Date: CoercibleValue {
    /// Reads a `Date` as the decoder's own `dateDecodingStrategy` reads it, or else from a string
    /// in one of the forms of ``DateFormat/standardList`` (ISO 8601 with or without fractional
    /// seconds and offset, Unix time as a numeric string, YYModel's patterns), or from a number of
    /// seconds or milliseconds since 1970 (told apart by magnitude).
    ///
    /// A strategy you set on the decoder is honoured as Foundation's decoder applies it:
    /// `.millisecondsSince1970`, `.formatted` with its time zone, `.custom`, under
    /// ``LenientJSONDecoder`` and Foundation's decoders alike. A number under Foundation's default
    /// strategy, which would read it as seconds since 2001, is Unix time instead: the decoder's
    /// answer is taken for a number only when it differs from that default's, or when
    /// `.deferredToDate` was set on a ``LenientJSONDecoder`` (Foundation's decoder does not tell
    /// the two apart). A string that a strategy you set does not read is read with the list, as
    /// under every decoder (a numeric string under `.millisecondsSince1970` is Unix time by its
    /// magnitude, where a plain `Date` property takes it for milliseconds), and under
    /// ``LenientJSONDecoder`` it is reported as coerced.
    ///
    /// ```swift
    /// let created = try Date.coerce(from: decoder)   // "2026-11-20T09:30:00Z", 1795167000 or "1795167000000"
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The date.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> Date {
        let source = try CoercionSource(decoder, for: Date.self)
        try source.refuseNull(Date.self)
        if let text = source.attempt(String.self) {
            // A strategy that reads strings (ISO 8601, a format with its time zone, a closure) has
            // the first word, as Foundation's decoder applies it: a numeric string is no date to
            // a strategy of numbers, whatever the decoder would forgive, and the list reads it.
            if let date = source.attemptAsFoundation(Date.self) { return date }
            // Under the lenient decoder's own default, as it reads a plain `Date` property: its
            // default reads such strings itself.
            if source.treeDecoder != nil, !source.dateStrategyIsSet, let date = source.attempt(Date.self) {
                return date
            }
            // The list is the wrapper's own table, the same under every decoder: what it reads,
            // the strategy did not, and it is reported.
            for format in DateFormat.standardList {
                if let date = format.date(fromString: text) { return source.coerced(date) }
            }
            throw source.failure(Date.self)
        }
        if let number = source.attempt(Double.self) {
            if let date = source.attemptAsFoundation(Date.self),
                date != Date(timeIntervalSinceReferenceDate: number) || source.dateStrategyIsSet
            {
                return date
            }
            guard let date = DateFormat.unixDate(number) else { throw source.failure(Date.self) }
            return date
        }
        if let value = source.attempt(Date.self) { return value }
        throw source.failure(Date.self)
    }
}

// MARK: - URL

extension URL: CoercibleValue {
    /// Reads a `URL` from a string, trimmed of surrounding whitespace, or from the decoder's own
    /// `URL`. An empty string and the strings servers write for "nothing" (`"null"`, `"<null>"`)
    /// are refused.
    ///
    /// ```swift
    /// let avatar = try URL.coerce(from: decoder)   // from " https://example.com/a.png\n"
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The URL.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> URL {
        let source = try CoercionSource(decoder, for: URL.self)
        try source.refuseNull(URL.self)
        if let text = source.attempt(String.self) {
            let trimmed = CoercionRules.trimmed(text)
            guard !trimmed.isEmpty, !CoercionRules.isNullLike(trimmed), let url = URL(string: trimmed) else {
                throw source.failure(URL.self)
            }
            // A URL from its string is not forgiven; from a string trimmed first, it is.
            return trimmed == text ? url : source.coerced(url)
        }
        if let value = source.attempt(URL.self) { return value }
        throw source.failure(URL.self)
    }
}

// MARK: - Data

extension Data: CoercibleValue {
    /// Reads `Data` from a base64 string (trimmed of surrounding whitespace) or from the
    /// decoder's own `Data`, such as a property list's data.
    ///
    /// ```swift
    /// let thumbnail = try Data.coerce(from: decoder)   // from "AQID"
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The data.
    /// - Throws: `DecodingError.valueNotFound` for `null`, `DecodingError.typeMismatch` otherwise.
    public static func coerce(from decoder: any Decoder) throws -> Data {
        let source = try CoercionSource(decoder, for: Data.self)
        try source.refuseNull(Data.self)
        if let text = source.attempt(String.self) {
            let trimmed = CoercionRules.trimmed(text)
            guard let data = Data(base64Encoded: trimmed) else { throw source.failure(Data.self) }
            // Data from base64 is not forgiven; from base64 trimmed first, it is.
            return trimmed == text ? data : source.coerced(data)
        }
        if let value = source.attempt(Data.self) { return value }
        throw source.failure(Data.self)
    }
}

// MARK: - Optional

extension Optional: CoercibleValue where Wrapped: CoercibleValue {
    /// Reads an optional: `nil` for `null`, for the strings servers write for "nothing"
    /// (`"null"`, `"nil"`, `"<null>"`, `"(null)"` in any case — except when `Wrapped` is
    /// `String`, which keeps them as text), and for a value `Wrapped` cannot be coerced from.
    ///
    /// With ``Coerced``, a missing key is `nil` too (see ``Coerced``).
    ///
    /// ```swift
    /// let page = try Int?.coerce(from: decoder)   // nil from null, "<null>" or "abc"
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Returns: The wrapped value, or `nil`.
    /// - Throws: Only when the decoder gives no single value container.
    public static func coerce(from decoder: any Decoder) throws -> Wrapped? {
        let source = try CoercionSource(decoder, for: Wrapped?.self)
        if source.container.decodeNil() { return nil }
        if Wrapped.self != String.self, let text = source.attempt(String.self), CoercionRules.isNullLike(text) {
            source.recordNil("Found string \(text.debugDescription); used nil.")
            return nil
        }
        let mark = source.reportMark
        do {
            return try Wrapped.coerce(from: decoder)
        } catch {
            source.rollbackReport(to: mark)
            source.recordNil(becauseOf: error)
            return nil
        }
    }
}

// MARK: - Reading the single value

/// The single value a wrapper coerces, read through the public `Decoder` API only.
struct CoercionSource {
    let decoder: any Decoder
    let container: any SingleValueDecodingContainer
    /// The type being coerced to: under ``LenientJSONDecoder``, what an attempt to read it
    /// forgives is reported, while attempts to read other types are only probes.
    let target: Any.Type
    /// The lenient decoder, when it is the one reading.
    let treeDecoder: TreeDecoder?

    init(_ decoder: any Decoder, for target: Any.Type) throws {
        self.decoder = decoder
        self.target = target
        treeDecoder = decoder as? TreeDecoder
        container = try decoder.singleValueContainer()
    }

    /// The number of issues in the lenient decoder's report so far.
    var reportMark: Int { treeDecoder?.reportMark ?? 0 }

    func rollbackReport(to mark: Int) { treeDecoder?.rollbackReport(to: mark) }

    /// Reports, under the lenient decoder, that an optional became `nil` for a value that is not null.
    func recordNil(_ message: String) {
        guard let treeDecoder else { return }
        treeDecoder.record(.defaulted, path: treeDecoder.codingPathNode, found: treeDecoder.nodeIndex, message)
    }

    /// Reports, under the lenient decoder, that an optional became `nil` because decoding its
    /// value failed with `error`.
    func recordNil(becauseOf error: any Error) {
        guard let treeDecoder else { return }
        let path = treeDecoder.codingPathNode
        treeDecoder.record(
            .defaulted, path: path, found: treeDecoder.nodeIndex, "\(TreeDecoder.reason(error, under: path)); used nil."
        )
    }

    /// The value as a `T`, or `nil` when the decoder will not give one. Single value containers
    /// keep no position, so a failed attempt leaves nothing behind.
    ///
    /// Under ``LenientJSONDecoder``, reading the target type is the decoder's own decode, which
    /// reports what it forgives. Reading another type is a probe, which reads as Foundation's
    /// decoder would and reports nothing, so that the decoder's coercions (a number read as a
    /// `Bool`, a fraction truncated) never stand in for the wrapper's table.
    func attempt<T: Decodable>(_ type: T.Type) -> T? {
        guard let treeDecoder else { return try? container.decode(type) }
        if T.self != target { return treeDecoder.readAsFoundation(type) }
        let mark = treeDecoder.reportMark
        let value = try? container.decode(type)
        if value == nil { treeDecoder.rollbackReport(to: mark) }
        return value
    }

    /// The value as Foundation's decoder reads a `T` with the same settings: under
    /// ``LenientJSONDecoder`` a probe that forgives nothing and reports nothing (a date strategy
    /// of numbers refuses a numeric string, as `JSONDecoder` does); under other decoders the
    /// decoder's own reading.
    func attemptAsFoundation<T: Decodable>(_ type: T.Type) -> T? {
        guard let treeDecoder else { return try? container.decode(type) }
        return treeDecoder.readAsFoundation(type)
    }

    /// Whether the decoder's `dateDecodingStrategy` was set, `.deferredToDate` included; known
    /// of ``LenientJSONDecoder`` only (Foundation's decoder does not tell a strategy set to its
    /// default from one left there).
    var dateStrategyIsSet: Bool { treeDecoder?.settings.dateDecodingStrategyIsSet ?? false }

    /// A value the wrapper's own table made after the decoder's reading of the target type
    /// failed: under ``LenientJSONDecoder`` it is reported, once, as the decoder reports its
    /// own coercions; under other decoders there is no report to hold it.
    func coerced<Value>(_ value: Value) -> Value {
        if let treeDecoder {
            let index = treeDecoder.nodeIndex
            treeDecoder.record(
                .coerced, path: treeDecoder.codingPathNode, found: index,
                "Coerced \(treeDecoder.describeFound(at: index)) to \(target) \(Self.describe(value)).")
        }
        return value
    }

    /// A value as a report message shows it: text quoted, as the decoder's own messages do.
    private static func describe<Value>(_ value: Value) -> String {
        if let text = value as? String { return text.debugDescription }
        return "\(value)"
    }

    func refuseNull(_ type: Any.Type) throws {
        guard container.decodeNil() else { return }
        throw DecodingError.valueNotFound(
            type,
            .init(codingPath: decoder.codingPath, debugDescription: "Expected \(type) value but found null instead."))
    }

    /// The error for a value no coercion turns into `type`, naming what was found.
    @inline(never)
    func failure(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            .init(codingPath: decoder.codingPath, debugDescription: "Cannot coerce \(foundDescription) to \(type)."))
    }

    private var foundDescription: String {
        if container.decodeNil() { return "null" }
        if let text = attempt(String.self) { return "string \"\(text)\"" }
        if let bool = attempt(Bool.self) { return "boolean \(bool)" }
        if let integer = attempt(Int64.self) { return "number \(integer)" }
        if let integer = attempt(UInt64.self) { return "number \(integer)" }
        if let double = attempt(Double.self) { return "number \(double)" }
        if let decimal = attempt(Decimal.self) { return "number \(decimal)" }
        // A number too large for any of those (`1e400`): the lenient decoder has its text.
        if let treeDecoder = decoder as? TreeDecoder { return treeDecoder.describeFound(at: treeDecoder.nodeIndex) }
        return "a value that is not a string, number or boolean"
    }
}

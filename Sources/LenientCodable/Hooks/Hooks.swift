// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Lets a model see and change its raw JSON before it is decoded, and check or complete itself
/// after.
///
/// The equivalent of YYModel's `modelCustomWillTransformFromDictionary` and
/// `modelCustomTransformFromDictionary`, and of JSONModel's validation:
///
/// ```swift
/// struct User: Codable, DecodingHooks {
///     var name: String
///     var createdAt: Date?
///
///     // Unwrap {"data": {...}} envelopes.
///     static func willDecode(_ json: JSONValue) throws -> JSONValue {
///         json["data"] ?? json
///     }
///
///     // Derive a field, or reject the value by throwing.
///     mutating func didDecode(from json: JSONValue) throws {
///         guard let timestamp = json["timestamp"]?.doubleValue else { throw ValidationError.missingTimestamp }
///         createdAt = Date(timeIntervalSince1970: timestamp)
///     }
/// }
/// ```
///
/// A value whose ``didDecode(from:)`` throws is rejected: at the top level the error is thrown;
/// in `.lenient`, an element of a collection is left out and an optional property becomes `nil`,
/// both reported as ``DecodingIssue/Kind/rejected``; in `.strict` a rejection always fails the
/// decode.
///
/// Hooks run under ``LenientJSONDecoder`` only: Foundation's `JSONDecoder` does not call them.
/// The raw `JSONValue` is built only for types that have hooks.
public protocol DecodingHooks: _LenientDecodingMarker {
    /// Rewrites the raw JSON of a value before it is decoded; the returned JSON is decoded
    /// instead. The default returns it unchanged.
    ///
    /// - Parameter json: The value's JSON as the document has it.
    /// - Returns: The JSON to decode.
    /// - Throws: Any error, to reject the value.
    static func willDecode(_ json: JSONValue) throws -> JSONValue

    /// Checks or completes the decoded value, given the JSON it was decoded from (as
    /// ``willDecode(_:)`` returned it). The default does nothing.
    ///
    /// - Parameter json: The JSON the value was decoded from.
    /// - Throws: Any error, to reject the value.
    mutating func didDecode(from json: JSONValue) throws
}

extension DecodingHooks {
    /// Returns the JSON unchanged.
    ///
    /// - Parameter json: The value's JSON.
    /// - Returns: The same JSON.
    public static func willDecode(_ json: JSONValue) throws -> JSONValue { json }

    /// Does nothing.
    ///
    /// - Parameter json: The JSON the value was decoded from.
    public mutating func didDecode(from json: JSONValue) throws {}
}

/// Lets a model change its JSON after it is encoded, before it is written.
///
/// The equivalent of YYModel's `modelCustomTransformToDictionary`:
///
/// ```swift
/// extension User: EncodingHooks {
///     func didEncode(_ json: inout JSONValue) throws {
///         json["timestamp"] = createdAt.map { .number(String(Int($0.timeIntervalSince1970))) }
///     }
/// }
/// ```
///
/// The JSON has already been through key mapping and the key strategy. The hook runs wherever
/// the type is encoded — at the top level, as a property, as an array element or as a dictionary
/// value — and for ``LenientJSONEncoder/encodeToJSONValue(_:)`` and
/// ``LenientJSONEncoder/encodeToJSONObject(_:)`` as well as ``LenientJSONEncoder/encode(_:)``.
///
/// Order of members: the members the hook keeps stay where they were; the members it adds come
/// after them, in the order it adds them, and a renamed member counts as added. Keys the hook
/// writes are used as they are, without the encoder's `keyEncodingStrategy`. Under `.sortedKeys`
/// every member is sorted.
///
/// Errors: when the hook throws, the encode fails with `EncodingError.invalidValue`, whose coding
/// path leads to the value and whose `underlyingError` is the error the hook threw.
///
/// Only conforming types pay for the hook: the encoder builds a ``JSONValue`` for them and for
/// no other type. The hook runs under ``LenientJSONEncoder`` only: Foundation's `JSONEncoder`
/// does not call it.
public protocol EncodingHooks: _LenientEncodingMarker {
    /// Changes the encoded JSON of the value: add, remove or rename members.
    ///
    /// - Parameter json: The value's encoded JSON, to change in place.
    /// - Throws: Any error, to fail the encode.
    func didEncode(_ json: inout JSONValue) throws
}

/// Chooses the concrete type to decode from the JSON: a subclass, or another type that
/// conforms to the requested one.
///
/// The equivalent of YYModel's `modelCustomClassForDictionary`:
///
/// ```swift
/// class BaseUser: Decodable, PolymorphicDecodable {
///     class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
///         if json["localName"] != nil { return LocalUser.self }
///         if json["remoteName"] != nil { return RemoteUser.self }
///         return nil  // BaseUser itself
///     }
/// }
/// ```
///
/// It applies wherever the type is decoded: properties, array elements, dictionary values and
/// the top level. Returning a type that is not a subtype of the requested one is an error that
/// names both types. It runs under ``LenientJSONDecoder`` only.
public protocol PolymorphicDecodable: _LenientDecodingMarker {
    /// The type to decode for this JSON, or `nil` for the requested type itself.
    ///
    /// - Parameter json: The value's JSON.
    /// - Returns: The type to decode instead, or `nil`.
    static func decodingType(for json: JSONValue) -> (any Decodable.Type)?
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension LenientJSONDecoder {
    /// Decodes the value found at a path inside the document: the payload of the envelope an API
    /// wraps it in, without a wrapper type per endpoint.
    ///
    /// ```swift
    /// // {"code": 0, "data": {"list": [{"name": "Dune", "page": 412}]}}
    /// let books = try LenientJSONDecoder().decode([Book].self, from: data, at: "data.list")
    /// ```
    ///
    /// The path is written like a nested key of ``KeySource``: member names split on dots, each
    /// optionally followed by array indices (`"data.list"`, `"info[1].time"`, `"[0]"`). Coding
    /// paths in errors and reports start at the document's root (`data.list[2].page`).
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON document.
    ///   - path: Where the value is.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`: `keyNotFound` for a member on the path that is not there,
    ///   `valueNotFound` for an index past the end or `null` on the way, `typeMismatch` for a step
    ///   into a value of another kind, each with the path so far; `dataCorrupted` for a path that
    ///   is not one; and otherwise as ``decode(_:from:)-(_,Data)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at path: String) throws -> T {
        let context = currentContext
        let path = try DocumentPath(path)
        return try data.withUnsafeBytes { raw in
            try TreeDecoder.decode(type, from: raw.bindMemory(to: UInt8.self), context: context, at: path)
        }
    }

    /// Decodes the value found at a path inside JSON text; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - string: The JSON document.
    ///   - path: Where the value is.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from string: String, at path: String) throws -> T {
        let context = currentContext
        let path = try DocumentPath(path)
        var string = string
        return try string.withUTF8 { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context, isKnownUTF8: true, at: path)
        }
    }

    /// Decodes the value found at a path inside JSON bytes; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The JSON document.
    ///   - path: Where the value is.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], at path: String) throws -> T {
        let context = currentContext
        let path = try DocumentPath(path)
        return try bytes.withUnsafeBufferPointer { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context, at: path)
        }
    }

    /// Decodes the value found at a path inside a ``JSONValue``; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value.
    ///   - path: Where the value is.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: String) throws -> T {
        try TreeDecoder.decode(type, fromValue: value, context: currentContext, at: try DocumentPath(path))
    }

    /// Decodes the value found at a path inside the document and reports every value the decoder
    /// forgave; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON document.
    ///   - path: Where the value is.
    /// - Returns: The value and the report, whose paths start at the document's root.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from data: Data, at path: String) throws -> (
        value: T, report: DecodingReport
    ) {
        let context = currentContext
        let path = try DocumentPath(path)
        let collector = ReportCollector()
        let value = try data.withUnsafeBytes { raw in
            try TreeDecoder.decode(
                type, from: raw.bindMemory(to: UInt8.self), context: context, report: collector, at: path)
        }
        return (value, collector.report)
    }

    /// Decodes the value found at a path inside JSON text and reports every value the decoder
    /// forgave; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - string: The JSON document.
    ///   - path: Where the value is.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from string: String, at path: String) throws -> (
        value: T, report: DecodingReport
    ) {
        let context = currentContext
        let path = try DocumentPath(path)
        let collector = ReportCollector()
        var string = string
        let value = try string.withUTF8 { buffer in
            try TreeDecoder.decode(
                type, from: buffer, context: context, isKnownUTF8: true, report: collector, at: path)
        }
        return (value, collector.report)
    }

    /// Decodes the value found at a path inside JSON bytes and reports every value the decoder
    /// forgave; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The JSON document.
    ///   - path: Where the value is.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from bytes: [UInt8], at path: String) throws -> (
        value: T, report: DecodingReport
    ) {
        let context = currentContext
        let path = try DocumentPath(path)
        let collector = ReportCollector()
        let value = try bytes.withUnsafeBufferPointer { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context, report: collector, at: path)
        }
        return (value, collector.report)
    }

    /// Decodes the value found at a path inside a ``JSONValue`` and reports every value the
    /// decoder forgave; see ``decode(_:from:at:)-(_,Data,_)``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value.
    ///   - path: Where the value is.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:from:at:)-(_,Data,_)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: String) throws -> (
        value: T, report: DecodingReport
    ) {
        let collector = ReportCollector()
        let decoded = try TreeDecoder.decode(
            type, fromValue: value, context: currentContext, report: collector, at: try DocumentPath(path))
        return (decoded, collector.report)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension LenientJSONDecoder {
    /// Decodes a value and reports every value the decoder forgave on the way.
    ///
    /// ```swift
    /// let (book, report) = try LenientJSONDecoder().decodeWithReport(Book.self, from: data)
    /// if !report.isEmpty { logger.notice("Book payload drifted:\n\(report)") }
    /// ```
    ///
    /// Decoding without a report (``decode(_:from:)-(_,Data)``) does the same work minus the
    /// bookkeeping; the report costs nothing unless you ask for it.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON document.
    /// - Returns: The value and the report; clean input gives an empty report.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from data: Data) throws -> (
        value: T, report: DecodingReport
    ) {
        let context = currentContext
        let collector = ReportCollector()
        let value = try data.withUnsafeBytes { raw in
            try TreeDecoder.decode(type, from: raw.bindMemory(to: UInt8.self), context: context, report: collector)
        }
        return (value, collector.report)
    }

    /// Decodes a value from JSON text and reports every value the decoder forgave.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - string: The JSON document.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from string: String) throws -> (
        value: T, report: DecodingReport
    ) {
        let context = currentContext
        let collector = ReportCollector()
        var string = string
        let value = try string.withUTF8 { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context, isKnownUTF8: true, report: collector)
        }
        return (value, collector.report)
    }

    /// Decodes a value from JSON bytes and reports every value the decoder forgave.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The JSON document.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> (
        value: T, report: DecodingReport
    ) {
        let context = currentContext
        let collector = ReportCollector()
        let value = try bytes.withUnsafeBufferPointer { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context, report: collector)
        }
        return (value, collector.report)
    }

    /// Decodes a value from a ``JSONValue`` and reports every value the decoder forgave.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> (
        value: T, report: DecodingReport
    ) {
        let collector = ReportCollector()
        let decoded = try TreeDecoder.decode(type, fromValue: value, context: currentContext, report: collector)
        return (decoded, collector.report)
    }

    /// Decodes a value from what `JSONSerialization` produces and reports every value the decoder
    /// forgave.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - object: A JSON object graph: dictionaries, arrays, strings, `NSNumber`s and `NSNull`.
    /// - Returns: The value and the report.
    /// - Throws: `DecodingError`, as ``decode(_:fromJSONObject:)`` does.
    public func decodeWithReport<T: Decodable>(_ type: T.Type, fromJSONObject object: Any) throws -> (
        value: T, report: DecodingReport
    ) {
        try decodeWithReport(type, from: try JSONValue.fromJSONObject(object))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Decoder settings applied alike to Foundation's `JSONDecoder` and to a `LenientJSONDecoder`.
struct DecoderConfiguration: Sendable {
    var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// Assigned to the lenient decoder only once set here: a `LenientJSONDecoder` whose strategy was never assigned
    /// reads dates with its format list in `.lenient`.
    var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate {
        didSet { setsDateDecodingStrategy = true }
    }
    private(set) var setsDateDecodingStrategy = false
    var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw

    /// A Foundation decoder with these settings.
    func foundationDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.dateDecodingStrategy = dateDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        return decoder
    }

    /// A `LenientJSONDecoder` with these settings and the given options.
    func lenientDecoder(_ options: LenientJSONDecoder.Options) -> LenientJSONDecoder {
        let decoder = LenientJSONDecoder(options: options)
        decoder.keyDecodingStrategy = keyDecodingStrategy
        if setsDateDecodingStrategy { decoder.dateDecodingStrategy = dateDecodingStrategy }
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        return decoder
    }
}

/// What one decoder made of one input.
enum DecodingOutcome<Value> {
    case value(Value)
    case failure(any Error)

    init(_ body: () throws -> Value) {
        do {
            self = .value(try body())
        } catch {
            self = .failure(error)
        }
    }

    var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    var error: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }

    /// The comparable part of the error, or `nil` for a value.
    var errorSummary: DecodingErrorSummary? { error.map(DecodingErrorSummary.init) }
}

/// The outcomes of Foundation's `JSONDecoder` and of `LenientJSONDecoder(.strict)` (or other options) on one input.
struct DifferentialOutcome<Value> {
    let foundation: DecodingOutcome<Value>
    let lenient: DecodingOutcome<Value>

    /// Decodes `data` with both decoders.
    init(
        _ type: Value.Type, from data: Data, configuration: DecoderConfiguration = DecoderConfiguration(),
        options: LenientJSONDecoder.Options = .strict
    ) where Value: Decodable {
        let foundationDecoder = configuration.foundationDecoder()
        let lenientDecoder = configuration.lenientDecoder(options)
        foundation = DecodingOutcome { try foundationDecoder.decode(type, from: data) }
        lenient = DecodingOutcome { try lenientDecoder.decode(type, from: data) }
    }
}

/// Expects both decoders to have decoded equal values, or to have failed with the same `DecodingError` case, coding
/// path and missing key.
func expectSameOutcome<Value: Equatable>(
    _ outcome: DifferentialOutcome<Value>, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    switch (outcome.foundation, outcome.lenient) {
    case (.value(let expected), .value(let actual)):
        #expect(actual == expected, comment, sourceLocation: sourceLocation)
    case (.failure(let expected), .failure(let actual)):
        #expect(
            DecodingErrorSummary(actual).agrees(withFoundation: DecodingErrorSummary(expected)),
            "\(comment ?? "") ours: \(actual)",
            sourceLocation: sourceLocation)
    case (.value(let expected), .failure(let actual)):
        Issue.record(
            "Foundation decoded \(expected) but ours threw \(actual). \(comment ?? "")", sourceLocation: sourceLocation)
    case (.failure(let expected), .value(let actual)):
        Issue.record(
            "Foundation threw \(expected) but ours decoded \(actual). \(comment ?? "")", sourceLocation: sourceLocation)
    }
}

/// Expects both decoders to have decoded the same ``DecodedTree``, or to have failed alike; on a difference, names the
/// first place where the trees differ.
func expectSameTree(
    _ outcome: DifferentialOutcome<DecodedTree>, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    if case .value(let expected) = outcome.foundation, case .value(let actual) = outcome.lenient {
        let difference = actual.firstDifference(from: expected)
        #expect(
            difference == nil, "\(name): ours vs Foundation differ at \(difference ?? "")",
            sourceLocation: sourceLocation)
    } else {
        expectSameOutcome(outcome, "\(name)", sourceLocation: sourceLocation)
    }
}

/// Expects `error` to be the `dataCorrupted` error of a syntax error: empty coding path, a ``JSONParseError`` as the
/// underlying error, and a debug description that names the error's line and column. Returns the parse error.
@discardableResult
func expectSyntaxError(
    _ error: (any Error)?, sourceLocation: SourceLocation = #_sourceLocation
) -> JSONParseError? {
    guard let error else {
        Issue.record("Expected a syntax error, but decoding succeeded.", sourceLocation: sourceLocation)
        return nil
    }
    guard let decodingError = error as? DecodingError, case .dataCorrupted(let context) = decodingError else {
        Issue.record("Expected DecodingError.dataCorrupted, got \(error).", sourceLocation: sourceLocation)
        return nil
    }
    #expect(context.codingPath.isEmpty, "A syntax error has an empty coding path.", sourceLocation: sourceLocation)
    guard let parseError = context.underlyingError as? JSONParseError else {
        Issue.record(
            "Expected a JSONParseError as underlyingError, got \(String(describing: context.underlyingError)).",
            sourceLocation: sourceLocation)
        return nil
    }
    #expect(
        context.debugDescription.contains("line \(parseError.line)")
            && context.debugDescription.contains("column \(parseError.column)"),
        "The debug description names line \(parseError.line), column \(parseError.column): \(context.debugDescription)",
        sourceLocation: sourceLocation)
    return parseError
}

/// Runs `body` and expects it to throw a ``JSONParseError`` with a plausible position in `input`; returns it.
@discardableResult
func expectParseError(
    in input: Data, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> JSONParseError? {
    do {
        try body()
        Issue.record("Expected a JSONParseError, but parsing succeeded.", sourceLocation: sourceLocation)
        return nil
    } catch let error as JSONParseError {
        #expect(error.line >= 1 && error.column >= 1, "1-based position: \(error)", sourceLocation: sourceLocation)
        #expect(
            (0...input.count).contains(error.byteOffset), "Offset inside the input: \(error)",
            sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("Expected a JSONParseError, got \(error).", sourceLocation: sourceLocation)
        return nil
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// A copy of Tests/LenientCodableTests/Support/DecodingErrorSummary.swift: the fuzz package cannot depend on a test target.

import Foundation
import LenientCodable

/// A coding key as both decoders must report it: its string value and its integer value.
struct CodingKeySummary: Hashable, Sendable, CustomStringConvertible {
    let stringValue: String
    let intValue: Int?

    init(_ key: any CodingKey) {
        stringValue = key.stringValue
        intValue = key.intValue
    }

    init(stringValue: String, intValue: Int? = nil) {
        self.stringValue = stringValue
        self.intValue = intValue
    }

    var description: String {
        intValue.map { "\(stringValue.debugDescription)#\($0)" } ?? stringValue.debugDescription
    }
}

/// The parts of an error that `.strict` must share with Foundation's `JSONDecoder`: the `DecodingError` case, the
/// coding path (each key's string and integer value) and, for `keyNotFound`, the missing key. Debug descriptions and the
/// type named by `typeMismatch` are free to differ.
struct DecodingErrorSummary: Hashable, Sendable, CustomStringConvertible {
    indirect enum Kind: Hashable, Sendable {
        case typeMismatch
        case valueNotFound
        case keyNotFound(CodingKeySummary)
        case dataCorrupted
        /// ``DecodedTree`` could not decode the value in any of the ways it tries; these are the errors of each try.
        case noJSONValue(attempts: [DecodingErrorSummary])
        /// An error that is not a `DecodingError`, by its type name.
        case other(String)
    }

    let kind: Kind
    let codingPath: [CodingKeySummary]

    init(kind: Kind, codingPath: [CodingKeySummary]) {
        self.kind = kind
        self.codingPath = codingPath
    }

    init(_ error: any Error) {
        switch error {
        case DecodingError.typeMismatch(_, let context):
            self.init(kind: .typeMismatch, codingPath: context.codingPath.map(CodingKeySummary.init))
        case DecodingError.valueNotFound(_, let context):
            self.init(kind: .valueNotFound, codingPath: context.codingPath.map(CodingKeySummary.init))
        case DecodingError.keyNotFound(let key, let context):
            self.init(
                kind: .keyNotFound(CodingKeySummary(key)), codingPath: context.codingPath.map(CodingKeySummary.init))
        case DecodingError.dataCorrupted(let context):
            self.init(kind: .dataCorrupted, codingPath: context.codingPath.map(CodingKeySummary.init))
        case let failure as DecodedTree.Failure:
            self.init(kind: .noJSONValue(attempts: failure.attempts), codingPath: failure.codingPath)
        default:
            self.init(kind: .other(String(describing: type(of: error))), codingPath: [])
        }
    }

    /// Whether this error (ours) agrees with Foundation's: the same summary, or the one place where strict mode
    /// keeps more than Foundation on Linux. For a value that does not fit its type (a number out of range, a date
    /// that is not ISO 8601) Foundation on Linux throws `dataCorrupted` with an empty coding path, or lets its
    /// internal `JSONError` escape a nested decode; ours is `dataCorrupted` at the value's real path, as Foundation
    /// reports it on Apple platforms and as the project's error rules require. Docs/StrictMode.md lists it.
    func agrees(withFoundation foundation: DecodingErrorSummary) -> Bool {
        if self == foundation { return true }
        switch (kind, foundation.kind) {
        case (.dataCorrupted, .dataCorrupted):
            return foundation.codingPath.isEmpty
        case (.dataCorrupted, .other(let name)):
            return name == "JSONError"
        case (.noJSONValue(let ours), .noJSONValue(let theirs)):
            return codingPath == foundation.codingPath && ours.count == theirs.count
                && zip(ours, theirs).allSatisfy { $0.agrees(withFoundation: $1) }
        default:
            return false
        }
    }

    var description: String {
        let path = "[" + codingPath.map(\.description).joined(separator: ", ") + "]"
        switch kind {
        case .typeMismatch: return "typeMismatch at \(path)"
        case .valueNotFound: return "valueNotFound at \(path)"
        case .keyNotFound(let key): return "keyNotFound(\(key)) at \(path)"
        case .dataCorrupted: return "dataCorrupted at \(path)"
        case .noJSONValue(let attempts):
            return "no JSON value at \(path) (\(attempts.map(\.description).joined(separator: "; ")))"
        case .other(let name): return "\(name) (not a DecodingError)"
        }
    }
}

extension DecodingError {
    /// The ``JSONParseError`` that a decoder attached to a `dataCorrupted` error, if any.
    var parseError: JSONParseError? {
        guard case .dataCorrupted(let context) = self else { return nil }
        return context.underlyingError as? JSONParseError
    }

    /// The debug description of the error's context.
    var debugDescription: String {
        switch self {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context.debugDescription
        @unknown default:
            return ""
        }
    }
}

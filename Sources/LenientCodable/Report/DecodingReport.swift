// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Everything a lenient decode forgave, value by value.
///
/// ``LenientJSONDecoder/decodeWithReport(_:from:)-(_,Data)`` returns it beside the value. Clean
/// input gives an empty report; each coerced, defaulted or dropped value, each key found only by
/// a fallback, adds one ``DecodingIssue`` with its path.
///
/// ```swift
/// let (books, report) = try LenientJSONDecoder().decodeWithReport([Book].self, from: data)
/// for issue in report.issues {
///     logger.warning("\(issue.path): \(issue.message)")   // "[2].page: Coerced string \"3\" to Int 3."
/// }
/// ```
///
/// Use it to log what a server sends wrongly, or to watch an API drift in production.
public struct DecodingReport: Sendable, Hashable {
    /// The forgiven values, in the order the decoder met them.
    public var issues: [DecodingIssue]

    /// Creates a report.
    ///
    /// - Parameter issues: The issues.
    public init(issues: [DecodingIssue] = []) { self.issues = issues }

    /// Whether nothing was forgiven.
    public var isEmpty: Bool { issues.isEmpty }

    /// The issues of one kind.
    ///
    /// - Parameter kind: The kind to keep.
    /// - Returns: The issues of that kind, in order.
    public func issues(ofKind kind: DecodingIssue.Kind) -> [DecodingIssue] {
        issues.filter { $0.kind == kind }
    }
}

extension DecodingReport: CustomStringConvertible {
    /// One line per issue: kind, path and message.
    public var description: String {
        guard !issues.isEmpty else { return "No issues." }
        return issues.map { "\($0.kind) \($0.path): \($0.message)" }.joined(separator: "\n")
    }
}

/// One value that a lenient decode forgave.
public struct DecodingIssue: Sendable, Hashable {
    /// What the decoder did.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A value of another JSON type was converted (`"3"` to `3`).
        case coerced
        /// A missing, `null` or unusable value was replaced by the property's default.
        case defaulted
        /// An element of an array, set or dictionary that could not be decoded was left out.
        case droppedElement
        /// A value was refused by its type's `didDecode` hook and left out or set to `nil`.
        case rejected
        /// A property was found under a fallback key or by loose key matching.
        case keyFallback
        /// The JSON has a key that no property reads (only when the options ask for it).
        case unknownKey
    }

    /// Where the value is, as a path from the top: `books[2].page`, or `[1]` for an element of
    /// a top-level array.
    public var path: String
    /// What the decoder did.
    public var kind: Kind
    /// A sentence naming what was found and what it became: `Coerced string "3" to Int 3.`
    public var message: String
    /// The JSON value that was found, when there was one.
    public var found: JSONValue?

    /// Creates an issue.
    ///
    /// - Parameters:
    ///   - path: The value's path.
    ///   - kind: What the decoder did.
    ///   - message: What was found and what it became.
    ///   - found: The JSON value found, if any.
    public init(path: String, kind: Kind, message: String, found: JSONValue? = nil) {
        self.path = path
        self.kind = kind
        self.message = message
        self.found = found
    }
}

/// Collects issues during one decode. Only created when a report is asked for, or when the
/// decode needs to know whether something was forgiven.
final class ReportCollector {
    var issues: [DecodingIssue] = []

    func record(_ kind: DecodingIssue.Kind, path: CodingPathNode, message: String, found: JSONValue? = nil) {
        issues.append(DecodingIssue(path: path.reportPath, kind: kind, message: message, found: found))
    }
}

extension CodingPathNode {
    /// The path as the report writes it: `books[2].page`.
    var reportPath: String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

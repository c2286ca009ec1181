// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A syntax error in a JSON document, with the position where it was found.
///
/// The decoders wrap it in `DecodingError.dataCorrupted`, as the context's `underlyingError`,
/// and repeat its message (with line and column) in the context's debug description.
/// ``JSONValue/init(parsing:allowsJSON5:)-(String,_)`` throws it directly.
///
/// ```swift
/// do {
///     _ = try JSONValue(parsing: "[1, 2,, 3]")
/// } catch let error as JSONParseError {
///     error.code     // .unexpectedCharacter
///     error.line     // 1
///     error.column   // 7
///     error.message  // "Unexpected character ',' in array around line 1, column 7."
/// }
/// ```
///
/// Two errors are equal when their ``code`` is equal, whatever their position.
public struct JSONParseError: Error, Sendable {
    /// What kind of syntax error this is.
    public var code: Code
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column of the problem, counted in characters as `String(decoding:as:)` reads
    /// the line: Unicode scalars, and one for each ill-formed UTF-8 sequence it replaces.
    public var column: Int
    /// The 0-based offset of the problem in the UTF-8 text the parser reads, in bytes: the input
    /// itself after a byte order mark, or for UTF-16 and UTF-32 input the text transcoded to
    /// UTF-8 (``line`` and ``column`` are the same in either).
    public var byteOffset: Int
    /// A sentence describing the problem and where it is.
    public var message: String

    /// Creates a parse error.
    ///
    /// - Parameters:
    ///   - code: The kind of error.
    ///   - line: The 1-based line.
    ///   - column: The 1-based column.
    ///   - byteOffset: The 0-based byte offset.
    ///   - message: The description.
    public init(code: Code, line: Int, column: Int, byteOffset: Int, message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.message = message
    }
}

extension JSONParseError: Hashable {
    /// Whether two errors have the same code; positions and messages are not compared.
    ///
    /// - Parameters:
    ///   - lhs: An error.
    ///   - rhs: Another error.
    /// - Returns: `true` when the codes are equal.
    public static func == (lhs: JSONParseError, rhs: JSONParseError) -> Bool { lhs.code == rhs.code }

    /// Hashes the code.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension JSONParseError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The message.
    public var description: String { message }
    /// The message with the code and byte offset.
    public var debugDescription: String { "JSONParseError.\(code) at byte \(byteOffset): \(message)" }
}

extension JSONParseError {
    /// The kinds of syntax error. New kinds may be added in later versions.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: String, Hashable, Sendable {
            case unexpectedCharacter
            case unexpectedEndOfInput
            case emptyInput
            case invalidNumber
            case invalidEscape
            case invalidUnicodeEscape
            case controlCharacterInString
            case invalidUTF8
            case invalidEncoding
            case tooDeeplyNested
            case trailingContent
            case inputTooLarge
        }

        private let kind: Kind
        private init(_ kind: Kind) { self.kind = kind }

        /// A character that cannot stand where it was found.
        public static let unexpectedCharacter = Code(.unexpectedCharacter)
        /// The document ended in the middle of a value.
        public static let unexpectedEndOfInput = Code(.unexpectedEndOfInput)
        /// The document holds no value at all (empty or only white space).
        public static let emptyInput = Code(.emptyInput)
        /// A number that does not follow the JSON grammar (`01`, `1.`, `-`, `1e`).
        public static let invalidNumber = Code(.invalidNumber)
        /// A backslash followed by a character that is not a JSON escape.
        public static let invalidEscape = Code(.invalidEscape)
        /// A `\u` escape without four hexadecimal digits, or with an unpaired surrogate.
        public static let invalidUnicodeEscape = Code(.invalidUnicodeEscape)
        /// A raw control character (below U+0020) inside a string.
        public static let controlCharacterInString = Code(.controlCharacterInString)
        /// Bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// UTF-16 or UTF-32 input that cannot be transcoded.
        public static let invalidEncoding = Code(.invalidEncoding)
        /// Arrays and objects nested deeper than the limit of 512.
        public static let tooDeeplyNested = Code(.tooDeeplyNested)
        /// More content after the top-level value.
        public static let trailingContent = Code(.trailingContent)
        /// A document of 4 GiB or more.
        public static let inputTooLarge = Code(.inputTooLarge)

        /// The name of the code.
        public var description: String { kind.rawValue }
    }
}

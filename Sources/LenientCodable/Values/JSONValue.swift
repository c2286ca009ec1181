// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// A JSON value of any kind, as a plain Swift enum.
///
/// `JSONValue` is what hooks receive and return, what ``LenientJSONEncoder/encodeToJSONValue(_:)``
/// produces, and a convenient type for the parts of a payload that have no fixed shape. Numbers
/// keep the literal text they were written with, so no precision is lost between parsing and
/// writing, and objects keep the order of their members.
///
/// ```swift
/// var json = try JSONValue(parsing: #"{"id": "42", "tags": ["a", "b"]}"#)
/// json["id"]?.stringValue        // "42"
/// json["tags"]?[1]?.stringValue  // "b"
/// json["seen"] = true
/// ```
///
/// Two values are equal when they have the same kind and content. Numbers compare by value
/// (`1`, `1.0` and `10e-1` are equal); objects compare their members regardless of order.
///
/// Comparing, hashing, describing, encoding and decoding work at any depth. Releasing does not:
/// Swift frees nested arrays by recursion, so a value built in code some 50 000 levels deep
/// overflows the stack when the last reference to it goes (a decoded value is at most 512 deep).
public enum JSONValue: Sendable {
    /// The JSON `null`.
    case null
    /// A JSON `true` or `false`.
    case bool(Bool)
    /// A JSON number, kept as its literal text (for example `"1.10"` or `"-2e8"`).
    ///
    /// The text is written back unchanged when the value is encoded by ``LenientJSONEncoder``.
    /// Text that is not a valid JSON number makes encoding throw.
    case number(String)
    /// A JSON string.
    case string(String)
    /// A JSON array.
    case array([JSONValue])
    /// A JSON object, with its members in their original order.
    case object(JSONObject)
}

// MARK: - Initializers

extension JSONValue {
    /// Creates a boolean value.
    ///
    /// - Parameter value: The boolean.
    public init(_ value: Bool) { self = .bool(value) }

    /// Creates a number from an integer.
    ///
    /// - Parameter value: The integer; its decimal text becomes the literal.
    public init(_ value: Int) { self = .number(String(value)) }

    /// Creates a number from a floating-point value.
    ///
    /// Finite values keep the shortest text that reads back to the same `Double`; integral
    /// values are written without a fraction (`2.0` becomes `2`), as `JSONEncoder` does.
    /// Non-finite values have no JSON spelling and become their Swift description
    /// (`"nan"`, `"inf"`), which is no JSON number: encoding such a value throws
    /// `EncodingError.invalidValue` whatever the encoder's non-conforming float strategy. Encode
    /// the `Double` itself for the strategy to write it.
    ///
    /// - Parameter value: The floating-point value.
    public init(_ value: Double) { self = .number(JSONValue.literal(for: value)) }

    /// Creates a string value.
    ///
    /// - Parameter value: The string.
    public init(_ value: String) { self = .string(value) }

    /// Creates an array value.
    ///
    /// - Parameter value: The elements.
    public init(_ value: [JSONValue]) { self = .array(value) }

    /// Creates an object value from a dictionary.
    ///
    /// Dictionaries have no order, so the members are sorted by key to make the result
    /// deterministic. Use ``JSONObject`` or a dictionary literal to choose the order.
    ///
    /// - Parameter value: The members.
    public init(_ value: [String: JSONValue]) {
        self = .object(JSONObject(value.sorted { $0.key < $1.key }))
    }

    /// Parses JSON text into a value.
    ///
    /// - Parameters:
    ///   - text: The JSON document.
    ///   - allowsJSON5: Whether to accept JSON5 (comments, trailing commas, unquoted keys and more).
    /// - Throws: ``JSONParseError`` with the line and column of the first problem.
    public init(parsing text: String, allowsJSON5: Bool = false) throws {
        var text = text
        self = try text.withUTF8 { buffer in
            try JSONValue.parse(buffer, allowsJSON5: allowsJSON5)
        }
    }

    /// Parses JSON data into a value.
    ///
    /// UTF-8 (with or without a byte order mark), UTF-16 and UTF-32 input are detected, as
    /// `JSONDecoder` does.
    ///
    /// - Parameters:
    ///   - data: The JSON document.
    ///   - allowsJSON5: Whether to accept JSON5 (comments, trailing commas, unquoted keys and more).
    /// - Throws: ``JSONParseError`` with the line and column of the first problem.
    public init(parsing data: Data, allowsJSON5: Bool = false) throws {
        self = try data.withUnsafeBytes { raw in
            try JSONValue.parse(raw.bindMemory(to: UInt8.self), allowsJSON5: allowsJSON5)
        }
    }

    private static func parse(_ buffer: UnsafeBufferPointer<UInt8>, allowsJSON5: Bool) throws -> JSONValue {
        try JSONInput.withUTF8(buffer) { utf8 in
            let tree = try JSONParser.parse(utf8, options: .init(allowsJSON5: allowsJSON5, allowsTrailingCommas: false))
            return tree.value(at: 0)
        }
    }

    static func literal(for value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// Creates `null` from the `nil` literal.
    ///
    /// - Parameter nilLiteral: Nothing.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// Creates a boolean from a literal.
    ///
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// Creates a number from an integer literal.
    ///
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int) { self.init(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// Creates a number from a floating-point literal.
    ///
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) { self.init(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// Creates a string from a literal.
    ///
    /// - Parameter value: The string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// Creates an array from a literal.
    ///
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal, keeping the members in the order written.
    ///
    /// - Parameter elements: The members. A repeated key keeps its first value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}

// MARK: - Accessors

extension JSONValue {
    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, when the value is `true` or `false`; otherwise `nil`.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, when the value is a string; otherwise `nil`.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, when the value is a number with an exact integer value that fits;
    /// otherwise `nil`.
    ///
    /// `3`, `3.0` and `3e0` give 3; `3.5` and `1e30` give `nil`.
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
            decimal.isFinite, decimal == decimal.rounded(toPlaces: 0)
        else { return nil }
        return Int(exactly: NSDecimalNumber(decimal: decimal).int64Value).flatMap { value in
            Decimal(value) == decimal ? value : nil
        }
    }

    /// The number as a `Double` (correctly rounded from its literal text), when the value is a
    /// number; otherwise `nil`.
    public var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// The elements, when the value is an array; otherwise `nil`.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The members as a dictionary, when the value is an object; otherwise `nil`.
    ///
    /// A dictionary has no order; use the ``object(_:)`` case's ``JSONObject`` for the
    /// members in their original order.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { return value.dictionary }
        return nil
    }

    /// The member for a key, when the value is an object that has it; otherwise `nil`.
    ///
    /// Setting a member of an object adds or replaces it (keeping its position when it existed);
    /// setting `nil` removes it. Setting a member of `null` turns it into an object with that
    /// member, so that nested objects can be built step by step. Setting a member of any other
    /// value (a string, a number, a bool, an array) leaves the value as it is: a hook that adds a
    /// member to what the server sent (`json["kind"] = "card"`) must not stop the app when the
    /// server sends something other than an object, which the decoder then reports or refuses
    /// as it would without the hook. Check ``objectValue`` first to tell the cases apart.
    public subscript(key: String) -> JSONValue? {
        get {
            if case .object(let object) = self { return object[key] }
            return nil
        }
        set {
            switch self {
            case .object:
                // The object taken out of `self`, so that it holds the only reference to its
                // members and they are edited in place: a copy bound by the pattern would keep
                // `self`'s alive, and each set would copy every member.
                var taken = JSONValue.null
                swap(&taken, &self)
                guard case .object(var object) = consume taken else { return }
                object[key] = newValue
                self = .object(object)
            case .null:
                var object = JSONObject()
                object[key] = newValue
                self = .object(object)
            case .bool, .number, .string, .array:
                return
            }
        }
    }

    /// The element at an index, when the value is an array and the index is in range; otherwise `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

}

extension Decimal {
    fileprivate func rounded(toPlaces places: Int) -> Decimal {
        var source = self
        var result = Decimal()
        NSDecimalRound(&result, &source, places, .plain)
        return result
    }
}

// MARK: - Equality

extension JSONValue: Hashable {
    /// Whether two values have the same kind and content; numbers compare by value and objects
    /// regardless of member order.
    ///
    /// The comparison walks both values with a stack of its own, so values of any depth compare
    /// without exhausting the thread's stack.
    ///
    /// - Parameters:
    ///   - lhs: A value.
    ///   - rhs: Another value.
    /// - Returns: `true` when they are equal.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        var pending: [(JSONValue, JSONValue)] = []
        var pair = (lhs, rhs)
        while true {
            switch pair {
            case (.null, .null): break
            case (.bool(let a), .bool(let b)): if a != b { return false }
            case (.number(let a), .number(let b)): if a != b && NumberKey(a) != NumberKey(b) { return false }
            case (.string(let a), .string(let b)): if a != b { return false }
            case (.array(let a), .array(let b)):
                guard a.count == b.count else { return false }
                if !pair.0.isIdentical(to: pair.1) {
                    for index in a.indices.reversed() { pending.append((a[index], b[index])) }
                }
            case (.object(let a), .object(let b)):
                guard a.count == b.count else { return false }
                if a.sharesStorage(with: b) { break }
                if a.keys == b.keys {
                    for index in a.indices.reversed() { pending.append((a[index].value, b[index].value)) }
                } else {
                    // Keys are unique within an object, so equal objects pair up member by member.
                    let others = b.dictionary
                    for member in a {
                        guard let other = others[member.key] else { return false }
                        pending.append((member.value, other))
                    }
                }
            default: return false
            }
            guard let next = pending.popLast() else { return true }
            pair = next
        }
    }

    /// Hashes the value consistently with `==`: numbers by value, object members by key in
    /// sorted order. Like `==`, it needs no stack for depth.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        enum Step {
            case value(JSONValue)
            case key(String)
        }
        var pending: [Step] = []
        var step = Step.value(self)
        while true {
            switch step {
            case .key(let key):
                hasher.combine(key)
            case .value(.null):
                hasher.combine(0)
            case .value(.bool(let value)):
                hasher.combine(1)
                hasher.combine(value)
            case .value(.number(let text)):
                hasher.combine(2)
                hasher.combine(NumberKey(text))
            case .value(.string(let value)):
                hasher.combine(3)
                hasher.combine(value)
            case .value(.array(let elements)):
                hasher.combine(4)
                hasher.combine(elements.count)
                for element in elements.reversed() { pending.append(.value(element)) }
            case .value(.object(let object)):
                hasher.combine(5)
                hasher.combine(object.count)
                if object.count == 1 {
                    // Nothing to sort: no array to allocate, level after level of a deep chain.
                    pending.append(.value(object[0].value))
                    pending.append(.key(object[0].key))
                } else {
                    for member in object.sorted(by: { $0.key < $1.key }).reversed() {
                        pending.append(.value(member.value))
                        pending.append(.key(member.key))
                    }
                }
            }
            guard let next = pending.popLast() else { return }
            step = next
        }
    }
}

/// A canonical form of a number's literal text, so that `1`, `1.0`, `1e0` and `10e-1` compare equal.
///
/// The value is `digits × 10^exponent`, with the digits stripped of leading and trailing zeros.
/// Text that is not a decimal number (JSON5's `0x1F`, `Infinity`) is kept as it is.
struct NumberKey: Hashable {
    private var negative = false
    private var digits: [UInt8] = []
    private var exponent = 0
    private var other: String?

    init(_ text: String) {
        var bytes = Array(text.utf8)[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var fractionDigits = 0
        var seenPoint = false
        var sawDigit = false
        while let byte = bytes.first {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte) }
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            bytes = bytes.dropFirst()
        }
        var explicitExponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            // An exponent past `Int`'s range (valid JSON: `1e99999999999999999999`) keeps the
            // text as it is, as does one whose sum with the digits' shift would overflow below.
            guard let value = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) else {
                other = text
                return
            }
            explicitExponent = value
            bytes = []
        }
        guard sawDigit, bytes.isEmpty else {
            other = text
            return
        }
        guard !digits.isEmpty else {
            negative = false  // Zero, whatever its sign or spelling.
            return
        }
        var trailingZeros = 0
        while digits.last == UInt8(ascii: "0") {
            digits.removeLast()
            trailingZeros += 1
        }
        let (shifted, overflowed) = explicitExponent.subtractingReportingOverflow(fractionDigits - trailingZeros)
        guard !overflowed else {
            digits = []
            other = text
            return
        }
        exponent = shifted
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
@_spi(Benchmarks) import LenientCodable

/// The checks the fuzz targets run on each input. Each returns normally when the library behaved, and traps (so that
/// libFuzzer records the input) with a message naming the broken invariant when it did not.
public enum FuzzChecks {
    /// Parses the input to the internal tree and to `JSONValue`, strict and JSON5.
    ///
    /// Invariants: every failure is a `JSONParseError` with a 1-based line and column and an offset inside the input;
    /// the tree parser and `JSONValue(parsing:)` agree on success; whatever strict mode accepts, JSON5 accepts with an
    /// equal value (but a string holding NUL, which JSON5 refuses as Foundation's JSON5 mode does); for UTF-8 input without a byte order mark or NUL bytes, parsing the `Data` and the `String` agree.
    ///
    /// - Parameter bytes: The input.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
        let data = Data(bytes)
        let tree = outcome(of: data) { try _parseForBenchmark(data) }
        let strict = outcome(of: data) { try JSONValue(parsing: data) }
        let json5 = outcome(of: data) { try JSONValue(parsing: data, allowsJSON5: true) }
        require((tree.value != nil) == (strict.value != nil), "tree and JSONValue disagree: \(tree) vs \(strict)")
        // JSON5 refuses NUL in strings (`\u0000`, as Foundation's JSON5 mode does), which strict JSON allows.
        if let value = strict.value, !(json5.error?.message.contains("NUL character") ?? false) {
            require(json5.value == value, "strict accepts, JSON5 gives \(json5)")
        }
        if let value = strict.value { consume(value) }
        if let value = json5.value { consume(value) }
        let hasNUL = bytes.contains(0)
        let hasBOM = bytes.first.map { [0xEF, 0xFE, 0xFF].contains($0) } ?? false
        if !hasNUL, !hasBOM, let text = String(validating: bytes, as: UTF8.self) {
            let fromString = outcome(of: data) { try JSONValue(parsing: text) }
            require(fromString.value == strict.value, "Data gives \(strict), String gives \(fromString)")
            require(fromString.error?.code == strict.error?.code, "Data gives \(strict), String gives \(fromString)")
        }
    }

    /// Decodes the input into the broad model and its parts, strict and lenient, with and without a report.
    ///
    /// Invariants: every error is a `DecodingError` (or the hooked type's own rejection) with a debug description; what
    /// strict mode decodes, lenient mode decodes too; a lenient decode with a report gives the same value as without.
    ///
    /// - Parameter bytes: The input.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) {
        let data = Data(bytes)
        let strict = LenientJSONDecoder(options: .strict)
        let lenient = LenientJSONDecoder(options: .lenient)
        let strictJSON5 = LenientJSONDecoder(options: .strict)
        strictJSON5.allowsJSON5 = true

        func check<Model: Decodable & Hashable>(_ type: Model.Type, withReport: Bool = false) {
            let strictResult = decodeOutcome(type, data, strict)
            let lenientResult = decodeOutcome(type, data, lenient)
            _ = decodeOutcome(type, data, strictJSON5)
            if strictResult != nil {
                require(lenientResult != nil, "strict decodes \(Model.self), lenient does not")
            }
            // The report costs a third decode: only for the broad model, to keep each input well under 1 s.
            guard withReport else { return }
            let reported: Model?
            do {
                let (value, report) = try lenient.decodeWithReport(type, from: data)
                consume(value)
                consume(report.issues.count)
                reported = value
            } catch {
                checkDecodingError(error)
                reported = nil
            }
            require(reported == lenientResult, "decodeWithReport gives a different value for \(Model.self)")
        }
        check(Broad.self, withReport: true)
        check([Broad].self, withReport: true)
        check(Scalars.self)
        check(Containers.self)
        check(Mapped.self)
        check(Hooked.self)
        check([Hooked].self)
        check([String: Tone].self)
        check(JSONValue.self)
        // `DecodedTree` costs time quadratic in the depth (each level's failed tries build its coding path): past 64
        // levels it measures the test type, not the library.
        if nestingDepth(bytes) <= 64 { check(DecodedTree.self) }
    }

    /// Parses the input, encodes the value and parses the output back; decodes the broad model leniently, encodes it
    /// and decodes the output strictly.
    ///
    /// Invariants: the value parsed back equals the value parsed, in compact, sorted and pretty output; a value parsed
    /// from strict JSON always encodes; the model decoded back equals the model (when it encodes: a lenient decode may
    /// produce a NaN that the default float strategy refuses).
    ///
    /// - Parameter bytes: The input.
    public static func roundTrip(_ bytes: UnsafeBufferPointer<UInt8>) {
        let data = Data(bytes)
        let formattings: [JSONEncoder.OutputFormatting] = [
            [], [.sortedKeys], [.prettyPrinted, .withoutEscapingSlashes],
        ]
        for allowsJSON5 in [false, true] {
            guard let value = try? JSONValue(parsing: data, allowsJSON5: allowsJSON5) else { continue }
            for formatting in formattings {
                let encoder = LenientJSONEncoder()
                encoder.outputFormatting = formatting
                let output: Data
                do {
                    output = try encoder.encode(value)
                } catch {
                    // As with Foundation, the decoder accepts 512 levels of nesting and the encoder 511.
                    require(
                        allowsJSON5 || depth(of: value) == 512,
                        "a value parsed from strict JSON does not encode: \(error)")
                    continue
                }
                do {
                    let back = try JSONValue(parsing: output)
                    require(back == value, "round trip changes the value: \(String(decoding: output, as: UTF8.self))")
                } catch {
                    fail("the encoder's output does not parse: \(error) in \(String(decoding: output, as: UTF8.self))")
                }
            }
        }
        let lenient = LenientJSONDecoder(options: .lenient)
        guard let model = try? lenient.decode(Broad.self, from: data) else { return }
        // The pairs the contract promises a round trip for: both defaults (dates as ISO 8601, read back exactly), and
        // `.deferredToDate` written for a strict decoder, which reads dates as Foundation does.
        let foundationDates = LenientJSONEncoder()
        foundationDates.dateEncodingStrategy = .deferredToDate
        for (encoder, decoder) in [
            (LenientJSONEncoder(), LenientJSONDecoder()), (foundationDates, LenientJSONDecoder(options: .strict)),
        ] {
            guard let output = try? encoder.encode(model) else { continue }
            do {
                let back = try decoder.decode(Broad.self, from: output)
                require(back == model, "model round trip changes the value: \(String(decoding: output, as: UTF8.self))")
            } catch {
                fail("the encoded model does not decode again: \(error) in \(String(decoding: output, as: UTF8.self))")
            }
        }
    }

    /// Decodes the input with Foundation's `JSONDecoder` and with `LenientJSONDecoder(options: .strict)`, as a
    /// ``DecodedTree`` (every value read through the Codable API) and as a model of standard types.
    ///
    /// Invariant: the same value, or errors that agree, except for the deliberate differences listed in
    /// Fuzz/README.md ("Differential allow-list"), each checked here as narrowly as it can be.
    ///
    /// - Parameter bytes: The input.
    public static func differential(_ bytes: UnsafeBufferPointer<UInt8>) {
        let data = Data(bytes)
        // Allow-list 5: Foundation mis-detects a UTF-32LE byte order mark.
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return }
        // Allow-list 8: Foundation traps on a document that ends with the `[` opening level 513.
        if mayEndWithTooDeepArray(bytes) { return }
        // Allow-list 9: Foundation traps reading an integer whose `Decimal` exponent passes -128.
        if mayHoldDecimalExponentUnderflow(bytes) { return }
        // Reading a deep document through `DecodedTree` costs Foundation time quadratic in the depth (each level's
        // failed tries build its coding path), which passes the 1 s limit near the depth limit: not ours to measure.
        if nestingDepth(bytes) <= 64 { compare(DecodedTree.self, data) }
        compare(Standard.self, data)
        compare([Scalars].self, data)
    }
}

// MARK: - The differential comparison

extension FuzzChecks {
    private static func compare<Model: Decodable & Hashable>(_ type: Model.Type, _ data: Data) {
        let foundation = Result { try JSONDecoder().decode(type, from: data) }
        let ours = Result { try LenientJSONDecoder(options: .strict).decode(type, from: data) }
        switch (ours, foundation) {
        case (.success(let left), .success(let right)):
            require(left == right, "\(Model.self): values differ")
            consume(left)
        case (.failure(let left), .failure(let right)):
            // Allow-lists 2 and 3: ours refuses a syntax error before decoding, with its position; Foundation reads
            // values lazily and fails wherever (and however) it first meets the bad one.
            if isSyntaxError(left) { return }
            let (oursSummary, foundationSummary) = (DecodingErrorSummary(left), DecodingErrorSummary(right))
            // Allow-list 10: a dictionary with several bad members, met in a different order.
            if differInOneSiblingOnly(oursSummary, foundationSummary) { return }
            let agree = oursSummary.agrees(withFoundation: foundationSummary)
            require(agree, "\(Model.self): errors differ: ours \(left), Foundation \(right)")
        case (.failure(let error), .success(let value)):
            require(
                isAllowedRefusal(error, foundationValue: value, data),
                "\(Model.self): ours refuses what Foundation accepts: \(error)")
        case (.success, .failure(let error)):
            fail("\(Model.self): ours accepts what Foundation refuses: \(error)")
        }
    }

    /// Whether two errors of the same kind are at paths that differ in one key only: two bad members of one
    /// dictionary. The standard library's `Dictionary` decodes its members in its container's `allKeys` order, which
    /// for Foundation is the hash order of its own dictionary (it changes from process to process), and for ours the
    /// document's; with two bad members each reports the one it meets first.
    private static func differInOneSiblingOnly(_ ours: DecodingErrorSummary, _ theirs: DecodingErrorSummary) -> Bool {
        guard ours.kind == theirs.kind, ours.codingPath.count == theirs.codingPath.count else { return false }
        return zip(ours.codingPath, theirs.codingPath).filter { $0 != $1 }.count == 1
    }

    /// Whether the input may end with the `[` that opens level 513, on which Foundation's `JSONDecoder` traps: its
    /// scanner locates the depth error one byte past that bracket, outside the input (`[` repeated 513 times is the
    /// shortest case). True when the last byte other than NUL is `[` (so UTF-16 and UTF-32 too) and at least 513 bytes
    /// are `[` or `{`: a superset, which hides nothing, since such a document never parses and a syntax error of ours
    /// is never compared with Foundation's error.
    private static func mayEndWithTooDeepArray(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.last(where: { $0 != 0 }) == UInt8(ascii: "[") else { return false }
        return bytes.count(where: { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "{") }) > 512
    }

    /// Whether the input may hold a number on which Foundation's `JSONDecoder` traps when it reads an integer: from
    /// 2^53 up, Foundation reads a number with a fraction as a `Decimal`, which fails when 129 fraction digits fit its
    /// 128-bit significand (its exponent would pass -128), and then traps instead of throwing. Such a fraction starts
    /// with 90 or more zeros. True when, NUL bytes aside (so UTF-16 and UTF-32 too), a `.` is followed by 129 or more
    /// digits, the first 90 of them `0`.
    private static func mayHoldDecimalExponentUnderflow(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var afterPoint = false
        var digits = 0
        var leadingZeros = 0
        for byte in bytes where byte != 0 {
            if afterPoint && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if byte == UInt8(ascii: "0") && leadingZeros == digits { leadingZeros += 1 }
                digits += 1
                if digits >= 129 && leadingZeros >= 90 { return true }
            } else {
                afterPoint = byte == UInt8(ascii: ".")
                digits = 0
                leadingZeros = 0
            }
        }
        return false
    }

    /// How deeply arrays and objects nest in `value`: 0 for a scalar.
    private static func depth(of value: JSONValue) -> Int {
        switch value {
        case .array(let elements): 1 + (elements.map(depth(of:)).max() ?? 0)
        case .object: 1 + (value.objectValue?.values.map(depth(of:)).max() ?? 0)
        default: 0
        }
    }

    /// The deepest nesting of brackets and braces, counting those in strings too: an upper bound.
    static func nestingDepth(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        for byte in bytes {
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                depth += 1
                deepest = max(deepest, depth)
            } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                depth = max(0, depth - 1)
            }
        }
        return deepest
    }

    private static func parseError(of error: any Error) -> JSONParseError? {
        guard let decodingError = error as? DecodingError, case .dataCorrupted(let context) = decodingError else {
            return nil
        }
        return context.underlyingError as? JSONParseError
    }

    /// Whether `error` is our refusal of a syntax error: `dataCorrupted` at the top level, the parse error underlying.
    private static func isSyntaxError(_ error: any Error) -> Bool {
        guard let decodingError = error as? DecodingError, case .dataCorrupted(let context) = decodingError else {
            return false
        }
        return context.codingPath.isEmpty && context.underlyingError is JSONParseError
    }

    /// Whether our refusal of a document Foundation accepts is one of the deliberate differences.
    private static func isAllowedRefusal<Model: Decodable & Hashable>(
        _ error: any Error, foundationValue: Model, _ data: Data
    ) -> Bool {
        guard isSyntaxError(error) else { return false }
        // Allow-list 1: trailing commas. With them allowed, ours gives Foundation's value.
        var trailingCommas = LenientJSONDecoder.Options.strict
        trailingCommas.allowsTrailingCommas = true
        let withTrailingCommas = try? LenientJSONDecoder(options: trailingCommas).decode(Model.self, from: data)
        if withTrailingCommas == foundationValue { return true }
        // Allow-list 3: full validation. Foundation checks a string or number only when it is read, so it accepts a
        // bad one in a value the model skips or in a later duplicate key; ours refuses the document. Other syntax
        // errors must still be refused by Foundation once every value is read.
        let valueCodes: [JSONParseError.Code] = [
            .invalidNumber, .invalidEscape, .invalidUnicodeEscape, .controlCharacterInString, .invalidUTF8,
        ]
        if let parseError = parseError(of: error), valueCodes.contains(parseError.code) { return true }
        // Foundation's scanner takes every byte of `0-9 + - . e E` after a number as part of it (`429496729-`) and
        // checks the token only when it is read; ours stops the number at the first byte that cannot continue it.
        if let parseError = parseError(of: error), parseError.code == .unexpectedCharacter,
            parseError.byteOffset > 0, parseError.byteOffset < data.count
        {
            let numberBytes = Set("0123456789+-.eE".utf8)
            let offset = data.startIndex + parseError.byteOffset
            if numberBytes.contains(data[offset]) && numberBytes.contains(data[offset - 1]) { return true }
        }
        if (try? JSONDecoder().decode(DecodedTree.self, from: data)) == nil {
            return true
        }
        // Allow-list 7: UTF-16 or UTF-32 whose length is not a whole number of code units; Foundation ignores the
        // partial unit at the end, ours refuses the input.
        if (try? JSONValue(parsing: data)) == nil {
            for unit in [2, 4] where data.count % unit != 0 {
                let whole = data.prefix(data.count - data.count % unit)
                if (try? LenientJSONDecoder(options: trailingCommas).decode(Model.self, from: whole)) == foundationValue
                {
                    return true
                }
            }
        }
        // Allow-list 6: Foundation ignores what follows a NUL byte after a complete top-level value.
        if let nul = data.firstIndex(of: 0), nul > data.startIndex,
            (try? LenientJSONDecoder(options: trailingCommas).decode(Model.self, from: data[..<nul])) == foundationValue
        {
            return true
        }
        return false
    }
}

// MARK: - Helpers

extension FuzzChecks {
    /// The value of a parse, or its error, checked to be a well-formed `JSONParseError`.
    private static func outcome<Value>(of data: Data, _ body: () throws -> Value) -> ParseOutcome<Value> {
        do {
            return ParseOutcome(value: try body(), error: nil)
        } catch let error as JSONParseError {
            require(error.line >= 1 && error.column >= 1, "parse error position is not 1-based: \(error)")
            // The offset counts bytes of the UTF-8 the parser reads: UTF-16 and UTF-32 input is transcoded first, and a
            // UTF-16 code unit of 2 bytes may become 3 bytes of UTF-8.
            let limit =
                data.prefix(4).contains(0) || data.first == 0xFE || data.first == 0xFF ? 2 * data.count : data.count
            require((0...limit).contains(error.byteOffset), "parse error offset outside the input: \(error)")
            require(!error.message.isEmpty, "parse error without a message")
            return ParseOutcome(value: nil, error: error)
        } catch {
            fail("parsing threw \(type(of: error)), not JSONParseError: \(error)")
        }
    }

    private static func decodeOutcome<Model: Decodable & Hashable>(
        _ type: Model.Type, _ data: Data, _ decoder: LenientJSONDecoder
    ) -> Model? {
        do {
            let value = try decoder.decode(type, from: data)
            consume(value)
            return value
        } catch {
            checkDecodingError(error)
            return nil
        }
    }

    private static func checkDecodingError(_ error: any Error) {
        consume(error: error)
        if error is Hooked.Negative || error is DecodedTree.Failure { return }
        guard let decodingError = error as? DecodingError else {
            fail("decoding threw \(type(of: error)), not DecodingError: \(error)")
        }
        switch decodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            require(!context.debugDescription.isEmpty, "DecodingError without a debug description: \(error)")
        @unknown default:
            fail("unknown DecodingError: \(error)")
        }
    }

    private static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    private static func fail(_ message: String) -> Never {
        fatalError("Fuzz invariant broken: \(message)")
    }
}

/// A parse's value or error.
private struct ParseOutcome<Value>: CustomStringConvertible {
    let value: Value?
    let error: JSONParseError?

    var description: String {
        if let value { return "value \(value)" }
        return "error \(String(describing: error))"
    }
}

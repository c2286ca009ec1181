// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Converts the text of a number node into Swift numbers, exactly.
///
/// Integers come out exact or not at all: `1e2` is 100 and `1.0` is 1, but `1.5` and
/// `9223372036854775808` are not an `Int`. Floating-point values are correctly rounded; short
/// numbers take a fast path that is exact by construction, the rest go through the standard
/// library's correctly rounded conversion.
enum NumberConversion {
    /// The powers of ten that a `Double` holds exactly.
    static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    // MARK: Integers

    /// Reads a plain integer (`-?[0-9]+`) of up to 19 digits; `nil` when the text is anything else.
    @inline(__always)
    static func parseSmallInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> (magnitude: UInt64, negative: Bool)? {
        var index = 0
        let count = bytes.count
        let negative = count > 0 && bytes[0] == UInt8(ascii: "-")
        if negative { index = 1 }
        guard count - index > 0 && count - index <= 19 else { return nil }
        var magnitude: UInt64 = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            magnitude = magnitude &* 10 &+ UInt64(digit)
            index += 1
        }
        return (magnitude, negative)
    }

    /// The integer value of a number's text, when it has one and it fits `T`.
    @inline(__always)
    static func integer<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        if let (magnitude, negative) = parseSmallInteger(bytes) {
            return integer(magnitude: magnitude, negative: negative, as: type)
        }
        return integerSlowPath(bytes, as: type)
    }

    @inline(__always)
    static func integer<T: FixedWidthInteger>(magnitude: UInt64, negative: Bool, as type: T.Type) -> T? {
        if !negative { return T(exactly: magnitude) }
        if magnitude == 0 { return 0 }
        guard T.isSigned else { return nil }
        guard magnitude <= UInt64(Int64.max) + 1 else {
            // Below Int64.min (-9223372036854775809 and down): only a wider type, `Int128`, holds it.
            guard T.bitWidth > 64, let positive = T(exactly: magnitude) else { return nil }
            return 0 - positive
        }
        let value = magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        return T(exactly: value)
    }

    /// Integers written with a fraction, an exponent or many digits: `1.0`, `1e2`, `-0.0`,
    /// `18446744073709551615`, with Foundation's rules: the text is read as a `Double`, which
    /// must be a whole number that fits; below 2^53 that is the value (so `1e-400` is 0), and
    /// from 2^53 up the text is read again as Foundation's `Decimal` reads it
    /// (``integerThroughDecimal(_:)``) and the fraction dropped.
    static func integerSlowPath<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        // Plain integer text of any length is read exactly, as Foundation's fast path does.
        if !bytes.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
            if let decimal = DecimalText(bytes), let (magnitude, negative) = decimal.integerPart(),
                let value = integer(magnitude: magnitude, negative: negative, as: type)
            {
                return value
            }
            // `Int128` and `UInt128` hold magnitudes past 64 bits, which Foundation reads exactly too.
            if T.bitWidth > 64, let value = T(String(decoding: bytes, as: UTF8.self)) { return value }
        }
        guard let double = Double(String(decoding: bytes, as: UTF8.self)), let value = T(exactly: double) else {
            return nil
        }
        if double.magnitude < 9_007_199_254_740_992 { return value }
        // Foundation negates a magnitude that fits the type, so the Decimal path never gives Int64.min.
        guard let (magnitude, negative) = integerThroughDecimal(bytes), let positive = T(exactly: magnitude) else {
            return nil
        }
        if !negative { return positive }
        return T.isSigned ? 0 - positive : nil
    }

    /// The magnitude of the integer Foundation's `JSONDecoder` reads, from 2^53 up, from a number
    /// written with a fraction or an exponent, or `nil` where it fails.
    ///
    /// Foundation parses the text as a `Decimal`: digits go into a 128-bit significand until it is
    /// full, after which an integer digit adds one to the exponent (which must stay at most 127)
    /// and a fraction digit is dropped; each fraction digit kept takes one from the exponent (which
    /// must stay at least -128, so leading zeros count); an explicit exponent above 254 or a total
    /// outside -128...127 fails; trailing zeros go. The conversion to an integer then needs that
    /// significand to fit 64 bits, and divides by ten (dropping the fraction) or multiplies by ten
    /// without overflow. So `1000000000000000000.0000000000000000000000000000001` is 10^18 (its
    /// last digit is past 128 bits), while `1000000000000000000.0000000000000001` fails.
    static func integerThroughDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> (magnitude: UInt64, negative: Bool)? {
        // 2^128 - 1, the largest significand, one digit per element.
        let largest: [UInt8] = [
            3, 4, 0, 2, 8, 2, 3, 6, 6, 9, 2, 0, 9, 3, 8, 4, 6, 3, 4, 6, 3, 3, 7, 4, 6, 0, 7, 4, 3, 1, 7, 6, 8, 2, 1, 1,
            4, 5, 5,
        ]
        var digits: [UInt8] = []
        var exponent = 0
        var full = false
        /// Appends a digit to the significand, or returns `false` when it would pass 128 bits.
        func append(_ digit: UInt8) -> Bool {
            if digits.isEmpty && digit == 0 { return true }
            digits.append(digit)
            if digits.count < largest.count
                || (digits.count == largest.count && !largest.lexicographicallyPrecedes(digits))
            {
                return true
            }
            digits.removeLast()
            return false
        }
        func digit(at index: Int) -> UInt8? {
            guard index < bytes.count else { return nil }
            let digit = bytes[index] &- UInt8(ascii: "0")
            return digit < 10 ? digit : nil
        }
        var index = 0
        var negative = false
        if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        while let digit = digit(at: index) {
            if full || !append(digit) {
                full = true
                guard exponent < 127 else { return nil }
                exponent += 1
            }
            index += 1
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while let digit = digit(at: index) {
                if !full {
                    if append(digit) {
                        guard exponent > -128 else { return nil }
                        exponent -= 1
                    } else {
                        full = true
                    }
                }
                index += 1
            }
        }
        if index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < bytes.count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var explicit = 0
            while let digit = digit(at: index) {
                explicit = explicit * 10 + Int(digit)
                guard explicit <= 254 else { return nil }
                index += 1
            }
            exponent += exponentNegative ? -explicit : explicit
            guard (-128...127).contains(exponent) else { return nil }
        }
        guard index == bytes.count else { return nil }
        while let last = digits.last, last == 0, exponent < 127 {
            digits.removeLast()
            exponent += 1
        }
        var magnitude: UInt64 = 0
        for digit in digits {
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflow && !carry else { return nil }
            magnitude = sum
        }
        if exponent < 0 {
            for _ in 0..<(-exponent) { magnitude /= 10 }
        } else {
            for _ in 0..<exponent {
                let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                magnitude = shifted
            }
        }
        return (magnitude, negative)
    }

    // MARK: Floating point

    /// The `Double` nearest to a number's text, or `nil` when it overflows to infinity or
    /// underflows to zero from non-zero digits (as Foundation refuses both).
    @inline(__always)
    static func double(_ bytes: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> Double? {
        if isInteger, let (magnitude, negative) = parseSmallInteger(bytes), magnitude <= 1 << 53 {
            let value = Double(magnitude)
            return negative ? -value : value
        }
        guard let (significand, exponent, negative) = decimalComponents(bytes) else { return doubleSlowPath(bytes) }
        if let value = clinger(significand: significand, exponent: exponent, negative: negative) { return value }
        if let value = eiselLemire(significand: significand, exponent: exponent, negative: negative) {
            // Foundation refuses what overflows to infinity or underflows to zero.
            if !value.isFinite || (value == 0 && significand != 0) { return nil }
            return value
        }
        return doubleSlowPath(bytes)
    }

    /// Clinger's fast path: a significand exact in a `Double` (at most 2^53) and a power of ten
    /// below 10^23, both exact, so one multiplication or division rounds correctly.
    @inline(__always)
    static func clinger(significand: UInt64, exponent: Int, negative: Bool) -> Double? {
        guard significand <= 1 << 53 else { return nil }
        var value = Double(significand)
        if significand == 0 {
            value = 0
        } else if exponent < 0 {
            guard exponent >= -22 else { return nil }
            value /= exactPowersOfTen[-exponent]
        } else if exponent > 0 {
            guard exponent <= 22 else { return nil }
            value *= exactPowersOfTen[exponent]
        }
        return negative ? -value : value
    }

    static func doubleSlowPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return checkedRange(value, bytes)
    }

    /// The `Float` nearest to a number's text, rounded once from the text (never through `Double`).
    static func float(_ bytes: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> Float? {
        if isInteger, let (magnitude, negative) = parseSmallInteger(bytes), magnitude <= 1 << 24 {
            let value = Float(magnitude)
            return negative ? -value : value
        }
        guard let value = Float(String(decoding: bytes, as: UTF8.self)) else { return nil }
        return checkedRange(value, bytes)
    }

    /// Refuses infinities from finite text, and zero from text with a non-zero digit.
    private static func checkedRange<F: BinaryFloatingPoint>(_ value: F, _ bytes: UnsafeBufferPointer<UInt8>) -> F? {
        if !value.isFinite { return nil }
        if value == 0 {
            for byte in bytes {
                if byte | 0x20 == UInt8(ascii: "e") { break }
                if byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9") { return nil }
            }
        }
        return value
    }

    // MARK: JSON5

    /// Rewrites a JSON5 number (`+1`, `.5`, `5.`, `0x1F`, `Infinity`, `NaN`) as the value it
    /// stands for, or `nil` when it is hexadecimal or named and has no decimal spelling.
    static func json5Value(_ bytes: UnsafeBufferPointer<UInt8>) -> JSON5Number {
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        var negative = false
        if let sign = text.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            text = text.dropFirst()
        }
        if text == "Infinity" { return .double(negative ? -.infinity : .infinity) }
        if text == "NaN" { return .double(.nan) }
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            guard let magnitude = UInt64(text.dropFirst(2), radix: 16) else { return .invalid }
            return .hexadecimal(magnitude: magnitude, negative: negative)
        }
        var decimal = String(text)
        if decimal.hasPrefix(".") { decimal = "0" + decimal }
        decimal = decimal.replacingOccurrences(of: ".e", with: ".0e").replacingOccurrences(of: ".E", with: ".0E")
        if decimal.hasSuffix(".") { decimal += "0" }
        return .decimal((negative ? "-" : "") + decimal)
    }

    enum JSON5Number {
        case double(Double)
        case hexadecimal(magnitude: UInt64, negative: Bool)
        case decimal(String)
        case invalid
    }
}

/// A decimal number's digits and exponent, for exact arithmetic on its text.
struct DecimalText {
    var negative = false
    /// The significant digits, without leading zeros.
    var digits: [UInt8] = []
    /// The value is `digits × 10^exponent`.
    var exponent = 0

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        var index = 0
        let count = bytes.count
        if index < count && (bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+")) {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var sawDigit = false
        var seenPoint = false
        while index < count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte &- UInt8(ascii: "0")) }
                if seenPoint { exponent -= 1 }
            } else if byte == UInt8(ascii: ".") && !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { return nil }
        if index < count {
            guard bytes[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            index += 1
            var exponentNegative = false
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var explicit = 0
            var sawExponentDigit = false
            while index < count, bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                // Past a million the exponent only decides between zero and overflow.
                explicit = min(explicit * 10 + Int(bytes[index] &- UInt8(ascii: "0")), 1_000_000)
                sawExponentDigit = true
                index += 1
            }
            guard sawExponentDigit else { return nil }
            exponent += exponentNegative ? -explicit : explicit
        }
        guard index == count else { return nil }
        while let last = digits.last, last == 0 {
            digits.removeLast()
            exponent += 1
        }
    }

    /// The magnitude of the integer part (the fraction dropped), when it is below 2^64.
    /// Whether a digit other than zero follows the decimal point: `1.5`, `15e-1`; not `1.0` or
    /// `9223372036854775807e0`.
    var hasFraction: Bool {
        digits.dropFirst(max(0, digits.count + exponent)).contains { $0 != 0 }
    }

    /// The integer part as a `T`, the fraction dropped (toward zero), or `nil` when it does not
    /// fit: `Int128` and `UInt128` hold what 64 bits do not (`1.5e20`). At most one digit past
    /// the type's width is read, however large the exponent.
    func integerPart<T: FixedWidthInteger>(as type: T.Type) -> T? {
        let integerDigits = digits.count + exponent
        if digits.isEmpty || integerDigits <= 0 { return 0 }
        var value: T = 0
        for position in 0..<integerDigits {
            let digit = T(position < digits.count ? digits[position] : 0)
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }

    func integerPart() -> (magnitude: UInt64, negative: Bool)? {
        let integerDigits = digits.count + exponent
        if digits.isEmpty || integerDigits <= 0 { return (0, negative) }
        guard integerDigits <= 20 else { return nil }
        var magnitude: UInt64 = 0
        for position in 0..<integerDigits {
            let digit = position < digits.count ? UInt64(digits[position]) : 0
            let (shifted, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sum, carry) = shifted.addingReportingOverflow(digit)
            guard !carry else { return nil }
            magnitude = sum
        }
        return (magnitude, negative)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The Eisel–Lemire conversion of a decimal number to the nearest `Double`.
///
/// For a significand `w` of at most 19 digits and a power of ten `q`, `w × 10^q` is rounded
/// correctly with one or two 64×128-bit multiplications by a precomputed power of five
/// (`powersOfFive128`), instead of `strtod`'s arbitrary-precision arithmetic. In the rare cases
/// where the truncated product cannot decide the rounding, it answers `nil` and the caller
/// falls back to the standard library. See Daniel Lemire, "Number Parsing at a Gigabyte per
/// Second", Software: Practice and Experience 51 (8), 2021.
extension NumberConversion {
    private static let smallestPowerOfTen = -342
    private static let largestPowerOfTen = 308

    /// The significand and decimal exponent of JSON number text, when the significand has at
    /// most 19 digits (so that it fits a `UInt64` exactly).
    @inline(__always)
    static func decimalComponents(_ bytes: UnsafeBufferPointer<UInt8>) -> (
        significand: UInt64, exponent: Int, negative: Bool
    )? {
        var index = 0
        let count = bytes.count
        var negative = false
        if index < count && bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var significand: UInt64 = 0
        var digits = 0
        var exponent = 0
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significand != 0 || digit != 0 { digits += 1 }
            significand = significand &* 10 &+ UInt64(digit)
            index += 1
        }
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significand != 0 || digit != 0 { digits += 1 }
                significand = significand &* 10 &+ UInt64(digit)
                exponent -= 1
                index += 1
            }
        }
        guard digits <= 19 else { return nil }
        if index < count {
            guard bytes[index] | 0x20 == UInt8(ascii: "e") else { return nil }
            index += 1
            var exponentNegative = false
            if index < count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var explicit = 0
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                // Past this the result is zero or infinity whatever the digits are.
                if explicit < 100_000 { explicit = explicit * 10 + Int(digit) }
                index += 1
            }
            exponent += exponentNegative ? -explicit : explicit
        }
        guard index == count else { return nil }
        return (significand, exponent, negative)
    }

    /// The `Double` nearest to `significand × 10^exponent`, or `nil` when the fast computation
    /// cannot decide the rounding.
    static func eiselLemire(significand: UInt64, exponent q: Int, negative: Bool) -> Double? {
        let sign: UInt64 = negative ? 1 << 63 : 0
        if significand == 0 || q < smallestPowerOfTen { return Double(bitPattern: sign) }
        if q > largestPowerOfTen { return Double(bitPattern: sign | 0x7FF0_0000_0000_0000) }
        let leadingZeros = significand.leadingZeroBitCount
        let w = significand << UInt64(leadingZeros)
        let tableIndex = 2 * (q - smallestPowerOfTen)
        var (high, low) = w.multipliedFullWidth(by: powersOfFive128[tableIndex])
        // 52 explicit mantissa bits + 3: when the bits below them are all ones, the truncation
        // of the power may matter, and the power's next 64 bits refine the product.
        let precisionMask: UInt64 = UInt64.max >> 55
        if high & precisionMask == precisionMask {
            let (secondHigh, _) = w.multipliedFullWidth(by: powersOfFive128[tableIndex + 1])
            let (sum, carry) = low.addingReportingOverflow(secondHigh)
            low = sum
            if carry { high &+= 1 }
        }
        if low == UInt64.max && !(-27...55).contains(q) { return nil }
        let upperBit = Int(high >> 63)
        var mantissa = high >> UInt64(upperBit + 9)
        var power2 = (((152_170 + 65_536) * q) >> 16) + 63 + upperBit - leadingZeros + 1023
        if power2 <= 0 {
            // Subnormal, or zero.
            if -power2 + 1 >= 64 { return Double(bitPattern: sign) }
            mantissa >>= UInt64(-power2 + 1)
            mantissa += mantissa & 1
            mantissa >>= 1
            power2 = mantissa < (1 << 52) ? 0 : 1
            return Double(bitPattern: sign | UInt64(power2) << 52 | mantissa)
        }
        // Exactly halfway between two doubles: round to even.
        if low <= 1 && (-4...23).contains(q) && mantissa & 3 == 1 && mantissa << UInt64(upperBit + 9) == high {
            mantissa &= ~1
        }
        mantissa += mantissa & 1
        mantissa >>= 1
        if mantissa >= 2 << 52 {
            mantissa = 1 << 52
            power2 += 1
        }
        mantissa &= ~(1 << 52)
        if power2 >= 0x7FF { return Double(bitPattern: sign | 0x7FF0_0000_0000_0000) }
        return Double(bitPattern: sign | UInt64(power2) << 52 | mantissa)
    }
}

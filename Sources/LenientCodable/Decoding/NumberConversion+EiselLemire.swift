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
        index = accumulateDigits(bytes, from: index, into: &significand, counting: &digits)
        if index < count && bytes[index] == UInt8(ascii: ".") {
            let fractionStart = index + 1
            index = accumulateDigits(bytes, from: fractionStart, into: &significand, counting: &digits)
            exponent -= index - fractionStart
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

    /// Reads the run of ASCII digits at `start` into `significand` (wrapping past 19 digits, which
    /// `digits` then tells), counting the digits after the leading zeros in `digits`; returns the
    /// index past the run. Eight digits at a time where eight are left, then one by one: the
    /// same result as the one-by-one loop alone.
    ///
    /// Memory: every word read lies inside `bytes` (the first `count` bytes from its start), which
    /// the caller keeps alive for the call — a number's text in the tree's input, which its node
    /// storage holds, or a string's bytes inside `withUTF8`.
    @inline(__always)
    static func accumulateDigits(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into significand: inout UInt64, counting digits: inout Int
    ) -> Int {
        var index = start
        let count = bytes.count
        if let base = bytes.baseAddress {
            while index &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                guard NumberConversion.nonDigitBytes(word) == 0 else { break }
                let value = NumberConversion.valueOfEightDigits(word)
                if significand != 0 {
                    digits &+= 8
                } else if value != 0 {
                    // The zeros before the first other digit do not count.
                    let zeros = (word ^ 0x3030_3030_3030_3030).trailingZeroBitCount &>> 3
                    digits &+= 8 &- zeros
                }
                significand = significand &* 100_000_000 &+ value
                index &+= 8
            }
            // Fewer than eight left: when they are the last bytes of the text and all digits (a
            // fraction at the end of a number), read them as the last eight bytes, with the bytes
            // before them taken as leading zeros.
            let remaining = count &- index
            if remaining > 0 && remaining < 8 && count >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + (count &- 8)).loadUnaligned(as: UInt64.self))
                let before: UInt64 = (1 &<< UInt64((8 &- remaining) &* 8)) &- 1
                let padded = (word & ~before) | (0x3030_3030_3030_3030 & before)
                if NumberConversion.nonDigitBytes(padded) == 0 {
                    let value = NumberConversion.valueOfEightDigits(padded)
                    if significand != 0 {
                        digits &+= remaining
                    } else if value != 0 {
                        digits &+= 8 &- (padded ^ 0x3030_3030_3030_3030).trailingZeroBitCount &>> 3
                    }
                    significand = significand &* NumberConversion.powersOfTenBelow8[remaining] &+ value
                    return count
                }
            }
        }
        while index < count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if significand != 0 || digit != 0 { digits &+= 1 }
            significand = significand &* 10 &+ UInt64(digit)
            index &+= 1
        }
        return index
    }

    /// 10^0 to 10^7.
    static let powersOfTenBelow8: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]

    /// A word with a bit set in each byte of `word` that is not an ASCII digit, in the byte's high
    /// nibble, and nothing in the bytes before the first such one (little-endian order: the first
    /// byte of the text is the lowest).
    ///
    /// A byte is a digit when its high nibble is 3 and stays 3 after adding 6. The addition can
    /// carry into the next byte only from a byte of 0xFA or more, which is not a digit itself, so
    /// every byte up to the first non-digit is judged exactly.
    @inline(__always)
    static func nonDigitBytes(_ word: UInt64) -> UInt64 {
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let judged = (word & highNibbles) | (((word &+ 0x0606_0606_0606_0606) & highNibbles) &>> 4)
        return judged ^ 0x3333_3333_3333_3333
    }

    /// The value of eight ASCII digits, the first in the lowest byte: pairs of digits, then pairs
    /// of pairs, then the two halves, each step one multiplication across all lanes.
    @inline(__always)
    static func valueOfEightDigits(_ word: UInt64) -> UInt64 {
        let digits = word &- 0x3030_3030_3030_3030
        // Each 16-bit lane: ten times its first digit plus its second (at most 99).
        let pairs = ((digits &* 10) &+ (digits &>> 8)) & 0x00FF_00FF_00FF_00FF
        // Each 32-bit lane: a hundred times its first pair plus its second (at most 9999).
        let quads = ((pairs &* 100) &+ (pairs &>> 16)) & 0x0000_FFFF_0000_FFFF
        // Ten thousand times the first four digits plus the last four.
        return ((quads &* 10_000) &+ (quads &>> 32)) & 0xFFFF_FFFF
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

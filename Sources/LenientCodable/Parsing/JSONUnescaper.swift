// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Turns the raw text of a string node that holds escapes into its value.
///
/// The parser has validated the escapes and the UTF-8 already, so this never fails.
enum JSONUnescaper {
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, json5: Bool) -> String {
        // Every escape is at least as long as what it stands for, so the raw length is room enough.
        String(unsafeUninitializedCapacity: max(raw.count, 1)) { output in
            var written = 0
            @inline(__always) func put(_ byte: UInt8) {
                output[written] = byte
                written += 1
            }
            var index = 0
            let count = raw.count
            while index < count {
                // The text up to the next backslash, copied whole.
                var end = nextBackslash(in: raw, from: index)
                while end < count && raw[end] != UInt8(ascii: "\\") { end += 1 }
                if end > index {
                    UnsafeMutableRawPointer(output.baseAddress! + written).copyMemory(
                        from: raw.baseAddress! + index, byteCount: end - index)
                    written += end - index
                    index = end
                }
                guard index + 1 < count else {
                    if index < count { put(raw[index]) }
                    break
                }
                let escaped = raw[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "b"): put(0x08)
                case UInt8(ascii: "f"): put(0x0C)
                case UInt8(ascii: "n"): put(0x0A)
                case UInt8(ascii: "r"): put(0x0D)
                case UInt8(ascii: "t"): put(0x09)
                case UInt8(ascii: "v") where json5: put(0x0B)
                // No `\0`: the parser refuses a NUL however it is escaped, as Foundation does.
                case UInt8(ascii: "x") where json5:
                    let value = hex(raw, at: index, digits: 2)
                    for byte in utf8(of: UInt32(value)) { put(byte) }
                    index += 2
                case UInt8(ascii: "\n") where json5:
                    break  // An escaped line break continues the string on the next line.
                case UInt8(ascii: "\r") where json5:
                    if index < count && raw[index] == UInt8(ascii: "\n") { index += 1 }
                case 0xE2
                where json5 && index + 1 < count && raw[index] == 0x80
                    && (raw[index + 1] == 0xA8 || raw[index + 1] == 0xA9):
                    index += 2  // An escaped line or paragraph separator continues the string too.
                case UInt8(ascii: "u"):
                    var scalar = UInt32(hex(raw, at: index, digits: 4))
                    index += 4
                    if (0xD800...0xDBFF).contains(scalar), index + 5 < count, raw[index] == UInt8(ascii: "\\"),
                        raw[index + 1] == UInt8(ascii: "u")
                    {
                        let low = UInt32(hex(raw, at: index + 2, digits: 4))
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            index += 6
                        }
                    }
                    for byte in utf8(of: scalar) { put(byte) }
                default:
                    // `\"`, `\\`, `\/`, and in JSON5 any other character standing for itself.
                    put(escaped)
                }
            }
            return written
        }
    }

    /// The index of the first backslash at or after `start`, looking at eight bytes per step;
    /// when fewer than eight bytes remain, the index where the words stopped (the caller's byte
    /// loop finishes the job). Escaped text is mostly runs between escapes (`http:\/\/t.co\/…`,
    /// or long text with a `\n`), which a byte loop walked one byte at a time. `raw` is read
    /// during the call only, within its count; the caller's node text, which the tree's storage
    /// keeps.
    @inline(__always)
    private static func nextBackslash(in raw: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = raw.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let backslashes = ones &* UInt64(UInt8(ascii: "\\"))
        var index = start
        while index &+ 8 <= raw.count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // A backslash is a zero byte after the XOR; a borrow marks only bytes after the first
            // zero, so the lowest mark is exact. The AND with `~x` keeps bytes at or above 0x80
            // from marking themselves.
            let x = word ^ backslashes
            let marks = (x &- ones) & ~x & 0x8080_8080_8080_8080
            if marks != 0 { return index &+ marks.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        return index
    }

    private static func hex(_ raw: UnsafeBufferPointer<UInt8>, at index: Int, digits: Int) -> UInt16 {
        var value: UInt16 = 0
        for offset in 0..<digits where index + offset < raw.count {
            value = value << 4 | UInt16(JSONParser.hexValue(raw[index + offset]) ?? 0)
        }
        return value
    }

    /// The UTF-8 bytes of a scalar from an escape.
    private static func utf8(of value: UInt32) -> Unicode.UTF8.EncodedScalar {
        // Unpaired surrogates never reach here from the parser; keep a safe replacement anyway.
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        return UTF8.encode(scalar)!
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Turns the raw text of a string node that holds escapes into its value.
///
/// The parser has validated the escapes and the UTF-8 already, so this never fails.
enum JSONUnescaper {
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, json5: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        let count = raw.count
        while index < count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < count else {
                output.append(byte)
                index += 1
                continue
            }
            let escaped = raw[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "v") where json5: output.append(0x0B)
            case UInt8(ascii: "0") where json5: output.append(0x00)
            case UInt8(ascii: "x") where json5:
                let value = hex(raw, at: index, digits: 2)
                appendScalar(UInt32(value), to: &output)
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
                appendScalar(scalar, to: &output)
            default:
                // `\"`, `\\`, `\/`, and in JSON5 any other character standing for itself.
                output.append(escaped)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hex(_ raw: UnsafeBufferPointer<UInt8>, at index: Int, digits: Int) -> UInt16 {
        var value: UInt16 = 0
        for offset in 0..<digits where index + offset < raw.count {
            value = value << 4 | UInt16(JSONParser.hexValue(raw[index + offset]) ?? 0)
        }
        return value
    }

    private static func appendScalar(_ value: UInt32, to output: inout [UInt8]) {
        // Unpaired surrogates never reach here from the parser; keep a safe replacement anyway.
        let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
        output.append(contentsOf: UTF8.encode(scalar)!)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Presents any input as UTF-8: skips a UTF-8 byte order mark and transcodes UTF-16 and UTF-32,
/// detected as Foundation's `JSONDecoder` detects them.
enum JSONInput {
    enum Encoding {
        case utf8, utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian
    }

    /// The input as UTF-8: the caller's own bytes, or a transcoded copy.
    enum UTF8Input {
        case borrowed(UnsafeBufferPointer<UInt8>)
        case owned([UInt8])

        func withBuffer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
            switch self {
            case .borrowed(let buffer): return try body(buffer)
            case .owned(let bytes): return try bytes.withUnsafeBufferPointer(body)
            }
        }
    }

    /// Presents the input as UTF-8, transcoding UTF-16 and UTF-32.
    ///
    /// - Throws: ``JSONParseError`` with code `invalidEncoding` when the transcoding fails.
    static func utf8(_ buffer: UnsafeBufferPointer<UInt8>, isKnownUTF8: Bool = false) throws -> UTF8Input {
        if isKnownUTF8 {
            // Text that is UTF-8 already (a `String`) may still start with a byte order mark, which
            // `Data` input skips too.
            let hasByteOrderMark = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
            return .borrowed(hasByteOrderMark ? UnsafeBufferPointer(rebasing: buffer[3...]) : buffer)
        }
        let (encoding, byteOrderMarkLength) = detectEncoding(buffer)
        let content = UnsafeBufferPointer(rebasing: buffer[byteOrderMarkLength...])
        guard encoding != .utf8 else { return .borrowed(content) }
        return .owned(try transcodeToUTF8(content, from: encoding))
    }

    static func withUTF8<Result>(
        _ buffer: UnsafeBufferPointer<UInt8>, isKnownUTF8: Bool = false,
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) throws -> Result {
        try utf8(buffer, isKnownUTF8: isKnownUTF8).withBuffer(body)
    }

    /// Detects the encoding from a byte order mark, or else from where the zero bytes of the
    /// first ASCII characters fall.
    static func detectEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> (Encoding, byteOrderMarkLength: Int) {
        let count = bytes.count
        if count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { return (.utf8, 3) }
        if count >= 4 && bytes[0] == 0x00 && bytes[1] == 0x00 && bytes[2] == 0xFE && bytes[3] == 0xFF {
            return (.utf32BigEndian, 4)
        }
        if count >= 4 && bytes[0] == 0xFF && bytes[1] == 0xFE && bytes[2] == 0x00 && bytes[3] == 0x00 {
            return (.utf32LittleEndian, 4)
        }
        // Foundation also takes `FE FF 00 00` for the UTF-32LE mark (its own tests require it): as
        // UTF-16BE it would begin with a NUL character, which no JSON document does.
        if count >= 4 && bytes[0] == 0xFE && bytes[1] == 0xFF && bytes[2] == 0x00 && bytes[3] == 0x00 {
            return (.utf32LittleEndian, 4)
        }
        if count >= 2 && bytes[0] == 0xFE && bytes[1] == 0xFF { return (.utf16BigEndian, 2) }
        if count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xFE { return (.utf16LittleEndian, 2) }
        if count >= 4 {
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0, 0, 0, _): return (.utf32BigEndian, 0)
            case (_, 0, 0, 0): return (.utf32LittleEndian, 0)
            case (0, _, 0, _): return (.utf16BigEndian, 0)
            case (_, 0, _, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        } else if count >= 2 {
            switch (bytes[0], bytes[1]) {
            case (0, _): return (.utf16BigEndian, 0)
            case (_, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        }
        return (.utf8, 0)
    }

    private static func transcodeToUTF8(_ bytes: UnsafeBufferPointer<UInt8>, from encoding: Encoding) throws -> [UInt8]
    {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var failed = false
        switch encoding {
        case .utf8:
            output.append(contentsOf: bytes)
        case .utf16BigEndian, .utf16LittleEndian:
            let bigEndian = encoding == .utf16BigEndian
            let units = stride(from: 0, to: bytes.count - 1, by: 2).lazy.map { offset -> UInt16 in
                let first = UInt16(bytes[offset])
                let second = UInt16(bytes[offset + 1])
                return bigEndian ? first << 8 | second : second << 8 | first
            }
            failed = bytes.count % 2 != 0
            failed =
                Swift.transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) {
                    output.append($0)
                } || failed
        case .utf32BigEndian, .utf32LittleEndian:
            let bigEndian = encoding == .utf32BigEndian
            let units = stride(from: 0, to: bytes.count - 3, by: 4).lazy.map { offset -> UInt32 in
                let value = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + (bigEndian ? $1 : 3 - $1)]) }
                return value
            }
            failed = bytes.count % 4 != 0
            failed =
                Swift.transcode(units.makeIterator(), from: UTF32.self, to: UTF8.self, stoppingOnError: true) {
                    output.append($0)
                } || failed
        }
        if failed {
            throw JSONParseError(
                code: .invalidEncoding, line: 1, column: 1, byteOffset: 0,
                message: "The input looks like \(encoding) text but cannot be read as such around line 1, column 1.")
        }
        return output
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Writes a ``JSONValue`` as compact JSON text, members in their stored order.
///
/// Used for `description` and to decode a `JSONValue` through the ordinary parsing path. It is
/// the encoder's ``JSONWriter``, without a depth limit and without escaping slashes.
enum JSONValueWriter {
    static func compactUTF8(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter(formatting: [.withoutEscapingSlashes], capacity: 64)
        writer.depthLimit = .max
        // Without a depth limit the writer has nothing to throw.
        try? writer.write(value)
        return writer.bytes
    }
}

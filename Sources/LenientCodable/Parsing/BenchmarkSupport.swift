// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Parses a document to the internal tree and returns its node count, so that the benchmark
/// package can measure the parser alone. Not API: reachable only with `@_spi(Benchmarks)`.
///
/// - Parameter data: The JSON document.
/// - Returns: The number of nodes in the tree.
/// - Throws: ``JSONParseError``.
@_spi(Benchmarks) public func _parseForBenchmark(_ data: Data) throws -> Int {
    try data.withUnsafeBytes { raw in
        try JSONInput.withUTF8(raw.bindMemory(to: UInt8.self)) {
            try JSONParser.parse($0, options: .init()).nodes.count
        }
    }
}

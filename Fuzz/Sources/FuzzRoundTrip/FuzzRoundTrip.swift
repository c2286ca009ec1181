// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import FuzzSupport

/// The libFuzzer entry point: runs `FuzzChecks.roundTrip(_:)` on each input. A broken invariant traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoundTrip(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzChecks.roundTrip(UnsafeBufferPointer(start: start, count: count))
    return 0
}

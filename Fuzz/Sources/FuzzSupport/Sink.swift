// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// Where results go so that the optimizer keeps the calls that produce them. Read by nobody.
nonisolated(unsafe) private var sink = 0

/// Feeds a value into the sink: its hash, which forces every part of it to be computed.
@inline(never)
func consume<Value: Hashable>(_ value: Value) {
    sink &+= value.hashValue
}

/// Feeds an error into the sink.
@inline(never)
func consume(error: any Error) {
    sink &+= String(describing: error).utf8.count
}

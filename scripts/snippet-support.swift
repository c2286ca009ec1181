// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Stand-ins for what the documentation's samples take from the app around them, so that a
// sample can say `decoder.decode(Book.self, from: data)` without first loading a file.
// Used only by scripts/check-doc-snippets.sh; a sample's own declarations shadow these.

import Foundation

/// A JSON document, as a sample's network call would return it.
public let data = Data(#"{"name": "Dune", "page": 412}"#.utf8)

/// A logger with the levels of `os.Logger` and swift-log, for the samples that log.
public struct SnippetLogger: Sendable {
    public func debug(_ message: String) {}
    public func info(_ message: String) {}
    public func notice(_ message: String) {}
    public func warning(_ message: String) {}
    public func error(_ message: String) {}
}

/// The logger of the samples.
public let logger = SnippetLogger()

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

/// One document of the benchmark corpus, as a test case.
struct CorpusDocument: Sendable, Hashable, CustomTestStringConvertible {
    let name: String

    var testDescription: String { name }

    static let all = ["twitter.json", "citm_catalog.json", "canada.json"].map(CorpusDocument.init)

    static let twitter = CorpusDocument(name: "twitter.json")
    static let citmCatalog = CorpusDocument(name: "citm_catalog.json")
    static let canada = CorpusDocument(name: "canada.json")

    /// Whether the corpus is in `Benchmarks/Corpus/` or in the shared folder beside the repository.
    static var isAvailable: Bool { TestPaths.corpusDirectory != nil }

    static let unavailableReason: Comment =
        "The corpus is in neither <repo>/Benchmarks/Corpus/ nor <repo>/../shared/corpus/."

    func contents(sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let directory = try #require(TestPaths.corpusDirectory, Self.unavailableReason, sourceLocation: sourceLocation)
        return try Data(contentsOf: directory.appendingPathComponent(name))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// The documents the benchmarks measure, kept in `Benchmarks/Corpus/`, each with the model that
/// holds all of its fields.
package enum Corpus: String, CaseIterable, Sendable {
    /// A Twitter search result: 100 statuses with users, entities and retweets; mostly strings.
    case twitter
    /// A concert catalogue: objects keyed by numeric-string ids and many small integer arrays.
    case citmCatalog = "citm_catalog"
    /// The outline of Canada as GeoJSON: one polygon of about 111,000 floating-point numbers.
    case canada

    /// The document's name, as its file is named and as `compare --corpus` takes it.
    package var name: String { rawValue }

    /// The Codable model of the document.
    package var modelType: any Codable.Type {
        switch self {
        case .twitter: TwitterDocument.self
        case .citmCatalog: CITMCatalog.self
        case .canada: FeatureCollection.self
        }
    }

    /// Where the document is: `Benchmarks/Corpus/<name>.json`, found from this source file so
    /// that any working directory will do.
    package var fileURL: URL {
        Self.directory.appendingPathComponent("\(rawValue).json")
    }

    /// Reads the document.
    package func load() throws -> Data {
        try Data(contentsOf: fileURL)
    }

    /// `Benchmarks/Corpus/`.
    package static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // CorpusModels
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Benchmarks
        .appendingPathComponent("Corpus", isDirectory: true)
}

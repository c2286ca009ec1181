// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Where the test fixtures and the benchmark corpus live on disk.
///
/// The test target excludes `Fixtures/` from its sources and has no resource bundle, so the files are found from this
/// source file's own path at run time.
enum TestPaths {
    /// `Tests/LenientCodableTests/`.
    static let testsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The root of the repository (or worktree) that holds these tests.
    static let repositoryRoot =
        testsDirectory
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Fixtures/JSONTestSuite/test_parsing/`.
    static let jsonTestSuiteDirectory =
        testsDirectory
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("JSONTestSuite")
        .appendingPathComponent("test_parsing")

    /// `Fixtures/Messy/`: a messy feed response and its cleaned twin.
    static let messyDirectory =
        testsDirectory
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("Messy")

    /// The folder that holds the benchmark corpus (`twitter.json`, `citm_catalog.json`, `canada.json`): the repository's
    /// `Benchmarks/Corpus/` when it is there, else the shared copy beside the repository, else `nil`.
    static let corpusDirectory: URL? = {
        let candidates = [
            repositoryRoot.appendingPathComponent("Benchmarks").appendingPathComponent("Corpus"),
            repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared").appendingPathComponent(
                "corpus"),
        ]
        return candidates.first { directory in
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("canada.json").path)
        }
    }()
}

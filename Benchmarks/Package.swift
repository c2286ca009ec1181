// swift-tools-version: 6.1
//
// The benchmark package for LenientCodable. It is separate from the root package so that the
// library itself never depends on a benchmark harness.

import PackageDescription

let package = Package(
    name: "LenientCodableBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "LenientCodable", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Codable models of the corpus documents, shared by `compare` and the ordo-one suites.
        .target(
            name: "CorpusModels",
            dependencies: [.product(name: "LenientCodable", package: "LenientCodable")],
            path: "Sources/CorpusModels"
        ),
        // One-process comparison of LenientCodable with Foundation: `swift run -c release compare`.
        .executableTarget(
            name: "compare",
            dependencies: [
                "CorpusModels",
                .product(name: "LenientCodable", package: "LenientCodable"),
            ],
            path: "Sources/compare"
        ),
        // Peak memory of decoding a 100 MB array: `swift run -c release peak-memory`.
        .executableTarget(
            name: "peak-memory",
            dependencies: [
                "CorpusModels",
                .product(name: "LenientCodable", package: "LenientCodable"),
            ],
            path: "Sources/peak-memory"
        ),
        // Sanity checks of the models against Foundation: `swift test`.
        .testTarget(
            name: "CorpusModelsTests",
            dependencies: [
                "CorpusModels",
                .product(name: "LenientCodable", package: "LenientCodable"),
            ],
            path: "Tests/CorpusModelsTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The ordo-one suites, one executable target per folder under Benchmarks/, run with
// `swift package benchmark`.
let benchmarkTargets = ["DecodeBenchmarks"]

package.targets += benchmarkTargets.map { name in
    .executableTarget(
        name: name,
        dependencies: [
            "CorpusModels",
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "LenientCodable", package: "LenientCodable"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [
            .plugin(name: "BenchmarkPlugin", package: "benchmark")
        ]
    )
}

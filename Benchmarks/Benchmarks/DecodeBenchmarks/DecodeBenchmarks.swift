// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Decoding the corpus documents with LenientCodable and with Foundation, measured by ordo-one's
// benchmark harness for time and allocations:
//
//     swift package --package-path Benchmarks benchmark --target DecodeBenchmarks
//
// Each benchmark is named `<corpus>.<operation>.<implementation>`, as `compare` names its rows.

import Benchmark
import CorpusModels
import Foundation
@_spi(Benchmarks) import LenientCodable

/// What Foundation's decoder does when the model asks for nothing: its scan of the whole document.
private struct Empty: Decodable {}

let benchmarks: @Sendable () -> Void = {
    // A decode's allocation count hardly varies from run to run, so a 1% rise is a regression.
    let decodeThresholds: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(relative: [.p90: 1.0])]
    // A parse allocates a few dozen times, give or take a handful from the harness itself.
    let parseThresholds: [BenchmarkMetric: BenchmarkThresholds] = [.mallocCountTotal: .init(absolute: [.p90: 10])]

    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput],
        timeUnits: .microseconds,
        // Exact counts rather than thousands, so that a few more allocations show.
        units: [.mallocCountTotal: .count],
        warmupIterations: 2,
        maxDuration: .seconds(2),
        maxIterations: 100,
        thresholds: decodeThresholds
    )

    for corpus in Corpus.allCases {
        let data: Data
        do {
            data = try corpus.load()
        } catch {
            fatalError("Cannot read \(corpus.fileURL.path): \(error)")
        }
        registerDecodeBenchmarks(corpus.name, corpus.modelType, data: data, parseThresholds: parseThresholds)
    }
}

private func registerDecodeBenchmarks<Model: Decodable>(
    _ name: String, _ model: Model.Type, data: Data, parseThresholds: [BenchmarkMetric: BenchmarkThresholds]
) {
    // Decoders are made once, outside the measurement, as an app keeps one.
    let strict = LenientJSONDecoder(options: .strict)
    let lenient = LenientJSONDecoder(options: .lenient)
    let foundation = JSONDecoder()
    let decoders: [(String, (Data) throws -> Model)] = [
        ("strict", { try strict.decode(Model.self, from: $0) }),
        ("lenient", { try lenient.decode(Model.self, from: $0) }),
        ("foundation", { try foundation.decode(Model.self, from: $0) }),
    ]
    for (implementation, decode) in decoders {
        Benchmark("\(name).decode.\(implementation)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try decode(data))
            }
        }
    }

    var parseConfiguration = Benchmark.defaultConfiguration
    parseConfiguration.thresholds = parseThresholds
    Benchmark("\(name).parse.parse-only", configuration: parseConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try _parseForBenchmark(data))
        }
    }
    Benchmark("\(name).parse.foundation-empty", configuration: parseConfiguration) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try foundation.decode(Empty.self, from: data))
        }
    }
}

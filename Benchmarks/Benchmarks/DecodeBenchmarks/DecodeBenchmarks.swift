// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Decoding and encoding the corpus documents with LenientCodable and with Foundation, and decoding
// the key-mapped twitter model and the messy feed, measured by ordo-one's benchmark harness for time
// and allocations:
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
    // A decode's or an encode's allocation count hardly varies from run to run; `thresholds check`
    // compares the p90 with the recorded one and fails when it is more than 1% higher (and reports,
    // without failing CI, when it is more than 1% lower: then re-record, see the README).
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
        registerEncodeBenchmarks(corpus.name, corpus.modelType, data: data)
    }
    registerVariantBenchmarks()
}

private func registerDecodeBenchmarks<Model: Codable>(
    _ name: String, _ model: Model.Type, data: Data, parseThresholds: [BenchmarkMetric: BenchmarkThresholds]
) {
    // Decoders are made once, outside the measurement, as an app keeps one.
    let strict = LenientJSONDecoder(options: .strict)
    let lenient = LenientJSONDecoder(options: .lenient)
    let reporting = LenientJSONDecoder()
    let foundation = JSONDecoder()
    let decoders: [(String, (Data) throws -> Any)] = [
        ("strict", { try strict.decode(Model.self, from: $0) }),
        ("lenient", { try lenient.decode(Model.self, from: $0) }),
        ("report", { try reporting.decodeWithReport(Model.self, from: $0) }),
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

private func registerEncodeBenchmarks<Model: Codable>(_ name: String, _ model: Model.Type, data: Data) {
    // Both encoders encode the same value, decoded once here.
    let value: Model
    do {
        value = try JSONDecoder().decode(Model.self, from: data)
    } catch {
        fatalError("Cannot decode \(name) with Foundation: \(error)")
    }
    let lenient = LenientJSONEncoder()
    let foundation = JSONEncoder()
    Benchmark("\(name).encode.lenient-encoder") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try lenient.encode(value))
        }
    }
    Benchmark("\(name).encode.foundation-encoder") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try foundation.encode(value))
        }
    }
}

/// The suites of `compare` beyond the corpus documents: twitter through the key-mapped model
/// (against Foundation decoding the plain model), and the messy feed (against Foundation decoding
/// its clean twin).
private func registerVariantBenchmarks() {
    let twitter: Data
    let messy: Data
    let clean: Data
    do {
        twitter = try Corpus.twitter.load()
        messy = try Data(contentsOf: MessyFeedDocument.messyFileURL)
        clean = try Data(contentsOf: MessyFeedDocument.cleanFileURL)
    } catch {
        fatalError("Cannot read a document in \(Corpus.directory.path): \(error)")
    }

    let strict = LenientJSONDecoder(options: .strict)
    let lenient = LenientJSONDecoder(options: .lenient)
    Benchmark("twitter-mapped.decode.strict") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try strict.decode(MappedTwitterDocument.self, from: twitter))
        }
    }
    Benchmark("twitter-mapped.decode.lenient") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try lenient.decode(MappedTwitterDocument.self, from: twitter))
        }
    }

    let messyDecoder = MessyFeedDocument.lenientDecoder()
    let cleanDecoder = MessyFeedDocument.foundationDecoder()
    Benchmark("messy.decode.lenient") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try messyDecoder.decode(MessyFeed.self, from: messy))
        }
    }
    Benchmark("messy.decode.report") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try messyDecoder.decodeWithReport(MessyFeed.self, from: messy))
        }
    }
    Benchmark("messy.decode.foundation") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try cleanDecoder.decode(MessyFeed.self, from: clean))
        }
    }
}

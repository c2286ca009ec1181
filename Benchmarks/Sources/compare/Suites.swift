// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import CorpusModels
import Foundation
@_spi(Benchmarks) import LenientCodable

/// What Foundation's decoder does when the model asks for nothing: its scan of the whole document.
struct Empty: Decodable {}

extension Suite {
    /// Every row for one corpus document. A new row is one `Row(...)` line here.
    static func corpus<Model: Codable>(_ name: String, _ model: Model.Type, data: Data) throws -> Suite {
        let strict = LenientJSONDecoder(options: .strict)
        let lenient = LenientJSONDecoder(options: .lenient)
        let foundation = JSONDecoder()

        // Both encoders encode the same value, decoded once here.
        let value = try foundation.decode(Model.self, from: data)
        let lenientEncoder = LenientJSONEncoder()
        let foundationEncoder = JSONEncoder()
        let encodedCount = try foundationEncoder.encode(value).count

        var suite = Suite(
            name: name,
            rows: [
                Row(.decode, "strict", bytes: data.count) { blackHole(try strict.decode(Model.self, from: data)) },
                Row(.decode, "lenient", bytes: data.count) { blackHole(try lenient.decode(Model.self, from: data)) },
                Row(.decode, "foundation", bytes: data.count) {
                    blackHole(try foundation.decode(Model.self, from: data))
                },
                Row(.encode, "lenient-encoder", bytes: encodedCount) { blackHole(try lenientEncoder.encode(value)) },
                Row(.encode, "foundation-encoder", bytes: encodedCount) {
                    blackHole(try foundationEncoder.encode(value))
                },
                Row(.parse, "parse-only", bytes: data.count) { blackHole(try _parseForBenchmark(data)) },
                Row(.parse, "foundation-empty", bytes: data.count) {
                    blackHole(try foundation.decode(Empty.self, from: data))
                },
            ])

        // Values are compared through Foundation's sorted-keys encoding, which the models need no `Equatable` for.
        let sortedEncoder = JSONEncoder()
        sortedEncoder.outputFormatting = .sortedKeys
        let expected = try sortedEncoder.encode(value)
        suite.checks = [
            Check(name: "strict decodes what Foundation decodes") {
                try sortedEncoder.encode(strict.decode(Model.self, from: data)) == expected
            },
            Check(name: "lenient decodes what Foundation decodes") {
                try sortedEncoder.encode(lenient.decode(Model.self, from: data)) == expected
            },
            Check(name: "lenient-encoder with .sortedKeys writes Foundation's bytes") {
                let encoder = LenientJSONEncoder()
                encoder.outputFormatting = .sortedKeys
                return try encoder.encode(value) == expected
            },
            Check(name: "parse-only finds the document's nodes") { try _parseForBenchmark(data) > 0 },
        ]
        return suite
    }

    static func corpus(_ corpus: Corpus) throws -> Suite {
        try Suite.corpus(corpus.name, corpus.modelType, data: corpus.load())
    }
}

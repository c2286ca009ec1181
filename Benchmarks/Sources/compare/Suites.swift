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
        let reporting = LenientJSONDecoder()
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
                Row(.decode, "report", bytes: data.count) {
                    blackHole(try reporting.decodeWithReport(Model.self, from: data))
                },
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
            Check(name: "report decodes what Foundation decodes, with an empty report") {
                let (value, report) = try reporting.decodeWithReport(Model.self, from: data)
                return try sortedEncoder.encode(value) == expected && report.isEmpty
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

    /// `twitter.json` decoded through the key-mapped model (renames, nested keys and fallback lists
    /// on every type), against Foundation decoding the plain model with coding keys: what mapping
    /// costs is this suite's ratio to Foundation over the plain model's. The plain model's rows
    /// (`plain-strict`, `plain-lenient`) run in the same rounds, so that the two ratios share their
    /// Foundation row and the moment they were measured in.
    static func twitterMapped() throws -> Suite {
        let data = try Corpus.twitter.load()
        let strict = LenientJSONDecoder(options: .strict)
        let lenient = LenientJSONDecoder(options: .lenient)
        let foundation = JSONDecoder()
        let expected = MappedTwitter.leaves(of: try foundation.decode(TwitterDocument.self, from: data))

        var suite = Suite(
            name: "twitter-mapped",
            rows: [
                Row(.decode, "strict", bytes: data.count) {
                    blackHole(try strict.decode(MappedTwitterDocument.self, from: data))
                },
                Row(.decode, "lenient", bytes: data.count) {
                    blackHole(try lenient.decode(MappedTwitterDocument.self, from: data))
                },
                Row(.decode, "plain-strict", bytes: data.count) {
                    blackHole(try strict.decode(TwitterDocument.self, from: data))
                },
                Row(.decode, "plain-lenient", bytes: data.count) {
                    blackHole(try lenient.decode(TwitterDocument.self, from: data))
                },
                Row(.decode, "foundation", bytes: data.count) {
                    blackHole(try foundation.decode(TwitterDocument.self, from: data))
                },
            ],
            variantOf: Corpus.twitter.name)
        suite.checks = [
            Check(name: "strict decodes the mapped model to the plain model's data") {
                MappedTwitter.leaves(of: try strict.decode(MappedTwitterDocument.self, from: data)) == expected
            },
            Check(name: "lenient decodes the mapped model to the plain model's data") {
                MappedTwitter.leaves(of: try lenient.decode(MappedTwitterDocument.self, from: data)) == expected
            },
            Check(name: "Foundation, which ignores the mapping, cannot decode the mapped model") {
                (try? foundation.decode(MappedTwitterDocument.self, from: data)) == nil
            },
        ]
        return suite
    }

    /// How many decodes one timed sample of the messy feed runs: one takes well under a millisecond.
    static let messyRepetitions = 200

    /// The messy feed decoded with `.lenient` (and with a report), against Foundation decoding its
    /// cleaned twin with the same model: what forgiving costs on a payload that needs it.
    static func messy() throws -> Suite {
        let messy = try Data(contentsOf: MessyFeedDocument.messyFileURL)
        let clean = try Data(contentsOf: MessyFeedDocument.cleanFileURL)
        let lenient = MessyFeedDocument.lenientDecoder()
        let foundation = MessyFeedDocument.foundationDecoder()
        let expected = try foundation.decode(MessyFeed.self, from: clean)

        var suite = Suite(
            name: "messy",
            rows: [
                Row(.decode, "lenient", bytes: messy.count, repetitions: messyRepetitions) {
                    blackHole(try lenient.decode(MessyFeed.self, from: messy))
                },
                Row(.decode, "report", bytes: messy.count, repetitions: messyRepetitions) {
                    blackHole(try lenient.decodeWithReport(MessyFeed.self, from: messy))
                },
                Row(.decode, "foundation", bytes: clean.count, repetitions: messyRepetitions) {
                    blackHole(try foundation.decode(MessyFeed.self, from: clean))
                },
            ])
        suite.checks = [
            Check(name: "Foundation decodes the clean twin's \(MessyFeedDocument.postCount) posts") {
                expected.posts.count == MessyFeedDocument.postCount
            },
            Check(name: "lenient decodes the messy feed to the clean twin's value") {
                try lenient.decode(MessyFeed.self, from: messy) == expected
            },
            Check(name: "report decodes the same value and reports what it forgave") {
                let (value, report) = try lenient.decodeWithReport(MessyFeed.self, from: messy)
                return value == expected && !report.isEmpty
            },
        ]
        return suite
    }

    /// Every suite `compare` knows, by name, in the order it measures them.
    static var all: [(name: String, make: () throws -> Suite)] {
        Corpus.allCases.map { corpus in (corpus.name, { try Suite.corpus(corpus) }) } + [
            ("twitter-mapped", twitterMapped),
            ("messy", messy),
        ]
            + smallSuiteNames.map { name in
                (name, { try smallSuites().first { $0.name == name }! })
            }
    }
}

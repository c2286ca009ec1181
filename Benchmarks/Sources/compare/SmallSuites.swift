// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import CorpusModels
import Foundation
import LenientCodable

/// The 41-byte object of the small-document measures.
struct TinyObject: Codable, Equatable {
    var id: Int
    var name: String
    var active: Bool
}

/// A two-field struct for the per-call cost of encoding.
struct TwoFields: Codable {
    var userID: Int
    var displayName: String
}

extension Suite {
    /// How many decodes or encodes one timed sample of a small document runs, so that a sample is
    /// long enough for the clock whatever the document's size.
    static func repetitions(forBytes bytes: Int) -> Int {
        max(20, min(5_000, 400_000 / max(bytes, 1)))
    }

    /// What an app does at most: a small response, decoded once per call. Each document is its own
    /// suite, so that each has its own Foundation row, measured in the same rounds.
    static func smallDecode<Model: Codable>(_ name: String, _ model: Model.Type, json: Data) throws -> Suite {
        let strict = LenientJSONDecoder(options: .strict)
        let lenient = LenientJSONDecoder(options: .lenient)
        let foundation = JSONDecoder()
        let lenientEncoder = LenientJSONEncoder()
        let foundationEncoder = JSONEncoder()
        let value = try foundation.decode(Model.self, from: json)
        let encodedCount = try foundationEncoder.encode(value).count
        let repetitions = repetitions(forBytes: json.count)
        let sortedEncoder = JSONEncoder()
        sortedEncoder.outputFormatting = .sortedKeys
        let expected = try sortedEncoder.encode(value)

        var suite = Suite(
            name: name,
            rows: [
                Row(.decode, "strict", bytes: json.count, repetitions: repetitions) {
                    blackHole(try strict.decode(Model.self, from: json))
                },
                Row(.decode, "lenient", bytes: json.count, repetitions: repetitions) {
                    blackHole(try lenient.decode(Model.self, from: json))
                },
                Row(.decode, "foundation", bytes: json.count, repetitions: repetitions) {
                    blackHole(try foundation.decode(Model.self, from: json))
                },
                Row(.encode, "lenient-encoder", bytes: encodedCount, repetitions: repetitions) {
                    blackHole(try lenientEncoder.encode(value))
                },
                Row(.encode, "foundation-encoder", bytes: encodedCount, repetitions: repetitions) {
                    blackHole(try foundationEncoder.encode(value))
                },
            ])
        suite.checks = [
            Check(name: "strict decodes what Foundation decodes") {
                try sortedEncoder.encode(strict.decode(Model.self, from: json)) == expected
            },
            Check(name: "lenient decodes what Foundation decodes") {
                try sortedEncoder.encode(lenient.decode(Model.self, from: json)) == expected
            },
        ]
        return suite
    }

    /// The per-call cost of encoding a value with almost nothing in it.
    static func smallEncode<Value: Encodable>(
        _ name: String, _ value: Value, keyStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    ) throws -> Suite {
        let lenientEncoder = LenientJSONEncoder()
        lenientEncoder.keyEncodingStrategy = keyStrategy
        let foundationEncoder = JSONEncoder()
        foundationEncoder.keyEncodingStrategy = keyStrategy
        let bytes = try foundationEncoder.encode(value).count
        let repetitions = 5_000
        var suite = Suite(
            name: name,
            rows: [
                Row(.encode, "lenient-encoder", bytes: bytes, repetitions: repetitions) {
                    blackHole(try lenientEncoder.encode(value))
                },
                Row(.encode, "foundation-encoder", bytes: bytes, repetitions: repetitions) {
                    blackHole(try foundationEncoder.encode(value))
                },
            ])
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        sorted.keyEncodingStrategy = keyStrategy
        let ours = LenientJSONEncoder()
        ours.outputFormatting = .sortedKeys
        ours.keyEncodingStrategy = keyStrategy
        suite.checks = [
            Check(name: "lenient-encoder with .sortedKeys writes Foundation's bytes") {
                try ours.encode(value) == sorted.encode(value)
            }
        ]
        return suite
    }

    static let smallSuiteNames = [
        "small-tiny", "small-user", "small-status", "small-10-statuses", "small-encode-empty", "small-encode-pair",
        "small-encode-pair-snake",
    ]

    /// The small documents, cut from twitter.json: one user, one status, ten statuses.
    static func smallSuites() throws -> [Suite] {
        let twitter = try JSONDecoder().decode(TwitterDocument.self, from: Corpus.twitter.load())
        // Written back by Foundation's encoder, with sorted keys, so that each document holds exactly
        // what its model reads.
        let writer = JSONEncoder()
        writer.outputFormatting = .sortedKeys
        let status = twitter.statuses[0]
        let tiny = Data(#"{"id":12345,"name":"Ada Lovelace","active":true}"#.utf8)
        return [
            try smallDecode("small-tiny", TinyObject.self, json: tiny),
            try smallDecode("small-user", User.self, json: writer.encode(status.user)),
            try smallDecode("small-status", Status.self, json: writer.encode(status)),
            try smallDecode(
                "small-10-statuses", [Status].self, json: writer.encode(Array(twitter.statuses.prefix(10)))),
            try smallEncode("small-encode-empty", [Int]()),
            try smallEncode("small-encode-pair", TwoFields(userID: 7, displayName: "Ada")),
            try smallEncode(
                "small-encode-pair-snake", TwoFields(userID: 7, displayName: "Ada"), keyStrategy: .convertToSnakeCase),
        ]
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import CorpusModels
import Foundation
import LenientCodable
import Testing

@Suite struct CorpusModelsTests {
    @Test(arguments: Corpus.allCases)
    func decodesAndRoundTripsWithFoundation(_ corpus: Corpus) throws {
        let data = try corpus.load()
        try roundTrip(corpus.modelType, data)
    }

    /// The key-mapped twitter model holds what the plain model holds, leaf for leaf.
    @Test func mappedTwitterDecodesThePlainModelsData() throws {
        let data = try Corpus.twitter.load()
        let plain = try JSONDecoder().decode(TwitterDocument.self, from: data)
        let mapped = try LenientJSONDecoder(options: .strict).decode(MappedTwitterDocument.self, from: data)
        let expected = MappedTwitter.leaves(of: plain)
        #expect(expected.count > 10_000)
        #expect(MappedTwitter.leaves(of: mapped) == expected)
    }

    /// The messy feed decodes leniently to what Foundation decodes from its clean twin.
    @Test func messyFeedDecodesToTheCleanTwin() throws {
        let messy = try Data(contentsOf: MessyFeedDocument.messyFileURL)
        let clean = try Data(contentsOf: MessyFeedDocument.cleanFileURL)
        let twin = try MessyFeedDocument.foundationDecoder().decode(MessyFeed.self, from: clean)
        let (feed, report) = try MessyFeedDocument.lenientDecoder().decodeWithReport(MessyFeed.self, from: messy)
        #expect(twin.posts.count == MessyFeedDocument.postCount)
        #expect(feed == twin)
        #expect(!report.isEmpty)
    }

    /// Decoding what the model encoded and encoding it again gives the same bytes, so the model
    /// keeps every field it decoded.
    private func roundTrip<Model: Codable>(_ type: Model.Type, _ data: Data) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let model = try JSONDecoder().decode(Model.self, from: data)
        let encoded = try encoder.encode(model)
        let reencoded = try encoder.encode(try JSONDecoder().decode(Model.self, from: encoded))
        #expect(encoded == reencoded)

        // Synthesized encoding leaves nil optionals out, so the document's nulls are removed before comparing.
        let original = try JSONDecoder().decode(AnyJSON.self, from: data).removingNulls()
        let decoded = try JSONDecoder().decode(AnyJSON.self, from: encoded).removingNulls()
        #expect(original == decoded, "the model drops or changes fields of the document")
    }
}

/// Any JSON value, to compare documents by value whatever their key order and spacing.
private enum AnyJSON: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([AnyJSON])
    case object([String: AnyJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([AnyJSON].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    func removingNulls() -> AnyJSON {
        switch self {
        case .array(let elements): .array(elements.map { $0.removingNulls() })
        case .object(let members): .object(members.filter { $0.value != .null }.mapValues { $0.removingNulls() })
        default: self
        }
    }
}

extension Corpus: CustomTestStringConvertible {
    package var testDescription: String { name }
}

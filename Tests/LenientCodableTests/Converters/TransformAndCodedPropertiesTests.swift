// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct TransformTests {
    struct UnitError: Error, Equatable {}

    /// Weight arrives in kilograms under another key; the title is padded; the price is sometimes
    /// wrapped in `{"value": …}`.
    struct Product: Codable, Equatable, KeyMapping, DecodingHooks {
        var title: String
        var weightInGrams: Double
        var price: Double?
        var sku: String

        static let keyMapping: [String: KeySource] = ["weightInGrams": "weight_kg", "sku": ["sku", "code"]]
        static let decodingTransforms: [String: JSONTransform] = [
            "title": .trimmingWhitespace,
            "weightInGrams": JSONTransform { json in
                if json.stringValue == "unknown" { throw UnitError() }
                guard let kilograms = json.doubleValue else { return json }
                return JSONValue(kilograms * 1000)
            },
            "price": .member("value"),
        ]

        /// Moves a legacy top-level `name` to `title`, before the transforms run.
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            guard let name = json["name"] else { return json }
            var rewritten = json
            rewritten["title"] = name
            return rewritten
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func transformsComposeWithKeyMappingAndHooks(options: LenientJSONDecoder.Options) throws {
        let json = #"{"name": "  Tea  ", "weight_kg": 0.25, "price": {"value": 4.5}, "sku": "T1"}"#
        let (product, report) = try LenientJSONDecoder(options: options).decodeWithReport(Product.self, from: json)
        #expect(product == Product(title: "Tea", weightInGrams: 250, price: 4.5, sku: "T1"))
        // A transform is the model's own rule: not reported.
        #expect(report.isEmpty)
    }

    @Test func unwrappedAndMissingValuesPassThrough() throws {
        let json = #"{"title": "Tea", "weight_kg": 1, "price": 3, "code": "T2"}"#
        let (product, report) = try LenientJSONDecoder().decodeWithReport(Product.self, from: json)
        #expect(product == Product(title: "Tea", weightInGrams: 1000, price: 3, sku: "T2"))
        #expect(report.issues.map(\.kind) == [.keyFallback])
        let bare = try LenientJSONDecoder().decode(Product.self, from: #"{"title": "Tea", "weight_kg": 1, "sku": "x"}"#)
        #expect(bare.price == nil)
    }

    @Test func whatIsForgivenInTheTransformedValueIsReported() throws {
        let json = #"{"title": 7, "weight_kg": "2", "price": {"value": "1.5"}, "sku": "T3"}"#
        let (product, report) = try LenientJSONDecoder().decodeWithReport(Product.self, from: json)
        // "2" is not a number to the transform, so it passes through and is coerced: 2 grams.
        #expect(product == Product(title: "7", weightInGrams: 2, price: 1.5, sku: "T3"))
        #expect(report.issues.map(\.kind) == [.coerced, .coerced, .coerced])
        #expect(report.issues.map(\.path) == ["title", "weightInGrams", "price"])
    }

    @Test func aThrowingTransformFailsStrictWithThePath() throws {
        let json = #"{"title": "Tea", "weight_kg": "unknown", "sku": "T4"}"#
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode([Product].self, from: "[\(json)]")
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["Index 0", "weightInGrams"])
        #expect(context.underlyingError as? UnitError == UnitError())
    }

    @Test func aThrowingTransformDefaultsInLenient() throws {
        let json = #"{"title": "Tea", "weight_kg": "unknown", "price": {"value": "n/a"}, "sku": "T4"}"#
        let (product, report) = try LenientJSONDecoder().decodeWithReport(Product.self, from: json)
        #expect(product == Product(title: "Tea", weightInGrams: 0, price: nil, sku: "T4"))
        #expect(report.issues.map(\.kind) == [.defaulted, .defaulted])
        #expect(report.issues.map(\.path) == ["weightInGrams", "price"])
    }

    @Test func builtInTransforms() throws {
        #expect(try JSONTransform.trimmingWhitespace(" a\n") == "a")
        #expect(try JSONTransform.trimmingWhitespace(1) == 1)
        #expect(try JSONTransform.member("value")(["value": 2]) == 2)
        #expect(try JSONTransform.member("value")(["other": 2]) == .null)
        #expect(try JSONTransform.member("value")("x") == "x")
    }

    struct MappedButNotCoded: Codable, Equatable, KeyMapping {
        var id: Int
        var avatar: String?
        static let keyMapping: [String: KeySource] = ["avatar": ["avatar_url", "avatar"], "id": "user_id"]
        static let codedProperties: Set<String>? = ["id"]
    }

    @Test func aMappedPropertyLeftOutOfTheCodedOnesIsIgnored() throws {
        let json = #"{"user_id": 7, "avatar_url": "a.png", "avatar": "b.png"}"#
        let model = try LenientJSONDecoder().decode(MappedButNotCoded.self, from: json)
        #expect(model == MappedButNotCoded(id: 7, avatar: nil))
        let data = try LenientJSONEncoder().encode(MappedButNotCoded(id: 7, avatar: "a.png"))
        #expect(String(decoding: data, as: UTF8.self) == #"{"user_id":7}"#)
    }

    struct Misnamed: Codable, KeyMapping {
        var title: String
        static let decodingTransforms: [String: JSONTransform] = ["titel": .trimmingWhitespace]
    }

    @Test func aTransformForNoPropertyIsAKeyMappingError() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Misnamed.self, from: #"{"title": "a"}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        let mappingError = try #require(context.underlyingError as? KeyMappingError)
        #expect(mappingError.propertyName == "titel")
    }
}

@Suite struct CodedPropertiesTests {
    struct Profile: Codable, Equatable, KeyMapping {
        var id: Int
        var name: String
        var nickname: String?
        var cachedAvatar: String?
        var visits: Int

        static let keyMapping: [String: KeySource] = ["name": "full_name", "nickname": .ignored]
        static let codedProperties: Set<String>? = ["id", "name", "nickname"]
    }

    @Test func onlyTheCodedPropertiesAreDecoded() throws {
        let json = #"{"id": 1, "full_name": "Ada", "nickname": "A", "cachedAvatar": "x", "visits": 9}"#
        let (profile, report) = try LenientJSONDecoder().decodeWithReport(Profile.self, from: json)
        // nickname is listed but mapped .ignored: ignored wins. The others are not read, and not reported.
        #expect(profile == Profile(id: 1, name: "Ada", nickname: nil, cachedAvatar: nil, visits: 0))
        #expect(report.isEmpty)
    }

    @Test func onlyTheCodedPropertiesAreEncoded() throws {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let profile = Profile(id: 1, name: "Ada", nickname: "A", cachedAvatar: "x", visits: 9)
        let data = try encoder.encode(profile)
        #expect(String(decoding: data, as: UTF8.self) == #"{"full_name":"Ada","id":1}"#)
    }

    @Test func aPropertyLeftOutIsMissingInStrict() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(Profile.self, from: #"{"id": 1, "full_name": "Ada", "visits": 9}"#)
        }
        guard case .keyNotFound(let key, _) = error else {
            Issue.record("Expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "visits")
    }

    @Test func unreadMembersAreUnknownKeysWhenAsked() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let json = #"{"id": 1, "full_name": "Ada", "visits": 9}"#
        let (_, report) = try LenientJSONDecoder(options: options).decodeWithReport(Profile.self, from: json)
        #expect(report.issues.map(\.kind) == [.unknownKey])
        #expect(report.issues.map(\.path) == ["visits"])
    }

    struct Misnamed: Codable, KeyMapping {
        var id: Int
        static let codedProperties: Set<String>? = ["id", "ID"]
    }

    @Test(arguments: [true, false])
    func aCodedPropertyThatIsNoPropertyIsAKeyMappingError(decoding: Bool) throws {
        let underlying: (any Error)?
        if decoding {
            let error = try #require(throws: DecodingError.self) {
                try LenientJSONDecoder().decode(Misnamed.self, from: #"{"id": 1}"#)
            }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("Expected dataCorrupted, got \(error)")
                return
            }
            underlying = context.underlyingError
        } else {
            let error = try #require(throws: EncodingError.self) {
                try LenientJSONEncoder().encode(Misnamed(id: 1))
            }
            guard case .invalidValue(_, let context) = error else {
                Issue.record("Expected invalidValue, got \(error)")
                return
            }
            underlying = context.underlyingError
        }
        let mappingError = try #require(underlying as? KeyMappingError)
        #expect(mappingError.propertyName == "ID")
    }
}

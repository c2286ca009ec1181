// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct KeyMappingEncodingTests {
    static let bookJSON = #"{"n":"Harry Pottery","p":256,"ext":{"desc":"A book written by J.K.Rowing."},"ID":100010}"#
    static let book = Book(name: "Harry Pottery", page: 256, desc: "A book written by J.K.Rowing.", bookID: 100010)

    // MARK: The seed example

    @Test func seedExampleDecodesAndEncodesBackToTheFirstKeys() throws {
        let decoded = try LenientJSONDecoder().decode(Book.self, from: Self.bookJSON)
        #expect(decoded == Self.book)
        #expect(
            try encoded(decoded, [.sortedKeys])
                == #"{"ext":{"desc":"A book written by J.K.Rowing."},"id":100010,"n":"Harry Pottery","p":256}"#)
        // Without sorting, members come in property order; the nested key's object takes the
        // place of its first member.
        #expect(
            try encoded(decoded)
                == #"{"n":"Harry Pottery","p":256,"ext":{"desc":"A book written by J.K.Rowing."},"id":100010}"#)
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func roundTripsThroughTheDecoder(options: LenientJSONDecoder.Options) throws {
        let library = Library(
            books: [Self.book, Book(name: "B", page: 1, desc: "d", bookID: 2)],
            featured: ["top": Self.book], owner: Owner(firstName: "Ann", homeTown: "Porto"), hidden: nil)
        let data = try LenientJSONEncoder().encode(library)
        let decoded = try LenientJSONDecoder(options: options).decode(Library.self, from: data)
        #expect(decoded == library)
    }

    @Test func foundationIgnoresTheMapping() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(Self.book), as: UTF8.self)
        #expect(text == #"{"bookID":100010,"desc":"A book written by J.K.Rowing.","name":"Harry Pottery","page":256}"#)
    }

    // MARK: Nested keys and fallbacks

    @Test func nestedKeysMergeIntoOneObject() throws {
        let value = Nested(title: "t", width: 3, height: 4, depth: 5, version: "v", city: "Porto", note: "n")
        #expect(
            try encoded(value)
                == #"{"meta":{"title":"t","size":{"w":3,"h":4,"d":5}},"v1.2":"v","address":{"city.name":"Porto"},"note":"n"}"#
        )
        #expect(
            try encoded(value, [.sortedKeys])
                == #"{"address":{"city.name":"Porto"},"meta":{"size":{"d":5,"h":4,"w":3},"title":"t"},"note":"n","v1.2":"v"}"#
        )
    }

    @Test func fallbackListWritesItsFirstSource() throws {
        #expect(try encoded(Fallbacks(identifier: 7, code: "x")) == #"{"data":{"id":7},"code_v2":"x"}"#)
    }

    @Test func ignoredPropertiesAreNotEncoded() throws {
        let value = WithIgnored(name: "kept", cache: Explosive(), count: 2, note: nil)
        #expect(try encoded(value) == #"{"name":"kept"}"#)
    }

    @Test func propertiesWrittenAtTheSameKeyKeepTheLastValue() throws {
        #expect(try encoded(SameKey(first: 1, second: 2)) == #"{"id":2}"#)
    }

    // MARK: Strategies

    @Test(arguments: StrategyCase.all)
    func typeStrategyNamesUnmappedKeys(_ testCase: StrategyCase) throws {
        #expect(try encoded(testCase.model) == testCase.expected)
        // The encoder's own strategy does not apply to the type's properties.
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(String(decoding: try encoder.encode(testCase.model), as: UTF8.self) == testCase.expected)
    }

    @Test func typeStrategyOverridesTheEncoderStrategyForThatTypeOnly() throws {
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let value = KebabParent(
            userName: "u", mappedName: "m", plainChild: PlainChild(avatarURL: "a"),
            mappedChild: MappedChild(homeTown: "h", favoriteColor: "c"))
        let text = String(decoding: try encoder.encode(value), as: UTF8.self)
        // KebabParent: its strategy, except the literal entry; PlainChild: the encoder's
        // strategy; MappedChild: the literal entry, and the encoder's strategy for the rest.
        #expect(
            text
                == #"{"user-name":"u","MappedName":"m","plain-child":{"avatar_url":"a"},"mapped-child":{"Town":"h","favorite_color":"c"}}"#
        )
    }

    // MARK: Shapes

    @Test func classAndSubclassEachUseTheirMapping() throws {
        let paperback = Paperback(title: "Dune", isbn: "123", coverColor: "red")
        #expect(try encoded(paperback) == #"{"cover":{"color":"red"},"t":"Dune","meta":{"isbn":"123"}}"#)
        // Stored as its superclass, it still encodes as what it is.
        let shelf = Shelf(items: [paperback, PrintedBook(title: "Emma", isbn: "9")])
        #expect(
            try encoded(shelf)
                == #"{"items":[{"cover":{"color":"red"},"t":"Dune","meta":{"isbn":"123"}},{"t":"Emma","meta":{"isbn":"9"}}]}"#
        )
        let decoded = try LenientJSONDecoder().decode(Paperback.self, from: try LenientJSONEncoder().encode(paperback))
        #expect(decoded.title == "Dune" && decoded.isbn == "123" && decoded.coverColor == "red")
    }

    @Test func arraysDictionariesAndTopLevelArraysOfModels() throws {
        let second = Book(name: "B", page: 1, desc: "d", bookID: 2)
        #expect(
            try encoded([Self.book, second], [.sortedKeys])
                == #"[{"ext":{"desc":"A book written by J.K.Rowing."},"id":100010,"n":"Harry Pottery","p":256},{"ext":{"desc":"d"},"id":2,"n":"B","p":1}]"#
        )
        #expect(try encoded(["b": second], [.sortedKeys]) == #"{"b":{"ext":{"desc":"d"},"id":2,"n":"B","p":1}}"#)
        let nestedArrays: [[Book]?] = [[second], nil]
        #expect(try encoded(nestedArrays) == #"[[{"n":"B","p":1,"ext":{"desc":"d"},"id":2}],null]"#)
    }

    @Test func encodeToJSONValueAndJSONObjectFollowTheMapping() throws {
        let encoder = LenientJSONEncoder()
        let json = try encoder.encodeToJSONValue(Self.book)
        #expect(json["ext"]?["desc"]?.stringValue == "A book written by J.K.Rowing.")
        #expect(json["id"]?.intValue == 100010)
        let object = try #require(try encoder.encodeToJSONObject(Self.book) as? [String: Any])
        #expect((object["ext"] as? [String: Any])?["desc"] as? String == "A book written by J.K.Rowing.")
    }

    // MARK: Errors

    @Test(arguments: BadMappingCase.all)
    func unusableMappingThrowsNamingTypeAndEntry(_ testCase: BadMappingCase) throws {
        let error = try #require(throws: EncodingError.self) { try testCase.encode() }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        let underlying = try #require(context.underlyingError as? KeyMappingError)
        #expect(underlying.propertyName == testCase.entry)
        #expect(underlying.typeName.hasSuffix(testCase.typeName))
        #expect(context.debugDescription.contains(testCase.typeName))
        #expect(context.debugDescription.contains("\"\(testCase.entry)\""))
        #expect(context.codingPath.map(\.stringValue) == testCase.codingPath)
    }

    @Test func mappingOfANestedTypeNamingNoPropertyIsCaught() throws {
        // The synthesized coding keys of a type nested in another are private and reflect as
        // `<type>.(unknown context at $…).CodingKeys`; KeyPlan still knows them for the type's own.
        let error = try #require(throws: EncodingError.self) { try LenientJSONEncoder().encode(UnknownProperty()) }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        #expect(context.underlyingError is KeyMappingError)
    }

    @Test(arguments: [false, true])
    func nestedKeyOverAPropertyValueIsAConflict(pathFirst: Bool) throws {
        let error = try #require(throws: EncodingError.self) {
            if pathFirst {
                _ = try LenientJSONEncoder().encode(PathThenValue(desc: "d", ext: 1))
            } else {
                _ = try LenientJSONEncoder().encode(ValueThenPath(ext: 1, desc: "d"))
            }
        }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("Expected invalidValue, got \(error)")
            return
        }
        let underlying = try #require(context.underlyingError as? KeyMappingError)
        #expect(underlying.typeName.hasSuffix(pathFirst ? "PathThenValue" : "ValueThenPath"))
        #expect(context.debugDescription.contains(#""ext""#))
        if pathFirst {
            #expect(underlying.propertyName == "ext")
            #expect(context.codingPath.map(\.stringValue) == ["ext"])
        } else {
            #expect(underlying.propertyName == "desc")
            #expect(context.debugDescription.contains(#""ext.desc""#))
            #expect(context.codingPath.map(\.stringValue) == ["desc"])
        }
    }

    private func encoded(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting = []) throws -> String {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = formatting
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

// MARK: - Fixtures

extension KeyMappingEncodingTests {
    struct Book: Codable, Equatable, KeyMapping {
        var name: String
        var page: Int
        var desc: String
        var bookID: Int

        static let keyMapping: [String: KeySource] = [
            "name": "n",
            "page": "p",
            "desc": "ext.desc",
            "bookID": ["id", "ID", "book_id"],
        ]
    }

    struct Owner: Codable, Equatable, KeyMapping {
        var firstName: String
        var homeTown: String
        static let keyMapping: [String: KeySource] = ["homeTown": "profile.town"]
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    struct Library: Codable, Equatable, KeyMapping {
        var books: [Book]
        var featured: [String: Book]
        var owner: Owner
        var hidden: Int?
        static let keyMapping: [String: KeySource] = ["books": "data.books", "owner": "data.owner", "hidden": .ignored]
    }

    struct Nested: Encodable, KeyMapping {
        var title: String
        var width: Int
        var height: Int
        var depth: Int
        var version: String
        var city: String
        var note: String
        static let keyMapping: [String: KeySource] = [
            "title": "meta.title", "width": "meta.size.w", "height": "meta.size.h",
            "depth": .path(["meta", "size", "d"]),
            "version": .key("v1.2"), "city": .path(["address", "city.name"]),
        ]
    }

    struct Fallbacks: Encodable, KeyMapping {
        var identifier: Int
        var code: String
        static let keyMapping: [String: KeySource] = [
            "identifier": ["data.id", "id", "ID"], "code": .firstOf(["code_v2", "code"]),
        ]
    }

    /// Fails the test if it is ever encoded.
    struct Explosive: Encodable {
        func encode(to encoder: any Encoder) throws {
            Issue.record("An ignored property was encoded.")
        }
    }

    struct WithIgnored: Encodable, KeyMapping {
        var name: String
        var cache: Explosive
        var count: Int
        var note: String?
        static let keyMapping: [String: KeySource] = ["cache": .ignored, "count": .ignored, "note": .ignored]

        enum CodingKeys: String, CodingKey {
            case name, cache, count, note
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(cache, forKey: .cache)
            try container.encode(count, forKey: .count)
            try container.encodeNil(forKey: .note)
        }
    }

    struct SameKey: Encodable, KeyMapping {
        var first: Int
        var second: Int
        static let keyMapping: [String: KeySource] = ["first": "id", "second": "id"]
    }

    struct PathThenValue: Encodable, KeyMapping {
        var desc: String
        var ext: Int
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
    }

    struct ValueThenPath: Encodable, KeyMapping {
        var ext: Int
        var desc: String
        static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
    }

    struct PlainChild: Encodable {
        var avatarURL: String
    }

    struct MappedChild: Encodable, KeyMapping {
        var homeTown: String
        var favoriteColor: String
        static let keyMapping: [String: KeySource] = ["homeTown": "Town"]
    }

    struct KebabParent: Encodable, KeyMapping {
        var userName: String
        var mappedName: String
        var plainChild: PlainChild
        var mappedChild: MappedChild
        static let keyMapping: [String: KeySource] = ["mappedName": "MappedName"]
        static let keyStrategy: KeyStrategy? = .kebabCase
    }

    class PrintedBook: Codable, KeyMapping {
        var title: String
        var isbn: String

        init(title: String, isbn: String) {
            self.title = title
            self.isbn = isbn
        }

        class var keyMapping: [String: KeySource] { ["title": "t", "isbn": "meta.isbn"] }
    }

    final class Paperback: PrintedBook {
        var coverColor: String

        init(title: String, isbn: String, coverColor: String) {
            self.coverColor = coverColor
            super.init(title: title, isbn: isbn)
        }

        override class var keyMapping: [String: KeySource] {
            super.keyMapping.merging(["coverColor": "cover.color"]) { _, new in new }
        }

        private enum CodingKeys: String, CodingKey {
            case coverColor
        }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            coverColor = try container.decode(String.self, forKey: .coverColor)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(coverColor, forKey: .coverColor)
            try super.encode(to: encoder)
        }
    }

    struct Shelf: Encodable {
        var items: [PrintedBook]
    }
}

// MARK: - Strategy cases

protocol StrategyEncodingModel: Encodable, KeyMapping, Sendable {}

extension KeyMappingEncodingTests {
    struct SnakeModel: StrategyEncodingModel {
        var userName = "a"
        var avatarURLString = "b"
        var fixed = "c"
        static let keyMapping: [String: KeySource] = ["fixed": "Fixed.Key"]
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    struct KebabModel: StrategyEncodingModel {
        var userName = "a"
        var avatarURLString = "b"
        static let keyStrategy: KeyStrategy? = .kebabCase
    }

    struct PascalModel: StrategyEncodingModel {
        var userName = "a"
        var avatarURLString = "b"
        static let keyStrategy: KeyStrategy? = .pascalCase
    }

    struct CamelModel: StrategyEncodingModel {
        var user_name = "a"
        var AvatarURL = "b"
        static let keyStrategy: KeyStrategy? = .camelCase
    }

    struct ScreamingModel: StrategyEncodingModel {
        var userName = "a"
        var avatarURLString = "b"
        static let keyStrategy: KeyStrategy? = .screamingSnakeCase
    }

    struct CustomModel: StrategyEncodingModel {
        var userName = "a"
        var avatarURLString = "b"
        static let keyStrategy: KeyStrategy? = .custom { "x-" + $0 }
    }

    struct StrategyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let model: any StrategyEncodingModel
        let expected: String
        var testDescription: String { name }

        static let all: [StrategyCase] = [
            StrategyCase(
                name: "snakeCase", model: SnakeModel(),
                expected: #"{"user_name":"a","avatar_url_string":"b","Fixed":{"Key":"c"}}"#),
            StrategyCase(
                name: "kebabCase", model: KebabModel(), expected: #"{"user-name":"a","avatar-url-string":"b"}"#),
            StrategyCase(
                name: "pascalCase", model: PascalModel(), expected: #"{"UserName":"a","AvatarURLString":"b"}"#),
            StrategyCase(name: "camelCase", model: CamelModel(), expected: #"{"userName":"a","avatarURL":"b"}"#),
            StrategyCase(
                name: "screamingSnakeCase", model: ScreamingModel(),
                expected: #"{"USER_NAME":"a","AVATAR_URL_STRING":"b"}"#),
            StrategyCase(
                name: "custom", model: CustomModel(), expected: #"{"x-userName":"a","x-avatarURLString":"b"}"#),
        ]
    }
}

// MARK: - Bad mappings

extension KeyMappingEncodingTests {
    struct UnknownProperty: Encodable, KeyMapping {
        var name = "x"
        static let keyMapping: [String: KeySource] = ["nmae": "n"]
    }

    struct EmptyKey: Encodable, KeyMapping {
        var name = "x"
        static let keyMapping: [String: KeySource] = ["name": "meta..name"]
    }

    struct HoldsBadElements: Encodable {
        var items = [EmptyKey()]
    }

    struct BadMappingCase: Sendable, CustomTestStringConvertible {
        let typeName: String
        let entry: String
        let codingPath: [String]
        let encode: @Sendable () throws -> Void
        var testDescription: String { typeName }

        static let all: [BadMappingCase] = [
            BadMappingCase(typeName: "UnknownProperty", entry: "nmae", codingPath: []) {
                // Local: see `mappingOfANestedTypeNamingNoPropertyIsCaught` for a nested one.
                struct UnknownProperty: Encodable, KeyMapping {
                    var name = "x"
                    static let keyMapping: [String: KeySource] = ["nmae": "n"]
                }
                _ = try LenientJSONEncoder().encode(UnknownProperty())
            },
            BadMappingCase(typeName: "EmptyKey", entry: "name", codingPath: []) {
                _ = try LenientJSONEncoder().encodeToJSONValue(EmptyKey())
            },
            BadMappingCase(typeName: "EmptyKey", entry: "name", codingPath: ["items", "Index 0"]) {
                _ = try LenientJSONEncoder().encode(HoldsBadElements())
            },
        ]
    }
}

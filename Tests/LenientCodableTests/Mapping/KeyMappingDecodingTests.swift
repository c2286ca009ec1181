// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct KeyMappingDecodingTests {
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

    static let bookJSON = #"{"n":"Harry Pottery","p":256,"ext":{"desc":"A book written by J.K.Rowing."},"ID":100010}"#

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func decodesTheSeedExample(options: LenientJSONDecoder.Options) throws {
        let book = try LenientJSONDecoder(options: options).decode(Book.self, from: Self.bookJSON)
        #expect(book == Book(name: "Harry Pottery", page: 256, desc: "A book written by J.K.Rowing.", bookID: 100010))
    }

    @Test func fallbackBeyondTheFirstSourceIsReported() throws {
        let (_, report) = try LenientJSONDecoder().decodeWithReport(Book.self, from: Self.bookJSON)
        #expect(report.issues.count == 1)
        let issue = try #require(report.issues.first)
        #expect(issue.kind == .keyFallback)
        #expect(issue.path == "bookID")
        #expect(issue.message == #"Found bookID under "ID" instead of "id"."#)
    }

    @Test func fallbackListSkipsNullAndTakesFirstPresent() throws {
        let json = #"{"n":"x","p":1,"ext":{"desc":"d"},"id":null,"ID":null,"book_id":7}"#
        #expect(try LenientJSONDecoder(.strict).decode(Book.self, from: json).bookID == 7)
        let first = #"{"n":"x","p":1,"ext":{"desc":"d"},"id":5,"book_id":7}"#
        #expect(try LenientJSONDecoder(.strict).decode(Book.self, from: first).bookID == 5)
    }

    @Test func missingEverywhereNamesEveryKeyTried() throws {
        let json = #"{"n":"x","p":1,"ext":{"desc":"d"}}"#
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(Book.self, from: json)
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("Expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "bookID")
        #expect(context.debugDescription == #"No value for key "bookID"; tried "id", "ID", "book_id"."#)
    }

    @Test func nestedKeyThroughANonObjectIsMissing() throws {
        struct Item: Decodable, KeyMapping {
            var desc: String?
            static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
        }
        let item = try LenientJSONDecoder(.strict).decode(Item.self, from: #"{"ext":"not an object"}"#)
        #expect(item.desc == nil)
    }

    @Test func literalKeyWithDotsAndExplicitPath() throws {
        struct Version: Decodable, Equatable, KeyMapping {
            var current: String
            var city: String
            static let keyMapping: [String: KeySource] = [
                "current": .key("v1.2"), "city": .path(["address", "city.name"]),
            ]
        }
        let json = #"{"v1.2":"yes","v1":{"2":"no"},"address":{"city.name":"Porto"}}"#
        #expect(
            try LenientJSONDecoder(.strict).decode(Version.self, from: json) == Version(current: "yes", city: "Porto"))
    }

    @Test func severalPropertiesMayReadOneKey() throws {
        struct Twice: Decodable, Equatable, KeyMapping {
            var id: Int
            var identifier: Int
            static let keyMapping: [String: KeySource] = ["identifier": "id"]
        }
        #expect(try LenientJSONDecoder(.strict).decode(Twice.self, from: #"{"id":3}"#) == Twice(id: 3, identifier: 3))
    }

    @Test func ignoredPropertiesAreNotRead() throws {
        struct Cached: Decodable, KeyMapping {
            var name: String
            var cache: String?
            static let keyMapping: [String: KeySource] = ["cache": .ignored]
        }
        let value = try LenientJSONDecoder(.strict).decode(Cached.self, from: #"{"name":"a","cache":"stale"}"#)
        #expect(value.cache == nil)
        #expect(value.name == "a")
    }

    @Test(arguments: [
        (KeyStrategy.snakeCase, #"{"user_name":"a","avatar_url":"b","address2_line":"c"}"#),
        (.kebabCase, #"{"user-name":"a","avatar-url":"b","address2-line":"c"}"#),
        (.pascalCase, #"{"UserName":"a","AvatarURL":"b","Address2Line":"c"}"#),
        (.screamingSnakeCase, #"{"USER_NAME":"a","AVATAR_URL":"b","ADDRESS2_LINE":"c"}"#),
        (.camelCase, #"{"userName":"a","avatarURL":"b","address2Line":"c"}"#),
        (.custom { "x-" + $0 }, #"{"x-userName":"a","x-avatarURL":"b","x-address2Line":"c"}"#),
    ])
    func perTypeStrategy(strategy: KeyStrategy, json: String) throws {
        struct Profile: Decodable, Equatable {
            var userName: String
            var avatarURL: String
            var address2Line: String
        }
        #expect(strategy.jsonKey(for: "userName").isEmpty == false)
        let keys = ["userName", "avatarURL", "address2Line"].map(strategy.jsonKey(for:))
        let object = try JSONValue(parsing: json)
        for key in keys { #expect(object[key] != nil, "missing \(key)") }
    }

    struct SnakeUser: Decodable, Equatable, KeyMapping {
        var userName: String
        var avatarURL: String
        var nickname: String
        static let keyStrategy: KeyStrategy? = .snakeCase
        static let keyMapping: [String: KeySource] = ["nickname": "nick"]
    }

    @Test func typeStrategyOverridesTheDecodersStrategyForThatTypeOnly() throws {
        struct Outer: Decodable, Equatable {
            var ownerName: String
            var user: SnakeUser
        }
        let decoder = LenientJSONDecoder(.strict)
        decoder.keyDecodingStrategy = .custom { path in
            let last = path[path.count - 1].stringValue
            return KeyStrategyTestKey(stringValue: String(last.dropFirst(2)))
        }
        let json = #"{"x-ownerName":"o","x-user":{"user_name":"u","avatar_url":"a","nick":"n"}}"#
        let outer = try decoder.decode(Outer.self, from: json)
        #expect(outer == Outer(ownerName: "o", user: SnakeUser(userName: "u", avatarURL: "a", nickname: "n")))
    }

    @Test(arguments: ["UserName", "USERNAME", "user_name", "user-name", "username"])
    func lenientMatchesKeysLoosely(spelling: String) throws {
        struct Account: Decodable {
            var userName: String
        }
        let json = "{\"\(spelling)\":\"ada\"}"
        let (account, report) = try LenientJSONDecoder().decodeWithReport(Account.self, from: json)
        #expect(account.userName == "ada")
        #expect(report.issues.map(\.kind) == [.keyFallback])
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode(Account.self, from: json) }
    }

    @Test func exactMatchWinsOverLooseMatch() throws {
        struct Account: Decodable {
            var userName: String
        }
        let json = #"{"user_name":"loose","userName":"exact"}"#
        let (account, report) = try LenientJSONDecoder().decodeWithReport(Account.self, from: json)
        #expect(account.userName == "exact")
        #expect(report.isEmpty)
    }

    @Test func worksForArraysDictionariesAndNestedModels() throws {
        struct Shelf: Decodable, KeyMapping {
            var books: [Book]
            var byCode: [String: Book]
            static let keyMapping: [String: KeySource] = ["books": "items", "byCode": "index.by_code"]
        }
        let book = Self.bookJSON
        let json = #"{"items":[\#(book),\#(book)],"index":{"by_code":{"a":\#(book)}}}"#
        let shelf = try LenientJSONDecoder(.strict).decode(Shelf.self, from: json)
        #expect(shelf.books.map(\.bookID) == [100010, 100010])
        #expect(shelf.byCode["a"]?.desc == "A book written by J.K.Rowing.")
        let topLevel = try LenientJSONDecoder(.strict).decode([Book].self, from: "[\(book)]")
        #expect(topLevel.first?.name == "Harry Pottery")
    }

    class Animal: Codable, KeyMapping {
        var name: String
        class var keyMapping: [String: KeySource] { ["name": "animal_name"] }
        private enum CodingKeys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    final class Dog: Animal {
        var barks: Int
        override class var keyMapping: [String: KeySource] { super.keyMapping.merging(["barks": "bark_count"]) { $1 } }
        private enum CodingKeys: String, CodingKey { case barks }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            barks = try container.decode(Int.self, forKey: .barks)
            try super.init(from: decoder)
        }
    }

    @Test func subclassesInheritTheSuperclassMapping() throws {
        let dog = try LenientJSONDecoder(.strict).decode(Dog.self, from: #"{"animal_name":"Rex","bark_count":3}"#)
        #expect(dog.name == "Rex")
        #expect(dog.barks == 3)
    }

    @Test func aMappingThatNamesNoPropertyIsAClearError() throws {
        struct Typo: Decodable, KeyMapping {
            var title: String
            static let keyMapping: [String: KeySource] = ["titel": "t"]
        }
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Typo.self, from: #"{"t":"x"}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        let mappingError = try #require(context.underlyingError as? KeyMappingError)
        #expect(mappingError.propertyName == "titel")
        #expect(context.debugDescription.contains("titel"))
        #expect(context.debugDescription.contains("Typo"))
    }

    @Test func anEmptyKeyIsAClearError() throws {
        struct Empty: Decodable, KeyMapping {
            var title: String
            static let keyMapping: [String: KeySource] = ["title": "a..b"]
        }
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Empty.self, from: #"{"t":"x"}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect((context.underlyingError as? KeyMappingError)?.propertyName == "title")
    }

    @Test func foundationIgnoresTheMapping() throws {
        struct Plain: Codable, Equatable, KeyMapping {
            var name: String
            static let keyMapping: [String: KeySource] = ["name": "n"]
        }
        #expect(try JSONDecoder().decode(Plain.self, from: Data(#"{"name":"a","n":"b"}"#.utf8)) == Plain(name: "a"))
        #expect(try LenientJSONDecoder().decode(Plain.self, from: #"{"name":"a","n":"b"}"#) == Plain(name: "b"))
    }
}

struct KeyStrategyTestKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Key mappings and declared defaults apply where the decoder is asked for the type.
@Suite struct ForwardedDeclarationsTests {
    struct MappedBook: Codable, Equatable, KeyMapping, DeclaredDefaults {
        var title = ""
        var pages = 100
        static let keyMapping: [String: KeySource] = ["title": "info.title"]
    }

    /// Forwards to `MappedBook` through a single value container, as the guide says: the decoder is asked for the
    /// type, so its mapping and declared defaults apply, both ways.
    struct Forwarding: Codable, Equatable {
        var book: MappedBook

        init(book: MappedBook) { self.book = book }

        init(from decoder: any Decoder) throws {
            book = try decoder.singleValueContainer().decode(MappedBook.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(book)
        }
    }

    @Test func aModelForwardedThroughAContainerKeepsItsDeclarations() throws {
        let json = Data(#"{"info":{"title":"Dune"}}"#.utf8)
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let decoder = LenientJSONDecoder(options: options)
            let forwarded = try decoder.decode(Forwarding.self, from: json)
            #expect(forwarded == Forwarding(book: MappedBook(title: "Dune", pages: 100)))
            let encoded = try LenientJSONEncoder().encode(forwarded)
            #expect(String(decoding: encoded, as: UTF8.self) == #"{"info":{"title":"Dune"},"pages":100}"#)
            #expect(try decoder.decode(Forwarding.self, from: encoded) == forwarded)
        }
    }
}

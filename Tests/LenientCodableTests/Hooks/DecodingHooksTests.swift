// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct DecodingHooksTests {
    enum ValidationError: Error, Equatable {
        case missingTimestamp
    }

    struct User: Decodable, DecodingHooks, Equatable {
        var name: String
        var createdAt: Date?

        private enum CodingKeys: String, CodingKey { case name }

        mutating func didDecode(from json: JSONValue) throws {
            guard let timestamp = json["timestamp"]?.doubleValue else { throw ValidationError.missingTimestamp }
            createdAt = Date(timeIntervalSince1970: timestamp)
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func didDecodeDerivesAField(options: LenientJSONDecoder.Options) throws {
        let user = try LenientJSONDecoder(options: options).decode(
            User.self, from: #"{"name":"ada","timestamp":1445534567}"#)
        #expect(user == User(name: "ada", createdAt: Date(timeIntervalSince1970: 1_445_534_567)))
    }

    @Test func strictRejectionIsThrownWithPathAndHookError() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode([String: User].self, from: #"{"a":{"name":"ada"}}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["a"])
        #expect(context.underlyingError as? ValidationError == .missingTimestamp)
    }

    @Test func topLevelRejectionIsThrownInLenientToo() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(User.self, from: #"{"name":"ada"}"#)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.isEmpty)
        #expect(context.underlyingError as? ValidationError == .missingTimestamp)
    }

    @Test func rejectedElementsAreLeftOutAndReportedInLenient() throws {
        let json = #"[{"name":"a","timestamp":1},{"name":"b"},{"name":"c","timestamp":3}]"#
        let (users, report) = try LenientJSONDecoder().decodeWithReport([User].self, from: json)
        #expect(users.map(\.name) == ["a", "c"])
        #expect(report.issues.map(\.kind) == [.rejected])
        #expect(report.issues.map(\.path) == ["[1]"])
        #expect(throws: DecodingError.self) { try LenientJSONDecoder(.strict).decode([User].self, from: json) }
    }

    @Test func rejectedOptionalBecomesNilInLenient() throws {
        struct Session: Decodable {
            var user: User?
        }
        let (session, report) = try LenientJSONDecoder().decodeWithReport(Session.self, from: #"{"user":{"name":"x"}}"#)
        #expect(session.user == nil)
        #expect(report.issues.map(\.kind) == [.rejected])
        #expect(report.issues.map(\.path) == ["user"])
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(Session.self, from: #"{"user":{"name":"x"}}"#)
        }
    }

    struct Enveloped: Decodable, DecodingHooks, Equatable {
        var id: Int
        var title: String

        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var payload = json["data"] ?? json
            if payload["title"] == nil, let first = payload["first"]?.stringValue,
                let last = payload["last"]?.stringValue
            {
                payload["title"] = .string(first + " " + last)
            }
            return payload
        }
    }

    @Test func willDecodeUnwrapsEnvelopesAndFillsFields() throws {
        let decoder = LenientJSONDecoder(.strict)
        #expect(
            try decoder.decode(Enveloped.self, from: #"{"data":{"id":1,"title":"t"}}"#) == Enveloped(id: 1, title: "t"))
        #expect(
            try decoder.decode(Enveloped.self, from: #"{"id":2,"first":"a","last":"b"}"#)
                == Enveloped(id: 2, title: "a b"))
        let nested = try decoder.decode([Enveloped].self, from: #"[{"data":{"id":3,"title":"x"}}]"#)
        #expect(nested == [Enveloped(id: 3, title: "x")])
    }

    struct Unwrapping: Codable, DecodingHooks, Equatable {
        var id: Int
        static func willDecode(_ json: JSONValue) throws -> JSONValue { json["wrap"] ?? json }
    }

    struct UnwrappingHolder: Codable, Equatable {
        var list: [Unwrapping]
        var required: Unwrapping
    }

    /// What `willDecode` returns has the second chances of the document's own JSON: JSON text in
    /// a string, returned by the hook, is parsed in `.lenient` and reported as it would be in the
    /// document; `.strict` refuses it as Foundation refuses a string for an object.
    @Test func jsonTextAHookReturnsIsParsedInLenient() throws {
        let inDocument = #"{"list":["{\"id\":1}"],"required":"{\"id\":3}"}"#
        let fromHook = #"{"list":[{"wrap":"{\"id\":1}"}],"required":{"wrap":"{\"id\":3}"}}"#
        let expected = UnwrappingHolder(list: [Unwrapping(id: 1)], required: Unwrapping(id: 3))
        let summaries = [IssueSummary(.coerced, "list[0]"), IssueSummary(.coerced, "required")]
        for json in [inDocument, fromHook] {
            let (value, report) = try LenientJSONDecoder().decodeWithReport(UnwrappingHolder.self, from: json)
            #expect(value == expected)
            #expect(report.issues.map(IssueSummary.init).sorted() == summaries, "\(report)")
            #expect(report.issues.allSatisfy { $0.message.contains("JSON text") }, "\(report)")
            let error = try #require(throws: DecodingError.self) {
                try LenientJSONDecoder(options: .strict).decode(UnwrappingHolder.self, from: json)
            }
            guard case .typeMismatch = error else {
                Issue.record("Expected typeMismatch, got \(error)")
                continue
            }
        }
        // Inside the JSON text, the values are forgiven and reported as anywhere else.
        let coercedInside = #"{"list":[{"wrap":"{\"id\":\"7\"}"}],"required":{"wrap":{"id":3}}}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(UnwrappingHolder.self, from: coercedInside)
        #expect(value == UnwrappingHolder(list: [Unwrapping(id: 7)], required: Unwrapping(id: 3)))
        #expect(
            report.issues.map(IssueSummary.init).sorted()
                == [IssueSummary(.coerced, "list[0]"), IssueSummary(.coerced, "list[0].id")], "\(report)")
        // JSON text that is not JSON is a clear error at the value's path.
        let broken = #"{"list":[],"required":{"wrap":"{\"id\":3"}}"#
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(UnwrappingHolder.self, from: broken)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("Expected typeMismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["required"], "\(error)")
        #expect(context.debugDescription.contains("JSON text"), "\(error)")
        // What decodes comes back the same through the encoder (which writes the plain object).
        let again = try LenientJSONDecoder().decodeWithReport(
            UnwrappingHolder.self, from: try LenientJSONEncoder().encode(expected))
        #expect(again.value == expected)
        #expect(again.report.isEmpty)
    }

    /// Always returns its JSON as JSON text in a string, whatever it is given.
    struct TextAgain: Codable, DecodingHooks, Equatable {
        var name: String
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            guard case .object = json else { return json }
            return .string(String(decoding: try LenientJSONEncoder().encode(json), as: UTF8.self))
        }
    }

    /// Always returns the same JSON text.
    struct SameText: Codable, DecodingHooks, Equatable {
        var name: String?
        static func willDecode(_ json: JSONValue) throws -> JSONValue { .string(#"{"name": "c"}"#) }
    }

    struct TextHolder<Value: Codable & Equatable>: Codable, Equatable { var value: Value }

    /// A hook that returns JSON text again from the value parsed out of its own JSON text is
    /// parsed once: the decode ends with a short error, never a loop to the end of the stack.
    @Test func aHookThatAlwaysReturnsJSONTextIsParsedOnce() throws {
        let json = #"{"value": {"name": "x"}}"#
        let first = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(TextHolder<TextAgain>.self, from: json)
        }
        let second = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(TextHolder<SameText>.self, from: json)
        }
        for error in [first, second] {
            guard case .typeMismatch(_, let context) = error else {
                Issue.record("Expected typeMismatch, got \(error)")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == ["value"])
            #expect("\(error)".utf8.count < 4_000, "\("\(error)".utf8.count) bytes")
            #expect(!context.debugDescription.contains("stack"), "\(context.debugDescription)")
        }
        // In an array the element is dropped and reported once.
        let (list, report) = try LenientJSONDecoder().decodeWithReport(
            [TextAgain].self, from: #"[{"name": "x"}, "{\"name\": \"y\"}"]"#)
        #expect(list.isEmpty)
        #expect(report.issues.map(\.kind) == [.droppedElement, .droppedElement], "\(report)")
    }

    @Test func foundationDoesNotCallHooks() throws {
        let user = try JSONDecoder().decode(User.self, from: Data(#"{"name":"ada"}"#.utf8))
        #expect(user.createdAt == nil)
    }

    class BaseUser: Decodable, PolymorphicDecodable {
        var id: Int
        class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
            if json["localName"] != nil { return LocalUser.self }
            if json["remoteName"] != nil { return RemoteUser.self }
            return nil
        }
    }

    final class LocalUser: BaseUser {
        var localName: String
        private enum CodingKeys: String, CodingKey { case localName }
        required init(from decoder: any Decoder) throws {
            localName = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .localName)
            try super.init(from: decoder)
        }
    }

    final class RemoteUser: BaseUser {
        var remoteName: String
        private enum CodingKeys: String, CodingKey { case remoteName }
        required init(from decoder: any Decoder) throws {
            remoteName = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .remoteName)
            try super.init(from: decoder)
        }
    }

    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func polymorphicElementsInAnArray(options: LenientJSONDecoder.Options) throws {
        let json = #"[{"id":1,"localName":"l"},{"id":2,"remoteName":"r"},{"id":3}]"#
        let users = try LenientJSONDecoder(options: options).decode([BaseUser].self, from: json)
        #expect(users.count == 3)
        #expect((users[0] as? LocalUser)?.localName == "l")
        #expect((users[1] as? RemoteUser)?.remoteName == "r")
        #expect(type(of: users[2]) == BaseUser.self)
        #expect(users.map(\.id) == [1, 2, 3])
    }

    @Test func polymorphicPropertiesDictionaryValuesAndTopLevel() throws {
        struct Team: Decodable {
            var owner: BaseUser
            var byName: [String: BaseUser]
        }
        let decoder = LenientJSONDecoder(.strict)
        let team = try decoder.decode(
            Team.self, from: #"{"owner":{"id":1,"remoteName":"r"},"byName":{"x":{"id":2,"localName":"l"}}}"#)
        #expect(team.owner is RemoteUser)
        #expect(team.byName["x"] is LocalUser)
        #expect(try decoder.decode(BaseUser.self, from: #"{"id":5,"localName":"z"}"#) is LocalUser)
    }

    class Shape: Decodable, PolymorphicDecodable {
        class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
            json["wrong"] != nil ? String.self : nil
        }
    }

    @Test func aTypeThatIsNotASubtypeIsAClearError() throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(Shape.self, from: #"{"wrong":1}"#)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("Expected typeMismatch, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("Shape"))
        #expect(context.debugDescription.contains("String"))
    }

    /// A single-value type whose hook unwraps an envelope to the scalar inside it.
    struct Price: Codable, Equatable, DecodingHooks {
        var cents: Int
        init(cents: Int) { self.cents = cents }
        init(from decoder: any Decoder) throws { cents = try decoder.singleValueContainer().decode(Int.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(cents)
        }
        static func willDecode(_ json: JSONValue) throws -> JSONValue { json["value"] ?? json }
    }

    struct Cart: Codable, Equatable {
        var price: Price
        var prices: [Price]
    }

    /// A hook may return a scalar for an object: the type decodes the scalar, in every mode, at
    /// the top level and inside arrays, and what it encodes decodes back.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func aHookMayUnwrapAnObjectToAScalar(options: LenientJSONDecoder.Options) throws {
        let decoder = LenientJSONDecoder(options: options)
        let json = #"{"price":{"value":250},"prices":[{"value":1},2,{"value":"x","other":3}]}"#
        let (cart, report) = try decoder.decodeWithReport(
            Cart.self, from: #"{"price":{"value":250},"prices":[{"value":1},2]}"#)
        #expect(cart == Cart(price: Price(cents: 250), prices: [Price(cents: 1), Price(cents: 2)]))
        #expect(report.isEmpty)
        #expect(try decoder.decode(Price.self, from: #"{"value":7}"#) == Price(cents: 7))
        #expect(try decoder.decode(Cart.self, from: LenientJSONEncoder().encode(cart)) == cart)
        if options.allowsLooseKeyMatching {
            // A hook's scalar that needs forgiving is forgiven and reported like any value.
            let lossy = try decoder.decodeWithReport(Cart.self, from: json)
            #expect(lossy.value.prices == [Price(cents: 1), Price(cents: 2)])
            #expect(lossy.report.issues.map(\.path) == ["prices[2]"])
        } else {
            #expect(throws: DecodingError.self) { try decoder.decode(Cart.self, from: json) }
        }
    }
}

/// A hook that adds a member to what the server sent must not stop the app when the server sends
/// something other than an object: setting a member of a string, number, bool or array leaves the
/// value as it is, and the decoder treats it as it would without the hook.
struct HookSettingAMemberOfANonObjectTests {
    struct Card: Codable, Equatable, DecodingHooks {
        var kind: String
        var id: Int
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var json = json
            json["kind"] = "card"
            return json
        }
    }

    struct Deck: Codable, Equatable {
        var cards: [Card]
    }

    @Test(arguments: [#"["x"]"#, #""text""#, "5", "true", "[]"])
    func aNonObjectIsLeftAsItIs(_ member: String) throws {
        let text = #"{"cards":[{"id":1},\#(member),{"id":2}]}"#
        let (deck, report) = try LenientJSONDecoder().decodeWithReport(Deck.self, from: text)
        #expect(deck.cards == [Card(kind: "card", id: 1), Card(kind: "card", id: 2)])
        #expect(report.issues.map(\.path) == ["cards[1]"])
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Deck.self, from: text)
        }
        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Deck.self, from: LenientJSONEncoder().encode(deck))
        #expect(again == deck && reportAgain.isEmpty)
    }

    @Test func settingAMemberChangesOnlyObjectsAndNull() {
        var values: [JSONValue] = ["text", 5, true, ["a"], .null, ["b": 1]]
        for position in values.indices { values[position]["k"] = 1 }
        #expect(values == ["text", 5, true, ["a"], ["k": 1], ["b": 1, "k": 1]])
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Loose key matching (`allowsLooseKeyMatching`, on in `.lenient`) ignores ASCII case and the
/// separators `_`, `-` and space. A keyed container summarizes its object's keys on its first
/// loose search, and a key whose summary bit is clear is not searched for: every answer must
/// still be the one a plain comparison with every member gives, whatever the object holds.
@Suite struct LooseKeyMatchingTests {
    static let wantedKey = CodingUserInfoKey(rawValue: "wanted")!

    /// Asks first for a key no member matches (which builds the summary), then for the wanted key,
    /// then for the absent key again.
    struct Probe: Decodable {
        var absent: Int?
        var value: Int?
        var absentAgain: Int?

        init(from decoder: any Decoder) throws {
            let wanted = TestCodingKey(decoder.userInfo[LooseKeyMatchingTests.wantedKey] as! String)
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            absent = try container.decodeIfPresent(Int.self, forKey: TestCodingKey("qqqNotThere"))
            value = try container.decodeIfPresent(Int.self, forKey: wanted)
            absentAgain = try container.decodeIfPresent(Int.self, forKey: TestCodingKey("qqqNotThere"))
        }
    }

    /// The reference: the significant bytes of two keys, compared one by one.
    static func looselyEqual(_ lhs: String, _ rhs: String) -> Bool {
        func significant(_ key: String) -> [UInt8] {
            key.utf8.compactMap { byte in
                switch byte {
                case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: " "): return nil
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte | 0x20
                default: return byte
                }
            }
        }
        return significant(lhs) == significant(rhs)
    }

    /// The document's spelling of a member and the key the model asks for.
    static let spellings: [(json: String, wanted: String)] = [
        ("userName", "userName"), ("USER_NAME", "userName"), ("user-name", "userName"), ("user name", "userName"),
        ("_userName_", "userName"), ("--USERNAME--", "userName"), ("UserName", "user_name"),
        ("avatarURL", "avatarUrl"), ("avatar_u_r_l", "avatarURL"), ("id", "ID"), (" Id ", "id"), ("i_d", "ID"),
        ("userNames", "userName"), ("serName", "userName"), ("userNam", "userName"), ("usernamf", "userName"),
        ("a", "A"), ("_", "__"), ("-", ""), ("x1", "X_1"), ("1x", "x1"), ("é", "É"), ("名前", "名前"),
        ("na_me", "name"), ("nÄme", "näme"),
        // Same first and last significant bytes, or a separator at either end of either key.
        ("usurName", "userName"), ("userNamf_", "userName"), ("user_name", "userName__"), ("U", "u_"),
        ("userName-", "USERNAME"), ("user_named", "userName"),
    ]

    @Test(arguments: spellings, [0, 3, 60])
    func findsWhatAComparisonWithEveryMemberFinds(spelling: (json: String, wanted: String), fillers: Int) throws {
        // Filler members before and after, with keys of the same first and last letters as
        // some spellings, so that summary bits are shared.
        var members = (0..<fillers).map {
            #""\#(["u", "a", "i", "n"][$0 % 4])filler\#($0)\#(["e", "l", "d", "x"][$0 % 4])":0"#
        }
        members.insert(#""\#(spelling.json)":7"#, at: members.count / 2)
        let json = Data(("{" + members.joined(separator: ",") + "}").utf8)
        let decoder = LenientJSONDecoder(options: .lenient)
        decoder.userInfo[Self.wantedKey] = spelling.wanted
        let probe = try decoder.decode(Probe.self, from: json)
        #expect(probe.absent == nil)
        #expect(probe.absentAgain == nil)
        #expect(probe.value == (Self.looselyEqual(spelling.json, spelling.wanted) ? 7 : nil))
    }

    @Test func escapedKeysStillMatchLoosely() throws {
        // `user\u005Fname` is `user_name` once unescaped.
        let json = Data(#"{"a":1,"b":2,"user\u005Fname":7,"c":3}"#.utf8)
        let decoder = LenientJSONDecoder(options: .lenient)
        decoder.userInfo[Self.wantedKey] = "userName"
        let probe = try decoder.decode(Probe.self, from: json)
        #expect(probe.value == 7)
        #expect(probe.absent == nil)
    }

    struct Account: Codable, Equatable {
        var userName: String
        var avatarURL: String?
        var nickname: String?
        var age: Int?
        var bio: String?
    }

    @Test func aModelFindsItsLooseKeysAfterMissesReportsEachAndRoundTrips() throws {
        let json = Data(
            #"{"filler1":0,"AGE":41,"filler2":0,"user_name":"ada","Avatar-URL":"https://a.example/ada.png","x":1}"#.utf8
        )
        let (account, report) = try LenientJSONDecoder().decodeWithReport(Account.self, from: json)
        #expect(account == Account(userName: "ada", avatarURL: "https://a.example/ada.png", nickname: nil, age: 41))
        #expect(report.issues.map(\.kind) == [.keyFallback, .keyFallback, .keyFallback])
        #expect(Set(report.issues.map(\.path)) == ["userName", "avatarURL", "age"])
        // What the encoder writes decodes back to the same value, with nothing forgiven.
        let encoded = try LenientJSONEncoder().encode(account)
        let (again, secondReport) = try LenientJSONDecoder().decodeWithReport(Account.self, from: encoded)
        #expect(again == account)
        #expect(secondReport.issues.isEmpty)
        // Strict mode matches no key loosely, as Foundation does.
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Account.self, from: json)
        }
    }

    // MARK: Members found in order

    /// Keys of sixty fields and a nickname, and no other name: so that the summary of the keys
    /// before a container's place shares hashes, and the members found exactly in order are
    /// other properties' own keys.
    struct FieldKey: CodingKey {
        static let names = (0..<60).map { "field\($0)" } + ["nickName"]
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) {
            guard Self.names.contains(stringValue) else { return nil }
            self.stringValue = stringValue
        }
        init?(intValue: Int) { nil }
    }

    /// Reads its sixty fields, then the nickname: a missing key asked after every other one, as
    /// an optional property declared last is.
    struct Fields: Codable, Equatable {
        var fields: [Int]
        var nickName: String?

        init(fields: [Int], nickName: String?) {
            self.fields = fields
            self.nickName = nickName
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: FieldKey.self)
            fields = try FieldKey.names.dropLast().map {
                try container.decode(Int.self, forKey: FieldKey(stringValue: $0)!)
            }
            nickName = try container.decodeIfPresent(String.self, forKey: FieldKey(stringValue: "nickName")!)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: FieldKey.self)
            for (name, value) in zip(FieldKey.names, fields) {
                try container.encode(value, forKey: FieldKey(stringValue: name)!)
            }
            try container.encodeIfPresent(nickName, forKey: FieldKey(stringValue: "nickName")!)
        }
    }

    /// The fields in the document's order (`reversed`: the model finds each one after passing
    /// over the others), with members that loose matching reads as the nickname at `positions`.
    static func fieldsDocument(reversed: Bool, nicknames: [(position: Int, member: String)]) -> Data {
        var members = (0..<60).map { #""field\#($0)":\#($0)"# }
        if reversed { members.reverse() }
        for nickname in nicknames.sorted(by: { $0.position > $1.position }) {
            members.insert(nickname.member, at: nickname.position)
        }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }

    @Test(arguments: [false, true], [0, 1, 2, 30, 59, 60])
    func aKeyMissingAfterMembersFoundInOrderStillFindsItsLooseMember(reversed: Bool, position: Int) throws {
        let json = Self.fieldsDocument(reversed: reversed, nicknames: [(position, #""NICK_NAME":"ada""#)])
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Fields.self, from: json)
        #expect(value == Fields(fields: Array(0..<60), nickName: "ada"))
        #expect(report.issues.map(\.kind) == [.keyFallback])
        #expect(report.issues.map(\.path) == ["nickName"])
        // The encoder writes the coding key, which reads back exactly.
        let (again, secondReport) = try LenientJSONDecoder().decodeWithReport(
            Fields.self, from: try LenientJSONEncoder().encode(value))
        #expect(again == value)
        #expect(secondReport.issues.isEmpty)
    }

    @Test(arguments: [false, true], [0, 30, 60])
    func aNullLooseMemberIsPassedOverForTheNextWhereverTheyAre(reversed: Bool, position: Int) throws {
        let json = Self.fieldsDocument(
            reversed: reversed, nicknames: [(position, #""nick_name":null"#), (60 - position, #""Nick-Name":"bo""#)])
        let value = try LenientJSONDecoder().decode(Fields.self, from: json)
        #expect(value.nickName == "bo")
        #expect(
            try LenientJSONDecoder().decode(Fields.self, from: Self.fieldsDocument(reversed: reversed, nicknames: []))
                .nickName == nil)
    }

    /// Asks for `userName` exactly, then for `username`, with a key type that makes a key of any
    /// name: the member the first read is no property's own key, so the second finds it loosely.
    struct AnyNameReader: Decodable {
        var exact: String
        var loose: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            exact = try container.decode(String.self, forKey: TestCodingKey("userName"))
            loose = try container.decodeIfPresent(String.self, forKey: TestCodingKey("username"))
        }
    }

    /// The same two properties with synthesized coding keys: `userName`'s member is that
    /// property's own, and `username` is missing.
    struct TwoSpellings: Codable, Equatable {
        var userName: String
        var username: String?
    }

    @Test func aMemberFoundExactlyIsAnotherPropertysOnlyWhenItsKeyTypeNamesOnlyItsKeys() throws {
        let json = Data(#"{"userName":"ada"}"#.utf8)
        let reader = try LenientJSONDecoder().decode(AnyNameReader.self, from: json)
        #expect(reader.exact == "ada")
        #expect(reader.loose == "ada")
        let (value, report) = try LenientJSONDecoder().decodeWithReport(TwoSpellings.self, from: json)
        #expect(value == TwoSpellings(userName: "ada", username: nil))
        #expect(report.issues.isEmpty)
        #expect(
            try LenientJSONDecoder().decode(TwoSpellings.self, from: try LenientJSONEncoder().encode(value)) == value)
    }

    /// A class whose `init(from:)` reads its superclass's part at `"super"`, then a key that
    /// loose matching reads as that member.
    struct SuperThenLoose: Decodable {
        var parent: Int
        var superValue: Int?

        enum CodingKeys: String, CodingKey {
            case first
            case superValue = "SUPER"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.decodeIfPresent(Int.self, forKey: .first)
            parent = try Int(from: container.superDecoder())
            superValue = try container.decodeIfPresent(Int.self, forKey: .superValue)
        }
    }

    @Test func aMemberReadAsTheSuperclassesIsNoPropertysOwnKey() throws {
        let value = try LenientJSONDecoder().decode(SuperThenLoose.self, from: Data(#"{"first":1,"super":5}"#.utf8))
        #expect(value.parent == 5)
        #expect(value.superValue == 5)
    }

    // MARK: Members other properties' mappings read

    /// `login` reads `user_name`, a spelling of `userName`'s key.
    struct Login: Codable, Equatable, KeyMapping {
        var userName: String?
        var login: String
        static let keyMapping: [String: KeySource] = ["login": "user_name"]
    }

    /// The same through a fallback list.
    struct FallbackLogin: Codable, Equatable, KeyMapping {
        var userName: String?
        var login: String
        static let keyMapping: [String: KeySource] = ["login": ["user_name", "login"]]
    }

    /// `info` reads `NAME`, `name` spelled in capitals; `serverID` reads `ID`.
    struct Capitals: Codable, Equatable, KeyMapping {
        var name: String?
        var info: String?
        var id: Int?
        var serverID: Int?
        static let keyMapping: [String: KeySource] = ["info": "NAME", "serverID": "ID"]
    }

    /// The type's strategy spells `userName` as `user_name`, a spelling of `username`.
    struct Spelled: Codable, Equatable, KeyMapping {
        var userName: String?
        var username: String?
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    /// The same, `username` declared first: asked for before `userName` is.
    struct SpelledAfter: Codable, Equatable, KeyMapping {
        var username: String?
        var userName: String?
        static let keyStrategy: KeyStrategy? = .snakeCase
    }

    /// What another property's strategy spelling reads depends on the type alone: the first
    /// decode in the process and every later one give the same value, whichever property asks
    /// first.
    @Test func aStrategySpellingIsAnotherPropertysFromTheFirstDecodeOn() throws {
        let json = Data(#"{"user_name":"x"}"#.utf8)
        for _ in 0..<3 {
            #expect(try LenientJSONDecoder().decode(SpelledAfter.self, from: json) == SpelledAfter(userName: "x"))
        }
        _ = try Self.roundTrip(SpelledAfter(username: nil, userName: "x"))
        _ = try Self.roundTrip(SpelledAfter(username: "y", userName: "x"))
    }

    @Test func looseMatchingNeverTakesAMemberAnotherPropertysMappingReads() throws {
        #expect(try Self.roundTrip(Login(userName: nil, login: "ada")) == #"{"user_name":"ada"}"#)
        _ = try Self.roundTrip(FallbackLogin(userName: nil, login: "ada"))
        _ = try Self.roundTrip(Capitals(name: nil, info: "i", id: nil, serverID: 5))
        _ = try Self.roundTrip(Spelled(userName: "a", username: nil))
        // What a server sends: each member is read by the one property that names it.
        let (capitals, report) = try LenientJSONDecoder().decodeWithReport(
            Capitals.self, from: Data(#"{"NAME":"i","ID":5}"#.utf8))
        #expect(capitals == Capitals(name: nil, info: "i", id: nil, serverID: 5))
        #expect(report.issues.isEmpty)
        // A spelling no other property reads is still found loosely.
        let spelled = try LenientJSONDecoder().decode(Capitals.self, from: Data(#"{"Name":"n","NAME":"i"}"#.utf8))
        #expect(spelled == Capitals(name: "n", info: "i", id: nil, serverID: nil))
    }

    /// Encodes a value, checks that the lenient decoder reads it back with nothing forgiven, and
    /// returns the JSON.
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> String {
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        let (decoded, report) = try LenientJSONDecoder().decodeWithReport(T.self, from: data)
        #expect(decoded == value, "\(String(decoding: data, as: UTF8.self))")
        #expect(report.issues.isEmpty)
        return String(decoding: data, as: UTF8.self)
    }
}

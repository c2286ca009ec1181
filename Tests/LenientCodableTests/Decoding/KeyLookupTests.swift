// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Keyed lookups compare a key's bytes a word at a time, with overlapping loads for the last
/// bytes. Keys of every length up to three words must still match exactly: a member whose key
/// differs in any single byte is another member.
@Suite struct KeyLookupTests {
    static let wantedKey = CodingUserInfoKey(rawValue: "wanted")!

    /// Reads the one member named in `userInfo`, and whether the object contains it.
    struct Probe: Decodable {
        var value: Int?
        var contained: Bool

        init(from decoder: any Decoder) throws {
            let key = TestCodingKey(decoder.userInfo[KeyLookupTests.wantedKey] as! String)
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            contained = container.contains(key)
            value = try container.decodeIfPresent(Int.self, forKey: key)
        }
    }

    /// A key of a given length, `a`, `ab`, … cycling through the alphabet.
    static func key(length: Int) -> String {
        String((0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
    }

    /// The key with one byte changed to `_`.
    static func nearMiss(of key: String, at offset: Int) -> String {
        var bytes = Array(key.utf8)
        bytes[offset] = UInt8(ascii: "_")
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: 1...25)
    func onlyTheExactKeyMatches(length: Int) throws {
        let wanted = Self.key(length: length)
        var members = (0..<length).map { "\"\(Self.nearMiss(of: wanted, at: $0))\": 0" }
        members.append("\"\(wanted)x\": 0")
        if length > 1 { members.append("\"\(wanted.dropLast())\": 0") }
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let decoder = LenientJSONDecoder(options: options)
            decoder.userInfo = [Self.wantedKey: wanted]
            let missing = try decoder.decode(Probe.self, from: "{" + members.joined(separator: ", ") + "}")
            #expect(missing.contained == false && missing.value == nil, "\(wanted) in \(options)")
            let present = try decoder.decode(
                Probe.self, from: "{" + (members + ["\"\(wanted)\": \(length)"]).joined(separator: ", ") + "}")
            #expect(present.contained && present.value == length, "\(wanted) in \(options)")
        }
    }
}

/// A keyed container searches from where its last key was found, so that a model asking in the
/// document's order finds each key at once. Whatever order a model asks in — backwards, the same
/// key twice, keys that are missing — and whatever the document holds — duplicate keys (the first
/// wins), keys written with escapes, more keys than a summary has bits — each answer must be the
/// one Foundation gives.
@Suite struct KeyLookupOrderTests {
    static let orderKey = CodingUserInfoKey(rawValue: "order")!

    /// Asks for the keys named in `userInfo`, in that order, and notes what each gave.
    struct AskedInOrder: Decodable, Equatable {
        var answers: [String]

        init(from decoder: any Decoder) throws {
            let order = decoder.userInfo[KeyLookupOrderTests.orderKey] as! [String]
            let container = try decoder.container(keyedBy: TestCodingKey.self)
            answers = try order.map { name in
                let value = try container.decodeIfPresent(Int.self, forKey: TestCodingKey(name))
                return "\(name)=\(value.map(String.init) ?? "missing")"
            }
        }
    }

    static let manyKeys = (0..<70).map { "key\($0)" }

    static let documents: [String] = [
        #"{"a":1,"b":2,"c":3}"#,
        #"{"a":1,"b":2,"a":3,"c":4,"b":5}"#,
        #"{"b":1,"a\u0062":2,"ab":3,"a":4}"#,
        #"{"x":0,"ab":1,"b":2,"ab":3}"#,
        "{" + manyKeys.enumerated().map { #""\#($1)":\#($0)"# }.joined(separator: ",") + #","key5":-5,"key69":-69}"#,
    ]

    static let orders: [[String]] = [
        ["a", "b", "c"],
        ["c", "b", "a"],
        ["a", "a", "b", "b", "c", "c"],
        ["b", "ab", "a", "ab", "x"],
        ["missing", "a", "nothing", "c", "b"],
        manyKeys,
        manyKeys.reversed(),
        manyKeys.filter { $0.hasSuffix("5") } + manyKeys + ["key5", "key69"],
    ]

    static let snakeCaseDocuments: [String] = [
        #"{"user_id":1,"user_name":2,"is_active":3}"#,
        #"{"user_name":1,"userName":2,"user_id":3,"user_name":4}"#,
        #"{"is_active":1,"user_n\u0061me":2,"user_name":3,"_user_id":4,"user_id_":5}"#,
        "{" + manyKeys.enumerated().map { #""\#($1)_x":\#($0)"# }.joined(separator: ",") + #","key5_x":-5}"#,
    ]

    static let snakeCaseOrders: [[String]] = [
        ["userId", "userName", "isActive"],
        ["isActive", "userName", "userId", "userName"],
        ["missing", "userName", "_userId", "userId_", "isActive"],
        manyKeys.map { $0 + "X" },
        manyKeys.map { $0 + "X" }.reversed() + ["key5X"],
    ]

    /// The same with keys converted from snake case, whose searches keep a place of their own.
    @Test(arguments: snakeCaseDocuments, snakeCaseOrders)
    func snakeCaseAnswersAreFoundations(document: String, order: [String]) throws {
        let data = Data(document.utf8)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        foundation.userInfo[Self.orderKey] = order
        let expected = try foundation.decode(AskedInOrder.self, from: data)
        // `.lenient` finds a key in another spelling (`_userId` for `user_id`) where Foundation
        // finds none, as documented; without loose matching, its answers are Foundation's.
        var lenient = LenientJSONDecoder.Options.lenient
        lenient.allowsLooseKeyMatching = false
        for options in [LenientJSONDecoder.Options.strict, lenient] {
            let decoder = LenientJSONDecoder(options: options)
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            decoder.userInfo[Self.orderKey] = order
            #expect(try decoder.decode(AskedInOrder.self, from: data) == expected)
            #expect(try decoder.decode(AskedInOrder.self, from: data) == expected)
        }
    }

    @Test(arguments: documents, orders)
    func answersAreFoundations(document: String, order: [String]) throws {
        let data = Data(document.utf8)
        let foundation = JSONDecoder()
        foundation.userInfo[Self.orderKey] = order
        let expected = try foundation.decode(AskedInOrder.self, from: data)
        for options in [LenientJSONDecoder.Options.strict, .lenient] {
            let decoder = LenientJSONDecoder(options: options)
            decoder.userInfo[Self.orderKey] = order
            // Twice: the second decode follows what the first learned.
            #expect(try decoder.decode(AskedInOrder.self, from: data) == expected)
            #expect(try decoder.decode(AskedInOrder.self, from: data) == expected)
        }
    }
}

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

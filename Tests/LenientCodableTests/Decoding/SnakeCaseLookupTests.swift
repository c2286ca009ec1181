// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// With `.convertFromSnakeCase`, keys are compared as they are converted, without building the
/// converted names: the lookups must answer exactly as Foundation's decoder does.
@Suite struct SnakeCaseLookupTests {
    struct NameKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Records, for each name asked about, whether the object has it and the value found.
    struct Probe: Decodable {
        static let namesKey = CodingUserInfoKey(rawValue: "names")!
        var answers: [String] = []

        init(from decoder: any Decoder) throws {
            let names = decoder.userInfo[Self.namesKey] as? [String] ?? []
            let container = try decoder.container(keyedBy: NameKey.self)
            for name in names {
                let key = NameKey(stringValue: name)
                let value = container.contains(key) ? (try container.decode(Int.self, forKey: key)) : -1
                answers.append("\(name)=\(value)")
            }
            answers.append("all=" + container.allKeys.map(\.stringValue).sorted().joined(separator: ","))
        }
    }

    static func keys(seed: UInt64, count: Int) -> [String] {
        var generator = DoubleConversionTests.Generator(state: seed)
        let alphabet = Array("abcXYZ_09é")
        return (0..<count).map { _ in
            let length = Int(generator.next() % 9) + 1
            return String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
    }

    @Test(arguments: [1, 2, 3])
    func lookupsMatchFoundation(seed: UInt64) throws {
        let jsonKeys = Array(Set(Self.keys(seed: seed, count: 60)))
        let members = jsonKeys.enumerated().map { "\(String(reflecting: $0.element)):\($0.offset)" }
        let json = "{" + members.joined(separator: ",") + "}"
        // Ask for Foundation's conversion of every key, the raw keys, and near misses.
        let foundationNames = try Self.convertedNames(json)
        let names = foundationNames + jsonKeys + jsonKeys.map { $0.uppercased() } + foundationNames.map { $0 + "x" }

        let reference = JSONDecoder()
        reference.keyDecodingStrategy = .convertFromSnakeCase
        reference.userInfo[Probe.namesKey] = names
        let ours = LenientJSONDecoder(.strict)
        ours.keyDecodingStrategy = .convertFromSnakeCase
        ours.userInfo[Probe.namesKey] = names
        let expected = try reference.decode(Probe.self, from: Data(json.utf8)).answers
        let actual = try ours.decode(Probe.self, from: json).answers
        #expect(actual == expected)
    }

    static func convertedNames(_ json: String) throws -> [String] {
        struct Names: Decodable {
            var names: [String]
            init(from decoder: any Decoder) throws {
                names = try decoder.container(keyedBy: NameKey.self).allKeys.map(\.stringValue)
            }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Names.self, from: Data(json.utf8)).names
    }
}

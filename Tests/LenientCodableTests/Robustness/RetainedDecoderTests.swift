// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A decoder, container or super decoder that a model keeps stays readable after `decode` returns, as with
/// Foundation: the tree keeps its input alive for as long as anything refers to it. Run under AddressSanitizer by
/// `.ci/run` (`scripts/sanitizers.sh address RetainedDecoderTests`), where reading freed input fails the run.
@Suite struct RetainedDecoderTests {
    /// Keeps every kind of thing a model can keep past its own `init(from:)`.
    final class Keeper: Decodable {
        var decoder: (any Decoder)?
        var keyed: KeyedDecodingContainer<CodingKeys>?
        var unkeyed: (any UnkeyedDecodingContainer)?
        var superDecoder: (any Decoder)?
        var nestedSuperDecoder: (any Decoder)?

        enum CodingKeys: String, CodingKey { case name, list, inner }

        init(from decoder: any Decoder) throws {
            self.decoder = decoder
            let keyed = try decoder.container(keyedBy: CodingKeys.self)
            self.keyed = keyed
            unkeyed = try keyed.nestedUnkeyedContainer(forKey: .list)
            superDecoder = try keyed.superDecoder(forKey: .inner)
            var list = try keyed.nestedUnkeyedContainer(forKey: .list)
            _ = try list.decode(String.self)
            nestedSuperDecoder = try list.superDecoder()
        }

        /// Everything it kept that is bound to a value, read now: containers and super decoders.
        func readContainers() throws -> [String] {
            let keyed = try #require(keyed)
            var unkeyed = try #require(unkeyed)
            let inner = try #require(superDecoder).container(keyedBy: CodingKeys.self)
            return [
                try keyed.decode(String.self, forKey: .name),
                try unkeyed.decode(String.self),
                try unkeyed.decode(String.self),
                try inner.decode(String.self, forKey: .name),
                try #require(nestedSuperDecoder).singleValueContainer().decode(String.self),
            ]
        }

        /// Everything it kept, read now. A decoder itself is read at the top level only: like Foundation's, a decoder
        /// that decoded a nested value points at its parent's value again once that is done.
        func readBack() throws -> [String] {
            let again = try #require(decoder).container(keyedBy: CodingKeys.self)
            return try readContainers() + [try again.decode(String.self, forKey: .name)]
        }
    }

    static let document =
        #"{"name":"original","list":["first element","second element"],"inner":{"name":"nested name"}}"#
    static let expected = ["original", "first element", "second element", "nested name", "second element", "original"]

    enum Input: String, CaseIterable, Sendable { case data, string, bytes, utf16 }

    /// Decodes from an input that goes out of scope (and is overwritten) before the caller reads what the model kept.
    static func decodeKeeper(from input: Input, options: LenientJSONDecoder.Options) throws -> Keeper {
        let decoder = LenientJSONDecoder(options: options)
        var keeper: Keeper
        switch input {
        case .data:
            var data = Data(document.utf8)
            keeper = try decoder.decode(Keeper.self, from: data)
            data.resetBytes(in: 0..<data.count)
        case .string:
            // A string built at run time, so that its storage is on the heap and freed after the call.
            let string = String(document.reversed().reversed())
            keeper = try decoder.decode(Keeper.self, from: string)
        case .bytes:
            var bytes = Array(document.utf8)
            keeper = try decoder.decode(Keeper.self, from: bytes)
            for index in bytes.indices { bytes[index] = 0x20 }
        case .utf16:
            let data = try #require(document.data(using: .utf16LittleEndian))
            keeper = try decoder.decode(Keeper.self, from: data)
        }
        // Allocations of the same size now reuse the freed input, if it was freed.
        _ = (0..<64).map { _ in [UInt8](repeating: 0x78, count: document.utf8.count) }
        return keeper
    }

    @Test(arguments: Input.allCases, [LenientJSONDecoder.Options.strict, .lenient])
    func retainedDecoderAndContainersReadTheirValuesAfterDecodeReturns(
        _ input: Input, options: LenientJSONDecoder.Options
    ) throws {
        let keeper = try Self.decodeKeeper(from: input, options: options)
        #expect(try keeper.readBack() == Self.expected)
    }

    @Test func retainedDecoderReadsWhatFoundationsRetainedDecoderReads() throws {
        let data = Data(Self.document.utf8)
        let foundation = try JSONDecoder().decode(Keeper.self, from: data)
        let ours = try Self.decodeKeeper(from: .data, options: .strict)
        #expect(try ours.readBack() == foundation.readBack())
    }

    /// A date strategy's closure is handed the decoder; an app may keep it. Read afterwards, it gives what
    /// Foundation's kept decoder gives.
    @Test func decoderKeptByACustomDateStrategyStaysReadable() throws {
        final class Box: @unchecked Sendable {
            // Written by the strategy during the decode, read after it on the same task.
            var decoder: (any Decoder)?
        }
        struct Event: Decodable { var at: Date }
        enum Keys: String, CodingKey { case at }
        func keptDecoderReads(_ box: Box) throws -> Double {
            try #require(box.decoder).container(keyedBy: Keys.self).decode(Double.self, forKey: .at)
        }
        let strategy = { (box: Box) -> JSONDecoder.DateDecodingStrategy in
            .custom { decoder in
                box.decoder = decoder
                return Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
            }
        }
        let ours = Box()
        let decoder = LenientJSONDecoder()
        decoder.dateDecodingStrategy = strategy(ours)
        var data = Data(#"{"at":1714557600}"#.utf8)
        let event = try decoder.decode(Event.self, from: data)
        data.resetBytes(in: 0..<data.count)
        #expect(event.at == Date(timeIntervalSince1970: 1_714_557_600))

        let foundations = Box()
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = strategy(foundations)
        _ = try foundation.decode(Event.self, from: Data(#"{"at":1714557600}"#.utf8))
        #expect(try keptDecoderReads(ours) == keptDecoderReads(foundations))
    }

    /// Values decoded from JSON text inside a string, and from JSON a hook returned, are read from trees of their own;
    /// those must outlive the decode too.
    @Test func decoderKeptInsideJSONTextAndHookedJSONStaysReadable() throws {
        struct Holder: Decodable {
            var fromText: Keeper
            var fromHook: Rewritten
        }
        struct Rewritten: Decodable, DecodingHooks {
            var keeper: Keeper
            static func willDecode(_ json: JSONValue) throws -> JSONValue { ["keeper": json] }
        }
        let text = String(decoding: try JSONEncoder().encode(Self.document), as: UTF8.self)
        let document = #"{"fromText":\#(text),"fromHook":\#(Self.document)}"#
        let holder = try LenientJSONDecoder().decode(Holder.self, from: Data(document.utf8))
        _ = (0..<64).map { _ in [UInt8](repeating: 0x78, count: Self.document.utf8.count) }
        #expect(try holder.fromText.readContainers() == Array(Self.expected.dropLast()))
        #expect(try holder.fromHook.keeper.readContainers() == Array(Self.expected.dropLast()))
    }

    /// One decoder shared by many tasks, each of whose models keeps its decoder: each keeps its own input alive.
    @Test func retainedDecodersOfConcurrentDecodesStayReadable() async throws {
        let decoder = LenientJSONDecoder()
        let names = try await withThrowingTaskGroup(of: [String].self) { group in
            for task in 0..<8 {
                group.addTask {
                    let document = Self.document.replacingOccurrences(of: "original", with: "task \(task)")
                    let keeper = try decoder.decode(Keeper.self, from: Data(document.utf8))
                    _ = (0..<16).map { _ in [UInt8](repeating: 0x78, count: document.utf8.count) }
                    return [try #require(keeper.keyed).decode(String.self, forKey: .name), "task \(task)"]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names.count == 8)
        for pair in names { #expect(pair[0] == pair[1]) }
    }

    /// Keeps its keyed container and reads it only after `decode` returned, through this round's
    /// paths: key searches that start from the container's last place (exact and from snake
    /// case), arrays of scalars built without a path per element, numbers read eight digits at
    /// a time, dates read by the decoder's pattern readers and coerced enums.
    final class LateReader: Decodable {
        enum CodingKeys: String, CodingKey { case firstName, lastName, scores, ids, words, when, kind, missing }
        enum Kind: String, Decodable, CaseIterable { case text, photo }
        var container: KeyedDecodingContainer<CodingKeys>?

        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: CodingKeys.self)
        }

        func read() throws -> [String] {
            let container = try #require(container)
            // Out of the document's order, one key twice, one missing: every search kind runs.
            let scores = try container.decode([Double].self, forKey: .scores)
            let last = try container.decode(String.self, forKey: .lastName)
            let first = try container.decode(String.self, forKey: .firstName)
            let ids = try container.decode([Int].self, forKey: .ids)
            let words = try container.decode([String].self, forKey: .words)
            let when = try container.decode(Date.self, forKey: .when)
            let kind = try container.decode(Kind.self, forKey: .kind)
            let missing = try container.decodeIfPresent(String.self, forKey: .missing)
            let again = try container.decode(String.self, forKey: .firstName)
            return [
                first, last, again, "\(scores)", "\(ids)", "\(words)", "\(when.timeIntervalSince1970)", kind.rawValue,
                "\(missing as Any)",
            ]
        }
    }

    @Test(arguments: [false, true], [LenientJSONDecoder.Options.strict, .lenient])
    func containerReadAfterDecodeTakesTheNewPathsOverKeptInput(snakeCase: Bool, options: LenientJSONDecoder.Options)
        throws
    {
        let keys = snakeCase ? ["first_name", "last_name"] : ["firstName", "lastName"]
        let lenientOnly =
            options == .strict ? #""when": 1700000000, "kind": "photo""# : #""when": "2023/11/14", "kind": "PHOTO""#
        let document = """
            {"\(keys[0])": "Ada", "\(keys[1])": "Lovelace", "scores": [1.25, 123456789.123456789, -0.5],
             "ids": [1, 22, 333], "words": ["a", "é", "long enough to leave the small string form"],
             \(lenientOnly)}
            """
        let decoder = LenientJSONDecoder(options: options)
        if snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        if options == .strict { decoder.dateDecodingStrategy = .secondsSince1970 }
        var data = Data(document.utf8)
        let reader = try decoder.decode(LateReader.self, from: data)
        data.resetBytes(in: 0..<data.count)
        _ = (0..<64).map { _ in [UInt8](repeating: 0x78, count: document.utf8.count) }
        let when =
            options == .strict
            ? "1700000000.0"
            : "\(DateComponents(calendar: .init(identifier: .gregorian), timeZone: .gmt, year: 2023, month: 11, day: 14).date!.timeIntervalSince1970)"
        #expect(
            try reader.read() == [
                "Ada", "Lovelace", "Ada", "[1.25, 123456789.12345679, -0.5]", "[1, 22, 333]",
                #"["a", "é", "long enough to leave the small string form"]"#, when, "photo", "nil",
            ])
    }

    /// Keeps the keyed container of every element it decodes.
    struct KeptItem: Decodable {
        enum CodingKeys: String, CodingKey { case id, name, tags }
        static let keptKey = CodingUserInfoKey(rawValue: "kept")!
        final class Kept: @unchecked Sendable {
            // Filled by one decode on one thread, read after it.
            var containers: [KeyedDecodingContainer<CodingKeys>] = []
            /// Keeps the container of every element whose id is a multiple of this.
            var keepEvery = 1
        }

        let id: Int
        let tags: [KeptTag]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            tags = try container.decode([KeptTag].self, forKey: .tags)
            let kept = try #require(decoder.userInfo[Self.keptKey] as? Kept)
            if id % kept.keepEvery == 0 { kept.containers.append(container) }
        }
    }

    struct KeptTag: Decodable {
        let label: String
    }

    struct KeptItems: Decodable {
        let items: [KeptItem]
    }

    /// Sibling values share a decoder's path box when nothing holds it once a value is done; a
    /// container that a model kept holds its box, which must then stay its own: every kept
    /// container still reads its own object, under its own coding path, after the decode.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func keptContainersOfSiblingsKeepTheirOwnPaths(options: LenientJSONDecoder.Options) throws {
        let items = (0..<6).map { #"{"id":\#($0),"name":"item \#($0)","tags":[{"label":"t\#($0)"}]}"# }
        let document = #"{"items":[\#(items.joined(separator: ","))]}"#
        let kept = KeptItem.Kept()
        let decoder = LenientJSONDecoder(options: options)
        decoder.userInfo[KeptItem.keptKey] = kept
        let decoded = try decoder.decode(KeptItems.self, from: Data(document.utf8))
        #expect(decoded.items.map(\.id) == Array(0..<6))
        #expect(decoded.items.map { $0.tags.map(\.label) } == (0..<6).map { ["t\($0)"] })
        try #require(kept.containers.count == 6)
        for (position, container) in kept.containers.enumerated() {
            #expect(container.codingPath.map(\.stringValue) == ["items", "Index \(position)"])
            #expect(try container.decode(String.self, forKey: .name) == "item \(position)")
            #expect(try container.decode([KeptTag].self, forKey: .tags).map(\.label) == ["t\(position)"])
            // A key that is not there names the container's path in the error, in either mode.
            let error = try #require(throws: DecodingError.self) {
                try container.nestedContainer(keyedBy: KeptItem.CodingKeys.self, forKey: .id)
            }
            guard case .typeMismatch(_, let context) = error else {
                Issue.record("Expected a type mismatch, got \(error)")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == ["items", "Index \(position)", "id"])
        }
    }

    /// The decoder recycles what a keyed container reads once nothing holds it: a container
    /// that a model kept, among siblings whose containers were not kept, is never reused for
    /// the siblings decoded after it (which would read their members through it).
    /// (Elements without tags have no nested container to take the spare state first.)
    @Test(arguments: [2, 3, 5], [false, true])
    func aKeptContainerAmongOnesNotKeptKeepsItsObject(keepEvery: Int, withTags: Bool) throws {
        let items = (0..<12).map {
            let tags = withTags ? #"[{"label":"t\#($0)"},{"label":"u"}]"# : "[]"
            return #"{"id":\#($0),"name":"item \#($0)","tags":\#(tags)}"#
        }
        let document = #"{"items":[\#(items.joined(separator: ","))]}"#
        let kept = KeptItem.Kept()
        kept.keepEvery = keepEvery
        let decoder = LenientJSONDecoder(options: withTags ? .lenient : .strict)
        decoder.userInfo[KeptItem.keptKey] = kept
        let decoded = try decoder.decode(KeptItems.self, from: Data(document.utf8))
        #expect(decoded.items.map(\.id) == Array(0..<12))
        let keptIDs = Array(stride(from: 0, to: 12, by: keepEvery))
        try #require(kept.containers.count == keptIDs.count)
        for (container, id) in zip(kept.containers, keptIDs) {
            #expect(container.codingPath.map(\.stringValue) == ["items", "Index \(id)"])
            #expect(try container.decode(Int.self, forKey: .id) == id)
            #expect(try container.decode(String.self, forKey: .name) == "item \(id)")
            #expect(
                try container.decode([KeptTag].self, forKey: .tags).map(\.label) == (withTags ? ["t\(id)", "u"] : []))
            #expect(container.allKeys.map(\.stringValue) == ["id", "name", "tags"])
        }
    }

    /// Keeps its container, whose loose key lookups read the object's keys through the tree's input
    /// (and build their summary of them) only when asked, after `decode` has returned.
    final class LooseKeeper: Decodable {
        var kept: KeyedDecodingContainer<TestCodingKey>?
        init(from decoder: any Decoder) throws { kept = try decoder.container(keyedBy: TestCodingKey.self) }
    }

    @Test func aKeptContainerMatchesKeysLooselyAfterTheInputIsGone() throws {
        var data = Data(#"{"User_Name":"ada","AGE":41,"filler":0,"tags":{"First-Tag":"x"}}"#.utf8)
        let keeper = try LenientJSONDecoder(options: .lenient).decode(LooseKeeper.self, from: data)
        data.resetBytes(in: 0..<data.count)
        _ = (0..<64).map { _ in [UInt8](repeating: 0x78, count: data.count) }
        let kept = try #require(keeper.kept)
        #expect(try kept.decodeIfPresent(Int.self, forKey: TestCodingKey("missing")) == nil)
        #expect(try kept.decode(String.self, forKey: TestCodingKey("userName")) == "ada")
        #expect(try kept.decode(Int.self, forKey: TestCodingKey("age")) == 41)
        let tags = try kept.nestedContainer(keyedBy: TestCodingKey.self, forKey: TestCodingKey("tags"))
        #expect(try tags.decodeIfPresent(String.self, forKey: TestCodingKey("second")) == nil)
        #expect(try tags.decode(String.self, forKey: TestCodingKey("firstTag")) == "x")
    }

    /// A kept container's first lookup of a key beyond ASCII builds its table of the object's
    /// keys beyond ASCII (each spelling Swift's `String` takes for one key, to its first member)
    /// from the tree's input, after `decode` has returned and the caller's data is overwritten.
    @Test(arguments: [LenientJSONDecoder.Options.strict, .lenient])
    func aKeptContainerFindsTheFirstSpellingOfAKeyAfterTheInputIsGone(options: LenientJSONDecoder.Options) throws {
        var data = Data("{\"cafe\u{301}\":1,\"x\":0,\"caf\\u00e9\":2,\"名前\":\"n\"}".utf8)
        let keeper = try LenientJSONDecoder(options: options).decode(LooseKeeper.self, from: data)
        data.resetBytes(in: 0..<data.count)
        _ = (0..<64).map { _ in [UInt8](repeating: 0x78, count: data.count) }
        let kept = try #require(keeper.kept)
        #expect(try kept.decode(Int.self, forKey: TestCodingKey("caf\u{E9}")) == 1)
        #expect(try kept.decode(String.self, forKey: TestCodingKey("名前")) == "n")
        #expect(try kept.decode(Int.self, forKey: TestCodingKey("x")) == 0)
    }

    /// Reads sixty fields in order, as a synthesized `init(from:)` would, with a key type that
    /// names only its own keys, and keeps its container: its loose searches then start past the
    /// members found in order, and keys whose summary hashes collide are found from the first
    /// member, both reading the object's keys through the tree's input after `decode` returned.
    final class InOrderKeeper: Decodable {
        typealias Key = LooseKeyMatchingTests.FieldKey
        var kept: KeyedDecodingContainer<Key>?
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            for name in Key.names.dropLast() { _ = try container.decode(Int.self, forKey: Key(stringValue: name)!) }
            kept = container
        }
    }

    @Test func aKeptContainerSearchesPastTheMembersFoundInOrderAfterTheInputIsGone() throws {
        var data = LooseKeyMatchingTests.fieldsDocument(reversed: false, nicknames: [(60, #""NICK_NAME":"ada""#)])
        let keeper = try LenientJSONDecoder().decode(InOrderKeeper.self, from: data)
        data.resetBytes(in: 0..<data.count)
        _ = (0..<64).map { _ in [UInt8](repeating: 0x78, count: data.count) }
        let kept = try #require(keeper.kept)
        #expect(try kept.decodeIfPresent(String.self, forKey: InOrderKeeper.Key(stringValue: "nickName")!) == "ada")
        for (position, name) in InOrderKeeper.Key.names.dropLast().enumerated().reversed() {
            #expect(try kept.decode(Int.self, forKey: InOrderKeeper.Key(stringValue: name)!) == position)
        }
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// One decoder and one encoder shared by many tasks at once, as `Sendable` promises. Run under
/// `swift test --sanitize=thread` (scripts/sanitizers.sh, .ci/run) this is the test that finds a data race.
@Suite struct ConcurrencyTests {
    @Test func sharedDecoderAndEncoderAcrossEightTasks() async throws {
        let decoder = LenientJSONDecoder(options: .lenient)
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = [.sortedKeys]

        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    try Self.work(task: task, decoder: decoder, encoder: encoder)
                }
            }
            // Meanwhile, change settings that none of the documents depend on: each decode and encode works with the
            // settings it started with, so the results above must not change.
            group.addTask {
                for round in 0..<200 {
                    decoder.userInfo = [Self.roundKey: round]
                    decoder.nonConformingFloatDecodingStrategy =
                        round.isMultiple(of: 2)
                        ? .throw : .convertFromString(positiveInfinity: "+", negativeInfinity: "-", nan: "n")
                    encoder.userInfo = [Self.roundKey: round]
                    encoder.outputFormatting =
                        round.isMultiple(of: 2) ? [.sortedKeys] : [.sortedKeys, .withoutEscapingSlashes]
                    await Task.yield()
                }
            }
            try await group.waitForAll()
        }
    }

    /// Eight tasks decode with one decoder while another registers and removes a converter: the
    /// settings a decode call reads, and the type facts it hands on to the next call, are shared
    /// between calls (built once per change of the settings). Each decode must see the settings
    /// of one moment, all of them: with the converter, the text decodes; without it, it fails.
    @Test func decodesSeeWholeSettingsWhileAConverterComesAndGoes() async throws {
        struct Price: Codable, Equatable, Sendable {
            var cents: Int
        }
        struct Item: Codable, Equatable, Sendable {
            var name: String
            var price: Price
        }
        let decoder = LenientJSONDecoder(options: .strict)
        let converted = Data(#"{"name": "pen", "price": "125"}"#.utf8)
        let plain = Data(#"{"name": "pen", "price": {"cents": 125}}"#.utf8)
        let expected = Item(name: "pen", price: Price(cents: 125))
        let outcomes = try await withThrowingTaskGroup(of: (converted: Int, refused: Int).self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var counts = (converted: 0, refused: 0)
                    for _ in 0..<300 {
                        #expect(try decoder.decode(Item.self, from: plain) == expected)
                        do {
                            #expect(try decoder.decode(Item.self, from: converted) == expected)
                            counts.converted += 1
                        } catch let error as DecodingError {
                            guard case .typeMismatch = error else { throw error }
                            counts.refused += 1
                        }
                    }
                    return counts
                }
            }
            group.addTask {
                for round in 0..<300 {
                    if round.isMultiple(of: 2) {
                        decoder.options.converters.register(Price.self) { json in
                            guard let text = json.stringValue, let cents = Int(text) else {
                                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(json)"))
                            }
                            return Price(cents: cents)
                        }
                    } else {
                        decoder.options.converters.removeConverter(for: Price.self)
                    }
                    await Task.yield()
                }
                return (0, 0)
            }
            return try await group.reduce(into: [(converted: Int, refused: Int)]()) { $0.append($1) }
        }
        #expect(outcomes.map { $0.converted + $0.refused }.reduce(0, +) == 8 * 300)
    }

    /// Eight threads register converters on one shared decoder and encoder at once, through the
    /// spelling the docs show (`decoder.options.converters.register`): a registration made in
    /// place is one step under the coder's lock, so none is lost.
    @Test func registrationsFromEightThreadsAtOnceAreAllKept() async throws {
        enum Slot0 {}
        enum Slot1 {}
        enum Slot2 {}
        enum Slot3 {}
        enum Slot4 {}
        enum Slot5 {}
        enum Slot6 {}
        enum Slot7 {}
        let register: [@Sendable (LenientJSONDecoder, LenientJSONEncoder) -> Void] = [
            Self.registrar(Slot0.self), Self.registrar(Slot1.self), Self.registrar(Slot2.self),
            Self.registrar(Slot3.self), Self.registrar(Slot4.self), Self.registrar(Slot5.self),
            Self.registrar(Slot6.self), Self.registrar(Slot7.self),
        ]
        for _ in 0..<25 {
            let decoder = LenientJSONDecoder()
            let encoder = LenientJSONEncoder()
            await withTaskGroup(of: Void.self) { group in
                for slot in register.indices {
                    group.addTask {
                        register[slot](decoder, encoder)
                        decoder.userInfo[CodingUserInfoKey(rawValue: "slot\(slot)")!] = slot
                    }
                }
            }
            #expect(
                try decoder.decode([Tagged<Slot0>].self, from: "[0]") == [Tagged(tag: "decoded")])
            let decoded = try decoder.decode(
                AllSlots<Slot0, Slot1, Slot2, Slot3, Slot4, Slot5, Slot6, Slot7>.self, from: "[0,0,0,0,0,0,0,0]")
            #expect(decoded.tags == Array(repeating: "decoded", count: 8))
            let encoded = try encoder.encode(
                AllSlots<Slot0, Slot1, Slot2, Slot3, Slot4, Slot5, Slot6, Slot7>(tags: Array(repeating: "x", count: 8)))
            #expect(
                String(decoding: encoded, as: UTF8.self)
                    == #"["encoded","encoded","encoded","encoded","encoded","encoded","encoded","encoded"]"#)
            #expect(decoder.userInfo.count == 8)
        }
    }

    private static func registrar<Slot>(_: Slot.Type) -> @Sendable (LenientJSONDecoder, LenientJSONEncoder) -> Void {
        { decoder, encoder in
            decoder.options.converters.register(Tagged<Slot>.self) { _ in Tagged(tag: "decoded") }
            encoder.converters.register(Tagged<Slot>.self) { _ in "encoded" }
        }
    }

    /// A value of its own type per slot, so that each thread registers a different converter.
    struct Tagged<Slot>: Codable, Equatable {
        var tag: String
    }

    struct AllSlots<A, B, C, D, E, F, G, H>: Codable {
        var tags: [String]

        init(tags: [String]) { self.tags = tags }

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            tags = [
                try container.decode(Tagged<A>.self).tag, try container.decode(Tagged<B>.self).tag,
                try container.decode(Tagged<C>.self).tag, try container.decode(Tagged<D>.self).tag,
                try container.decode(Tagged<E>.self).tag, try container.decode(Tagged<F>.self).tag,
                try container.decode(Tagged<G>.self).tag, try container.decode(Tagged<H>.self).tag,
            ]
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            try container.encode(Tagged<A>(tag: tags[0]))
            try container.encode(Tagged<B>(tag: tags[1]))
            try container.encode(Tagged<C>(tag: tags[2]))
            try container.encode(Tagged<D>(tag: tags[3]))
            try container.encode(Tagged<E>(tag: tags[4]))
            try container.encode(Tagged<F>(tag: tags[5]))
            try container.encode(Tagged<G>(tag: tags[6]))
            try container.encode(Tagged<H>(tag: tags[7]))
        }
    }

    /// A report keeps its paths as the decoder's steps and writes them out when read: one report
    /// read from eight tasks at once gives every task the same text (and, under ThreadSanitizer, no race).
    @Test func oneReportReadFromEightTasksAtOnce() async throws {
        struct Item: Decodable {
            var id: Int
            var tags: [Int]
        }
        let json = #"[{"id":"1","tags":[1,"x",3]},{"id":2,"tags":"4"},{"ID":3,"tags":null}]"#
        let (_, report) = try LenientJSONDecoder().decodeWithReport([Item].self, from: json)
        let expected = report.issues.map { "\($0.path) \($0.jsonPath)" }
        #expect(expected.count >= 4)
        try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { report.issues.map { "\($0.path) \($0.jsonPath)" } }
            }
            for try await paths in group { #expect(paths == expected) }
        }
    }

    /// The first decodes of a mapped model, in eight tasks at once, each learn the order in which
    /// the model asks for its keys, and one of them shares it with the decodes after it; half the
    /// objects ask in another order.
    @Test func firstDecodesOfAMappedModelAcrossEightTasks() async throws {
        enum Raced {}
        let decoder = LenientJSONDecoder(.strict)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let flags = (0..<6).map { ($0 + task).isMultiple(of: 2) }
                    let json = Data(Shuffled<Raced>.json(flags).utf8)
                    for _ in 0..<30 {
                        let values = try decoder.decode([Shuffled<Raced>].self, from: json)
                        #expect(values == Shuffled<Raced>.expected(flags))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    struct LooseKept: Codable, Equatable {
        var extras = UnknownKeys()
        var userID: Int
        var displayName: String
    }

    /// Loose key matches in eight tasks at once: each records, process-wide and under a lock, the
    /// coding key it matched, which the kept keys of every later decode read (ThreadSanitizer runs
    /// this suite).
    @Test func looseMatchesWithKeptKeysAcrossEightTasks() async throws {
        let decoder = LenientJSONDecoder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let json = #"{"USERID": \#(task), "DISPLAY-NAME": "t\#(task)", "x": \#(task)}"#
                    for _ in 0..<40 {
                        let value = try decoder.decode(LooseKept.self, from: json)
                        #expect(value.userID == task && value.displayName == "t\(task)")
                        #expect(value.extras["x"] == JSONValue(task))
                        // `USERID` is kept until the first loose match of `userID` is recorded.
                        #expect(value.extras["DISPLAY-NAME"] == nil)
                    }
                }
            }
            try await group.waitForAll()
        }
        // Once the names are known, nothing the properties read is kept.
        let value = try decoder.decode(LooseKept.self, from: #"{"USERID": 1, "DISPLAY-NAME": "a", "x": 2}"#)
        #expect(value.extras.keys == ["x"])
    }

    class Base: Codable {
        var id: Int
        var extras = UnknownKeys()
    }

    final class Derived: Base {
        var tag: String
        private enum CodingKeys: String, CodingKey { case tag }
        required init(from decoder: any Decoder) throws {
            tag = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .tag)
            try super.init(from: decoder)
        }
    }

    /// Class hierarchies decoded in eight tasks at once: each records, process-wide and under a
    /// lock, that the two levels' coding keys read one object, which every superclass bag reads
    /// (ThreadSanitizer runs this suite).
    @Test func siblingCodingKeysAcrossEightTasks() async throws {
        let decoder = LenientJSONDecoder()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for _ in 0..<40 {
                        let value = try decoder.decode(Derived.self, from: #"{"id": \#(task), "tag": "t", "x": 1}"#)
                        #expect(value.id == task && value.tag == "t")
                        #expect(value.extras.keys == ["x"])
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private static let roundKey = CodingUserInfoKey(rawValue: "round")!

    /// Each task decodes its own document, in its own way, with its own per-call configuration, and checks the value.
    private static func work(task: Int, decoder: LenientJSONDecoder, encoder: LenientJSONEncoder) throws {
        let document = Document.sample(task)
        let data = Data(document.json.utf8)
        for iteration in 0..<50 {
            switch task % 4 {
            case 0:
                let value = try decoder.decode(Document.self, from: data)
                #expect(value == document)
            case 1:
                let (value, report) = try decoder.decodeWithReport(Document.self, from: document.messyJSON)
                #expect(value == document)
                #expect(report.issues.map(\.path) == ["page"])
                #expect(report.issues.first?.kind == .coerced)
            case 2:
                let scale = task * 100 + iteration
                let value = try decoder.decode(Scaled.self, from: data, configuration: scale)
                #expect(value.page == document.page * scale)
            default:
                let value = try decoder.decode(Document.self, from: try JSONValue(parsing: data))
                #expect(value == document)
            }
            let encoded = try encoder.encode(document)
            #expect(String(decoding: encoded, as: UTF8.self) == document.json)
        }
    }
}

extension ConcurrencyTests {
    struct Document: Codable, Equatable, Sendable {
        var name: String
        var page: Int
        var tags: [String]

        static func sample(_ task: Int) -> Document {
            Document(name: "task \(task)", page: task * 7 + 1, tags: (0...task).map { "t\($0)" })
        }

        /// The document as the encoder writes it with sorted keys.
        var json: String {
            #"{"name":"\#(name)","page":\#(page),"tags":[\#(tags.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        }

        /// The same document with the page as a string, which the lenient decoder coerces and reports.
        var messyJSON: String {
            json.replacingOccurrences(of: #""page":\#(page)"#, with: #""page":"\#(page)""#)
        }
    }

    /// A type whose decoding takes a per-call configuration: the factor that multiplies its page.
    struct Scaled: DecodableWithConfiguration {
        var page: Int

        enum CodingKeys: String, CodingKey { case page }

        init(from decoder: any Decoder, configuration: Int) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = try container.decode(Int.self, forKey: .page) * configuration
        }
    }

    /// Keeps eight super decoders of two children, whose probes a failed first pass answers.
    final class KeepsSuperDecoders: Decodable {
        enum CodingKeys: String, CodingKey { case first, second, n }
        enum ChildKeys: String, CodingKey { case v }
        let decoders: [any Decoder]
        let n: Int

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let decoders = try (0..<8).map { try container.superDecoder(forKey: $0 % 2 == 0 ? .first : .second) }
            for child in decoders {
                let keyed = try child.container(keyedBy: ChildKeys.self)
                if (try? keyed.decode(Bool.self, forKey: .v)) == nil { _ = try keyed.decode(Int.self, forKey: .v) }
            }
            self.decoders = decoders
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    /// Hands kept decoders to tasks, as a model that keeps them might. `any Decoder` is not
    /// `Sendable`; the decoders stay alive because the box holds them, and each task reads its
    /// own, so nothing but what the package shares between them is touched by two at once.
    struct KeptDecoder: @unchecked Sendable {
        let decoder: any Decoder
    }

    /// Super decoders kept past `decode`, read from many tasks at once: once the decode is over,
    /// none asks its probe host, the decoder of the document, nor logs a failed call, not even
    /// one made in a Foundation-like pass that succeeded (`"n": 5`), which still says it is in
    /// one (ThreadSanitizer runs this).
    @Test(arguments: [#"{"first":{"v":1},"second":{"v":2},"n":"5"}"#, #"{"first":{"v":1},"second":{"v":2},"n":5}"#])
    func keptSuperDecodersReadFromEightTasksAtOnce(json: String) async throws {
        let keeper = try LenientJSONDecoder().decode(KeepsSuperDecoders.self, from: Data(json.utf8))
        #expect(keeper.n == 5)
        let kept = keeper.decoders.map(KeptDecoder.init)
        let values = try await withThrowingTaskGroup(of: Int?.self) { group in
            // Each task its own decoder, as each of Foundation's super decoders is its own.
            for box in kept {
                group.addTask {
                    let keyed = try box.decoder.container(keyedBy: KeepsSuperDecoders.ChildKeys.self)
                    var last: Int?
                    for _ in 0..<200 {
                        _ = try? keyed.decode(Bool.self, forKey: .v)
                        last = try keyed.decode(Int.self, forKey: .v)
                    }
                    return last
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.sorted { ($0 ?? 0) < ($1 ?? 0) } == [1, 1, 1, 1, 2, 2, 2, 2])
    }

    /// Keeps its container, to read `KeepsSuperDecoders` from it after the decode.
    final class KeepsItsContainer: Decodable, @unchecked Sendable {
        enum CodingKeys: String, CodingKey { case inner }
        // Read by the test's thread only; the decoders it hands out go to the tasks.
        let container: KeyedDecodingContainer<CodingKeys>
        init(from decoder: any Decoder) throws { container = try decoder.container(keyedBy: CodingKeys.self) }
    }

    /// Super decoders made in the passes a kept container's reads run after the decode take part
    /// in those passes; each pass is over before its value is returned, and the super decoders
    /// kept in the value, read from many tasks at once, no longer ask or count in the decoder of
    /// the document, which meanwhile runs a pass for another read (ThreadSanitizer runs this).
    @Test func superDecodersKeptFromReadsAfterTheDecodeReadFromEightTasksAtOnce() async throws {
        let json = #"{"inner":{"first":{"v":1},"second":{"v":2},"n":"5"}}"#
        let kept = try LenientJSONDecoder().decode(KeepsItsContainer.self, from: Data(json.utf8))
        let values = try (0..<8).map { _ in
            try kept.container.decode(KeepsSuperDecoders.self, forKey: .inner)
        }
        #expect(values.allSatisfy { $0.n == 5 })
        let boxes = values.flatMap(\.decoders).map(KeptDecoder.init)
        let reads = try await withThrowingTaskGroup(of: Int?.self) { group in
            for box in boxes {
                group.addTask {
                    let keyed = try box.decoder.container(keyedBy: KeepsSuperDecoders.ChildKeys.self)
                    var last: Int?
                    for _ in 0..<50 {
                        _ = try? keyed.decode(Bool.self, forKey: .v)
                        last = try keyed.decode(Int.self, forKey: .v)
                    }
                    return last
                }
            }
            // The document's decoder runs a pass of its own meanwhile, for another read.
            let more = try kept.container.decode(KeepsSuperDecoders.self, forKey: .inner)
            #expect(more.n == 5)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reads.count == 64)
        #expect(reads.filter { $0 == 1 }.count == 32 && reads.filter { $0 == 2 }.count == 32)
    }
}

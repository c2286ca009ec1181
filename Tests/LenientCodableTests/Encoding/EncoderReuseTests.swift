// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// An encoder keeps what one call built (its settings as one object, the emptied tree) for the
/// next call: every call must still see the settings as they are when it starts, throw the
/// errors it would throw the first time, and leave alone what user code kept from earlier calls.
@Suite struct EncoderReuseTests {
    struct Pair: Codable, Equatable {
        var userID: Int
        var displayName: String
    }

    /// Writes the `userInfo` value under ``tagKey`` instead of itself.
    struct Tagged: Encodable {
        static let tagKey = CodingUserInfoKey(rawValue: "tag")!
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.userInfo[Self.tagKey] as? String ?? "none")
        }
    }

    /// A mapping that names no property: every encode of it throws.
    struct BadMapping: Encodable, KeyMapping {
        var name: String
        static let keyMapping: [String: KeySource] = ["nothing": "n"]
    }

    /// Keeps an encoder of the call, as user code may, and writes through it after the call.
    final class EncoderBox: @unchecked Sendable {
        // Written once, during the encode that fills it, and used after it returned.
        var write: ((String) throws -> Void)?
    }

    /// What a ``Keeper`` keeps.
    enum Kept: String, CaseIterable, Sendable {
        case encoder, keyedContainer, superEncoder
    }

    struct Keeper: Encodable {
        enum CodingKeys: String, CodingKey { case name }
        let box: EncoderBox
        let kept: Kept
        func encode(to encoder: any Encoder) throws {
            switch kept {
            case .encoder:
                box.write = { text in
                    var container = encoder.singleValueContainer()
                    try container.encode(text)
                }
                var container = encoder.singleValueContainer()
                try container.encode("kept")
            case .keyedContainer:
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode("kept", forKey: .name)
                box.write = { text in try container.encode(text, forKey: .name) }
            case .superEncoder:
                var container = encoder.container(keyedBy: CodingKeys.self)
                let superEncoder = container.superEncoder()
                var superContainer = superEncoder.singleValueContainer()
                try superContainer.encode("kept")
                box.write = { text in
                    var container = superEncoder.singleValueContainer()
                    try container.encode(text)
                }
            }
        }
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func everyCallSeesTheSettingsAsTheyAreWhenItStarts() throws {
        let encoder = LenientJSONEncoder()
        let pair = Pair(userID: 7, displayName: "Ada")
        #expect(Self.text(try encoder.encode(pair)) == #"{"userID":7,"displayName":"Ada"}"#)
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(Self.text(try encoder.encode(pair)) == #"{"user_id":7,"display_name":"Ada"}"#)
        encoder.outputFormatting = .sortedKeys
        #expect(Self.text(try encoder.encode(pair)) == #"{"display_name":"Ada","user_id":7}"#)
        encoder.keyEncodingStrategy = .useDefaultKeys
        #expect(Self.text(try encoder.encode(pair)) == #"{"displayName":"Ada","userID":7}"#)

        // Settings changed in place, through `_modify`, count as changes too.
        #expect(Self.text(try encoder.encode([Tagged()])) == #"["none"]"#)
        encoder.userInfo[Tagged.tagKey] = "first"
        #expect(Self.text(try encoder.encode([Tagged()])) == #"["first"]"#)
        encoder.userInfo[Tagged.tagKey] = "second"
        #expect(Self.text(try encoder.encode([Tagged()])) == #"["second"]"#)
        encoder.converters.register(Int.self) { .string("#\($0)") }
        #expect(Self.text(try encoder.encode(pair)) == ##"{"displayName":"Ada","userID":"#7"}"##)
        encoder.converters.removeConverter(for: Int.self)
        #expect(Self.text(try encoder.encode(pair)) == #"{"displayName":"Ada","userID":7}"#)
    }

    @Test func aMappingErrorIsThrownByEveryCall() throws {
        let encoder = LenientJSONEncoder()
        for _ in 0..<3 {
            let error = try #require(throws: EncodingError.self) { try encoder.encode(BadMapping(name: "x")) }
            guard case .invalidValue(_, let context) = error else {
                Issue.record("Expected invalidValue, got \(error)")
                return
            }
            #expect(context.underlyingError is KeyMappingError)
            let pair = Pair(userID: 1, displayName: "B")
            #expect(Self.text(try encoder.encode(pair)) == #"{"userID":1,"displayName":"B"}"#)
        }
    }

    @Test(arguments: Kept.allCases, [false, true])
    func whatAValueKeptStaysUsableAndApart(_ kept: Kept, atTopLevel: Bool) throws {
        let encoder = LenientJSONEncoder()
        let box = EncoderBox()
        let keeper = Keeper(box: box, kept: kept)
        if atTopLevel {
            _ = try encoder.encode(keeper)
        } else {
            _ = try encoder.encode([keeper])
        }
        let write = try #require(box.write)
        let first = Pair(userID: 1, displayName: "A")
        #expect(Self.text(try encoder.encode(first)) == #"{"userID":1,"displayName":"A"}"#)
        // Writing through what was kept touches its own call's tree, not a later call's.
        try write("late")
        let second = Pair(userID: 2, displayName: "B")
        #expect(Self.text(try encoder.encode(second)) == #"{"userID":2,"displayName":"B"}"#)
        try write("later")
        #expect(Self.text(try encoder.encode([first, second])).hasPrefix(#"[{"userID":1,"#))
    }

    @Test func oneEncoderAcrossEightTasksWhileItsSettingsChange() async throws {
        let encoder = LenientJSONEncoder()
        let changer = Task {
            for round in 0..<200 {
                encoder.outputFormatting = round.isMultiple(of: 2) ? .sortedKeys : []
                await Task.yield()
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<300 {
                        let pair = Pair(userID: task * 1000 + index, displayName: "T\(task)")
                        let text = Self.text(try encoder.encode(pair))
                        let inOrder = #"{"userID":\#(pair.userID),"displayName":"T\#(task)"}"#
                        let sorted = #"{"displayName":"T\#(task)","userID":\#(pair.userID)}"#
                        #expect(text == inOrder || text == sorted)
                        let empty = Self.text(try encoder.encode([Int]()))
                        #expect(empty == "[]")
                    }
                }
            }
            try await group.waitForAll()
        }
        await changer.value
    }

    /// Output past what an idle encoder keeps becomes the returned `Data`'s own memory: each
    /// `Data` must keep its bytes through every later call, small and large, and across tasks.
    @Test func largeOutputStaysWithTheDataItWasReturnedIn() async throws {
        let encoder = LenientJSONEncoder()
        func rows(_ seed: Int) -> [String] {
            (0..<30_000).map { "row \(seed)-\($0) " + String(repeating: "\"é/", count: ($0 + seed) % 7) }
        }
        let values = [rows(1), ["small"], rows(2), rows(3)]
        let expected = try values.map { try JSONEncoder().encode($0) }
        #expect(expected[0].count > 256 * 1024)
        let written = try values.map { try encoder.encode($0) }
        _ = try encoder.encode(rows(4))
        #expect(written == expected)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    var kept: [(Data, Data)] = []
                    for round in 0..<3 {
                        let value = rows(task * 10 + round)
                        kept.append((try encoder.encode(value), try JSONEncoder().encode(value)))
                    }
                    for (data, foundation) in kept { #expect(data == foundation) }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Keeps an encoder of the call by a `weak` reference, which no check of uniqueness sees.
    final class WeakEncoderBox: @unchecked Sendable {
        // Written during the encode that fills it, read after it returned, on the same thread.
        weak var encoder: AnyObject?
    }

    /// Keeps its encoder weakly: at the top level, the call's root encoder; in an array, the
    /// encoder of one element.
    struct WeakKeeper: Encodable {
        let box: WeakEncoderBox
        func encode(to encoder: any Encoder) throws {
            box.encoder = encoder as AnyObject
            var container = encoder.singleValueContainer()
            try container.encode("kept")
        }
    }

    /// Writes through the encoder a ``WeakEncoderBox`` still reaches, while it is encoded itself.
    struct WritesThroughAWeakEncoder: Encodable {
        let box: WeakEncoderBox
        let items: [String]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
            if let kept = box.encoder as? any Encoder {
                var single = kept.singleValueContainer()
                try single.encode("written through a weak reference")
            }
        }
    }

    /// Foundation's encoders end with their call: a `weak` reference to one is `nil` afterwards.
    /// So do this encoder's, though it keeps the call's tree for the next call: one kept alive
    /// for reuse would write into the next call's tree, over strings that tree had freed (a
    /// crash), or into that call's output.
    @Test(arguments: [false, true])
    func anEncoderKeptWeaklyEndsWithItsCall(atTopLevel: Bool) throws {
        let encoder = LenientJSONEncoder()
        let box = WeakEncoderBox()
        let keeper = WeakKeeper(box: box)
        let written =
            atTopLevel ? try encoder.encode(keeper) : try encoder.encode(["padding", "more"].map { _ in keeper })
        #expect(Self.text(written) == (atTopLevel ? #""kept""# : #"["kept","kept"]"#))
        #expect(box.encoder == nil)
        // A later call that writes through whatever the reference still reaches writes nothing.
        let items = (0..<300).map { "a string the call's tree holds, number \($0)" }
        let later = try encoder.encode(WritesThroughAWeakEncoder(box: box, items: items))
        #expect(later == (try JSONEncoder().encode(items)))
        #expect(Self.text(try encoder.encode(Pair(userID: 3, displayName: "C"))) == #"{"userID":3,"displayName":"C"}"#)
    }
}

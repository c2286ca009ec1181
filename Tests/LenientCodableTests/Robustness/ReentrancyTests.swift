// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// User code the package runs or releases while it holds one of its locks must be free to use the
/// package again: a value's `deinit` when a setting replaces it, a key strategy's closure. Each of
/// these waited for itself before (found by a tester, helper 37).
@Suite(.timeLimit(.minutes(1))) struct ReentrancyTests {
    /// Reads a setting of its decoder or encoder when it goes, as an object that logs its owner's
    /// state would.
    final class Tattler: @unchecked Sendable {
        // Set once, before the object is shared.
        let decoder: LenientJSONDecoder?
        let encoder: LenientJSONEncoder?
        init(decoder: LenientJSONDecoder? = nil, encoder: LenientJSONEncoder? = nil) {
            self.decoder = decoder
            self.encoder = encoder
        }
        deinit {
            _ = decoder?.allowsJSON5
            _ = encoder?.outputFormatting
        }
    }

    static let key = CodingUserInfoKey(rawValue: "tattler")!

    struct Pair: Codable, Equatable {
        var a: Int
    }

    /// A `userInfo` value or a converter that uses the decoder in its `deinit` is replaced without
    /// waiting, and the decoder goes on decoding with the new settings.
    @Test func aReplacedSettingMayUseTheDecoderAsItGoes() throws {
        let decoder = LenientJSONDecoder()
        decoder.userInfo[Self.key] = Tattler(decoder: decoder)
        decoder.userInfo[Self.key] = 1
        #expect(try decoder.decode(Pair.self, from: #"{"a":"1"}"#) == Pair(a: 1))
        decoder.userInfo = [Self.key: Tattler(decoder: decoder)]
        _ = try decoder.decode(Pair.self, from: #"{"a":1}"#)
        decoder.userInfo = [:]
        let tattler = Tattler(decoder: decoder)
        decoder.options.converters.register(Pair.self) { _ in
            withExtendedLifetime(tattler) { Pair(a: 7) }
        }
        #expect(try decoder.decode(Pair.self, from: #"{"b":1}"#) == Pair(a: 7))
        decoder.options = .lenient
        #expect(try decoder.decode(Pair.self, from: #"{"a":2}"#) == Pair(a: 2))
    }

    /// The same for the encoder, whose output follows the new settings.
    @Test func aReplacedSettingMayUseTheEncoderAsItGoes() throws {
        let encoder = LenientJSONEncoder()
        encoder.userInfo[Self.key] = Tattler(encoder: encoder)
        encoder.userInfo[Self.key] = 1
        encoder.userInfo = [Self.key: Tattler(encoder: encoder)]
        _ = try encoder.encode(Pair(a: 1))
        encoder.userInfo = [:]
        let tattler = Tattler(encoder: encoder)
        encoder.converters.register(Int.self) { value in
            withExtendedLifetime(tattler) { .string(String(value)) }
        }
        #expect(String(decoding: try encoder.encode(Pair(a: 3)), as: UTF8.self) == #"{"a":"3"}"#)
        encoder.converters = EncodingConverters()
        let written = try encoder.encode(Pair(a: 4))
        #expect(String(decoding: written, as: UTF8.self) == #"{"a":4}"#)
        #expect(try LenientJSONDecoder().decode(Pair.self, from: written) == Pair(a: 4))
    }

    /// A type's `.custom` key strategy runs outside the lock of the type's key plan, so the
    /// closure may decode the same type (once here: a closure that always did would recurse
    /// without end, as an `init(from:)` that always decodes its own type does).
    struct SelfReferring: Codable, Equatable, KeyMapping {
        var ref: String
        var inner: [SelfReferring]

        static let nested = NestedDecodes()

        static var keyStrategy: KeyStrategy? {
            .custom { name in
                if name == "inner" && nested.begin() {
                    defer { nested.end() }
                    let json = #"{"x-ref":"q","x-inner":[]}"#
                    let decoded = try? LenientJSONDecoder().decode(SelfReferring.self, from: json)
                    nested.record(decoded)
                }
                return "x-" + name
            }
        }
    }

    /// Whether a nested decode is under way, and what it gave.
    final class NestedDecodes: @unchecked Sendable {
        // Read and written under `lock` only.
        private let lock = NSLock()
        private var active = false
        private var results: [SelfReferring?] = []

        func begin() -> Bool {
            lock.withLock {
                guard !active, results.isEmpty else { return false }
                active = true
                return true
            }
        }

        func end() { lock.withLock { active = false } }
        func record(_ result: SelfReferring?) { lock.withLock { results.append(result) } }
        var recorded: [SelfReferring?] { lock.withLock { results } }
    }

    @Test func aKeyStrategysClosureMayDecodeItsOwnType() throws {
        let json = #"{"x-ref":"u","x-inner":[{"x-ref":"v","x-inner":[]}]}"#
        let decoded = try LenientJSONDecoder().decode(SelfReferring.self, from: json)
        let expected = SelfReferring(ref: "u", inner: [SelfReferring(ref: "v", inner: [])])
        #expect(decoded == expected)
        #expect(SelfReferring.nested.recorded == [SelfReferring(ref: "q", inner: [])])
        let written = try LenientJSONEncoder().encode(decoded)
        #expect(try LenientJSONDecoder().decode(SelfReferring.self, from: written) == expected)
    }

    /// A model keeps two containers of one decode that reports unknown keys; what they read after
    /// the call changes neither the report the call gave nor what they read.
    final class KeepsTwo: Decodable {
        let first: KeyedDecodingContainer<AnyKey>
        let second: KeyedDecodingContainer<AnyKey>
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            first = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("a"))
            second = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("b"))
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        let intValue: Int? = nil
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test func keptContainersReadAfterTheCallLeaveItsReportAlone() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let (kept, report) = try decoder.decodeWithReport(
            KeepsTwo.self, from: #"{"a":{"y":"s","n":"5"},"b":{"y":"t"}}"#)
        let before = report.issues.map(\.path)
        for _ in 0..<3 {
            #expect(try kept.first.decode(String.self, forKey: AnyKey("y")) == "s")
            #expect(try kept.first.decode(Int.self, forKey: AnyKey("n")) == 5)
            #expect(try kept.second.decode(String.self, forKey: AnyKey("y")) == "t")
        }
        #expect(report.issues.map(\.path) == before)
        // The same reads through a decoder that was never asked for a report.
        let plain = try LenientJSONDecoder(options: options).decode(
            KeepsTwo.self, from: #"{"a":{"y":"s","n":"5"},"b":{"y":"t"}}"#)
        #expect(try plain.first.decode(Int.self, forKey: AnyKey("n")) == 5)
    }
}

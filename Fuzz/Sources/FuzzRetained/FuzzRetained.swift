// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// Decodes models that keep what their `init(from:)` is handed — the decoder, keyed, unkeyed and single-value
// containers, super decoders, and the decoder passed to `.custom` date and data strategies — from `Data`, `String`,
// `[UInt8]` or `JSONValue` input, overwrites and frees the input, then reads everything kept. Nothing may crash; under
// AddressSanitizer a use after free is a finding. A kept keyed container reads the same values after `decode` as
// during it. Some inputs also share one decoder between two threads, each decoding the same input.

/// The first byte chooses the input form, the mode and the threads; the rest is the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRetained(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: start, count: count)
    RetainedChecks.run(flags: bytes[0], document: Array(bytes.dropFirst()))
    return 0
}

/// Any key.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// What a `.custom` strategy was handed, kept past the decode.
final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [any Decoder] = []

    func keep(_ decoder: any Decoder) {
        lock.lock()
        defer { lock.unlock() }
        if kept.count < 64 { kept.append(decoder) }
    }

    /// Breaks the cycle a kept decoder makes: its settings hold the strategy, which holds this box.
    func clear() {
        lock.lock()
        defer { lock.unlock() }
        kept = []
    }

    var decoders: [any Decoder] {
        lock.lock()
        defer { lock.unlock() }
        return kept
    }
}

/// Keeps everything it is handed, and decodes a `Keeper` for each of its first members or elements.
final class Keeper: Decodable, @unchecked Sendable {
    let decoder: any Decoder
    var keyed: KeyedDecodingContainer<AnyKey>?
    var unkeyed: (any UnkeyedDecodingContainer)?
    var single: (any SingleValueDecodingContainer)?
    var superDecoders: [any Decoder] = []
    var nestedKeyed: [KeyedDecodingContainer<AnyKey>] = []
    var nestedUnkeyed: [any UnkeyedDecodingContainer] = []
    var children: [Keeper] = []
    /// What the keyed container read for each key during the decode.
    var seen: [String: JSONValue] = [:]

    /// Levels below this read no `JSONValue` of what is under them, and make no read that is
    /// bound to fail (a `Date` from an array, an `Int` from an object): every level reading its
    /// whole subtree would cost this harness the square of the depth (500 nested arrays: 3 s
    /// under AddressSanitizer), and so does every failed read, whose error holds the coding
    /// path of its level, as Foundation's does: a cost of the model, not of the decoder.
    static let valueReadingDepth = 32

    /// How many `Keeper`s are being decoded, one inside the other: the depth of the one being
    /// decoded, without asking for its coding path. The fuzzer runs one input at a time, on one thread.
    nonisolated(unsafe) static var decodingDepth = 0

    init(from decoder: any Decoder) throws {
        Self.decodingDepth += 1
        defer { Self.decodingDepth -= 1 }
        self.decoder = decoder
        single = try? decoder.singleValueContainer()
        let probes = Self.decodingDepth <= Self.valueReadingDepth
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            self.keyed = keyed
            superDecoders.append(try keyed.superDecoder())
            for key in keyed.allKeys.prefix(6) {
                if let value = try? keyed.decode(JSONValue.self, forKey: key) { seen[key.stringValue] = value }
                if let child = try? keyed.decode(Keeper.self, forKey: key) { children.append(child) }
                if let nested = try? keyed.nestedContainer(keyedBy: AnyKey.self, forKey: key) {
                    nestedKeyed.append(nested)
                }
                if let nested = try? keyed.nestedUnkeyedContainer(forKey: key) { nestedUnkeyed.append(nested) }
                if let inner = try? keyed.superDecoder(forKey: key) { superDecoders.append(inner) }
                if probes {
                    _ = try? keyed.decode(Date.self, forKey: key)
                    _ = try? keyed.decode(Data.self, forKey: key)
                }
            }
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            self.unkeyed = try? decoder.unkeyedContainer()
            var index = 0
            while !unkeyed.isAtEnd, index < 6 {
                index += 1
                if index % 2 == 0, let inner = try? unkeyed.superDecoder() {
                    superDecoders.append(inner)
                    continue
                }
                guard let child = try? unkeyed.decode(Keeper.self) else { break }
                children.append(child)
            }
            if probes {
                var dates = try? decoder.unkeyedContainer()
                _ = try? dates?.decode(Date.self)
            }
        } else if probes {
            _ = try? decoder.singleValueContainer().decode(Date.self)
            _ = try? decoder.singleValueContainer().decode(Data.self)
        }
    }

    /// Reads everything kept; checks that the keyed container reads what it read during the decode.
    func readBack(depth: Int = 0) {
        guard depth < 600 else { return }
        // Deeper, scalars and nulls only (see `valueReadingDepth`).
        let readsValues = depth < Self.valueReadingDepth
        if let keyed {
            for key in keyed.allKeys.prefix(6) {
                let value = readsValues ? try? keyed.decode(JSONValue.self, forKey: key) : nil
                if let value, let before = seen[key.stringValue], value != before {
                    fatalError(
                        "Fuzz invariant broken: kept container reads \(value) for \(key.stringValue), not \(before)")
                }
                if readsValues {
                    _ = try? keyed.decodeIfPresent(String.self, forKey: key)
                    _ = try? keyed.decode(Int.self, forKey: key)
                }
                _ = keyed.contains(key)
                _ = try? keyed.decodeNil(forKey: key)
                _ = try? keyed.nestedContainer(keyedBy: AnyKey.self, forKey: key).allKeys
            }
            _ = try? keyed.decode(JSONValue.self, forKey: AnyKey(stringValue: "missing"))
        }
        if var unkeyed {
            var count = 0
            while !unkeyed.isAtEnd, count < 8 {
                count += 1
                if readsValues {
                    if (try? unkeyed.decode(JSONValue.self)) == nil { break }
                } else if (try? unkeyed.decodeNil()) != true {
                    break
                }
            }
            _ = unkeyed.count
        }
        if let single {
            if readsValues { _ = try? single.decode(JSONValue.self) } else { _ = single.decodeNil() }
        }
        for inner in superDecoders { Self.read(inner, readsValues: readsValues) }
        for nested in nestedKeyed {
            for key in nested.allKeys.prefix(4) {
                if readsValues {
                    _ = try? nested.decode(JSONValue.self, forKey: key)
                } else {
                    _ = try? nested.decodeNil(forKey: key)
                }
            }
        }
        for var nested in nestedUnkeyed {
            if !nested.isAtEnd {
                if readsValues { _ = try? nested.decode(JSONValue.self) } else { _ = try? nested.decodeNil() }
            }
        }
        Self.read(decoder, readsValues: readsValues)
        for child in children { child.readBack(depth: depth + 1) }
    }

    /// Reads a kept decoder every way it can be read (a `JSONValue` of what it holds only when
    /// `readsValues`).
    static func read(_ decoder: any Decoder, readsValues: Bool = true) {
        _ = decoder.codingPath.count
        if let keyed = try? decoder.container(keyedBy: AnyKey.self) {
            for key in keyed.allKeys.prefix(4) {
                if readsValues {
                    _ = try? keyed.decode(JSONValue.self, forKey: key)
                } else {
                    _ = try? keyed.decodeNil(forKey: key)
                }
            }
        }
        if var unkeyed = try? decoder.unkeyedContainer(), !unkeyed.isAtEnd {
            if readsValues { _ = try? unkeyed.decode(JSONValue.self) } else { _ = try? unkeyed.decodeNil() }
        }
        if readsValues { _ = try? decoder.singleValueContainer().decode(JSONValue.self) }
        _ = try? decoder.singleValueContainer().decode(Double.self)
    }
}

enum RetainedChecks {
    static func run(flags: UInt8, document: [UInt8]) {
        let box = Box()
        let decoder = LenientJSONDecoder(options: flags & 4 == 0 ? .lenient : .strict)
        decoder.allowsJSON5 = flags & 8 != 0
        decoder.dateDecodingStrategy = .custom { decoder in
            box.keep(decoder)
            return Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
        }
        decoder.dataDecodingStrategy = .custom { decoder in
            box.keep(decoder)
            return Data(try decoder.singleValueContainer().decode(String.self).utf8)
        }

        var kept: [Keeper] = []
        if let keeper = decode(flags: flags, document: document, decoder) { kept.append(keeper) }
        if flags & 16 != 0 { kept += decodeOnThreads(flags: flags, document: document, decoder) }

        // The input is gone: allocations of its size now reuse its memory.
        let junk = (0..<32).map { _ in [UInt8](repeating: 0x78, count: max(1, document.count)) }
        withExtendedLifetime(junk) {
            for keeper in kept { keeper.readBack() }
            for inner in box.decoders { Keeper.read(inner) }
        }
        box.clear()
    }

    /// Decodes from the input form the flags choose; overwrites the input before it is freed.
    static func decode(flags: UInt8, document: [UInt8], _ decoder: LenientJSONDecoder) -> Keeper? {
        switch flags & 3 {
        case 0:
            var data = Data(document)
            defer { data.resetBytes(in: 0..<data.count) }
            return try? decoder.decode(Keeper.self, from: data)
        case 1:
            // A string built at run time, on the heap.
            let string = String(decoding: document, as: UTF8.self)
            return try? decoder.decode(Keeper.self, from: string)
        case 2:
            var bytes = document
            defer { for index in bytes.indices { bytes[index] = 0x20 } }
            return try? decoder.decode(Keeper.self, from: bytes)
        default:
            guard let value = try? JSONValue(parsing: Data(document), allowsJSON5: true) else { return nil }
            return try? decoder.decode(Keeper.self, from: value)
        }
    }

    /// Two threads decode with one shared decoder, whose date strategy one of them changes meanwhile.
    static func decodeOnThreads(flags: UInt8, document: [UInt8], _ decoder: LenientJSONDecoder) -> [Keeper] {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var keepers: [Keeper] = []
        }
        let results = Results()
        let group = DispatchGroup()
        for index in 0..<2 {
            group.enter()
            let thread = Thread {
                if index == 1 { decoder.dateDecodingStrategy = .secondsSince1970 }
                if let keeper = decode(flags: flags &+ UInt8(index), document: document, decoder) {
                    results.lock.lock()
                    results.keepers.append(keeper)
                    results.lock.unlock()
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        return results.keepers
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

// Reads the input as a small program that builds `JSONValue`s in code — arrays, objects with odd keys, `.number` with
// any text (invalid number text, exponents at the edge of `Int`), nesting up to 100 000 levels built in a loop, shared
// subvalues — then runs every operation on them: `==`, `hash` and `Set`, `description` (always JSON that parses),
// `LenientJSONEncoder` (refuses invalid number text; otherwise parses back equal), `decode(JSONValue.self, from:)`
// (throws or gives an equal value), Codable through Foundation (shallow values only: Foundation recurses), and the
// subscripts. Deep values are taken apart iteratively before they are released (releasing a `JSONValue` nested
// deeper than about 50 000 levels recurses in the Swift runtime).

/// The libFuzzer entry point: runs the input as a program, then checks every value it built.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONValue(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var program = Program(bytes: UnsafeBufferPointer(start: start, count: count))
    program.run()
    return 0
}

/// A built value with what the program knows about it.
struct Built {
    var value: JSONValue
    /// The number of values in it, counting a shared subvalue each time it appears.
    var size: Int
    /// Its nesting: 0 for a scalar.
    var depth: Int
    /// Whether every `.number` in it holds JSON number text.
    var validNumbers: Bool
}

struct Program {
    static let numberTexts = [
        "0", "-0", "1", "1.0", "10e-1", "1e2", "1E+2", "100", "0.1", "-1.5e-3", "123456789012345678901234567890",
        "1e9223372036854775807", "10e9223372036854775806", "0.1e-9223372036854775808", "-1e-9223372036854775808",
        "1e99999999999999999999", "100e9223372036854775807", "0.00001e-9223372036854775800", "1e-9223372036854775809",
        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "1e309", "4.9e-324",
        "", "1,", "1}", #"1,"isAdmin":true"#, "0x10", "Infinity", "-Infinity", "NaN", "-", "1 2", "01", "1.", ".5",
        "1e", "+1", "\u{0}", " 1", "1\n", "١",
    ]
    static let keys = ["", "a", "b", "é", "e\u{301}", "\u{0}", "\"", "\\", "key with spaces", "🙂", "\u{FFFF}", "a.b"]
    /// The number of values past which building stops, counting a shared value each time it appears: the checks are
    /// linear, but a value that shares subvalues can be exponentially larger than the program.
    static let maxSize = 100_000
    static let maxDepth = 100_000

    /// Made once: a coder's set-up costs more than most inputs' checks under AddressSanitizer.
    static let encoder = LenientJSONEncoder()
    static let decoders = [LenientJSONDecoder(options: .strict), LenientJSONDecoder(options: .lenient)]
    static let foundationEncoder = JSONEncoder()
    static let foundationDecoder = JSONDecoder()

    var bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var stack: [Built] = []
    /// The number of values on the stack, counting shared ones each time: what the checks traverse.
    var total: Int { stack.reduce(0) { $0 + $1.size } }
    /// Values the program drops (a replaced member, a repeated key), kept to be taken apart with the rest.
    var dropped: [JSONValue] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func next() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func nextText(alphabet: [Character]? = nil) -> String {
        let length = Int(next() ?? 0) % 24
        let end = min(bytes.count, position + length)
        defer { position = end }
        let slice = bytes[position..<end]
        if let alphabet { return String(slice.map { alphabet[Int($0) % alphabet.count] }) }
        return String(decoding: slice, as: UTF8.self)
    }

    mutating func pop() -> Built {
        stack.popLast() ?? Built(value: .null, size: 1, depth: 0, validNumbers: true)
    }

    mutating func run() {
        var steps = 0
        while let op = next(), steps < 200, total < Self.maxSize {
            steps += 1
            build(op)
        }
        // The top eight: each check costs milliseconds under AddressSanitizer, and the top holds what was built last.
        for built in stack.suffix(8) { check(built) }
        for first in stack.indices.prefix(6) {
            for second in stack.indices.prefix(6) where second > first { checkPair(stack[first], stack[second]) }
        }
        // Taken apart iteratively, so that releasing a deep value does not recurse.
        var pending = stack.map(\.value) + dropped
        stack = []
        dropped = []
        while let value = pending.popLast() {
            switch value {
            case .array(let elements): pending.append(contentsOf: elements)
            case .object(let object): pending.append(contentsOf: object.values)
            default: break
            }
        }
    }

    mutating func build(_ op: UInt8) {
        switch op % 12 {
        case 0: stack.append(Built(value: .null, size: 1, depth: 0, validNumbers: true))
        case 1: stack.append(Built(value: .bool(op & 16 != 0), size: 1, depth: 0, validNumbers: true))
        case 2:
            let text = Self.numberTexts[Int(next() ?? 0) % Self.numberTexts.count]
            stack.append(Built(value: .number(text), size: 1, depth: 0, validNumbers: Self.isNumber(text)))
        case 3:
            let text = op & 16 != 0 ? nextText(alphabet: Array("0123456789eE+-.")) : nextText()
            stack.append(Built(value: .number(text), size: 1, depth: 0, validNumbers: Self.isNumber(text)))
        case 4:
            let text = op & 16 != 0 ? Self.keys[Int(next() ?? 0) % Self.keys.count] : nextText()
            stack.append(Built(value: .string(text), size: 1, depth: 0, validNumbers: true))
        case 5:
            // An array of the top n values.
            let count = min(Int(next() ?? 0) % 8, stack.count)
            let parts = stack.suffix(count)
            let size = parts.reduce(1) { $0 + $1.size }
            guard size <= Self.maxSize else { return }
            stack.removeLast(count)
            stack.append(
                Built(
                    value: .array(parts.map(\.value)), size: size, depth: 1 + (parts.map(\.depth).max() ?? 0),
                    validNumbers: parts.allSatisfy(\.validNumbers)))
        case 6:
            // An object of the top n values, keys from the table (repeated keys keep their first value).
            let count = min(Int(next() ?? 0) % 8, stack.count)
            let parts = Array(stack.suffix(count))
            var members: [(key: String, value: JSONValue)] = []
            var kept: [Built] = []
            var seen = Set<String>()
            dropped.append(contentsOf: parts.map(\.value))
            for part in parts {
                let key = Self.keys[Int(next() ?? 0) % Self.keys.count]
                members.append((key: key, value: part.value))
                if seen.insert(key).inserted { kept.append(part) }
            }
            let size = kept.reduce(1) { $0 + $1.size }
            guard size <= Self.maxSize else { return }
            stack.removeLast(count)
            stack.append(
                Built(
                    value: .object(JSONObject(members)), size: size, depth: 1 + (kept.map(\.depth).max() ?? 0),
                    validNumbers: kept.allSatisfy(\.validNumbers)))
        case 7:
            // Shares the top value.
            if let top = stack.last, total + top.size <= Self.maxSize { stack.append(top) }
        case 8:
            // Nests the top value n levels deeper, in arrays or objects, in a loop.
            var top = pop()
            // Deep (up to `maxDepth`) only for the opcodes 224, 236 and 248, so that most inputs (a comma of JSON
            // text is 44) stay fast.
            let levels =
                op >= 224 ? (Int(next() ?? 0) << 9) | (Int(next() ?? 0) << 1) : Int(next() ?? 0) % 64
            // Objects cost more to build and hash under AddressSanitizer: half as deep, to stay well under 1 s.
            let objects = op & 16 != 0
            let limit = objects ? Self.maxDepth / 2 : Self.maxDepth
            let count = min(levels, limit - top.depth, Self.maxSize - total - top.size)
            let key = Self.keys[Int(op >> 4) % Self.keys.count]
            for _ in 0..<max(0, count) {
                if objects {
                    var object = JSONObject()
                    object[key] = top.value
                    top.value = .object(object)
                } else {
                    top.value = .array([top.value])
                }
            }
            top.size += max(0, count)
            top.depth += max(0, count)
            stack.append(top)
        case 9:
            // Sets a member of the top value (an object or null) to the value under it.
            guard stack.count >= 2 else { return }
            let member = stack.removeLast()
            var target = stack.removeLast()
            let key = Self.keys[Int(next() ?? 0) % Self.keys.count]
            switch target.value {
            case .object, .null:
                if let old = target.value[key] { dropped.append(old) }
                target.value[key] = member.value
                // Bookkeeping on the safe side: the old member's count is not subtracted.
                target.size += member.size
                target.depth = max(target.depth, member.depth + 1)
                target.validNumbers = target.validNumbers && member.validNumbers
                if target.size > Self.maxSize {
                    dropped.append(member.value)
                    target.value[key] = nil
                }
                stack.append(target)
            default:
                stack.append(target)
                stack.append(member)
            }
        case 10:
            // Reads a member or an element of the top value.
            if let top = stack.last {
                let key = Self.keys[Int(next() ?? 0) % Self.keys.count]
                consume(top.value[key] ?? .null)
                consume(top.value[Int(next() ?? 0) % 4 - 1] ?? .null)
            }
        default:
            // Removes a member (setting nil) of the top value, if an object.
            if var top = stack.last, case .object = top.value {
                let key = Self.keys[Int(next() ?? 0) % Self.keys.count]
                if let old = top.value[key] { dropped.append(old) }
                top.value[key] = nil
                stack[stack.count - 1] = top
            }
        }
    }

    static func isNumber(_ text: String) -> Bool {
        if case .number(let parsed)? = try? JSONValue(parsing: text), parsed == text { return true }
        return false
    }

    /// The exact nesting and number validity of a value: the program's bookkeeping over-approximates both when a
    /// member is replaced or removed.
    static func measure(_ value: JSONValue) -> (depth: Int, validNumbers: Bool) {
        var pending = [(value, 0)]
        var depth = 0
        var valid = true
        while let (next, level) = pending.popLast() {
            depth = max(depth, level)
            switch next {
            case .number(let text): if valid && !isNumber(text) { valid = false }
            case .array(let elements): pending.append(contentsOf: elements.map { ($0, level + 1) })
            case .object(let object):
                if object.isEmpty { depth = max(depth, level + 1) }
                pending.append(contentsOf: object.values.map { ($0, level + 1) })
            default: break
            }
            if case .array(let elements) = next, elements.isEmpty { depth = max(depth, level + 1) }
        }
        return (depth, valid)
    }

    func check(_ approximate: Built) {
        var built = approximate
        (built.depth, built.validNumbers) = Self.measure(built.value)
        let value = built.value
        require(value == value, "value not equal to itself: \(built.depth) levels")
        var set = Set<JSONValue>()
        set.insert(value)
        require(set.contains(value), "Set does not contain what was inserted")

        // `description` is JSON whatever the value; invalid number text is written as a string.
        let text = value.description
        if built.depth <= 500 {
            do {
                let parsed = try JSONValue(parsing: text)
                if built.validNumbers {
                    require(parsed == value, "description parses back different: \(text.prefix(500))")
                    require(parsed.hashValue == value.hashValue, "equal values hash differently: \(text.prefix(500))")
                }
            } catch {
                fail("description is not JSON (\(error)): \(text.prefix(500))")
            }
        }

        // The encoder refuses number text that is not a number, and more than 511 levels.
        do {
            let data = try Self.encoder.encode(value)
            require(built.validNumbers, "encoder wrote number text that is not a number: \(text.prefix(500))")
            require(built.depth <= 511, "encoder wrote \(built.depth) levels")
            do {
                let parsed = try JSONValue(parsing: data)
                require(parsed == value, "encoded value parses back different: \(text.prefix(500))")
            } catch {
                fail("encoder output does not parse (\(error)): \(text.prefix(500))")
            }
        } catch is EncodingError {
            require(!built.validNumbers || built.depth > 511, "encoder refused a valid value: \(text.prefix(500))")
        } catch {
            fail("encoder threw \(type(of: error)), not EncodingError: \(error)")
        }
        if let data = try? Self.encoder.encodeToJSONValue(value) { consume(data) }

        // Decoding a JSONValue from a JSONValue: throws, or (strict) gives an equal value.
        for (index, decoder) in Self.decoders.enumerated() {
            do {
                let decoded = try decoder.decode(JSONValue.self, from: value)
                require(built.depth <= 512, "decoded \(built.depth) levels")
                if index == 0 && built.validNumbers {
                    require(decoded == value, "decode(JSONValue.self, from:) changed the value: \(text.prefix(500))")
                }
                consume(decoded)
            } catch is DecodingError {
            } catch {
                fail("decode threw \(type(of: error)), not DecodingError: \(error)")
            }
        }
        if built.depth < 8 {
            _ = try? Self.decoders[1].decode([String: Int].self, from: value)
            _ = try? Self.decoders[1].decode([Double?].self, from: value)
        }

        // Foundation recurses (shallow values only), and is slow under AddressSanitizer (small ones only): decoding a
        // `JSONValue` probes each level with `try?`, and each failed probe builds the coding path, so its time grows
        // with the square of the depth (199 levels took 1.8 s).
        if built.depth < 64 && built.size < 2_000 && (built.depth < 32 || built.size < 300) {
            if let data = try? Self.foundationEncoder.encode(value) {
                if let back = try? Self.foundationDecoder.decode(JSONValue.self, from: data) { consume(back) }
            }
        }
    }

    func checkPair(_ first: Built, _ second: Built) {
        if first.value == second.value {
            require(second.value == first.value, "== is not symmetric")
            require(first.value.hashValue == second.value.hashValue, "equal values hash differently")
        }
    }

    func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    func fail(_ message: String) -> Never {
        fatalError("Fuzz invariant broken: \(message)")
    }
}

nonisolated(unsafe) private var sink = 0

/// Keeps a value's hash, so that the optimizer keeps the call that produced it.
@inline(never)
func consume(_ value: JSONValue) {
    sink &+= value.hashValue
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Why a value cannot be made into the objects `JSONSerialization` gives.
enum JSONObjectFailure: Error {
    /// The value nests deeper than the writer's limit.
    case tooDeep
    /// A number literal that no `NSNumber` holds (`1e400`).
    case numberOutOfRange(String)
    /// The thread's stack is nearly spent this many levels deep (``StackGuard``).
    case stackSpent(depth: Int)
}

extension EncodingTree {
    /// The value of a node as a ``JSONValue``: numbers as the text the writer would write,
    /// members in encode order, or sorted as the writer sorts them when `sortsKeys` is set.
    func jsonValue(at node: Int32, sortsKeys: Bool) throws(JSONWriter.DepthExceeded) -> JSONValue {
        var kept = KeptJSON()
        return try jsonValue(at: node, sortsKeys: sortsKeys, depth: 0, kept: &kept)
    }

    /// The containers of `json` nodes (hooks' results) that a ``JSONValue`` of the tree holds as
    /// they are, by the address of their storage, with their height: checked when they were
    /// kept, so the JSON a hook returns need not be checked again where it holds them unchanged.
    struct KeptJSON {
        var heights: [UnsafeRawPointer: Int] = [:]
        /// The containers themselves, held so that no other container can be given the storage
        /// of one while its address is a key of ``heights``: the addresses are only compared.
        var values: [JSONValue] = []

        mutating func note(_ value: JSONValue, height: Int) {
            guard let address = value.containerStorage else { return }
            heights[address] = height
            values.append(value)
        }
    }

    /// ``jsonValue(at:sortsKeys:)``, noting in `kept` the `json` nodes' values it holds unchanged.
    func jsonValue(at node: Int32, sortsKeys: Bool, depth: Int, kept: inout KeptJSON) throws(JSONWriter.DepthExceeded)
        -> JSONValue
    {
        let current = nodes[Int(node)]
        switch current.kind {
        case .json where current.childCount > 0:
            // Elements a container kept open on the node appended after the hook ran.
            expandJSONLeaf(node)
            return try jsonValue(at: node, sortsKeys: sortsKeys, depth: depth, kept: &kept)
        case .json:
            let (value, height) = jsonLeaf(at: node)
            guard depth + height < JSONWriter.maximumDepth else { throw JSONWriter.DepthExceeded() }
            if sortsKeys { return Self.sortingKeys(of: value) }
            kept.note(value, height: height)
            return value
        case .null: return .null
        case .bool: return .bool(current.bits != 0)
        case .int: return .number(String(Int64(bitPattern: current.bits)))
        case .uint: return .number(String(current.bits))
        case .double, .float:
            var writer = JSONWriter(formatting: [], capacity: 24)
            writer.writeScalar(nodes + Int(node))
            return .number(String(decoding: writer.bytes, as: UTF8.self))
        case .literal: return .number(current.text)
        case .string: return .string(current.text)
        case .array:
            guard depth + 1 < JSONWriter.maximumDepth else { throw JSONWriter.DepthExceeded() }
            if depth + 1 > StackGuard.unguardedDepth && stackGuard.isExhausted() {
                throw JSONWriter.DepthExceeded(stackSpentAt: depth + 1)
            }
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(current.childCount))
            for child in children(of: node) {
                elements.append(try jsonValue(at: child, sortsKeys: sortsKeys, depth: depth + 1, kept: &kept))
            }
            return .array(elements)
        case .object, .unset:
            guard depth + 1 < JSONWriter.maximumDepth else { throw JSONWriter.DepthExceeded() }
            if depth + 1 > StackGuard.unguardedDepth && stackGuard.isExhausted() {
                throw JSONWriter.DepthExceeded(stackSpentAt: depth + 1)
            }
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(Int(current.childCount))
            var memberNodes = children(of: node)
            if sortsKeys { memberNodes.sort { JSONWriter.keyPrecedes(nodes[Int($0)].key, nodes[Int($1)].key) } }
            for child in memberNodes {
                members.append(
                    (
                        key: nodes[Int(child)].key,
                        value: try jsonValue(at: child, sortsKeys: sortsKeys, depth: depth + 1, kept: &kept)
                    ))
            }
            return .object(JSONObject(uniqueMembers: members))
        }
    }

    /// A kept value with every object's members sorted as the writer sorts them. Its depth was
    /// checked when it was kept, which bounds the recursion.
    private static func sortingKeys(of value: JSONValue) -> JSONValue {
        switch value {
        case .array(let elements):
            return .array(elements.map(sortingKeys(of:)))
        case .object(let object):
            let members = object.map { (key: $0.key, value: sortingKeys(of: $0.value)) }
            return .object(JSONObject(uniqueMembers: members.sorted { JSONWriter.keyPrecedes($0.key, $1.key) }))
        default:
            return value
        }
    }

    /// The value of a node as `JSONSerialization` would return it: `[String: Any]`, `[Any]`,
    /// `String`, `NSNumber` (booleans included) and `NSNull`.
    ///
    /// - Throws: ``JSONObjectFailure``: the value nests too deep, or holds a number that no
    ///   `NSNumber` holds (`1e400`: past `Double` and `Decimal` alike).
    func jsonObject(at node: Int32, depth: Int = 0) throws(JSONObjectFailure) -> Any {
        expandIfJSONLeaf(node)
        let current = nodes[Int(node)]
        switch current.kind {
        case .json:
            // Expanded above.
            return NSNull()
        case .null: return NSNull()
        case .bool: return NSNumber(value: current.bits != 0)
        case .int: return NSNumber(value: Int64(bitPattern: current.bits))
        case .uint:
            // JSONSerialization keeps integers that fit in Int64 signed.
            if current.bits <= UInt64(Int64.max) { return NSNumber(value: Int64(current.bits)) }
            return NSNumber(value: current.bits)
        case .double: return NSNumber(value: Double(bitPattern: current.bits))
        case .float:
            // The `Double` of the text written for the `Float` (`0.1`, not 0.10000000149011612), as
            // `JSONSerialization` reads the bytes `JSONEncoder` writes.
            let float = Float(bitPattern: UInt32(truncatingIfNeeded: current.bits))
            return NSNumber(value: Double(float.description) ?? Double(float))
        case .literal:
            guard let number = Self.number(forLiteral: current.text) else { throw .numberOutOfRange(current.text) }
            return number
        case .string: return current.text
        case .array:
            guard depth + 1 < JSONWriter.maximumDepth else { throw .tooDeep }
            if depth + 1 > TreeEncoder.unguardedDepth && stackGuard.isExhausted() {
                throw .stackSpent(depth: depth + 1)
            }
            var elements: [Any] = []
            elements.reserveCapacity(Int(current.childCount))
            for child in children(of: node) {
                elements.append(try jsonObject(at: child, depth: depth + 1))
            }
            return elements
        case .object, .unset:
            guard depth + 1 < JSONWriter.maximumDepth else { throw .tooDeep }
            if depth + 1 > TreeEncoder.unguardedDepth && stackGuard.isExhausted() {
                throw .stackSpent(depth: depth + 1)
            }
            var members: [String: Any] = [:]
            members.reserveCapacity(Int(current.childCount))
            for child in children(of: node) {
                members[nodes[Int(child)].key] = try jsonObject(at: child, depth: depth + 1)
            }
            return members
        }
    }

    /// The number `JSONSerialization` gives for a number's text: an `Int64` or `UInt64` when the
    /// text is an integer that fits one; a `Double` when its shortest text has the same value as
    /// the literal (so `0.1` and `2.5e-8` stay doubles); otherwise an `NSDecimalNumber`, which
    /// keeps the digits of a `Decimal`, an `Int128` or a `UInt128` that a `Double` would round.
    ///
    /// An integer past 64 bits is always a decimal number, even one a `Double` holds (`2^64`):
    /// `JSONSerialization` gives one for any number of more than 17 digits, and an integer type
    /// reads a `Double` past 2^64 as Foundation does, which fails.
    private static func number(forLiteral text: String) -> NSNumber? {
        if let integer = Int64(text) { return NSNumber(value: integer) }
        if let integer = UInt64(text) { return NSNumber(value: integer) }
        let double = Double(text)
        // Text in no decimal notation is read as a finite double, or is no number at all.
        guard let literal = decimalText(text) else { return double.flatMap { $0.isFinite ? NSNumber(value: $0) : nil } }
        if let double, double.isFinite, !isPlainInteger(text),
            let shortest = decimalText(JSONValue.literal(for: double)), literal.hasSameValue(as: shortest)
        {
            return NSNumber(value: double)
        }
        if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !decimal.isNaN {
            return NSDecimalNumber(decimal: decimal)
        }
        // Past the range of `Decimal` (`1e300`): the double, as `JSONSerialization` falls back to,
        // while it is finite; an infinity is no number `JSONSerialization` writes or gives.
        guard let double, double.isFinite else { return nil }
        return NSNumber(value: double)
    }

    /// Whether the text is digits, after an optional minus sign: no fraction and no exponent.
    private static func isPlainInteger(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
    }

    private static func decimalText(_ text: String) -> DecimalText? {
        var text = text
        return text.withUTF8 { DecimalText($0) }
    }
}

extension DecimalText {
    /// Whether two numbers' texts have the same value (`1.50` and `15e-1`; `0` and `-0`).
    func hasSameValue(as other: DecimalText) -> Bool {
        if digits.isEmpty || other.digits.isEmpty { return digits.isEmpty && other.digits.isEmpty }
        return negative == other.negative && exponent == other.exponent && digits == other.digits
    }
}

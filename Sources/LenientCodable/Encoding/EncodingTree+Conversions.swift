// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension EncodingTree {
    /// The value of a node as a ``JSONValue``: numbers as the text the writer would write,
    /// members in encode order, or sorted as the writer sorts them when `sortsKeys` is set.
    func jsonValue(at node: Int32, sortsKeys: Bool, depth: Int = 0) throws(JSONWriter.DepthExceeded) -> JSONValue {
        let current = nodes[Int(node)]
        switch current.kind {
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
            var elements: [JSONValue] = []
            elements.reserveCapacity(Int(current.childCount))
            for child in children(of: node) {
                elements.append(try jsonValue(at: child, sortsKeys: sortsKeys, depth: depth + 1))
            }
            return .array(elements)
        case .object, .unset:
            guard depth + 1 < JSONWriter.maximumDepth else { throw JSONWriter.DepthExceeded() }
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(Int(current.childCount))
            var memberNodes = children(of: node)
            if sortsKeys { memberNodes.sort { JSONWriter.keyPrecedes(nodes[Int($0)].key, nodes[Int($1)].key) } }
            for child in memberNodes {
                members.append(
                    (
                        key: nodes[Int(child)].key,
                        value: try jsonValue(at: child, sortsKeys: sortsKeys, depth: depth + 1)
                    ))
            }
            return .object(JSONObject(uniqueMembers: members))
        }
    }

    /// The value of a node as `JSONSerialization` would return it: `[String: Any]`, `[Any]`,
    /// `String`, `NSNumber` (booleans included) and `NSNull`.
    func jsonObject(at node: Int32, depth: Int = 0) throws(JSONWriter.DepthExceeded) -> Any {
        let current = nodes[Int(node)]
        switch current.kind {
        case .null: return NSNull()
        case .bool: return NSNumber(value: current.bits != 0)
        case .int: return NSNumber(value: Int64(bitPattern: current.bits))
        case .uint:
            // JSONSerialization keeps integers that fit in Int64 signed.
            if current.bits <= UInt64(Int64.max) { return NSNumber(value: Int64(current.bits)) }
            return NSNumber(value: current.bits)
        case .double: return NSNumber(value: Double(bitPattern: current.bits))
        case .float: return NSNumber(value: Double(Float(bitPattern: UInt32(truncatingIfNeeded: current.bits))))
        case .literal:
            if let integer = Int64(current.text) { return NSNumber(value: integer) }
            if let integer = UInt64(current.text) { return NSNumber(value: integer) }
            return NSNumber(value: Double(current.text) ?? .nan)
        case .string: return current.text
        case .array:
            guard depth + 1 < JSONWriter.maximumDepth else { throw JSONWriter.DepthExceeded() }
            var elements: [Any] = []
            elements.reserveCapacity(Int(current.childCount))
            for child in children(of: node) {
                elements.append(try jsonObject(at: child, depth: depth + 1))
            }
            return elements
        case .object, .unset:
            guard depth + 1 < JSONWriter.maximumDepth else { throw JSONWriter.DepthExceeded() }
            var members: [String: Any] = [:]
            members.reserveCapacity(Int(current.childCount))
            for child in children(of: node) {
                members[nodes[Int(child)].key] = try jsonObject(at: child, depth: depth + 1)
            }
            return members
        }
    }
}

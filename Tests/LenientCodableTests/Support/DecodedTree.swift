// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// A JSON document as a decoder shows it through the `Codable` API alone.
///
/// It decodes itself the same way under any decoder: a single-value container asked for `nil`, then `Bool`, `Int64`,
/// `UInt64`, `Double` and `String`; then a keyed container through `allKeys`, in sorted key order; then an unkeyed
/// container until `isAtEnd`.
/// Decoding a document with Foundation's `JSONDecoder` and with a `LenientJSONDecoder` therefore drives both through the
/// same calls, and the two trees are equal only when every call answered the same. Doubles are kept as bit patterns, so
/// equality is bit-exact.
indirect enum DecodedTree: Decodable, Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case double(bitPattern: UInt64)
    case string(String)
    case array([DecodedTree])
    /// The members, and how many keys `allKeys` listed (duplicates included).
    case object([String: DecodedTree], allKeysCount: Int)

    /// Thrown when no container and no scalar type fits; it keeps the error of every try so that the trees of two
    /// decoders can be compared even where they fail.
    struct Failure: Error, Sendable {
        let codingPath: [CodingKeySummary]
        let attempts: [DecodingErrorSummary]
    }

    init(from decoder: any Decoder) throws {
        var attempts: [DecodingErrorSummary] = []
        func attempt<Value>(_ body: () throws -> Value) -> Value? {
            do {
                return try body()
            } catch {
                attempts.append(DecodingErrorSummary(error))
                return nil
            }
        }
        if let container = attempt({ try decoder.singleValueContainer() }) {
            if container.decodeNil() {
                self = .null
                return
            }
            if let value = attempt({ try container.decode(Bool.self) }) {
                self = .bool(value)
                return
            }
            if let value = attempt({ try container.decode(Int64.self) }) {
                self = .integer(value)
                return
            }
            if let value = attempt({ try container.decode(UInt64.self) }) {
                self = .unsignedInteger(value)
                return
            }
            if let value = attempt({ try container.decode(Double.self) }) {
                self = .double(bitPattern: value.bitPattern)
                return
            }
            if let value = attempt({ try container.decode(String.self) }) {
                self = .string(value)
                return
            }
        }
        if let container = attempt({ try decoder.container(keyedBy: TestCodingKey.self) }) {
            var members: [String: DecodedTree] = [:]
            let keys = container.allKeys
            // In sorted order: Foundation lists `allKeys` in hash order, which changes from run to run, so with two bad
            // members the first to fail (and so the error) would differ.
            for key in keys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members[key.stringValue] = try container.decode(DecodedTree.self, forKey: key)
            }
            self = .object(members, allKeysCount: keys.count)
            return
        }
        if var container = attempt({ try decoder.unkeyedContainer() }) {
            var elements: [DecodedTree] = []
            while !container.isAtEnd {
                elements.append(try container.decode(DecodedTree.self))
            }
            self = .array(elements)
            return
        }
        throw Failure(codingPath: decoder.codingPath.map(CodingKeySummary.init), attempts: attempts)
    }

    /// Where `self` and `other` first differ, as a path and the two values there; `nil` when they are equal. Keeps the
    /// message of a failed comparison short for documents of megabytes.
    func firstDifference(from other: DecodedTree, at path: String = "$") -> String? {
        switch (self, other) {
        case (.array(let left), .array(let right)):
            for (index, (leftElement, rightElement)) in zip(left, right).enumerated() {
                if let difference = leftElement.firstDifference(from: rightElement, at: "\(path)[\(index)]") {
                    return difference
                }
            }
            return left.count == right.count ? nil : "\(path): \(left.count) elements vs \(right.count)"
        case (.object(let left, let leftCount), .object(let right, let rightCount)):
            for key in Set(left.keys).union(right.keys).sorted() {
                guard let leftMember = left[key], let rightMember = right[key] else {
                    return "\(path): key \(key.debugDescription) present in only one"
                }
                if let difference = leftMember.firstDifference(from: rightMember, at: "\(path).\(key)") {
                    return difference
                }
            }
            return leftCount == rightCount ? nil : "\(path): allKeys listed \(leftCount) keys vs \(rightCount)"
        default:
            return self == other ? nil : "\(path): \(self.summary) vs \(other.summary)"
        }
    }

    private var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): "Bool \(value)"
        case .integer(let value): "Int64 \(value)"
        case .unsignedInteger(let value): "UInt64 \(value)"
        case .double(let bits): "Double \(Double(bitPattern: bits)) (bits \(String(bits, radix: 16)))"
        case .string(let value): "String \(value.debugDescription)"
        case .array(let elements): "array of \(elements.count)"
        case .object(let members, _): "object of \(members.count)"
        }
    }
}

/// A coding key for any string or integer.
struct TestCodingKey: CodingKey, Hashable, Sendable {
    let stringValue: String
    let intValue: Int?

    init(_ stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(stringValue: String) {
        self.init(stringValue)
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// Whether two chains of linked objects are equal level by level: a loop, where the synthesized
/// `==` of a chain hundreds of levels deep would recurse once per level.
func chainsAreEqual<Link: AnyObject>(
    _ lhs: Link, _ rhs: Link, next: (Link) -> Link?, sameLevel: (Link, Link) -> Bool
) -> Bool {
    var left: Link? = lhs
    var right: Link? = rhs
    while let l = left, let r = right {
        guard sameLevel(l, r) else { return false }
        left = next(l)
        right = next(r)
    }
    return left == nil && right == nil
}

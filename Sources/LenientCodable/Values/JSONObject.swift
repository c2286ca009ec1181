// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The members of a JSON object, in order, with lookup by key.
///
/// `JSONObject` is the payload of ``JSONValue/object(_:)``. It keeps the members in the order
/// the document wrote them (or the order they were added), holds each key once, and compares
/// equal to another object with the same members in any order.
///
/// ```swift
/// var object: JSONObject = ["id": 1, "name": "Ada"]
/// object["email"] = "ada@example.com"   // appended at the end
/// object["id"] = nil                     // removed
/// object.keys                            // ["name", "email"]
/// ```
public struct JSONObject: Sendable {
    private var storage: [(key: String, value: JSONValue)]
    /// The position of each key in ``storage``, once the subscript's setter has been used on an
    /// object of more than ``indexedCount`` members, so that an object built key by key costs
    /// linear time, not the square of its size; `nil` otherwise. Only the setter changes
    /// ``storage`` after it is made, and it keeps the two in step.
    private var positions: [String: Int]?
    /// Objects up to this size are searched member by member, faster than hashing.
    private static let indexedCount = 16

    /// Creates an empty object.
    public init() { storage = [] }

    /// Creates an object from members in order; a repeated key keeps its first value, as the
    /// parser does with duplicate keys.
    ///
    /// - Parameter members: The members.
    public init(_ members: some Sequence<(key: String, value: JSONValue)>) {
        storage = []
        var seen = Set<String>()
        for member in members where seen.insert(member.key).inserted {
            storage.append(member)
        }
    }

    /// Creates an object from members already known to have unique keys.
    init(uniqueMembers members: [(key: String, value: JSONValue)]) {
        storage = members
    }

    /// The keys, in order.
    public var keys: [String] { storage.map(\.key) }

    /// The values, in the order of their keys.
    public var values: [JSONValue] { storage.map(\.value) }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(storage, uniquingKeysWith: { first, _ in first })
    }

    /// The value for a key, or `nil` when the object has no such member.
    ///
    /// Setting a value replaces the member in place or appends a new one; setting `nil` removes it.
    ///
    /// - Complexity: Reading, O(*n*) in the number of members, or O(1) once the object has been
    ///   set through this subscript past 16 members; setting, amortized O(1) past 16 members;
    ///   removing, O(*n*).
    public subscript(key: String) -> JSONValue? {
        get {
            if let positions { return positions[key].map { storage[$0].value } }
            return storage.first(where: { $0.key == key })?.value
        }
        set {
            if positions == nil && storage.count > Self.indexedCount { indexPositions() }
            let index = positions.map { $0[key] } ?? storage.firstIndex(where: { $0.key == key })
            switch (index, newValue) {
            case (let index?, let value?):
                storage[index].value = value
            case (let index?, nil):
                storage.remove(at: index)
                // The members after it moved down by one.
                if positions != nil { indexPositions() }
            case (nil, let value?):
                positions?[key] = storage.count
                storage.append((key: key, value: value))
            case (nil, nil):
                break
            }
        }
    }

    /// Makes ``positions`` from ``storage``, whose keys are unique.
    private mutating func indexPositions() {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(storage.count)
        // Keys are unique as `String` compares them; were two spellings kept, the first is found,
        // as by the search.
        for (position, member) in storage.enumerated() where positions[member.key] == nil {
            positions[member.key] = position
        }
        self.positions = positions
    }
}

extension JSONObject: RandomAccessCollection {
    /// The position of the first member.
    public var startIndex: Int { storage.startIndex }
    /// The position after the last member.
    public var endIndex: Int { storage.endIndex }
    /// The member at a position.
    ///
    /// - Parameter position: A valid position.
    public subscript(position: Int) -> (key: String, value: JSONValue) { storage[position] }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object from a literal, in the order written.
    ///
    /// - Parameter elements: The members. A repeated key keeps its first value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONObject: Hashable {
    /// Whether two objects have the same members, in any order.
    ///
    /// - Parameters:
    ///   - lhs: An object.
    ///   - rhs: Another object.
    /// - Returns: `true` when they are equal.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        JSONValue.object(lhs) == JSONValue.object(rhs)
    }

    /// Hashes the members regardless of their order.
    ///
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        JSONValue.object(self).hash(into: &hasher)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON-like text, for debugging.
    public var description: String { JSONValue.object(self).description }
}

extension JSONObject {
    /// The address of the member storage, which identifies it while it lives; `nil` when the
    /// object is empty. For ``JSONValue/releaseIteratively(_:)``, which compares it and never reads
    /// through it: the address is only a key, valid as an identity while the caller holds the object.
    var storageAddress: UnsafeRawPointer? {
        storage.withUnsafeBufferPointer { $0.isEmpty ? nil : UnsafeRawPointer($0.baseAddress) }
    }

    /// Whether two objects hold the very same member storage, as a value and its unchanged copy
    /// do: O(1), and `false` says nothing about equality.
    func sharesStorage(with other: JSONObject) -> Bool {
        storage.withUnsafeBufferPointer { mine in
            other.storage.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress && $0.count == mine.count }
        }
    }
}

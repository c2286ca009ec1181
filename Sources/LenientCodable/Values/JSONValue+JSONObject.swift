// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

extension JSONValue {
    /// The value of a `JSONSerialization` object graph, or the decoder's error for one that is not.
    ///
    /// Like JSON text, the graph may nest 512 levels of arrays and dictionaries; past that, and for
    /// a graph that contains itself, the error is the one the parser gives for text nested too
    /// deep: `dataCorrupted` at the top-level coding path.
    static func fromJSONObject(_ object: Any) throws -> JSONValue {
        do {
            return try JSONObjectConversion.value(of: object)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [], debugDescription: "The given object is not a valid JSON object graph: \(error).",
                    underlyingError: error))
        }
    }
}

/// Converts what `JSONSerialization` produces (dictionaries, arrays, strings, `NSNumber`s,
/// `NSNull`), or plain Swift values of those shapes, into a ``JSONValue``.
///
/// The graph comes from user code, so it may be as hostile as any input: nested far deeper than
/// a thread's stack allows, or containing itself (`let a = NSMutableArray(); a.add(a)`). The
/// conversion walks it with a stack of its own, holds it to the decode's one nesting budget of
/// ``JSONParser/maximumDepth`` levels, and refuses a container that is one of its own ancestors
/// as soon as it meets it, so that a graph that contains itself several times over is not
/// unfolded until the budget runs out.
///
/// It visits each container once and never converts a container as a whole to another type:
/// casting a Swift array to a class (`is NSNull`, `as? NSNumber`) bridges it to an `NSArray`
/// with everything inside it, and reading an element of an `NSArray` on Linux converts that
/// element to Swift with everything inside it. Done at every level, either costs the depth
/// times the size; on a graph that contains itself, it never ends.
struct JSONObjectConversion {
    /// Why a graph is not JSON, and where.
    struct Failure: Error, CustomStringConvertible {
        enum Problem {
            /// Arrays and dictionaries nest deeper than the budget.
            case tooDeep
            /// An array or dictionary inside itself: it nests without end.
            case containsItself
            /// A value that is not JSON, named by its type.
            case unsupportedType(String)
            /// A dictionary key that is not a string, named by its type.
            case nonStringKey(String)
        }

        let problem: Problem
        /// Where the offending value is, from the top of the graph.
        let codingPath: [any CodingKey]

        var description: String {
            let place = codingPath.isEmpty ? "at the top" : "at \(JSONValueWriter.render(codingPath))"
            switch problem {
            case .tooDeep:
                return "arrays and dictionaries are nested more than \(JSONParser.maximumDepth) levels deep"
            case .containsItself:
                return
                    "the array or dictionary \(place) contains itself, so it nests more than \(JSONParser.maximumDepth) levels deep"
            case .unsupportedType(let type):
                return "the value of type \(type) \(place) is not a JSON value"
            case .nonStringKey(let type):
                return "the dictionary \(place) has a key of type \(type), which is not a string"
            }
        }
    }

    /// One open container: the values it holds and those already converted.
    private struct Frame {
        /// The keys of a dictionary's members, sorted, in the order of ``children``; `nil` for an array.
        let keys: [String]?
        let children: [Any]
        var converted: [JSONValue]
        /// The `NSArray` or `NSDictionary` itself, to tell one that contains itself.
        let identity: ObjectIdentifier?
    }

    /// A value read without converting what it holds.
    private enum Shape {
        case scalar(JSONValue)
        case container(keys: [String]?, children: [Any], identity: ObjectIdentifier?)
    }

    /// The open containers, outermost first.
    private var stack: [Frame] = []
    /// The identities of the open `NSArray`s and `NSDictionary`s.
    private var openIdentities = Set<ObjectIdentifier>()

    /// The value of `root`.
    ///
    /// - Complexity: O(*n* log *n*) in the number of values in the graph, for sorting each
    ///   dictionary's keys; each container is read once.
    static func value(of root: Any) throws(Failure) -> JSONValue {
        var conversion = JSONObjectConversion()
        return try conversion.convert(root)
    }

    private mutating func convert(_ root: Any) throws(Failure) -> JSONValue {
        var next = root
        while true {
            var value: JSONValue
            switch try shape(of: next) {
            case .scalar(let scalar):
                value = scalar
            case .container(let keys, let children, let identity):
                // The container would be level `stack.count + 1`; the parser allows 512 levels.
                guard stack.count < JSONParser.maximumDepth else { throw failure(.tooDeep) }
                if let identity, !openIdentities.insert(identity).inserted { throw failure(.containsItself) }
                var converted: [JSONValue] = []
                converted.reserveCapacity(children.count)
                stack.append(Frame(keys: keys, children: children, converted: converted, identity: identity))
                if let first = children.first {
                    next = first
                    continue
                }
                value = closeInnermost()
            }
            // Hand the value to the containers around it, closing each one that it completes.
            while let last = stack.indices.last {
                stack[last].converted.append(value)
                let position = stack[last].converted.count
                if position < stack[last].children.count {
                    next = stack[last].children[position]
                    break
                }
                value = closeInnermost()
            }
            if stack.isEmpty { return value }
        }
    }

    /// Pops the innermost container, whose children are all converted, and returns its value.
    private mutating func closeInnermost() -> JSONValue {
        let frame = stack.removeLast()
        if let identity = frame.identity { openIdentities.remove(identity) }
        guard let keys = frame.keys else { return .array(frame.converted) }
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(keys.count)
        for (key, value) in zip(keys, frame.converted) { members.append((key: key, value: value)) }
        return .object(JSONObject(uniqueMembers: members))
    }

    /// The failure for the value being converted: the path is that of the child each open
    /// container is at.
    @inline(never)
    private func failure(_ problem: Failure.Problem) -> Failure {
        let path: [any CodingKey] = stack.map { frame in
            let position = frame.converted.count
            if let keys = frame.keys { return AnyCodingKey(keys[position]) }
            return AnyCodingKey(index: position)
        }
        return Failure(problem: problem, codingPath: path)
    }

    // MARK: Reading values

    private func shape(of value: Any) throws(Failure) -> Shape {
        if type(of: value) is AnyClass { return try shape(ofObject: value) }
        var value = value
        // An optional is its value, or `null`. Unwrapped first, so that an optional `NSArray` is
        // read as a class below, not cast as a Swift value, which would bridge it.
        while type(of: value) is any OptionalValue.Type {
            guard let wrapped = (value as? any OptionalValue)?.unwrappedAny else { return .scalar(.null) }
            if type(of: wrapped) is AnyClass { return try shape(ofObject: wrapped) }
            value = wrapped
        }
        // Free for the `[Any]` and `[String: Any]` that `JSONSerialization` returns; other Swift
        // collections convert their own elements, not what those hold.
        if let array = value as? [Any] { return .container(keys: nil, children: array, identity: nil) }
        if let dictionary = value as? [String: Any] {
            let members = dictionary.sorted { $0.key < $1.key }
            return .container(keys: members.map { $0.key }, children: members.map { $0.value }, identity: nil)
        }
        if let string = value as? String { return .scalar(.string(string)) }
        if let json = value as? JSONValue { return .scalar(json) }
        // A cast to a class would bridge any other collection (a `Set`, an `[Int: Any]`) with
        // everything inside it, only to fail.
        if !(type(of: value) is any Sequence.Type), let number = value as? NSNumber {
            return .scalar(Self.value(of: number))
        }
        throw failure(.unsupportedType(String(describing: type(of: value))))
    }

    /// The shape of an instance of a class. Casts from it to a class never bridge; the commonest
    /// classes come first.
    private func shape(ofObject value: Any) throws(Failure) -> Shape {
        if let number = value as? NSNumber { return .scalar(Self.value(of: number)) }
        if let array = value as? NSArray {
            return .container(keys: nil, children: Self.elements(of: array), identity: ObjectIdentifier(array))
        }
        if let dictionary = value as? NSDictionary {
            let members = try sortedMembers(Self.members(of: dictionary))
            return .container(
                keys: members.map { $0.key }, children: members.map { $0.value },
                identity: ObjectIdentifier(dictionary))
        }
        if let string = value as? String { return .scalar(.string(string)) }
        if value is NSNull { return .scalar(.null) }
        // A Swift value that an `NSArray` or `NSDictionary` holds in a box of its own.
        if let json = value as? JSONValue { return .scalar(json) }
        throw failure(.unsupportedType(String(describing: type(of: value))))
    }

    /// The elements of an array as it stores them.
    ///
    /// Read through the array's mirror rather than its accessors: on Linux,
    /// swift-corelibs-foundation hands out each element of an `NSArray` converted to Swift, and
    /// a nested `NSArray` becomes an `[Any]` with everything inside it converted too — at every
    /// level, which costs the depth times the size, and without end for an array that contains
    /// itself. `NSArray`'s `customMirror` reflects the stored elements as they are, on every
    /// platform. A subclass that stores its elements elsewhere has a mirror that does not hold
    /// them; its accessors are used instead.
    private static func elements(of array: NSArray) -> [Any] {
        let count = array.count
        var elements: [Any] = []
        elements.reserveCapacity(count)
        for child in Mirror(reflecting: array).children { elements.append(child.value) }
        guard elements.count == count else { return array.map { $0 } }
        return elements
    }

    /// The members of a dictionary as it stores them, read as ``elements(of:)`` reads an array.
    private static func members(of dictionary: NSDictionary) -> [(key: Any, value: Any)] {
        let count = dictionary.count
        var members: [(key: Any, value: Any)] = []
        members.reserveCapacity(count)
        for child in Mirror(reflecting: dictionary).children {
            guard let member = child.value as? (key: Any, value: Any) else { break }
            members.append(member)
        }
        guard members.count == count else { return dictionary.map { (key: $0.key, value: $0.value) } }
        return members
    }

    /// Members with string keys, sorted by key; of keys that Swift reads as equal (`"é"` written
    /// precomposed and decomposed), the first.
    private func sortedMembers(_ members: [(key: Any, value: Any)]) throws(Failure) -> [(key: String, value: Any)] {
        var named: [(key: String, value: Any)] = []
        named.reserveCapacity(members.count)
        for member in members {
            guard let key = member.key as? String else {
                throw failure(.nonStringKey(String(describing: type(of: member.key))))
            }
            named.append((key: key, value: member.value))
        }
        named.sort { $0.key < $1.key }
        var unique: [(key: String, value: Any)] = []
        unique.reserveCapacity(named.count)
        for member in named where unique.last?.key != member.key { unique.append(member) }
        return unique
    }

    /// The class of the `NSNumber`s that hold booleans (`__NSCFBoolean`, of `NSNumber(value: true)`,
    /// of the booleans `JSONSerialization` reads, and of a Swift `Bool` bridged), on every platform.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// A number, or a boolean: an `NSNumber` of the boolean class (whose storage type is a C
    /// `char`). Its storage type alone does not say: an `Int8` such as -128 is a `char` too, and
    /// `JSONSerialization` writes it as a number.
    private static func value(of number: NSNumber) -> JSONValue {
        // Every storage type is one character: its first says which.
        let storage = UInt8(bitPattern: number.objCType.pointee)
        if storage == UInt8(ascii: "c"), ObjectIdentifier(type(of: number)) == booleanClass {
            return .bool(number.boolValue)
        }
        if let decimal = number as? NSDecimalNumber { return .number(decimal.stringValue) }
        switch storage {
        case UInt8(ascii: "f"):
            // `JSONSerialization` writes a `Float` by its own shortest text (`0.1`), not by the
            // double it widens to (`0.10000000149011612`).
            let float = number.floatValue
            guard float.isFinite, let shortest = Double(float.description) else {
                return .number(JSONValue.literal(for: number.doubleValue))
            }
            return .number(JSONValue.literal(for: shortest))
        case UInt8(ascii: "d"):
            return .number(JSONValue.literal(for: number.doubleValue))
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            return .number(String(number.uint64Value))
        default:
            return .number(String(number.int64Value))
        }
    }
}

/// An optional of any wrapped type, to unwrap one held as `Any`.
private protocol OptionalValue {
    var unwrappedAny: Any? { get }
}

extension Optional: OptionalValue {
    fileprivate var unwrappedAny: Any? { map { $0 as Any } }
}

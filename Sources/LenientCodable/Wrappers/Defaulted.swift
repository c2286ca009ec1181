// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// A property that takes its type's default when its key is missing or its value is `null`.
///
/// Under any decoder — Foundation's `JSONDecoder` and `PropertyListDecoder` included — a
/// `@Defaulted` property whose key is missing or whose value is `null` takes
/// ``DefaultValue/defaultValue``: `""`, `0`, `false`, `[]`, `[:]`, the empty set, or the
/// default of a type of yours that conforms to ``DefaultValue``. A value that is present is
/// decoded as usual, so a value of the wrong type still throws: combine the wrapper with
/// ``Coerced`` to forgive those too.
///
/// ```swift
/// enum Plan: String, Codable, DefaultValue {
///     case free, pro
///     static let defaultValue = Plan.free
/// }
///
/// struct User: Codable {
///     @Defaulted var tags: [String]          // [] when missing or null
///     @Defaulted var plan: Plan              // .free when missing or null
///     @Defaulted @Coerced var age: Int       // 0 when missing or null, 42 from "42"
/// }
///
/// let user = try JSONDecoder().decode(User.self, from: Data(#"{"tags":null}"#.utf8))
/// // user.tags == [], user.plan == .free, user.age == 0
/// ```
///
/// The property encodes as its plain value, default or not.
@propertyWrapper
public struct Defaulted<Value: DefaultValue> {
    /// The decoded value, or the type's default.
    public var wrappedValue: Value

    /// Wraps a value, as a property declaration with an initial value does.
    ///
    /// ```swift
    /// let tags = Defaulted(wrappedValue: ["swift"])
    /// ```
    ///
    /// - Parameter wrappedValue: The value.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Defaulted: Decodable where Value: Decodable {
    /// Decodes the value, or takes the type's default for `null`.
    ///
    /// A missing key is handled by the `KeyedDecodingContainer.decode(_:forKey:)` overload for
    /// `Defaulted`, which the compiler's code calls for the property. Under
    /// ``LenientJSONDecoder``, a default taken here (an element, a dictionary's value, a top-level
    /// value) is reported as ``DecodingIssue/Kind/defaulted``, as a property's is.
    ///
    /// ```swift
    /// let tags = try JSONDecoder().decode(Defaulted<[String]>.self, from: Data("null".utf8))  // []
    /// ```
    ///
    /// - Parameter decoder: The decoder pointing at the value.
    /// - Throws: The decoder's error for a value that is present and not a `Value`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard container.decodeNil() else {
            wrappedValue = try container.decode(Value.self)
            return
        }
        // An element, a dictionary's value or a top-level value: reported as the property's
        // default is (a property's `null` never comes here; its container overload reads it).
        if let treeDecoder = decoder as? TreeDecoder {
            treeDecoder.record(
                .defaulted, path: treeDecoder.codingPathNode, found: treeDecoder.nodeIndex,
                "Found null; used the default \(Self.defaultDescription).")
        }
        wrappedValue = Value.defaultValue
    }
}

extension Defaulted: Encodable where Value: Encodable {
    /// Writes the plain value, with no nesting for the wrapper.
    ///
    /// ```swift
    /// struct User: Codable { @Defaulted var tags: [String] }
    /// try JSONEncoder().encode(User(tags: []))  // {"tags":[]}
    /// ```
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error for the value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// A wrapper that its container overload reads with `decodeIfPresent`, giving a default when the
/// key is missing or null: the lenient decoder reports that default.
protocol DefaultingWrapper {
    /// How the report names the default.
    static var defaultDescription: String { get }
}

extension Defaulted: DefaultingWrapper {
    static var defaultDescription: String { TreeDecoder.describeDefault(Value.defaultValue) }
}

/// One of the package's wrappers, which a report names by the value it wraps: a declared default
/// `@Defaulted var tags = ["a"]` is `["a"]` in a message.
protocol DescribedByWrappedValue {
    var describedValue: Any { get }
}

extension Defaulted: DescribedByWrappedValue {
    var describedValue: Any { wrappedValue }
}

extension LossyArray: DescribedByWrappedValue {
    var describedValue: Any { wrappedValue }
}

extension LossyDictionary: DescribedByWrappedValue {
    var describedValue: Any { wrappedValue }
}

extension Coerced: DescribedByWrappedValue {
    var describedValue: Any { wrappedValue }
}

extension Defaulted: Equatable where Value: Equatable {}
extension Defaulted: Hashable where Value: Hashable {}
extension Defaulted: Sendable where Value: Sendable {}

extension Defaulted: DefaultValue {
    /// The wrapped type's default, so that ``LenientJSONDecoder``'s defaults work through the
    /// wrapper.
    ///
    /// ```swift
    /// let empty = Defaulted<[String]>.defaultValue.wrappedValue  // []
    /// ```
    public static var defaultValue: Defaulted<Value> { Defaulted(wrappedValue: Value.defaultValue) }
}

extension KeyedDecodingContainer {
    /// Decodes a ``Defaulted`` property, taking the type's default when the key is missing.
    ///
    /// Code that the compiler writes for `Decodable` asks for every wrapped property with
    /// `decode(_:forKey:)`, which throws `keyNotFound` for a missing key. This overload is more
    /// specific, so the compiler picks it for `@Defaulted` properties:
    ///
    /// ```swift
    /// struct User: Decodable {
    ///     @Defaulted var tags: [String]
    /// }
    /// try JSONDecoder().decode(User.self, from: Data("{}".utf8)).tags  // []
    /// ```
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, holding the decoded value or the default.
    /// - Throws: The decoder's error for a value that is present, not `null`, and not a `Value`.
    public func decode<T: Decodable & DefaultValue>(_ type: Defaulted<T>.Type, forKey key: Key) throws -> Defaulted<T> {
        try decodeWrapperIfPresent(type, forKey: key) ?? Defaulted(wrappedValue: T.defaultValue)
    }

    /// Decodes a property declared as an optional ``Defaulted`` (`var count: Defaulted<Int>?`):
    /// `nil` for a missing key or `null`, as any optional property; the wrapper's default applies
    /// to a non-optional `@Defaulted` property only.
    ///
    /// - Parameters:
    ///   - type: The wrapper type.
    ///   - key: The property's key.
    /// - Returns: The wrapper, or `nil` when the key is missing or its value is `null`.
    /// - Throws: The decoder's error for a value that is present, not `null`, and not a `Value`.
    public func decodeIfPresent<T: Decodable & DefaultValue>(_ type: Defaulted<T>.Type, forKey key: Key) throws
        -> Defaulted<T>?
    {
        try decodeWrapperIfPresent(OptionalWrapperProperty<Defaulted<T>>.self, forKey: key)?.wrapper
    }
}

extension KeyedDecodingContainer {
    /// The container's own `decodeIfPresent(_:forKey:)`, for a wrapper type whose more specific
    /// overloads in this package would otherwise be chosen.
    func decodeWrapperIfPresent<Wrapper: Decodable>(_ type: Wrapper.Type, forKey key: Key) throws -> Wrapper? {
        try decodeIfPresent(type, forKey: key)
    }
}

/// What a report names ``OptionalWrapperProperty`` by: the wrapper.
protocol OptionalWrapperPropertyRequest {
    static var wrapperType: Any.Type { get }
}

/// A property declared as an optional of one of the package's defaulting wrappers, asked for
/// under a type of its own, so that ``LenientJSONDecoder`` tells it from the wrapper's own request
/// (which gives the wrapper's default for `nil`, and reports it): it is an ordinary optional.
struct OptionalWrapperProperty<Wrapper: Decodable>: Decodable, OptionalWrapperPropertyRequest {
    let wrapper: Wrapper
    static var wrapperType: Any.Type { Wrapper.self }

    init(from decoder: any Decoder) throws {
        wrapper = try decoder.singleValueContainer().decode(Wrapper.self)
    }
}

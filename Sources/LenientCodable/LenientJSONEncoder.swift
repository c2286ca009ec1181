// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Encodes `Encodable` values as JSON, byte for byte as Foundation's `JSONEncoder` does when
/// keys are sorted, and in a deterministic order when they are not.
///
/// `LenientJSONEncoder` has every property of `JSONEncoder`, with the same names and
/// Foundation's own strategy types, so replacing one with the other is a one-word change:
///
/// ```swift
/// struct Book: Codable {
///     var name: String
///     var publishedAt: Date
/// }
///
/// let encoder = LenientJSONEncoder()
/// encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
/// encoder.dateEncodingStrategy = .iso8601
/// let data = try encoder.encode(Book(name: "Dune", publishedAt: .now))
/// ```
///
/// With `.sortedKeys` the output is exactly `JSONEncoder`'s for the same value and settings:
/// layout, escaping, number formatting, every date, data, float and key strategy. One default
/// differs on purpose: with ``dateEncodingStrategy`` left unset, dates are written as ISO 8601
/// in UTC, which ``LenientJSONDecoder`` reads back exactly, instead of `JSONEncoder`'s seconds
/// since 2001, which it would read as seconds since 1970. Without `.sortedKeys`,
/// object members come in the order the value encoded them — the order of the properties for
/// synthesized conformances — instead of Foundation's hash order, which changes from call to
/// call.
///
/// Besides Foundation's special cases (`Date`, `Data`, `URL`, `Decimal`, `[String: T]`, whose
/// keys the key strategy leaves alone), ``JSONValue`` encodes as itself: a number keeps its
/// literal text, an object keeps its member order, and its keys are not converted either.
///
/// Models that conform to ``KeyMapping`` are written the way ``LenientJSONDecoder`` reads them:
/// each property under the first source of its entry, nested keys (`"ext.desc"`) as nested
/// objects merged with their siblings, `.ignored` properties left out, and the type's
/// ``KeyMapping/keyStrategy`` in place of `keyEncodingStrategy` for its properties without an
/// entry. Entries are written as they are, with no strategy. A property written at a key that
/// other properties' nested keys go through is a conflict, and the encode throws. Types that
/// conform to ``EncodingHooks`` may then change their JSON in ``EncodingHooks/didEncode(_:)``.
/// Types with neither are encoded exactly as `JSONEncoder` encodes them.
///
/// ```swift
/// struct Book: Codable, KeyMapping {
///     var name: String
///     var desc: String
///     var bookID: Int
///     static let keyMapping: [String: KeySource] = ["name": "n", "desc": "ext.desc", "bookID": ["id", "ID"]]
/// }
/// // {"ext":{"desc":"…"},"id":1,"n":"…"} under .sortedKeys
/// ```
///
/// Like `JSONEncoder`, the class is `Sendable`: one instance may encode on many threads at
/// once. Each call works with the settings as they were when it started.
///
/// Keep one encoder for many values rather than making one per value: an encoder keeps the
/// memory its last call used (up to 4 096 JSON values and 256 KiB of output) for its next call
/// with the same settings, so that encoding a small value allocates almost nothing.
public final class LenientJSONEncoder: @unchecked Sendable {
    /// Guards ``settings``, ``configuration``, ``spareRoot`` and ``lastSize``.
    private let lock = NSLock()
    private var settings = EncoderSettings()
    /// The settings as calls share them; `nil` after a setting changed, until the next call builds
    /// it again.
    private var configuration: EncoderConfiguration?
    /// The root encoder of a finished call, with its tree emptied, left for the next call with the
    /// same configuration: node storage, output buffer and per-type tables, so that a small
    /// encode allocates hardly any of them. Calls on other threads at the same time build their
    /// own.
    ///
    /// No encoder that user code was given is ever kept: user code may hold one by a `weak` or
    /// `unowned` reference, which no check of uniqueness sees, and write through it into the next
    /// call's tree. So the kept root is one that no user code saw (a value other than an array or
    /// a dictionary is given a root encoder of its own, ``TreeEncoder/encodeTree(with:for:_:)``),
    /// and the sub-encoders the call made end with it (``TreeEncoder/dropSpareEncoders()``).
    private var spareRoot: TreeEncoder?
    /// What the last call used, for the size of the next call's tree when it cannot reuse one.
    private var lastSize = EncodingTree.Size()

    /// Creates an encoder with Foundation's default settings — compact output, default keys, data
    /// as Base64, non-finite numbers rejected — except for dates, which are written as ISO 8601
    /// in UTC that ``LenientJSONDecoder`` reads back exactly (see ``dateEncodingStrategy``).
    public init() {}

    /// Reads the settings under the lock.
    private func withSettings<Value>(_ body: (EncoderSettings) -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body(settings)
    }

    /// Changes the settings under the lock; the next call builds a new configuration from them.
    private func updateSettings(_ body: (inout EncoderSettings) -> Void) {
        lock.lock()
        let replaced = (settings, configuration)
        body(&settings)
        configuration = nil
        lock.unlock()
        // What the change replaced goes after the lock: a value's `deinit` (in `userInfo`, a
        // converter's closure) may use this encoder.
        withExtendedLifetime(replaced) {}
    }

    /// The root encoder for a call that starts now, with the settings as they are now: the spare
    /// one when its tree was built for the current configuration, a new one otherwise.
    private func takeRoot() -> TreeEncoder {
        lock.lock()
        let current: EncoderConfiguration
        if let configuration {
            current = configuration
        } else {
            current = EncoderConfiguration(settings: settings)
            configuration = current
        }
        let spare = spareRoot
        spareRoot = nil
        let size = lastSize
        lock.unlock()
        if let spare, spare.tree.configuration === current { return spare }
        return TreeEncoder(
            tree: EncodingTree(configuration: current, size: size), node: EncodingTree.root, parent: nil, key: nil)
    }

    /// Keeps the root encoder of a call that has ended as the spare, unless code outside the
    /// call still holds it or another encoder of its tree, or its configuration is out of date.
    private func giveBack(_ root: inout TreeEncoder) {
        // An encoder or container that user code kept past the call still writes into the tree,
        // so the tree is theirs and is not reused. Containers hold their encoder, and encoders
        // their parents up to the root, so the root is not unique then; the tree also notes
        // every encoder but the root that may have been kept, so as not to depend on that alone.
        let size = root.tree.size
        guard isKnownUniquelyReferenced(&root), !root.tree.hasOutsideEncoders, root.tree.reset() else {
            lock.withLock { lastSize = size }
            return
        }
        lock.lock()
        defer { lock.unlock() }
        lastSize = size
        root.dropSpareEncoders()
        if spareRoot == nil && root.tree.configuration === configuration { spareRoot = root }
    }

    /// The layout of the output: `.prettyPrinted`, `.sortedKeys`, `.withoutEscapingSlashes`;
    /// the same as `JSONEncoder.outputFormatting`. Defaults to `[]`.
    public var outputFormatting: JSONEncoder.OutputFormatting {
        get { withSettings { $0.outputFormatting } }
        set { updateSettings { $0.outputFormatting = newValue } }
    }

    /// How dates are encoded; the same as `JSONEncoder.dateEncodingStrategy`, with a different
    /// default.
    ///
    /// Left unset, the encoder writes dates as ISO 8601 in UTC — `"2024-05-01T10:00:00Z"`, with
    /// a fraction of a second only when the date has one, and as many digits as it takes — which
    /// ``LenientJSONDecoder`` with its defaults reads back as the identical `Date`, bit for bit,
    /// for every date from year 0 to 9999. (`JSONEncoder`'s default, `.deferredToDate`, writes
    /// seconds since 2001, which the lenient decoder reads as seconds since 1970: 31 years off.)
    /// Unset, the property reads as a `.custom` strategy that writes that text, so that copying it
    /// to another encoder, `JSONEncoder` included, keeps the output.
    ///
    /// Any strategy you set, `.deferredToDate` included, writes exactly what `JSONEncoder` writes
    /// for it:
    ///
    /// ```swift
    /// let encoder = LenientJSONEncoder()
    /// try encoder.encode([Date(timeIntervalSince1970: 1_714_557_600)])   // ["2024-05-01T10:00:00Z"]
    /// encoder.dateEncodingStrategy = .deferredToDate
    /// try encoder.encode([Date(timeIntervalSince1970: 1_714_557_600)])   // [736250400]
    /// ```
    ///
    /// Unset, a date before year 1 or after year 9999, which four-digit years cannot write, or
    /// one that is not finite, fails to encode with `EncodingError.invalidValue`.
    public var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy {
        get {
            withSettings { settings in
                settings.dateEncodingStrategyIsSet ? settings.dateEncodingStrategy : Self.iso8601RoundTripStrategy
            }
        }
        set {
            updateSettings {
                $0.dateEncodingStrategy = newValue
                $0.dateEncodingStrategyIsSet = true
            }
        }
    }

    /// The unset date strategy as a Foundation strategy: the same text, written through the
    /// encoder's single value container. Computed, not stored: where an SDK's strategy type is not
    /// `Sendable`, a stored static would be shared mutable-looking state in Swift 6.
    private static var iso8601RoundTripStrategy: JSONEncoder.DateEncodingStrategy {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try TreeEncoder.iso8601String(from: date, codingPath: encoder.codingPath))
        }
    }

    /// How `Data` is encoded; the same as `JSONEncoder.dataEncodingStrategy`. Defaults to
    /// `.base64`.
    public var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy {
        get { withSettings { $0.dataEncodingStrategy } }
        set { updateSettings { $0.dataEncodingStrategy = newValue } }
    }

    /// What to do with infinities and NaN, which JSON cannot spell; the same as
    /// `JSONEncoder.nonConformingFloatEncodingStrategy`. Defaults to `.throw`.
    public var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy {
        get { withSettings { $0.nonConformingFloatEncodingStrategy } }
        set { updateSettings { $0.nonConformingFloatEncodingStrategy = newValue } }
    }

    /// How coding keys become JSON keys; the same as `JSONEncoder.keyEncodingStrategy`.
    /// Defaults to `.useDefaultKeys`.
    ///
    /// As in Foundation, the keys of a `[String: T]` dictionary are written as they are, whatever
    /// the strategy, while those of a ``JSONValue`` object encoded as a value go through it (as
    /// `JSONEncoder` converts the keys `JSONValue` encodes itself with); JSON that hooks and
    /// transforms return, and kept ``UnknownKeys``, are written as they are.
    public var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy {
        get { withSettings { $0.keyEncodingStrategy } }
        set { updateSettings { $0.keyEncodingStrategy = newValue } }
    }

    /// How the encoder writes types that you teach it to write: in place of their `encode(to:)`,
    /// the JSON your converter returns. Empty by default. See ``EncodingConverters``.
    ///
    /// ```swift
    /// let encoder = LenientJSONEncoder()
    /// encoder.converters.register(Bool.self) { flag in flag ? "T" : "F" }
    /// ```
    ///
    /// Registering in place, as above, happens under the encoder's lock: threads registering on
    /// one shared encoder at once keep every converter.
    public var converters: EncodingConverters {
        get { withSettings { $0.converters } }
        set { updateSettings { $0.converters = newValue } }
        // The lock is held while the caller changes the value in place, so a concurrent
        // registration cannot be lost between a read and a write.
        _modify {
            lock.lock()
            let replaced = (settings, configuration)
            defer {
                configuration = nil
                lock.unlock()
                withExtendedLifetime(replaced) {}
            }
            yield &settings.converters
        }
    }

    /// Whether a `nil` optional property is left out (``NilEncodingStrategy/omitKey``, the
    /// default, as `JSONEncoder` does) or written as `null` (``NilEncodingStrategy/writeNull``).
    ///
    /// ```swift
    /// let encoder = LenientJSONEncoder()
    /// encoder.nilEncodingStrategy = .writeNull
    /// try encoder.encode(Profile(name: "Ada", bio: nil))   // {"name":"Ada","bio":null}
    /// ```
    ///
    /// It applies to the optional properties that `encodeIfPresent(_:forKey:)` writes, which is
    /// how synthesized conformances write them; `nil` elements of arrays are always `null`.
    public var nilEncodingStrategy: NilEncodingStrategy {
        get { withSettings { $0.nilEncodingStrategy } }
        set { updateSettings { $0.nilEncodingStrategy = newValue } }
    }

    /// How a `nil` optional property is encoded; see ``LenientJSONEncoder/nilEncodingStrategy``.
    public enum NilEncodingStrategy: Hashable, Sendable {
        /// The key is left out, as `JSONEncoder` does.
        case omitKey
        /// The key is written with `null`.
        case writeNull
    }

    /// Values handed to every `encode(to:)` through `Encoder.userInfo`.
    @preconcurrency public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { withSettings { $0.userInfo } }
        set { updateSettings { $0.userInfo = newValue } }
        // `encoder.userInfo[key] = value` from several threads keeps every key.
        _modify {
            lock.lock()
            let replaced = (settings, configuration)
            defer {
                configuration = nil
                lock.unlock()
                withExtendedLifetime(replaced) {}
            }
            yield &settings.userInfo
        }
    }

    // MARK: - Encoding

    /// Encodes a value as JSON.
    ///
    /// ```swift
    /// let encoder = LenientJSONEncoder()
    /// encoder.outputFormatting = .sortedKeys
    /// let data = try encoder.encode(["b": 2, "a": 1])   // {"a":1,"b":2}
    /// ```
    ///
    /// - Parameter value: The value to encode. Any `Encodable` value may be the top level,
    ///   including a single number, string or `nil`.
    /// - Returns: UTF-8 JSON text.
    /// - Throws: `EncodingError.invalidValue`, with the coding path of the value, for a
    ///   non-finite number under the `.throw` strategy and for the text of a
    ///   ``JSONValue/number(_:)`` that is not a JSON number; with an empty path when the
    ///   top-level value encodes nothing or nests containers 512 levels deep; with the path of
    ///   the model and a ``KeyMappingError`` as `underlyingError` for a ``KeyMapping`` that names
    ///   no property, has an empty key, or writes a property where other properties' nested keys
    ///   go; with the path of the property for a `nil` that the type's
    ///   ``KeyMapping/requiredProperties`` lists; with the path of the value when it nests
    ///   deeper than the stack of the current thread leaves room to encode (a thread of 512 KB
    ///   holds about 315 levels of models).
    ///   Errors thrown by the value's own `encode(to:)` pass through.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        var root = takeRoot()
        defer { giveBack(&root) }
        let tree = root.tree
        try TreeEncoder.encodeTree(with: root, for: value) { encoder in
            try encoder.encode(value, into: EncodingTree.root, key: nil, fillsEmpty: false)
        }
        return try TreeEncoder.write(tree, topLevelValue: value)
    }

    /// Encodes a value as a ``JSONValue`` tree instead of text.
    ///
    /// The tree holds what ``encode(_:)`` would write: numbers as their JSON text, object
    /// members in encode order (sorted by key under `.sortedKeys`).
    ///
    /// ```swift
    /// let json = try LenientJSONEncoder().encodeToJSONValue(book)
    /// json["name"]?.stringValue   // "Dune"
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded value.
    /// - Throws: `EncodingError.invalidValue`, as ``encode(_:)`` does.
    public func encodeToJSONValue<T: Encodable>(_ value: T) throws -> JSONValue {
        var root = takeRoot()
        defer { giveBack(&root) }
        let tree = root.tree
        try TreeEncoder.encodeTree(with: root, for: value) { encoder in
            try encoder.encode(value, into: EncodingTree.root, key: nil, fillsEmpty: false)
        }
        do {
            return try tree.jsonValue(
                at: EncodingTree.root, sortsKeys: tree.configuration.settings.outputFormatting.contains(.sortedKeys))
        } catch {
            throw TreeEncoder.writeError(error, topLevelValue: value)
        }
    }

    /// Encodes a value as the objects `JSONSerialization.jsonObject(with:)` would return for
    /// its JSON: `[String: Any]`, `[Any]`, `String`, `NSNumber` (booleans included) and `NSNull`.
    ///
    /// Integers that fit 64 bits are `Int64` or `UInt64` numbers, and other numbers are `Double`s
    /// when the `Double` gives back the same digits (`0.1`). A number a `Double` would round (a
    /// `Decimal` of more than 17 digits, an `Int128` or `UInt128` past 64 bits) is an
    /// `NSDecimalNumber` with its exact value, so ``LenientJSONDecoder/decode(_:fromJSONObject:)``
    /// gives back the value that was encoded.
    ///
    /// ```swift
    /// let object = try LenientJSONEncoder().encodeToJSONObject(book)
    /// let name = (object as? [String: Any])?["name"] as? String
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The JSON object graph.
    /// - Throws: `EncodingError.invalidValue`, as ``encode(_:)`` does, and for a ``JSONValue``
    ///   number past the range of `Double` and `Decimal` alike (`1e400`), which no `NSNumber`
    ///   holds.
    public func encodeToJSONObject<T: Encodable>(_ value: T) throws -> Any {
        var root = takeRoot()
        defer { giveBack(&root) }
        let tree = root.tree
        try TreeEncoder.encodeTree(with: root, for: value) { encoder in
            try encoder.encode(value, into: EncodingTree.root, key: nil, fillsEmpty: false)
        }
        do {
            return try tree.jsonObject(at: EncodingTree.root)
        } catch .tooDeep {
            throw TreeEncoder.depthError(topLevelValue: value)
        } catch .stackSpent(let depth) {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: TreeEncoder.stackRefusal(depth: depth)))
        } catch .numberOutOfRange(let text) {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription:
                        "The number \(text) is past the range of Double and Decimal: no NSNumber holds it, though encode(_:) writes it."
                ))
        }
    }

    /// Encodes a value that needs a configuration, as `JSONEncoder.encode(_:configuration:)` does.
    ///
    /// ```swift
    /// let data = try encoder.encode(report, configuration: .summary)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - configuration: The configuration handed to `encode(to:configuration:)`.
    /// - Returns: UTF-8 JSON text.
    /// - Throws: `EncodingError.invalidValue`, as ``encode(_:)`` does.
    public func encode<T: EncodableWithConfiguration>(
        _ value: T, configuration: T.EncodingConfiguration
    ) throws -> Data {
        var root = takeRoot()
        defer { giveBack(&root) }
        let tree = root.tree
        // The value's own `encode(to:configuration:)` is given the root, whatever its type.
        try TreeEncoder.encodeTree(with: root, for: value, writesItself: false) { encoder in
            try encoder.encode(value, configuration: configuration)
        }
        return try TreeEncoder.write(tree, topLevelValue: value)
    }

    /// Encodes a value whose configuration comes from a provider type, as
    /// `JSONEncoder.encode(_:configuration:)` does.
    ///
    /// ```swift
    /// let data = try encoder.encode(report, configuration: SummaryConfiguration.self)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - configuration: The type that provides the configuration.
    /// - Returns: UTF-8 JSON text.
    /// - Throws: `EncodingError.invalidValue`, as ``encode(_:)`` does.
    public func encode<T, C>(
        _ value: T, configuration: C.Type
    ) throws -> Data
    where
        T: EncodableWithConfiguration, C: EncodingConfigurationProviding,
        T.EncodingConfiguration == C.EncodingConfiguration
    {
        try encode(value, configuration: C.encodingConfiguration)
    }
}

/// Everything an encode call reads from the encoder, copied once under the lock.
struct EncoderSettings: @unchecked Sendable {
    var outputFormatting: JSONEncoder.OutputFormatting = []
    var dateEncodingStrategy: JSONEncoder.DateEncodingStrategy = .deferredToDate
    /// Whether the user set a date strategy; until then dates are written as ISO 8601 that the
    /// lenient decoder's defaults read back exactly.
    var dateEncodingStrategyIsSet = false
    var dataEncodingStrategy: JSONEncoder.DataEncodingStrategy = .base64
    var nonConformingFloatEncodingStrategy: JSONEncoder.NonConformingFloatEncodingStrategy = .throw
    var keyEncodingStrategy: JSONEncoder.KeyEncodingStrategy = .useDefaultKeys
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var converters = EncodingConverters()
    var nilEncodingStrategy = LenientJSONEncoder.NilEncodingStrategy.omitKey
}

extension TreeEncoder {
    /// Runs one encode call: builds the tree from the top-level value and checks that it
    /// encoded something. The root's tree must be empty.
    ///
    /// `root` may be kept for the next call, so it is handed to `body` only for an array or a
    /// string-keyed dictionary, whose elements the encoder writes itself, each through an
    /// encoder of its own: no user code sees the root then. Every other value, whose
    /// `encode(to:)` is given the root encoder, gets one made for this call, which ends with it.
    /// `writesItself` `false` says that `body` gives the root to the value's own code whatever
    /// its type.
    static func encodeTree<T>(
        with root: TreeEncoder, for value: T, writesItself: Bool = true, _ body: (TreeEncoder) throws -> Void
    ) throws {
        let tree = root.tree
        if !writesItself || tree.hasConverters || tree.traits(of: T.self).collection == nil {
            var own = TreeEncoder(tree: tree, node: EncodingTree.root, parent: nil, key: nil)
            defer {
                // Kept by the value past the call: it may write into the tree later.
                if !isKnownUniquelyReferenced(&own) { tree.hasOutsideEncoders = true }
            }
            return try encodeTree(ofTheCall: own, for: value, body)
        }
        try encodeTree(ofTheCall: root, for: value, body)
    }

    /// ``encodeTree(with:for:_:)`` with the root encoder the value is given.
    private static func encodeTree<T>(
        ofTheCall root: TreeEncoder, for value: T, _ body: (TreeEncoder) throws -> Void
    ) throws {
        let tree = root.tree
        // What the runtime makes on the first use of reflection, which the encoder uses on the
        // first value of each type at the deepest level it reaches, is made here, with the most
        // stack the call will have (once per process).
        _ = StackGuard.firstUsesMade
        do {
            try body(root)
        } catch is NestedTooDeep {
            throw depthError(topLevelValue: value)
        }
        // A key mapping error found where the encoder could not throw, and that the value's own
        // encoding swallowed.
        if tree.hasPendingError, let error = tree.pendingError { throw error }
        guard tree.nodes[Int(EncodingTree.root)].kind != .unset else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values."))
        }
    }

    /// Writes the tree as JSON text with the call's output formatting.
    ///
    /// Generic over the value, so that the value is boxed as `Any` only for the error.
    static func write<T>(_ tree: EncodingTree, topLevelValue: T) throws -> Data {
        var writer = JSONWriter(formatting: tree.configuration.settings.outputFormatting, buffer: tree.outputBuffer())
        do {
            try writer.write(tree, node: EncodingTree.root)
        } catch {
            throw writeError(error, topLevelValue: topLevelValue)
        }
        // Output too large for the encoder to keep for its next call becomes the `Data`'s own
        // memory; smaller output is copied, and its buffer serves the next call.
        tree.noteWritten(byteCount: writer.buffer.count)
        if writer.buffer.capacity > EncodingTree.reusableOutputLimit { return writer.buffer.takeData() }
        return writer.buffer.data
    }

    /// The error Foundation throws for a value nested too deep: reported against the top-level
    /// value, with an empty path.
    static func depthError(topLevelValue: Any) -> EncodingError {
        EncodingError.invalidValue(
            topLevelValue,
            .init(codingPath: [], debugDescription: "Unable to encode the given top-level value to JSON."))
    }

    /// The error for a tree the writer, or ``EncodingTree/jsonValue(at:sortsKeys:)``, refused:
    /// Foundation's for a value nested too deep, or the stack guard's refusal.
    static func writeError(_ error: JSONWriter.DepthExceeded, topLevelValue: Any) -> EncodingError {
        guard let level = error.stackSpentAt else { return depthError(topLevelValue: topLevelValue) }
        return EncodingError.invalidValue(
            topLevelValue, .init(codingPath: [], debugDescription: stackRefusal(depth: level)))
    }
}

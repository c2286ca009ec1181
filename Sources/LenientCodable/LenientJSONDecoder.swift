// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Decodes `Decodable` values from JSON, forgiving the mismatches real servers send — or, with
/// ``Options/strict``, exactly as Foundation's `JSONDecoder` does.
///
/// `LenientJSONDecoder` has every property of `JSONDecoder`, with the same names and
/// Foundation's own strategy types, so replacing one with the other is a one-word change:
///
/// ```swift
/// struct Book: Codable {
///     var name: String
///     var page: Int
/// }
///
/// let decoder = LenientJSONDecoder()
/// decoder.dateDecodingStrategy = .iso8601
/// let book = try decoder.decode(Book.self, from: data)
/// ```
///
/// The decoder reads the input in one pass into a compact tree of offsets into the bytes, then
/// decodes the value from that tree: strings and numbers are converted only when a model asks
/// for them.
///
/// Like `JSONDecoder`, the class is `Sendable`: one instance may decode on many threads at
/// once. Each `decode` call works with the settings as they were when it started.
public final class LenientJSONDecoder: @unchecked Sendable {
    private let lock = NSLock()
    // Both are read and written only while `lock` is held, which is what makes the class
    // `Sendable`; the lock also makes the runtime's exclusivity checks redundant.
    @exclusivity(unchecked) private var settings: DecoderSettings
    /// The settings as decode calls read them, built by the first call after a change and shared
    /// by the calls that follow, until the next change.
    @exclusivity(unchecked) private var cachedContext: DecodeContext?

    /// Creates a decoder.
    ///
    /// - Parameter options: What the decoder forgives; ``Options/lenient`` unless you say otherwise.
    public init(options: Options = .lenient) {
        settings = DecoderSettings(options: options)
    }

    /// Creates a decoder with the given options.
    ///
    /// ```swift
    /// let strict = LenientJSONDecoder(.strict)
    /// ```
    ///
    /// - Parameter options: What the decoder forgives.
    public convenience init(_ options: Options) {
        self.init(options: options)
    }

    /// Changes the settings under the lock; the next decode call builds a new context.
    private func withSettings<Value>(_ body: (inout DecoderSettings) -> Value) -> Value {
        lock.lock()
        let replaced = (settings, cachedContext)
        cachedContext = nil
        let result = body(&settings)
        lock.unlock()
        // What the change replaced goes after the lock: a value's `deinit` (in `userInfo`, a
        // converter's closure) may use this decoder.
        withExtendedLifetime(replaced) {}
        return result
    }

    /// Reads the settings under the lock.
    private func readSettings<Value>(_ body: (DecoderSettings) -> Value) -> Value {
        lock.lock()
        defer { lock.unlock() }
        return body(settings)
    }

    /// The context a decode call starts with: the settings as they are now, and the traits of
    /// the types earlier calls met. The one lock a decode call takes.
    var currentContext: DecodeContext {
        lock.lock()
        defer { lock.unlock() }
        if let cachedContext { return cachedContext }
        let context = DecodeContext(settings, owner: self)
        cachedContext = context
        return context
    }

    /// Makes the calls that follow start with `context`'s successor, which knows more types,
    /// unless the settings changed or another call's successor came first since `context` was
    /// handed out.
    fileprivate func replace(_ context: DecodeContext, with successor: DecodeContext) {
        lock.lock()
        defer { lock.unlock() }
        if cachedContext === context { cachedContext = successor }
    }

    /// What the decoder forgives: ``Options/lenient`` (the default) or ``Options/strict``,
    /// or a combination of your own.
    ///
    /// A change made in place — `decoder.options.converters.register(…)`,
    /// `decoder.options.coercesBooleans = false` — happens under the decoder's lock, so changes
    /// made by many threads at once are all kept.
    public var options: Options {
        get { readSettings { $0.options } }
        set { withSettings { $0.options = newValue } }
        // The lock is held while the caller changes the value in place: a read, change and write
        // of a shared decoder's options from two threads cannot lose either change.
        _modify {
            lock.lock()
            let replaced = (settings, cachedContext)
            cachedContext = nil
            defer {
                lock.unlock()
                withExtendedLifetime(replaced) {}
            }
            yield &settings.options
        }
    }

    /// How dates are decoded; the same as `JSONDecoder.dateDecodingStrategy`.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy {
        get { readSettings { $0.dateDecodingStrategy } }
        set {
            withSettings {
                $0.dateDecodingStrategy = newValue
                $0.dateDecodingStrategyIsSet = true
            }
        }
    }

    /// How `Data` is decoded; the same as `JSONDecoder.dataDecodingStrategy`.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy {
        get { readSettings { $0.dataDecodingStrategy } }
        set { withSettings { $0.dataDecodingStrategy = newValue } }
    }

    /// How strings that stand for non-finite numbers are decoded; the same as
    /// `JSONDecoder.nonConformingFloatDecodingStrategy`.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy {
        get { readSettings { $0.nonConformingFloatDecodingStrategy } }
        set { withSettings { $0.nonConformingFloatDecodingStrategy = newValue } }
    }

    /// How JSON keys are turned into coding keys; the same as `JSONDecoder.keyDecodingStrategy`.
    ///
    /// As in Foundation, it converts the keys of a decoded ``JSONValue`` object too, at every level
    /// (a `JSONValue` reads objects through a keyed container), and leaves the keys of a
    /// `[String: T]` dictionary alone. Hooks, type choices, transforms and ``UnknownKeys`` see the
    /// keys as sent.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy {
        get { readSettings { $0.keyDecodingStrategy } }
        set { withSettings { $0.keyDecodingStrategy = newValue } }
    }

    /// Values handed to every `init(from:)` through `Decoder.userInfo`.
    @preconcurrency public var userInfo: [CodingUserInfoKey: any Sendable] {
        get { readSettings { $0.userInfo } }
        set { withSettings { $0.userInfo = newValue } }
        // `decoder.userInfo[key] = value` from several threads keeps every key.
        _modify {
            lock.lock()
            let replaced = (settings, cachedContext)
            cachedContext = nil
            defer {
                lock.unlock()
                withExtendedLifetime(replaced) {}
            }
            yield &settings.userInfo
        }
    }

    /// Whether to accept JSON5: comments, trailing commas, unquoted keys, single-quoted strings,
    /// hexadecimal numbers, leading or trailing decimal points, a leading `+`, `Infinity` and
    /// `NaN`, and escaped line breaks. The same as `JSONDecoder.allowsJSON5`.
    public var allowsJSON5: Bool {
        get { readSettings { $0.allowsJSON5 } }
        set { withSettings { $0.allowsJSON5 = newValue } }
    }

    /// Whether the document may omit the braces around a top-level object; the same as
    /// `JSONDecoder.assumesTopLevelDictionary`. As in Foundation, it applies with or without
    /// ``allowsJSON5``: `"x": 42` decodes as `["x": 42]`, and an empty or blank document as `[:]`.
    public var assumesTopLevelDictionary: Bool {
        get { readSettings { $0.assumesTopLevelDictionary } }
        set { withSettings { $0.assumesTopLevelDictionary = newValue } }
    }

    /// Called once after every decode whose report is not empty, with the top-level type and the
    /// report, whichever overload decoded it: so that an app logs every forgiven value without
    /// changing its call sites. `nil` (the default) calls nothing and collects no report for it.
    ///
    /// ```swift
    /// decoder.reportHandler = { type, report in
    ///     logger.notice("\(type) payload drifted: \(report)")
    /// }
    /// ```
    ///
    /// It runs on the thread of the decode, after the value is decoded and before `decode`
    /// returns; a decode that throws does not call it.
    public var reportHandler: (@Sendable (_ type: Any.Type, _ report: DecodingReport) -> Void)? {
        get { readSettings { $0.reportHandler } }
        set { withSettings { $0.reportHandler = newValue } }
    }

    // MARK: - Decoding

    /// Decodes a value of the given type from JSON data.
    ///
    /// UTF-8 (with or without a byte order mark), UTF-16 and UTF-32 input are accepted.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON document.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`. Syntax errors are `dataCorrupted` with a ``JSONParseError``
    ///   (line, column and byte offset) as the underlying error.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let context = currentContext
        return try data.withUnsafeBytes { raw in
            try TreeDecoder.decode(type, from: raw.bindMemory(to: UInt8.self), context: context)
        }
    }

    /// Decodes a value of the given type from JSON text.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - string: The JSON document.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from string: String) throws -> T {
        let context = currentContext
        var string = string
        return try string.withUTF8 { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context, isKnownUTF8: true)
        }
    }

    /// Decodes a value of the given type from JSON bytes.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - bytes: The JSON document.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let context = currentContext
        return try bytes.withUnsafeBufferPointer { buffer in
            try TreeDecoder.decode(type, from: buffer, context: context)
        }
    }

    /// Decodes a value of the given type from a ``JSONValue``.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try TreeDecoder.decode(type, fromValue: value, context: currentContext)
    }

    /// Decodes a value of the given type from what `JSONSerialization` produces: dictionaries,
    /// arrays, strings, `NSNumber`s and `NSNull`.
    ///
    /// Swift values of the same shapes are accepted too (`[String: Any]` holding `Int`, `Bool`,
    /// `String`, `nil`, ``JSONValue``). Dictionaries' members are read in the order of their keys.
    /// The graph has the nesting budget of JSON text: 512 levels of arrays and dictionaries. A
    /// graph that contains itself (an `NSMutableArray` added to itself) nests without end and is
    /// refused like one nested too deep.
    ///
    /// ```swift
    /// let object = try JSONSerialization.jsonObject(with: data)
    /// let book = try LenientJSONDecoder().decode(Book.self, fromJSONObject: object)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - object: A JSON object graph.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError.dataCorrupted`, with the top-level coding path as for JSON text
    ///   nested too deep, when the object is not a valid JSON object graph: it holds a value that
    ///   is not JSON, a dictionary key that is not a string, arrays and dictionaries nested more
    ///   than 512 levels deep, or itself. Otherwise as ``decode(_:from:)-(_,Data)`` does.
    /// - Complexity: O(*n* log *n*) in the number of values in the graph, for sorting each
    ///   dictionary's keys; each array and dictionary is read once, whatever the depth.
    public func decode<T: Decodable>(_ type: T.Type, fromJSONObject object: Any) throws -> T {
        try decode(type, from: try JSONValue.fromJSONObject(object))
    }

    /// Decodes a value that needs a configuration from JSON data.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON document.
    ///   - configuration: The configuration handed to `init(from:configuration:)`.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decode<T: DecodableWithConfiguration>(
        _ type: T.Type, from data: Data, configuration: T.DecodingConfiguration
    ) throws -> T {
        try decode(ConfiguredBox<T>.self, from: data, configuration: configuration)
    }

    /// Decodes a value whose configuration comes from a provider type, from JSON data.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON document.
    ///   - configuration: The type that provides the configuration.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError`, as ``decode(_:from:)-(_,Data)`` does.
    public func decode<T, C>(
        _ type: T.Type, from data: Data, configuration: C.Type
    ) throws -> T
    where
        T: DecodableWithConfiguration, C: DecodingConfigurationProviding,
        T.DecodingConfiguration == C.DecodingConfiguration
    {
        try decode(type, from: data, configuration: C.decodingConfiguration)
    }

    private func decode<T: DecodableWithConfiguration>(
        _ box: ConfiguredBox<T>.Type, from data: Data, configuration: T.DecodingConfiguration
    ) throws -> T {
        var settings = readSettings { $0 }
        let key = CodingUserInfoKey.lenientConfiguration
        settings.userInfo[key] = ConfigurationHolder(configuration)
        let context = DecodeContext(settings)
        return try data.withUnsafeBytes { raw in
            try TreeDecoder.decode(box, from: raw.bindMemory(to: UInt8.self), context: context).value
        }
    }
}

/// Carries a configuration to ``ConfiguredBox`` through `userInfo` without making it visible as
/// a `Sendable` requirement on the user's configuration type.
struct ConfigurationHolder: @unchecked Sendable {
    let configuration: Any
    init(_ configuration: Any) { self.configuration = configuration }
}

extension CodingUserInfoKey {
    static let lenientConfiguration = CodingUserInfoKey(rawValue: "LenientCodable.configuration")!
}

/// A box that carries a value decoded with a configuration; the report handler names the value's type.
protocol ConfigurationCarrying {
    static var valueType: Any.Type { get }
}

/// Decodes a `DecodableWithConfiguration` value at the top level with the configuration that
/// the decode call put in `userInfo`, then hides the entry from the value's own decoding.
struct ConfiguredBox<T: DecodableWithConfiguration>: Decodable, ConfigurationCarrying {
    static var valueType: Any.Type { T.self }

    let value: T

    init(from decoder: any Decoder) throws {
        guard let holder = decoder.userInfo[.lenientConfiguration] as? ConfigurationHolder,
            let configuration = holder.configuration as? T.DecodingConfiguration
        else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "Missing decoding configuration."))
        }
        value = try T(from: decoder, configuration: configuration)
    }
}

/// What a decode call reads from its decoder: the settings, what is worked out from them once,
/// and the traits of the types earlier calls met. A decoder builds one on the first call after a
/// change of its settings and shares it with the calls that follow, so a call retains one
/// reference instead of copying every setting. A context never changes: a call that meets new
/// types makes a successor that knows them, which the decoder hands to the calls after it.
///
/// `@unchecked Sendable`: every stored property is a constant, and `owner` is a weak reference,
/// which the runtime reads and clears atomically. What keeps a context alive: its decoder's
/// cache and every call or kept `Decoder` that uses it; it keeps nothing of its decoder alive
/// (tested by `aDecoderThatLearnedTypesGoesWithItsLastOwner`, with a model's `Decoder` kept).
final class DecodeContext: @unchecked Sendable {
    let settings: DecoderSettings
    /// `settings.userInfo` as `Decoder.userInfo` hands it out.
    let userInfo: [CodingUserInfoKey: Any]
    /// The traits of the types decodes with this context's decoder met before it was made, which
    /// a decode starts with instead of looking each up again (see ``TreeDecoder/traits(of:)``).
    let knownTraits: KnownTraits
    /// The decoder that hands this context out, which takes its successors; `nil` for a context
    /// made for one call, and once the decoder is gone.
    private weak var owner: LenientJSONDecoder?
    /// The most types a context remembers: the model types of a large app, which decodes each
    /// once at launch and then again with every response; past it, a decode finds the rest in
    /// the process-wide cache, under its lock. Each new type rebuilds the table once, so that
    /// learning `n` types costs about `n²/2` entry copies in all: about 500 000 for the most.
    static let maximumKnownTraits = 1024

    /// For each of the options' date formats, its pattern's reader when it is a pattern that
    /// ``PatternReader`` reads: made once, rather than looked up for every date and format tried.
    let patternReaders: [PatternReader?]
    /// How the parser reads a document under these settings.
    let parserOptions: JSONParser.Options
    /// Whether any value may be forgiven (``LenientJSONDecoder/Options/forgivesValues``).
    let forgivesValues: Bool
    /// Whether the options register any converter.
    let hasConverters: Bool
    /// Whether the options ask for unknown keys to be reported.
    let reportsUnknownKeys: Bool

    init(_ settings: DecoderSettings, owner: LenientJSONDecoder? = nil) {
        self.settings = settings
        userInfo = settings.userInfo.asCoderUserInfo
        patternReaders = settings.options.dateFormats.map { format in
            guard case .pattern(let pattern) = format.kind else { return nil }
            return PatternReader(pattern: pattern)
        }
        parserOptions = JSONParser.Options(
            allowsJSON5: settings.allowsJSON5, allowsTrailingCommas: settings.options.allowsTrailingCommas,
            assumesTopLevelDictionary: settings.assumesTopLevelDictionary,
            defersValueErrors: settings.options.defersValueValidation && !settings.allowsJSON5)
        forgivesValues = settings.options.forgivesValues
        hasConverters = !settings.options.converters.isEmpty
        reportsUnknownKeys = settings.options.reportsUnknownKeys
        knownTraits = .empty
        self.owner = owner
    }

    /// A successor of `predecessor` that knows `knownTraits`.
    private init(succeeding predecessor: DecodeContext, knownTraits: KnownTraits) {
        settings = predecessor.settings
        userInfo = predecessor.userInfo
        patternReaders = predecessor.patternReaders
        parserOptions = predecessor.parserOptions
        forgivesValues = predecessor.forgivesValues
        hasConverters = predecessor.hasConverters
        reportsUnknownKeys = predecessor.reportsUnknownKeys
        self.knownTraits = knownTraits
        owner = predecessor.owner
    }

    /// Hands the decoder a successor that also knows `traits`, the traits of the types a decode
    /// with this context met that ``knownTraits`` does not hold; unless the decoder has moved on
    /// (new settings, or another decode's successor), or the table would grow past
    /// ``maximumKnownTraits``.
    func learn(_ traits: [(id: ObjectIdentifier, traits: TypeTraits)]) {
        guard let owner, knownTraits.entries.count + traits.count <= DecodeContext.maximumKnownTraits else { return }
        let successor = DecodeContext(succeeding: self, knownTraits: KnownTraits(knownTraits.entries + traits))
        owner.replace(self, with: successor)
    }
}

/// Everything a decode call reads from the decoder, copied once under the lock.
struct DecoderSettings: @unchecked Sendable {
    var options: LenientJSONDecoder.Options
    var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// Whether the user set a date strategy; until then `.lenient` reads dates with its format list.
    var dateDecodingStrategyIsSet = false
    var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var allowsJSON5 = false
    var assumesTopLevelDictionary = false
    var reportHandler: (@Sendable (_ type: Any.Type, _ report: DecodingReport) -> Void)?

    init(options: LenientJSONDecoder.Options) {
        self.options = options
    }
}

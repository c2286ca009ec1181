// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension LenientJSONDecoder {
    /// What a decoder forgives.
    ///
    /// Start from one of the presets and change what you need:
    ///
    /// ```swift
    /// var options = LenientJSONDecoder.Options.strict
    /// options.coercesNumbersFromStrings = true      // "42" is an Int, nothing else is forgiven
    /// let decoder = LenientJSONDecoder(options: options)
    /// ```
    ///
    /// - ``lenient`` (the default) turns every leniency on, except reporting unknown keys.
    /// - ``strict`` behaves like Foundation's `JSONDecoder`: the same values, the same errors
    ///   and coding paths — except that it parses RFC 8259 exactly (no trailing commas) and keeps
    ///   the line and column of syntax errors.
    ///
    /// Options are a value: a decode call copies them when it starts, so changing a decoder's
    /// options never affects a decode already running. Every forgiven value is recorded in the
    /// ``DecodingReport`` of ``LenientJSONDecoder/decodeWithReport(_:from:)-(_,Data)``.
    public struct Options: Hashable, Sendable {
        // MARK: Syntax and keys

        /// Whether a comma may follow the last element of an array or the last member of an
        /// object (`[1, 2,]`). Foundation's `JSONDecoder` accepts them; RFC 8259 does not.
        public var allowsTrailingCommas: Bool

        /// Whether the text of a string value or number is checked only when a property reads
        /// it, as Foundation's `JSONDecoder` does: a document whose unread fields hold an invalid
        /// escape, invalid UTF-8, a raw control character, or a number such as `012`, `1.` or
        /// `-` still decodes. Reading such a value fails as it fails in Foundation —
        /// `DecodingError.dataCorrupted`, or `typeMismatch` when it is read as another kind
        /// (a string as a number) — with the parse error, its line and column, as the underlying
        /// error; ``lenient`` forgives and reports that as it forgives any invalid value. Keys are
        /// always checked, and so is JSON5. Off in ``strict``, which parses RFC 8259 exactly.
        public var defersValueValidation: Bool

        /// Whether a key that is not present exactly may be found ignoring ASCII case and the
        /// separators `_`, `-` and space: `userName` then finds `UserName`, `USERNAME`,
        /// `user_name` or `user-name`. An exact match always wins; a loose one is reported as
        /// ``DecodingIssue/Kind/keyFallback``.
        public var allowsLooseKeyMatching: Bool

        /// Whether members of the JSON that no property reads are reported as
        /// ``DecodingIssue/Kind/unknownKey``, also those beside a nested key in the objects and
        /// arrays it steps through, and inside the values a model decodes through super decoders
        /// (`superDecoder()`, `superDecoder(forKey:)`, of any container); what an ``UnknownKeys``
        /// property keeps is not. Off in both presets, and honoured in both: turn it on to watch
        /// an API grow.
        public var reportsUnknownKeys: Bool

        // MARK: Coercion

        /// Whether numbers may be read from strings: `"42"`, `" 42 "`, `"4.2e1"` for integers;
        /// `"2.5"`, `"NaN"`, `"Infinity"`, `"-Infinity"` for `Double` and `Float`; the digits of
        /// a string for `Decimal`.
        public var coercesNumbersFromStrings: Bool

        /// Whether numbers may be read from booleans: `true` is 1 and `false` is 0.
        public var coercesNumbersFromBooleans: Bool

        /// Whether an integer may be read from a number with a fraction, truncated toward zero
        /// (`2.9` is 2, `-2.9` is -2). A number out of the type's range is never accepted.
        public var truncatesFractionsToIntegers: Bool

        /// Whether a `Bool` may be read from a number (0 is `false`, any other number `true`) or
        /// from the strings `true`, `false`, `yes`, `no`, `y`, `n`, `1`, `0`, `on`, `off` in any case.
        public var coercesBooleans: Bool

        /// Whether a `String` may be read from a number (its text as written: `1.10` is `"1.10"`)
        /// or a boolean (`"true"`, `"false"`).
        public var coercesStrings: Bool

        /// Whether dates are read with ``dateFormats`` when the decoder's `dateDecodingStrategy`
        /// was left at its default. A strategy you set is always honoured exactly.
        public var decodesDatesWithFormatList: Bool

        /// The date forms tried in order, when ``decodesDatesWithFormatList`` is on and no date
        /// strategy was set. A date in any of these forms is not a forgiven value.
        public var dateFormats: [DateFormat]

        /// Whether a `RawRepresentable` enum may be read from its raw value in any of the coerced
        /// forms above, from a raw string in another case (`"ACTIVE"` for `active`), and — for a
        /// type that conforms to ``CaseFallback`` — from an unknown value, as its fallback case.
        public var coercesEnums: Bool

        /// Whether a single value where an array (or set) is expected becomes a one-element array.
        public var wrapsSingleValuesInArrays: Bool

        /// Whether a string that holds JSON text (`"{\"a\":1}"`) is parsed where an object or
        /// array is expected.
        public var parsesJSONInStrings: Bool

        /// Whether strings that old servers write for "nothing" — `"null"`, `"nil"`, `"<null>"`,
        /// `"(null)"` in any case — count as `null` for every type but `String`.
        public var treatsNullLikeStringsAsNull: Bool

        // MARK: Defaults and lossy collections

        /// Whether a missing non-optional property takes its type's default (`""`, `0`,
        /// `false`, `[]`, `[:]`, or ``DefaultValue/defaultValue``).
        public var defaultsMissingValues: Bool

        /// Whether a `null` non-optional property takes its type's default; a `null` where a
        /// collection is expected becomes an empty collection.
        public var defaultsNullValues: Bool

        /// Whether a value that cannot be decoded even with coercion takes its type's default;
        /// for an optional property, `nil`.
        public var defaultsInvalidValues: Bool

        /// Whether elements of arrays, sets and dictionaries that cannot be decoded are left out
        /// instead of failing the whole collection.
        public var dropsInvalidElements: Bool

        // MARK: Converters

        /// Conversions you register for types the coercion table cannot read, or reads
        /// differently from your service: a `Money` from `"12.5 USD"`, a `Bool` from `"T"`.
        ///
        /// Empty in both presets. A converter runs in ``strict`` too, since you asked for it, and
        /// each use is reported as ``DecodingIssue/Kind/coerced``. See ``DecodingConverters`` for
        /// when a converter runs and what happens when it throws.
        ///
        /// ```swift
        /// var options = LenientJSONDecoder.Options.lenient
        /// options.converters.register(Bool.self) { json in
        ///     guard let text = json.stringValue, text == "T" || text == "F" else {
        ///         throw CocoaError(.coderReadCorrupt)
        ///     }
        ///     return text == "T"
        /// }
        /// let decoder = LenientJSONDecoder(options: options)
        /// ```
        public var converters: DecodingConverters

        /// Creates options with every leniency on, as ``lenient``: the same as the decoder's own default.
        public init() {
            self.init(forgiving: true)
        }

        /// Options with every leniency on or every one off.
        private init(forgiving: Bool) {
            allowsTrailingCommas = forgiving
            defersValueValidation = forgiving
            allowsLooseKeyMatching = forgiving
            reportsUnknownKeys = false
            coercesNumbersFromStrings = forgiving
            coercesNumbersFromBooleans = forgiving
            truncatesFractionsToIntegers = forgiving
            coercesBooleans = forgiving
            coercesStrings = forgiving
            decodesDatesWithFormatList = forgiving
            dateFormats = DateFormat.standardList
            coercesEnums = forgiving
            wrapsSingleValuesInArrays = forgiving
            parsesJSONInStrings = forgiving
            treatsNullLikeStringsAsNull = forgiving
            defaultsMissingValues = forgiving
            defaultsNullValues = forgiving
            defaultsInvalidValues = forgiving
            dropsInvalidElements = forgiving
            converters = DecodingConverters()
        }

        /// Every leniency on: the decoder forgives what it can and reports it. Unknown keys are
        /// not reported unless you turn ``reportsUnknownKeys`` on. The same as `Options()`.
        public static var lenient: Options { Options(forgiving: true) }

        /// Foundation's `JSONDecoder` behaviour, with RFC 8259 parsing and positioned syntax errors.
        public static var strict: Options { Options(forgiving: false) }

        /// Whether any value coercion, default or lossy collection is on: when none is, the
        /// decoder takes Foundation's paths only.
        var forgivesValues: Bool {
            coercesNumbersFromStrings || coercesNumbersFromBooleans || truncatesFractionsToIntegers || coercesBooleans
                || decodesDatesWithFormatList
                || coercesStrings || coercesEnums || wrapsSingleValuesInArrays || parsesJSONInStrings
                || treatsNullLikeStringsAsNull || defaultsMissingValues || defaultsNullValues || defaultsInvalidValues
                || dropsInvalidElements
        }
    }
}

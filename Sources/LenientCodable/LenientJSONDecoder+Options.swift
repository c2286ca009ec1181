// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension LenientJSONDecoder {
    /// What a decoder forgives.
    ///
    /// Start from one of the presets and change what you need:
    ///
    /// ```swift
    /// var options = LenientJSONDecoder.Options.strict
    /// options.allowsTrailingCommas = true
    /// let decoder = LenientJSONDecoder(options: options)
    /// ```
    ///
    /// - ``lenient`` (the default) turns every leniency on.
    /// - ``strict`` behaves like Foundation's `JSONDecoder`: the same values, the same errors
    ///   and coding paths — except that it parses RFC 8259 exactly (no trailing commas) and keeps
    ///   the line and column of syntax errors.
    ///
    /// Options are a value: a decode call copies them when it starts, so changing a decoder's
    /// options never affects a decode already running.
    public struct Options: Hashable, Sendable {
        /// Whether a comma may follow the last element of an array or the last member of an
        /// object (`[1, 2,]`). Foundation's `JSONDecoder` accepts them; RFC 8259 does not.
        public var allowsTrailingCommas: Bool

        /// Whether a key that is not present exactly may be found ignoring ASCII case and the
        /// separators `_`, `-` and space: `userName` then finds `UserName`, `USERNAME`,
        /// `user_name` or `user-name`. An exact match always wins; a loose one is reported as
        /// ``DecodingIssue/Kind/keyFallback``.
        public var allowsLooseKeyMatching: Bool

        /// Creates options with every leniency off, as ``strict``.
        public init() {
            allowsTrailingCommas = false
            allowsLooseKeyMatching = false
        }

        /// Every leniency on: the decoder forgives what it can and reports it.
        public static var lenient: Options {
            var options = Options()
            options.allowsTrailingCommas = true
            options.allowsLooseKeyMatching = true
            return options
        }

        /// Foundation's `JSONDecoder` behaviour, with RFC 8259 parsing and positioned syntax errors.
        public static var strict: Options { Options() }
    }
}

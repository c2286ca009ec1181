// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// How a type's JSON spells the keys of its properties, for ``KeyMapping/keyStrategy``.
///
/// A strategy turns a property's name (its coding key) into the JSON key, in both directions:
/// the decoder looks for that key and the encoder writes it.
///
/// ```swift
/// struct LegacyUser: Codable, KeyMapping {
///     var userName: String       // "user_name"
///     var avatarURL: URL         // "avatar_url"
///     static let keyStrategy: KeyStrategy? = .snakeCase
/// }
/// ```
///
/// Names are split into words at case changes, digits stay with the word before them, and a run
/// of capitals is one word (`avatarURLString` is `avatar`, `URL`, `String`).
public struct KeyStrategy: Sendable {
    private enum Kind: Sendable {
        case snake, screamingSnake, kebab, pascal, camel
        case custom(@Sendable (String) -> String)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// `userName` is `user_name`.
    public static let snakeCase = KeyStrategy(.snake)
    /// `userName` is `USER_NAME`.
    public static let screamingSnakeCase = KeyStrategy(.screamingSnake)
    /// `userName` is `user-name`.
    public static let kebabCase = KeyStrategy(.kebab)
    /// `userName` is `UserName`.
    public static let pascalCase = KeyStrategy(.pascal)
    /// `UserName` and `user_name` are `userName`.
    public static let camelCase = KeyStrategy(.camel)

    /// Your own spelling: the closure receives the property's name and returns the JSON key.
    ///
    /// ```swift
    /// static let keyStrategy: KeyStrategy? = .custom { "x-" + $0 }
    /// ```
    ///
    /// - Parameter transform: Turns a property name into its JSON key.
    /// - Returns: The strategy.
    public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyStrategy {
        KeyStrategy(.custom(transform))
    }

    /// The JSON key for a property name.
    ///
    /// - Parameter propertyName: The coding key's string value.
    /// - Returns: The key as the JSON spells it.
    public func jsonKey(for propertyName: String) -> String {
        switch kind {
        case .snake: return KeyStrategy.words(of: propertyName).map { $0.lowercased() }.joined(separator: "_")
        case .screamingSnake: return KeyStrategy.words(of: propertyName).map { $0.uppercased() }.joined(separator: "_")
        case .kebab: return KeyStrategy.words(of: propertyName).map { $0.lowercased() }.joined(separator: "-")
        case .pascal: return KeyStrategy.words(of: propertyName).map(KeyStrategy.capitalizingFirst).joined()
        case .camel:
            let words = KeyStrategy.words(of: propertyName)
            guard let first = words.first else { return propertyName }
            return first.lowercased() + words.dropFirst().map(KeyStrategy.capitalizingFirst).joined()
        case .custom(let transform): return transform(propertyName)
        }
    }

    /// Property names that a key spelled by a strategy may come from, since a strategy does not
    /// spell every name back the way it came: the key's words joined in camel case, with the
    /// first as written, in capitals or capitalized, and each short word after it (eight letters
    /// or fewer, as acronyms are) capitalized or in capitals (`is_httpok`: `isHttpok`,
    /// `isHTTPOK`; `fetch-url-for-id`: `fetchURLForID`). Candidates only: the caller checks each
    /// one forward. None for a key of more than 128 bytes or 12 words, so that a long key costs
    /// no more than its length.
    static func propertyNameCandidates(for key: String) -> [String] {
        guard key.utf8.count <= 128 else { return [] }
        let words = KeyStrategy.words(of: key).map { $0.lowercased() }
        guard let first = words.first, words.count <= 12 else { return [] }
        func capitalized(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }
        // Each later word's spellings; short words may be acronyms. At most 32 combinations.
        var tails = [""]
        var acronyms = 0
        for word in words.dropFirst() {
            if word.count <= 8 && acronyms < 5 {
                acronyms += 1
                tails = tails.flatMap { [$0 + capitalized(word), $0 + word.uppercased()] }
            } else {
                tails = tails.map { $0 + capitalized(word) }
            }
        }
        var names: [String] = []
        names.reserveCapacity(tails.count * 3)
        for head in [first, first.uppercased(), capitalized(first)] {
            for tail in tails { names.append(head + tail) }
        }
        return names
    }

    private static func capitalizingFirst(_ word: Substring) -> String {
        guard let first = word.first else { return "" }
        return first.uppercased() + word.dropFirst()
    }

    /// Splits a name into words at separators (`_`, `-`, space) and case changes.
    static func words(of name: String) -> [Substring] {
        var words: [Substring] = []
        var start: String.Index?
        var previous: Character?
        var index = name.startIndex
        while index < name.endIndex {
            let character = name[index]
            if character == "_" || character == "-" || character == " " {
                if let wordStart = start { words.append(name[wordStart..<index]) }
                start = nil
                previous = nil
                index = name.index(after: index)
                continue
            }
            if let wordStart = start, let previousCharacter = previous, character.isUppercase {
                let next = name.index(after: index)
                let nextIsLowercase = next < name.endIndex && name[next].isLowercase
                // "userName": a capital after a lowercase letter or digit starts a word.
                // "URLString": in a run of capitals, the one before a lowercase letter starts a word.
                if !previousCharacter.isUppercase || nextIsLowercase {
                    words.append(name[wordStart..<index])
                    start = index
                }
            }
            if start == nil { start = index }
            previous = character
            index = name.index(after: index)
        }
        if let wordStart = start { words.append(name[wordStart...]) }
        return words
    }
}

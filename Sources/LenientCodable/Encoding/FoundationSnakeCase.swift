// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`, reproduced exactly.
///
/// Foundation's rule, which this follows step by step: the first character never starts a
/// word; a word ends before each uppercase letter (Unicode categories Lu and Lt); a run of
/// uppercase letters followed by a lowercase one (Ll) is a word of its own, except for its last
/// capital, which starts the next word; a run of capitals with no lowercase letter after it
/// stays one word. Words are lowercased and joined with `_`. So `myURLValue` becomes
/// `my_url_value`, `myID2Go` becomes `my_id2_go`, `URL` becomes `u_rl` and `_leading` stays.
enum FoundationSnakeCase {
    static func convert(_ key: String) -> String {
        guard !key.isEmpty else { return key }
        // Letters are found scalar by scalar, but the steps around them go by `Character`, as in
        // Foundation: a combining mark stays with its letter ("aG\u{333}r" is "a_g\u{333}r").
        let scalars = key.unicodeScalars
        var words: [Range<String.Index>] = []
        var wordStart = key.startIndex
        var searchStart = key.index(after: wordStart)
        while let upper = firstIndex(in: scalars, from: searchStart, where: isUppercase) {
            words.append(wordStart..<upper)
            guard let lower = firstIndex(in: scalars, from: upper, where: isLowercase) else {
                wordStart = upper
                break
            }
            if lower == key.index(after: upper) {
                wordStart = upper
            } else {
                let beforeLower = key.index(before: lower)
                words.append(upper..<beforeLower)
                wordStart = beforeLower
            }
            searchStart = scalars.index(after: lower)
        }
        words.append(wordStart..<key.endIndex)
        var result = ""
        result.reserveCapacity(key.utf8.count + words.count)
        for (position, word) in words.enumerated() {
            if position > 0 { result.append("_") }
            result.append(key[word].lowercased())
        }
        return result
    }

    private static func firstIndex(
        in scalars: String.UnicodeScalarView, from start: String.Index, where predicate: (Unicode.Scalar) -> Bool
    ) -> String.Index? {
        var index = start
        while index < scalars.endIndex {
            if predicate(scalars[index]) { return index }
            scalars.formIndex(after: &index)
        }
        return nil
    }

    private static func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x41 && scalar.value <= 0x5A }
        let category = scalar.properties.generalCategory
        return category == .uppercaseLetter || category == .titlecaseLetter
    }

    private static func isLowercase(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value >= 0x61 && scalar.value <= 0x7A }
        return scalar.properties.generalCategory == .lowercaseLetter
    }
}

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
        let scalars = Array(key.unicodeScalars)
        guard !scalars.isEmpty else { return key }
        var words: [Range<Int>] = []
        var wordStart = 0
        var searchStart = 1
        let end = scalars.count
        while let upper = firstIndex(in: scalars, from: searchStart, where: isUppercase) {
            words.append(wordStart..<upper)
            guard let lower = firstIndex(in: scalars, from: upper, where: isLowercase) else {
                wordStart = upper
                break
            }
            if lower == upper + 1 {
                wordStart = upper
            } else {
                words.append(upper..<(lower - 1))
                wordStart = lower - 1
            }
            searchStart = lower + 1
        }
        words.append(wordStart..<end)
        var result = ""
        result.reserveCapacity(key.utf8.count + words.count)
        for (position, word) in words.enumerated() {
            if position > 0 { result.append("_") }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars[word])
            result.append(String(text).lowercased())
        }
        return result
    }

    private static func firstIndex(
        in scalars: [Unicode.Scalar], from start: Int, where predicate: (Unicode.Scalar) -> Bool
    ) -> Int? {
        var index = start
        while index < scalars.count {
            if predicate(scalars[index]) { return index }
            index += 1
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

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import Testing

/// One file of JSONTestSuite's `test_parsing` folder, as a test case.
struct JSONTestSuiteFile: Sendable, Hashable, CustomTestStringConvertible {
    /// What RFC 8259 says about the file, from the first letter of its name.
    enum Verdict: String, Sendable, CaseIterable {
        /// `y_`: a parser must accept it.
        case accept = "y"
        /// `n_`: a parser must reject it.
        case reject = "n"
        /// `i_`: a parser may accept or reject it.
        case implementationDefined = "i"
    }

    /// The file name, for example `y_array_empty.json`.
    let name: String
    /// What a parser must do with it.
    let verdict: Verdict

    var testDescription: String { name }

    var url: URL { TestPaths.jsonTestSuiteDirectory.appendingPathComponent(name) }

    /// The file's bytes.
    func contents(sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            Issue.record(error, "Cannot read fixture \(name).", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Every file of the suite, sorted by name. Empty when the folder cannot be read: the count test notices.
    static let all: [JSONTestSuiteFile] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: TestPaths.jsonTestSuiteDirectory.path)) ?? []
        return names.sorted().compactMap { name in
            guard name.hasSuffix(".json"), let first = name.first, let verdict = Verdict(rawValue: String(first)) else {
                return nil
            }
            return JSONTestSuiteFile(name: name, verdict: verdict)
        }
    }()

    /// The files with the given verdict.
    static func files(_ verdict: Verdict) -> [JSONTestSuiteFile] {
        all.filter { $0.verdict == verdict }
    }

    /// The `n_` files that Foundation's `JSONDecoder` accepts, all because of a trailing comma (FOUNDATION-NOTES.md).
    /// `.strict` rejects them (RFC 8259); `.lenient` accepts them, with Foundation's values.
    static let trailingCommaFiles: Set<String> = [
        "n_array_extra_comma.json",
        "n_array_number_and_comma.json",
        "n_object_trailing_comma.json",
    ]
}

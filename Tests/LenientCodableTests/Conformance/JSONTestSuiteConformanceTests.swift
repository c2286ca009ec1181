// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// RFC 8259 conformance on JSONTestSuite's `test_parsing` files, one case per file: `.strict` parsing accepts every
/// `y_` file, rejects every `n_` file with a positioned parse error, and survives every `i_` file.
@Suite struct JSONTestSuiteConformanceTests {
    @Test func suiteHasEveryFixture() {
        #expect(JSONTestSuiteFile.files(.accept).count == 95)
        #expect(JSONTestSuiteFile.files(.reject).count == 188)
        #expect(JSONTestSuiteFile.files(.implementationDefined).count == 35)
        #expect(JSONTestSuiteFile.all.count == 318)
        #expect(JSONTestSuiteFile.all.filter { JSONTestSuiteFile.trailingCommaFiles.contains($0.name) }.count == 3)
    }

    @Test(arguments: JSONTestSuiteFile.files(.accept))
    func strictAcceptsValidDocument(_ file: JSONTestSuiteFile) throws {
        let data = try file.contents()
        let parsed = try JSONValue(parsing: data)
        let decoded = try LenientJSONDecoder(.strict).decode(JSONValue.self, from: data)
        #expect(decoded == parsed)
    }

    @Test(arguments: JSONTestSuiteFile.files(.reject))
    func strictRejectsInvalidDocument(_ file: JSONTestSuiteFile) throws {
        let data = try file.contents()
        let parseError = expectParseError(in: data) { _ = try JSONValue(parsing: data) }
        let outcome = DecodingOutcome { try LenientJSONDecoder(.strict).decode(JSONValue.self, from: data) }
        let decodeError = expectSyntaxError(outcome.error)
        #expect(decodeError?.code == parseError?.code, "Parsing and decoding report the same kind of error.")
        #expect(decodeError?.byteOffset == parseError?.byteOffset, "Parsing and decoding report the same position.")
    }

    /// An `i_` file may be accepted or rejected, but parsing and decoding must agree, a rejection must be a positioned
    /// parse error, and neither may hang.
    @Test(.timeLimit(.minutes(1)), arguments: JSONTestSuiteFile.files(.implementationDefined))
    func strictHandlesImplementationDefinedDocument(_ file: JSONTestSuiteFile) throws {
        let data = try file.contents()
        let parsed = DecodingOutcome { try JSONValue(parsing: data) }
        let decoded = DecodingOutcome { try LenientJSONDecoder(.strict).decode(JSONValue.self, from: data) }
        switch (parsed, decoded) {
        case (.value(let parsedValue), .value(let decodedValue)):
            #expect(decodedValue == parsedValue)
        case (.failure(let parseFailure), .failure(let decodeFailure)):
            let parseError = parseFailure as? JSONParseError
            #expect(parseError != nil, "JSONValue(parsing:) throws JSONParseError, not \(parseFailure).")
            #expect(expectSyntaxError(decodeFailure)?.code == parseError?.code)
        case (.value(let parsedValue), .failure(let decodeFailure)):
            Issue.record("JSONValue(parsing:) accepted \(parsedValue) but the strict decoder threw \(decodeFailure).")
        case (.failure(let parseFailure), .value(let decodedValue)):
            Issue.record("JSONValue(parsing:) threw \(parseFailure) but the strict decoder decoded \(decodedValue).")
        }
    }

    /// Every file, in a child process: parsing and decoding (strict and lenient) may throw but never trap.
    @Test func noDocumentCrashesTheProcess() async {
        await #expect(processExitsWith: .success) {
            for file in JSONTestSuiteFile.all {
                guard let data = try? Data(contentsOf: file.url) else { continue }
                _ = try? JSONValue(parsing: data)
                _ = try? LenientJSONDecoder(.strict).decode(JSONValue.self, from: data)
                _ = try? LenientJSONDecoder(.lenient).decode(JSONValue.self, from: data)
            }
        }
    }

    /// The `n_` files that are invalid only because of a trailing comma: `allowsTrailingCommas` (on in `.lenient`)
    /// accepts them with the value Foundation's `JSONDecoder` gives, while `.strict` (above) rejects them. The value is
    /// compared with that one option on, since `.lenient` also coerces values (a number read as a `Bool`).
    @Test(arguments: JSONTestSuiteFile.files(.reject).filter { JSONTestSuiteFile.trailingCommaFiles.contains($0.name) })
    func lenientAcceptsTrailingComma(_ file: JSONTestSuiteFile) throws {
        let data = try file.contents()
        var options = LenientJSONDecoder.Options.strict
        options.allowsTrailingCommas = true
        let outcome = DifferentialOutcome(DecodedTree.self, from: data, options: options)
        #expect(outcome.foundation.value != nil, "Foundation accepts \(file.name).")
        expectSameTree(outcome, file.name)
        let value = try LenientJSONDecoder(.lenient).decode(JSONValue.self, from: data)
        #expect(
            value == (try JSONValue(parsing: data, allowsJSON5: true)), "JSON5 parsing also allows trailing commas.")
    }
}

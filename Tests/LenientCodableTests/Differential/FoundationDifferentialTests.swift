// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `LenientJSONDecoder(.strict)` against the toolchain's own `JSONDecoder`, live, through ``DecodedTree``: both decoders
/// are driven through the same `Codable` calls and must answer each one alike, doubles bit for bit.
@Suite struct FoundationDifferentialTests {
    /// Every `y_` file: Foundation accepts all of them, and the strict decoder must produce the same tree.
    @Test(arguments: JSONTestSuiteFile.files(.accept))
    func validDocumentDecodesLikeFoundation(_ file: JSONTestSuiteFile) throws {
        let outcome = DifferentialOutcome(DecodedTree.self, from: try file.contents())
        #expect(outcome.foundation.value != nil, "Foundation accepts every y_ file.")
        expectSameTree(outcome, file.name)
    }

    /// The `i_` files: where Foundation decodes a value, the strict decoder must decode the same one (huge and tiny
    /// numbers, UTF-16 input, a UTF-8 byte order mark). Where Foundation throws, the strict decoder must throw too, and
    /// either fail at the same place or stop at a positioned syntax error: Foundation validates strings and numbers only
    /// when they are decoded, and `.strict` parses the whole document first (DESIGN.md, "parses RFC 8259 exactly").
    @Test(arguments: JSONTestSuiteFile.files(.implementationDefined))
    func implementationDefinedDocumentDecodesLikeFoundation(_ file: JSONTestSuiteFile) throws {
        let outcome = DifferentialOutcome(DecodedTree.self, from: try file.contents())
        if case .failure = outcome.foundation, case .failure(let strictError) = outcome.lenient,
            (strictError as? DecodingError)?.parseError != nil
        {
            expectSyntaxError(strictError)
        } else {
            expectSameTree(outcome, file.name)
        }
    }

    /// Excludes exactly the documented deliberate difference from the differential: Foundation accepts the `n_` files
    /// with a trailing comma, which `.strict` rejects (RFC 8259). Every other `n_` file Foundation rejects too. (The
    /// other documented leniency, `1` followed by a NUL byte, is in no `n_` file: `n_multidigit_number_then_00.json` is
    /// `123` and a NUL, which Foundation rejects.)
    @Test func foundationAcceptsOnlyTheTrailingCommaFiles() throws {
        var accepted: Set<String> = []
        for file in JSONTestSuiteFile.files(.reject) {
            let data = try file.contents()
            if (try? JSONDecoder().decode(DecodedTree.self, from: data)) != nil {
                accepted.insert(file.name)
            }
        }
        #expect(accepted == JSONTestSuiteFile.trailingCommaFiles)
    }

    @Test(.enabled(if: CorpusDocument.isAvailable, CorpusDocument.unavailableReason), arguments: CorpusDocument.all)
    func corpusDocumentDecodesLikeFoundation(_ document: CorpusDocument) throws {
        let outcome = DifferentialOutcome(DecodedTree.self, from: try document.contents())
        let tree = try #require(outcome.foundation.value, "Foundation decodes \(document.name).")
        expectSameTree(outcome, document.name)
        if document.name == "canada.json" {
            #expect(tree.numberCount == 111_126, "canada.json's numbers are all compared, doubles bit for bit.")
        }
    }
}

extension DecodedTree {
    /// How many numbers the tree holds, whether they were decoded as integers or as doubles.
    fileprivate var numberCount: Int {
        switch self {
        case .integer, .unsignedInteger, .double: 1
        case .array(let elements): elements.reduce(0) { $0 + $1.numberCount }
        case .object(let members, _): members.values.reduce(0) { $0 + $1.numberCount }
        default: 0
        }
    }
}

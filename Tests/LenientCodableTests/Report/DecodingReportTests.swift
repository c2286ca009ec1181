// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// The report: one issue per forgiven value, with its path (`books[2].page`, `[1]`), kind and a message naming what was
/// found and what it became; nothing for clean input.
@Suite struct DecodingReportTests {
    struct Library: Codable, Equatable {
        var name: String
        var books: [Book]
    }

    struct Book: Codable, Equatable {
        var title: String
        var page: Int
    }

    @Test func pathsNameKeysAndIndices() throws {
        let json = #"""
            {"name":"City","books":[
              {"title":"A","page":1},
              {"title":"B","page":2},
              {"title":"C","page":"3"},
              {"title":4,"page":4}]}
            """#
        let (library, report) = try LenientJSONDecoder().decodeWithReport(Library.self, from: json)
        #expect(library.books.map(\.page) == [1, 2, 3, 4])
        #expect(library.books.map(\.title) == ["A", "B", "C", "4"])
        #expect(
            report.issues.map(IssueSummary.init) == [
                IssueSummary(.coerced, "books[2].page"), IssueSummary(.coerced, "books[3].title"),
            ], "\(report)")
        let issue = try #require(report.issues.first)
        #expect(issue.message.contains(#""3""#) && issue.message.contains("Int"), "\(issue.message)")
        #expect(issue.found == .string("3"))
        #expect(report.issues(ofKind: .coerced).count == 2)
        #expect(report.issues(ofKind: .defaulted).isEmpty)
    }

    @Test func topLevelArrayElementsAreBracketed() throws {
        let (values, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: #"[1,"2",3,"x"]"#)
        #expect(values == [1, 2, 3])
        #expect(
            report.issues.map(IssueSummary.init) == [
                IssueSummary(.coerced, "[1]"), IssueSummary(.droppedElement, "[3]"),
            ],
            "\(report)")
    }

    @Test func nestedArraysAndDictionaryKeys() throws {
        struct Shelf: Codable {
            var rows: [[Int]]
            var byID: [String: Book]
        }
        let json = #"""
            {"rows":[[1],[2,"3"]],"byID":{"abc":{"title":"T","page":"x"},"def":{"title":"U"}}}
            """#
        let (shelf, report) = try LenientJSONDecoder().decodeWithReport(Shelf.self, from: json)
        #expect(shelf.rows == [[1], [2, 3]])
        #expect(shelf.byID.count == 2)
        #expect(
            Set(report.issues.map(IssueSummary.init)) == [
                IssueSummary(.coerced, "rows[1][1]"), IssueSummary(.defaulted, "byID.abc.page"),
                IssueSummary(.defaulted, "byID.def.page"),
            ], "\(report)")
        #expect(report.issues.count == 3, "\(report)")
    }

    /// Every entry point reports the same issues.
    @Test func everyEntryPointReports() throws {
        let json = #"{"name":"N","books":[{"title":"A","page":"7"}]}"#
        let decoder = LenientJSONDecoder()
        let expected = [IssueSummary(.coerced, "books[0].page")]
        let fromString = try decoder.decodeWithReport(Library.self, from: json)
        let fromData = try decoder.decodeWithReport(Library.self, from: Data(json.utf8))
        let fromBytes = try decoder.decodeWithReport(Library.self, from: Array(json.utf8))
        let fromValue = try decoder.decodeWithReport(Library.self, from: try JSONValue(parsing: json))
        for (name, result) in [
            ("String", fromString), ("Data", fromData), ("[UInt8]", fromBytes), ("JSONValue", fromValue),
        ] {
            #expect(result.value.books.first?.page == 7, "\(name)")
            #expect(result.report.issues.map(IssueSummary.init) == expected, "\(name): \(result.report)")
        }
        #expect(try decoder.decode(Library.self, from: json) == fromString.value, "decode and decodeWithReport agree")
    }

    struct MessageCase: Sendable, CustomTestStringConvertible {
        let json: String
        let kind: DecodingIssue.Kind
        /// Texts the message must contain: the value found and what it became.
        let texts: [String]
        let decode: @Sendable (String) throws -> DecodingReport

        var testDescription: String { json }

        init<Value: Decodable & SendableMetatype>(
            _ type: Value.Type, _ json: String, _ kind: DecodingIssue.Kind, _ texts: [String]
        ) {
            self.json = json
            self.kind = kind
            self.texts = texts
            decode = { try LenientJSONDecoder().decodeWithReport(Value.self, from: $0).report }
        }
    }

    @Test(arguments: [
        MessageCase(Box<Int>.self, #"{"value":"3"}"#, .coerced, [#""3""#, "Int", "3"]),
        MessageCase(Box<Int>.self, #"{"value":2.9}"#, .coerced, ["2.9", "2"]),
        MessageCase(Box<Bool>.self, #"{"value":"yes"}"#, .coerced, ["yes", "true"]),
        MessageCase(Box<String>.self, #"{"value":1.10}"#, .coerced, ["1.10", "String"]),
        MessageCase(Box<Int8>.self, #"{"value":300}"#, .defaulted, ["300", "0"]),
        MessageCase(Box<[Int]>.self, #"{"value":[1,"oops"]}"#, .droppedElement, ["oops"]),
        MessageCase(Box<Int>.self, #"{}"#, .defaulted, ["0"]),
    ])
    func messagesNameWhatWasFoundAndWhatItBecame(_ testCase: MessageCase) throws {
        let report = try testCase.decode(testCase.json)
        let issue = try #require(report.issues.first, "\(report)")
        #expect(issue.kind == testCase.kind)
        #expect(!issue.message.isEmpty)
        for text in testCase.texts {
            #expect(issue.message.contains(text), "\(issue.message) names \(text)")
        }
    }

    @Test func descriptionListsEveryIssue() throws {
        let (_, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: #"[1,"2","x"]"#)
        let lines = report.description.split(separator: "\n")
        #expect(lines.count == 2, "\(report.description)")
        #expect(lines.first?.contains("[1]") == true)
        #expect(DecodingReport().description == "No issues.")
    }

    // MARK: Unknown keys

    /// Unknown keys are reported when asked, in either preset: `.strict` forgives nothing, and
    /// still says what the model did not read.
    @Test(arguments: [false, true], [false, true])
    func unknownKeysOnlyWhenAsked(reports: Bool, strict: Bool) throws {
        var options = strict ? LenientJSONDecoder.Options.strict : .lenient
        options.reportsUnknownKeys = reports
        #expect(LenientJSONDecoder.Options.lenient.reportsUnknownKeys == false)
        #expect(LenientJSONDecoder.Options.strict.reportsUnknownKeys == false)
        let json = #"{"name":"N","books":[{"title":"A","page":1,"isbn":"x"}],"owner":"O"}"#
        let (_, report) = try LenientJSONDecoder(options: options).decodeWithReport(Library.self, from: json)
        let expected = reports ? [IssueSummary(.unknownKey, "books[0].isbn"), IssueSummary(.unknownKey, "owner")] : []
        #expect(report.issues.map(IssueSummary.init).sorted() == expected, "\(report)")
    }

    struct RequiredBook: Codable, Equatable, KeyMapping {
        var title: String
        var page: Int
        static var requiredProperties: Set<String> { ["page"] }
    }

    struct LossyShelf: Codable, Equatable {
        @LossyArray var books: [RequiredBook]
        @LossyDictionary var byCode: [String: RequiredBook]
    }

    struct PlainShelf: Codable, Equatable {
        var books: [RequiredBook]
        var byCode: [String: RequiredBook]
    }

    /// A dropped element is reported once, as dropped, in the lossy wrappers as in plain
    /// collections: what its model did not get to read is not called unknown, nor are a
    /// `LossyDictionary`'s keys. The unknown keys of the elements kept are.
    @Test(arguments: [false, true])
    func droppedElementsAreNotLookedInside(strict: Bool) throws {
        var options = strict ? LenientJSONDecoder.Options.strict : .lenient
        options.reportsUnknownKeys = true
        let json = #"""
            {"books": [{"title": "A", "page": 1, "isbn": "x"}, {"title": "B", "page": "two", "isbn": "y"}, {"title": "C"}],
             "byCode": {"a": {"title": "D", "page": 4, "isbn": "z"}, "b": {"page": "five", "title": "E", "isbn": "w"}}}
            """#
        let decoder = LenientJSONDecoder(options: options)
        let (shelf, report) = try decoder.decodeWithReport(LossyShelf.self, from: json)
        #expect(shelf.books == [RequiredBook(title: "A", page: 1)])
        #expect(shelf.byCode == ["a": RequiredBook(title: "D", page: 4)])
        let expected = [
            IssueSummary(.unknownKey, "books[0].isbn"), IssueSummary(.droppedElement, "books[1]"),
            IssueSummary(.droppedElement, "books[2]"), IssueSummary(.unknownKey, "byCode.a.isbn"),
            IssueSummary(.droppedElement, "byCode.b"),
        ]
        #expect(report.issues.map(IssueSummary.init).sorted() == expected, "\(report)")
        if !strict {
            // The plain collections of `.lenient` report the same.
            let (plain, plainReport) = try decoder.decodeWithReport(PlainShelf.self, from: json)
            #expect(plain.books == shelf.books && plain.byCode == shelf.byCode)
            #expect(plainReport.issues.map(IssueSummary.init).sorted() == expected, "\(plainReport)")
        }
        // The round trip keeps what was decoded, and reports nothing.
        let (again, againReport) = try decoder.decodeWithReport(
            LossyShelf.self, from: try LenientJSONEncoder().encode(shelf))
        #expect(again == shelf)
        #expect(againReport.isEmpty, "\(againReport)")
    }

    struct FallbackBook: Codable, Equatable, KeyMapping {
        var bookID: String
        var page: Int
        static let keyMapping: [String: KeySource] = ["bookID": ["id", "ID", "book_id"], "page": ["page", "p"]]
    }

    /// A value found under a fallback key and then coerced or defaulted is one value forgiven in
    /// two steps: one issue that says both, of the kind of the last step that lost something.
    @Test(arguments: [
        (
            #"{"ID": 7, "page": 1}"#, FallbackBook(bookID: "7", page: 1),
            [
                (
                    DecodingIssue.Kind.keyFallback, "bookID",
                    #"Found bookID under "ID" instead of "id"; then coerced number 7 to String "7"."#
                )
            ]
        ),
        (
            #"{"id": "a", "p": "twelve"}"#, FallbackBook(bookID: "a", page: 0),
            [
                (
                    .defaulted, "page",
                    #"Found page under "p" instead of "page"; then cannot decode string "twelve" as Int"#
                )
            ]
        ),
        (
            #"{"Book_ID": "b", "PAGE": "3"}"#, FallbackBook(bookID: "b", page: 3),
            [
                (.keyFallback, "bookID", #"Found bookID under "Book_ID" instead of "id"."#),
                (
                    .keyFallback, "page",
                    #"Found page under "PAGE" instead of "page"; then coerced string "3" to Int 3."#
                ),
            ]
        ),
    ])
    func aFallbackThenACoercionIsOneIssue(
        json: String, expected: FallbackBook, issues: [(DecodingIssue.Kind, String, String)]
    ) throws {
        let (book, report) = try LenientJSONDecoder().decodeWithReport(FallbackBook.self, from: json)
        #expect(book == expected)
        #expect(report.issues.map(\.kind) == issues.map(\.0), "\(report)")
        #expect(report.issues.map(\.path) == issues.map(\.1))
        for (issue, expectedIssue) in zip(report.issues, issues) {
            #expect(issue.message.hasPrefix(expectedIssue.2), "\(issue.message)")
        }
        let again = try LenientJSONDecoder().decodeWithReport(
            FallbackBook.self, from: try LenientJSONEncoder().encode(book))
        #expect(again.value == book)
        #expect(again.report.isEmpty, "\(again.report)")
    }

    struct TwiceRead: Decodable, Equatable {
        var text: String
        var number: Int
        enum CodingKeys: String, CodingKey { case value }
        init(text: String, number: Int) {
            self.text = text
            self.number = number
        }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try container.decode(String.self, forKey: .value)
            number = try container.decode(Int.self, forKey: .value)
        }
    }

    struct Tagged: Codable, Equatable, KeyMapping {
        var tags: [Int]
        static let keyMapping: [String: KeySource] = ["tags": ["tags", "labels"]]
    }

    /// The merge keeps every step: a value read twice (found under another key as a `String`,
    /// then coerced as an `Int`) is one issue that says both, and a wrap or JSON text under a
    /// fallback key is one issue too.
    @Test func fallbackMergesKeepEveryStep() throws {
        let (twice, twiceReport) = try LenientJSONDecoder().decodeWithReport(TwiceRead.self, from: #"{"VALUE": "5"}"#)
        #expect(twice == TwiceRead(text: "5", number: 5))
        #expect(twiceReport.issues.map(\.kind) == [.keyFallback], "\(twiceReport)")
        #expect(twiceReport.issues.last?.message.hasSuffix(#"then coerced string "5" to Int 5."#) == true)
        for (json, step) in [
            (#"{"labels": 5}"#, "then wrapped number 5 in Array<Int>."),
            (#"{"labels": "[5]"}"#, "then parsed the JSON text in a string as Array<Int>."),
        ] {
            let (tagged, report) = try LenientJSONDecoder().decodeWithReport(Tagged.self, from: json)
            #expect(tagged.tags == [5])
            #expect(report.issues.count == 1, "\(report)")
            #expect(report.issues.first?.kind == .keyFallback)
            #expect(report.issues.first?.message.hasSuffix(step) == true, "\(report)")
            let again = try LenientJSONDecoder().decodeWithReport(
                Tagged.self, from: try LenientJSONEncoder().encode(tagged))
            #expect(again.value == tagged && again.report.isEmpty)
        }
    }

    // MARK: Clean input

    @Test func cleanInputGivesAnEmptyReport() throws {
        let json = #"{"name":"N","books":[{"title":"A","page":1},{"title":"B","page":2.0}]}"#
        let (_, report) = try LenientJSONDecoder().decodeWithReport(Library.self, from: json)
        #expect(report.isEmpty, "\(report)")
    }

    @Test(.enabled(if: CorpusDocument.isAvailable, CorpusDocument.unavailableReason))
    func twitterCorpusIsClean() throws {
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let (twitter, report) = try decoder.decodeWithReport(
            TypedModelDifferentialTests.Twitter.self, from: try CorpusDocument.twitter.contents())
        #expect(twitter.statuses.count == 100)
        #expect(report.isEmpty, "\(report.issues.prefix(5))")
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        let expected = try foundation.decode(
            TypedModelDifferentialTests.Twitter.self, from: try CorpusDocument.twitter.contents())
        #expect(twitter == expected)
    }

    @Test(.enabled(if: CorpusDocument.isAvailable, CorpusDocument.unavailableReason))
    func citmCatalogCorpusIsClean() throws {
        let data = try CorpusDocument.citmCatalog.contents()
        let (catalog, report) = try LenientJSONDecoder().decodeWithReport(
            TypedModelDifferentialTests.CitmCatalog.self, from: data)
        #expect(report.isEmpty, "\(report.issues.prefix(5))")
        #expect(catalog == (try JSONDecoder().decode(TypedModelDifferentialTests.CitmCatalog.self, from: data)))
    }

    @Test(.enabled(if: CorpusDocument.isAvailable, CorpusDocument.unavailableReason))
    func canadaCorpusIsClean() throws {
        let data = try CorpusDocument.canada.contents()
        let (canada, report) = try LenientJSONDecoder().decodeWithReport(
            TypedModelDifferentialTests.Canada<Double>.self, from: data)
        #expect(report.isEmpty, "\(report.issues.prefix(5))")
        #expect(canada.coordinates.count == 111_126)
    }

    /// A key that would read as more than one step is written quoted in brackets, so that the
    /// paths of `{"k.2": …}` and `{"k": {"2": …}}` never read alike.
    @Test func keysWithDotsOrBracketsAreQuotedInPaths() throws {
        let document =
            #"{"mids":[{"leaves":{"k.2":[{"n":"x"}],"k":{"2":[{"n":"y"}]},"q\"[":[{"n":"z"}],"":[{"n":"w"}]}}]}"#
        struct Leaf: Codable { var n: Int }
        struct Mid: Codable { var leaves: [String: [Leaf]] }
        struct Root: Codable { var mids: [Mid] }
        let (_, report) = try LenientJSONDecoder().decodeWithReport(Root.self, from: document)
        let expected = [
            "mids[0].leaves.k", #"mids[0].leaves[""][0].n"#, #"mids[0].leaves["k.2"][0].n"#,
            #"mids[0].leaves["q\"["][0].n"#,
        ]
        #expect(report.issues.map(\.path).sorted() == expected)
        #expect(report.issues.map(\.jsonPath).sorted() == expected)
    }
    /// Under `.convertFromSnakeCase`, the JSON key `html_url` is read as `htmlUrl`, which is not the coding key
    /// `html_url`: Foundation leaves the property `nil`, and `.lenient` finds it loosely. The report says why, rather
    /// than that the key was found under its own spelling instead of that same spelling.
    @Test func aKeyTheStrategyConvertedAwayIsExplained() throws {
        struct Repository: Codable, Equatable {
            var htmlURL: String?
            enum CodingKeys: String, CodingKey { case htmlURL = "html_url" }
        }
        let decoder = LenientJSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = #"{"html_url":"https://example.com/r"}"#
        let (repository, report) = try decoder.decodeWithReport(Repository.self, from: json)
        #expect(repository.htmlURL == "https://example.com/r")
        let issue = try #require(report.issues.first)
        #expect(report.issues.count == 1)
        #expect(issue.kind == .keyFallback)
        #expect(issue.message.contains(#"which .convertFromSnakeCase reads as the key "htmlUrl""#), "\(issue.message)")
        #expect(!issue.message.contains("instead of"), "\(issue.message)")
        // Foundation's answer, and the round trip through the encoder's matching strategy.
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try foundation.decode(Repository.self, from: Data(json.utf8)).htmlURL == nil)
        let encoder = LenientJSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        #expect(try decoder.decode(Repository.self, from: encoder.encode(repository)) == repository)
        // A key the strategy leaves as it is, found in another case.
        struct Link: Codable, Equatable {
            var url: String?
            enum CodingKeys: String, CodingKey { case url = "Url" }
        }
        let (link, linkReport) = try decoder.decodeWithReport(Link.self, from: #"{"url":"https://example.com"}"#)
        #expect(link.url == "https://example.com")
        let message = try #require(linkReport.issues.first?.message)
        #expect(message == #"Found Url under "url" instead of "Url"."#)
    }
}

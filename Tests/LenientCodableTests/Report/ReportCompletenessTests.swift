// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Each forgiven value is reported exactly once, whatever wrapper it went through, with its coding path, where it was
/// in the JSON (`jsonPath`, right under renames, nested keys and fallback lists) and its kind; the report is `Codable`
/// and each issue prints as one line.
@Suite struct ReportCompletenessTests {
    struct Expected: Equatable, CustomStringConvertible {
        var path: String
        var jsonPath: String
        var kind: DecodingIssue.Kind
        init(_ path: String, _ jsonPath: String, _ kind: DecodingIssue.Kind) {
            self.path = path
            self.jsonPath = jsonPath
            self.kind = kind
        }
        init(_ issue: DecodingIssue) { self.init(issue.path, issue.jsonPath, issue.kind) }
        var description: String { "\(kind) \(path) (\(jsonPath))" }
    }

    struct ReportCase: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var expected: [Expected]
        var decode: @Sendable () throws -> DecodingReport
    }

    struct Library: Decodable {
        var books: [Book]
    }

    struct Book: Decodable, KeyMapping {
        var page: Int
        var desc: String
        var id: Int
        static let keyMapping: [String: KeySource] = ["page": "p", "desc": "ext.desc", "id": ["id", "ID", "book_id"]]
    }

    struct Counts: Decodable {
        var publishedCount: Int
    }

    struct Tags: Decodable {
        var ids: [Int]
    }

    struct LossyTags: Decodable {
        @LossyArray var ids: [Int]
    }

    struct LossyScores: Decodable {
        @LossyDictionary var scores: [String: Int]
    }

    struct Stamped: Decodable {
        @Coerced var at: Date
    }

    struct MaybeStamped: Decodable {
        @Coerced var at: Date?
    }

    struct Paged: Decodable {
        @Coerced var page: Int
    }

    struct Settings: Decodable, KeyMapping {
        @Defaulted var pageSize: Int
        static let keyMapping: [String: KeySource] = ["pageSize": "paging.size"]
    }

    struct Holder: Decodable {
        var item: Item
        struct Item: Decodable { var count: Int }
    }

    struct Strict: Decodable {
        var name: String
    }

    /// A transform whose JSON the decoder reads from a tree of its own.
    struct Parcel: Decodable, KeyMapping {
        var grams: Int
        static let keyMapping: [String: KeySource] = ["grams": "info.weight_g"]
        static let decodingTransforms: [String: JSONTransform] = ["grams": JSONTransform { $0 }]
    }

    /// A hook that hands the decoder the same JSON.
    struct Hooked: Decodable, DecodingHooks {
        var count: Int
        static func willDecode(_ json: JSONValue) throws -> JSONValue { json }
    }

    static func lenientReport<T: Decodable>(
        _ type: T.Type, _ json: String, configure: (LenientJSONDecoder) -> Void = { _ in }
    )
        throws -> DecodingReport
    {
        let decoder = LenientJSONDecoder()
        configure(decoder)
        return try decoder.decodeWithReport(type, from: json).report
    }

    static let cases: [ReportCase] = [
        ReportCase(
            testDescription: "coerced under a renamed key",
            expected: [Expected("books[1].page", "books[1].p", .coerced)]
        ) {
            try lenientReport(
                Library.self,
                #"{"books":[{"p":1,"ext":{"desc":"a"},"id":1},{"p":"412","ext":{"desc":"b"},"id":2}]}"#)
        },
        ReportCase(
            testDescription: "coerced under a nested key",
            expected: [Expected("books[0].desc", "books[0].ext.desc", .coerced)]
        ) {
            try lenientReport(Library.self, #"{"books":[{"p":1,"ext":{"desc":5},"id":1}]}"#)
        },
        ReportCase(
            testDescription: "found under a fallback key",
            expected: [Expected("books[0].id", "books[0].book_id", .keyFallback)]
        ) {
            try lenientReport(Library.self, #"{"books":[{"p":1,"ext":{"desc":"a"},"book_id":7}]}"#)
        },
        ReportCase(
            testDescription: "missing: the first key looked for",
            expected: [
                Expected("books[0].desc", "books[0].ext.desc", .defaulted),
                Expected("books[0].id", "books[0].id", .defaulted),
            ]
        ) {
            try lenientReport(Library.self, #"{"books":[{"p":1}]}"#)
        },
        ReportCase(
            testDescription: "null under a nested key",
            expected: [Expected("books[0].desc", "books[0].ext.desc", .defaulted)]
        ) {
            try lenientReport(Library.self, #"{"books":[{"p":1,"ext":{"desc":null},"id":1}]}"#)
        },
        ReportCase(
            testDescription: "missing under snake case",
            expected: [Expected("publishedCount", "published_count", .defaulted)]
        ) {
            try lenientReport(Counts.self, "{}") { $0.keyDecodingStrategy = .convertFromSnakeCase }
        },
        ReportCase(
            testDescription: "coerced under snake case",
            expected: [Expected("publishedCount", "published_count", .coerced)]
        ) {
            try lenientReport(Counts.self, #"{"published_count":"3"}"#) {
                $0.keyDecodingStrategy = .convertFromSnakeCase
            }
        },
        ReportCase(
            testDescription: "dropped from a plain array", expected: [Expected("ids[1]", "ids[1]", .droppedElement)]
        ) {
            try lenientReport(Tags.self, #"{"ids":[1,"x",3]}"#)
        },
        ReportCase(testDescription: "single value wrapped", expected: [Expected("ids", "ids", .coerced)]) {
            try lenientReport(Tags.self, #"{"ids":5}"#)
        },
        ReportCase(testDescription: "dropped by @LossyArray", expected: [Expected("ids[1]", "ids[1]", .droppedElement)])
        {
            try lenientReport(LossyTags.self, #"{"ids":[1,"x",3]}"#)
        },
        ReportCase(
            testDescription: "dropped by @LossyDictionary",
            expected: [Expected("scores.b", "scores.b", .droppedElement), Expected("scores.c", "scores.c", .coerced)]
        ) {
            try lenientReport(LossyScores.self, #"{"scores":{"a":1,"b":"x","c":"3"}}"#)
        },
        ReportCase(testDescription: "@Coerced Date from a number", expected: []) {
            try lenientReport(Stamped.self, #"{"at":1714557600}"#)
        },
        ReportCase(testDescription: "@Coerced Date? from a number", expected: []) {
            try lenientReport(MaybeStamped.self, #"{"at":1714557600}"#)
        },
        ReportCase(
            testDescription: "@Coerced Date? from an unreadable string", expected: [Expected("at", "at", .defaulted)]
        ) {
            try lenientReport(MaybeStamped.self, #"{"at":"yesterday"}"#)
        },
        ReportCase(testDescription: "@Coerced Int from a string", expected: [Expected("page", "page", .coerced)]) {
            try lenientReport(Paged.self, #"{"page":"412"}"#)
        },
        ReportCase(
            testDescription: "@Defaulted missing", expected: [Expected("pageSize", "paging.size", .defaulted)]
        ) {
            try lenientReport(Settings.self, "{}")
        },
        ReportCase(testDescription: "@Defaulted null", expected: [Expected("pageSize", "paging.size", .defaulted)]) {
            try lenientReport(Settings.self, #"{"paging":{"size":null}}"#)
        },
        ReportCase(testDescription: "@Defaulted invalid", expected: [Expected("pageSize", "paging.size", .defaulted)]) {
            try lenientReport(Settings.self, #"{"paging":{"size":"many"}}"#)
        },
        ReportCase(testDescription: "@Defaulted present", expected: []) {
            try lenientReport(Settings.self, #"{"paging":{"size":20}}"#)
        },
        ReportCase(
            testDescription: "inside JSON text in a string",
            expected: [Expected("item", "item", .coerced), Expected("item.count", "item.count", .coerced)]
        ) {
            try lenientReport(Holder.self, #"{"item":"{\"count\":\"2\"}"}"#)
        },
        ReportCase(testDescription: "an unknown key", expected: [Expected("extra", "extra", .unknownKey)]) {
            var options = LenientJSONDecoder.Options.lenient
            options.reportsUnknownKeys = true
            return try LenientJSONDecoder(options: options).decodeWithReport(
                Strict.self, from: #"{"name":"a","extra":1}"#
            )
            .report
        },
        ReportCase(
            testDescription: "below a path into the document",
            expected: [Expected("data.list[1].page", "data.list[1].p", .coerced)]
        ) {
            let json = #"{"data":{"list":[{"p":1,"ext":{"desc":"a"},"id":1},{"p":"2","ext":{"desc":"b"},"id":2}]}}"#
            return try LenientJSONDecoder().decodeWithReport([Book].self, from: json, at: "data.list").report
        },
    ]

    static let throughOwnTrees: [ReportCase] = [
        ReportCase(testDescription: "inside a transform", expected: [Expected("grams", "info.weight_g", .coerced)]) {
            try lenientReport(Parcel.self, #"{"info":{"weight_g":"250"}}"#)
        },
        ReportCase(testDescription: "inside a hooked value", expected: [Expected("[1].count", "[1].count", .coerced)]) {
            try lenientReport([Hooked].self, #"[{"count":1},{"count":"2"}]"#)
        },
    ]

    @Test(arguments: throughOwnTrees)
    func valuesDecodedFromTreesOfTheirOwnKeepTheirJSONPath(_ testCase: ReportCase) throws {
        let report = try testCase.decode()
        #expect(report.issues.map(Expected.init) == testCase.expected, "\(report)")
    }

    /// The JSON paths of a long list of forgiven values, each found in one pass (a search per issue would be quadratic).
    @Test func manyIssuesKeepTheirJSONPaths() throws {
        let count = 20_000
        let json = "[" + (0..<count).map { #"{"p":"\#($0)","ext":{"desc":"d"},"id":1}"# }.joined(separator: ",") + "]"
        let (books, report) = try LenientJSONDecoder().decodeWithReport([Book].self, from: json)
        #expect(books.count == count)
        try #require(report.issues.count == count)
        #expect(report.issues[0].jsonPath == "[0].p")
        #expect(report.issues[count - 1].jsonPath == "[\(count - 1)].p")
    }

    @Test(arguments: cases)
    func eachForgivenValueIsReportedOnce(_ testCase: ReportCase) throws {
        let report = try testCase.decode()
        #expect(report.issues.map(Expected.init) == testCase.expected, "\(report)")
    }

    @Test func anIssuePrintsAsOneLine() throws {
        let report = try Self.lenientReport(
            Library.self,
            #"{"books":[{"p":1,"ext":{"desc":"a"},"id":1},{"p":2,"ext":{"desc":"b"},"id":2},{"p":"412","ext":{"desc":"c"},"id":3}]}"#
        )
        let issue = try #require(report.issues.first)
        #expect("\(issue)" == #"books[2].page (books[2].p): coerced: Coerced string "412" to Int 412."#)
        #expect(report.description == issue.description)
        #expect(
            DecodingIssue(path: "", kind: .defaulted, message: "M.").description == "<root> (<root>): defaulted: M.")
    }

    /// A single value where an array belongs is named as found: "Wrapped an object in …", not "a single an object".
    @Test func wrappingASingleValueNamesWhatWasWrapped() throws {
        struct Item: Decodable { var name: String }
        struct Listing: Decodable { var items: [Item] }
        let (listing, report) = try LenientJSONDecoder().decodeWithReport(
            Listing.self, from: #"{"items":{"name":"x"}}"#)
        #expect(listing.items.map(\.name) == ["x"])
        #expect(report.issues.map(\.message) == ["Wrapped an object in Array<Item>."])
        let numbers = try Self.lenientReport(Tags.self, #"{"ids":5}"#)
        #expect(numbers.issues.map(\.message) == ["Wrapped number 5 in Array<Int>."])
    }

    @Test func defaultedNamesTheDefaultItGave() throws {
        let missing = try Self.lenientReport(Settings.self, "{}")
        #expect(missing.issues.map(\.message) == ["Missing value; used the default 0."])
        let invalid = try Self.lenientReport(Settings.self, #"{"paging":{"size":"many"}}"#)
        #expect(invalid.issues.count == 1)
        #expect(invalid.issues.first?.message.hasSuffix("used the default 0.") == true, "\(invalid)")
    }

    @Test func reportsAreCodable() throws {
        let report = try Self.lenientReport(Library.self, #"{"books":[{"p":"412","ext":{},"book_id":3}]}"#)
        #expect(report.issues.count == 3, "\(report)")
        let data = try JSONEncoder().encode(report)
        #expect(try JSONDecoder().decode(DecodingReport.self, from: data) == report)
        #expect(try LenientJSONDecoder(options: .strict).decode(DecodingReport.self, from: data) == report)
        let issue = try JSONDecoder().decode(
            DecodingIssue.self, from: Data(#"{"path":"a","kind":"coerced","message":"M."}"#.utf8))
        #expect(issue == DecodingIssue(path: "a", jsonPath: "a", kind: .coerced, message: "M."))
    }
}

extension ReportCompletenessTests {
    class Shape: Decodable, PolymorphicDecodable {
        var name: String
        class func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
            json["type"]?.stringValue == "circle" ? Circle.self : nil
        }
    }

    final class Circle: Shape {
        var radius: Double
        private enum CodingKeys: String, CodingKey { case radius }
        required init(from decoder: any Decoder) throws {
            radius = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .radius)
            try super.init(from: decoder)
        }
    }

    /// A subclass chosen from the JSON reads its members through two types' containers; a member neither reads is
    /// listed once, and the members either reads are not listed. (The type field is a member no property reads.)
    @Test func unknownKeysOfAPolymorphicSubclassAreListedOnce() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        let json = #"[{"type":"circle","name":"c","radius":2,"color":"red"}]"#
        let (shapes, report) = try LenientJSONDecoder(options: options).decodeWithReport([Shape].self, from: json)
        #expect(shapes.first is Circle)
        #expect(
            report.issues.map(Expected.init) == [
                Expected("[0].type", "[0].type", .unknownKey), Expected("[0].color", "[0].color", .unknownKey),
            ], "\(report)")
    }

    struct ScalarLists: Codable, Equatable {
        var ints: [Int]
        var doubles: [Double]
        var flags: [Bool]
        var names: [String]
    }

    /// Arrays of scalars are decoded without a path per element; every element forgiven is still
    /// reported once, under its own path, with what was done to it, and the clean elements not at all.
    @Test func everyForgivenScalarElementIsReportedOnceUnderItsOwnPath() throws {
        let json = #"""
            {"ints":[1,"2",null,"x",5,"6"],"doubles":[1.5,"2.5",true,"nan?"],
             "flags":[true,1,"yes",0,"maybe"],"names":["a",1,null,"d"]}
            """#
        let (lists, report) = try LenientJSONDecoder().decodeWithReport(ScalarLists.self, from: json)
        #expect(
            lists
                == ScalarLists(
                    ints: [1, 2, 5, 6], doubles: [1.5, 2.5, 1], flags: [true, true, true, false],
                    names: ["a", "1", "d"]))
        #expect(
            report.issues.map(Expected.init) == [
                Expected("ints[1]", "ints[1]", .coerced), Expected("ints[2]", "ints[2]", .droppedElement),
                Expected("ints[3]", "ints[3]", .droppedElement), Expected("ints[5]", "ints[5]", .coerced),
                Expected("doubles[1]", "doubles[1]", .coerced), Expected("doubles[2]", "doubles[2]", .coerced),
                Expected("doubles[3]", "doubles[3]", .droppedElement), Expected("flags[1]", "flags[1]", .coerced),
                Expected("flags[2]", "flags[2]", .coerced), Expected("flags[3]", "flags[3]", .coerced),
                Expected("flags[4]", "flags[4]", .droppedElement), Expected("names[1]", "names[1]", .coerced),
                Expected("names[2]", "names[2]", .droppedElement),
            ], "\(report)")
        #expect(report.issues[0].message == #"Coerced string "2" to Int 2."#)
        #expect(report.issues[2].message == #"Dropped element: Cannot coerce string "x" to Int."#)
        // What the encoder writes decodes back to the same lists, with nothing to report.
        let (again, cleanReport) = try LenientJSONDecoder().decodeWithReport(
            ScalarLists.self, from: LenientJSONEncoder().encode(lists))
        #expect(again == lists)
        #expect(cleanReport.issues.isEmpty)
    }
}

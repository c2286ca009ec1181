// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct LossyCollectionTests {
    struct Item: Codable, Equatable, Sendable {
        var id: Int
    }

    struct Feed: Codable, Equatable, Sendable {
        @LossyArray var items: [Item]
        @LossyArray var numbers: [Int]
        @LossyArray var maybe: [Int?]
        @LossyArray var coerced: [Coerced<Int>]
    }

    /// The JSON of one of ``Feed``'s arrays (`nil`: key missing) and the elements kept.
    struct ArrayCase<Element: Sendable & Equatable>: Sendable, CustomTestStringConvertible {
        let json: String?
        let expected: [Element]

        init(_ json: String?, _ expected: [Element]) {
            self.json = json
            self.expected = expected
        }

        var testDescription: String { "\(json ?? "missing") -> \(expected)" }

        func document(key: String) -> String { json.map { #"{"\#(key)":\#($0)}"# } ?? "{}" }
    }

    static let numberRows: [ArrayCase<Int>] = [
        .init("[1,2,3]", [1, 2, 3]), .init(#"[1,"2",3]"#, [1, 3]), .init("[null,1,null]", [1]),
        .init(#"[1.5,{},[],true,4]"#, [4]), .init(#"["a","b"]"#, []), .init("[]", []), .init("null", []),
        .init(nil, []), .init("5", [5]), .init(#""x""#, []), .init("[300000000000000000000,6]", [6]),
    ]

    @Test(arguments: numberRows, WrapperDecoder.allCases)
    func lossyArrayDropsExactlyTheBadElements(_ row: ArrayCase<Int>, decoder: WrapperDecoder) throws {
        let feed = try decoder.decode(Feed.self, from: row.document(key: "numbers"))
        #expect(feed.numbers == row.expected)
        #expect(feed.items.isEmpty)
    }

    static let itemRows: [ArrayCase<Item>] = [
        .init(#"[{"id":1},{"id":"x"},null,{"name":"no id"},{"id":3}]"#, [Item(id: 1), Item(id: 3)]),
        .init(#"{"id":9}"#, [Item(id: 9)]), .init(#"[[{"id":1}]]"#, []),
    ]

    @Test(arguments: itemRows, WrapperDecoder.allCases)
    func lossyArrayOfModels(_ row: ArrayCase<Item>, decoder: WrapperDecoder) throws {
        #expect(try decoder.decode(Feed.self, from: row.document(key: "items")).items == row.expected)
    }

    @Test(arguments: WrapperDecoder.allCases)
    func optionalElementsKeepNullAndDropInvalid(decoder: WrapperDecoder) throws {
        let feed = try decoder.decode(Feed.self, from: #"{"maybe":[1,null,"x",2]}"#)
        #expect(feed.maybe == [1, nil, 2])
    }

    @Test(arguments: WrapperDecoder.allCases)
    func coercedElementsAreForgivenBeforeBeingDropped(decoder: WrapperDecoder) throws {
        let feed = try decoder.decode(Feed.self, from: #"{"coerced":["1",2.0," 3 ","x",null,true]}"#)
        #expect(feed.coerced.map(\.wrappedValue) == [1, 2, 3, 1])
    }

    @Test func lossyArrayOfTenThousandDropsOnlyTheBadOnes() throws {
        let elements = (0..<10_000).map { $0 % 1000 == 999 ? #""bad""# : String($0) }
        let feed = try JSONDecoder().decode(
            Feed.self, from: Data(#"{"numbers":[\#(elements.joined(separator: ","))]}"#.utf8))
        #expect(feed.numbers.count == 9_990)
        #expect(!feed.numbers.contains(999))
        #expect(feed.numbers.last == 9_998)
    }

    // MARK: Dictionaries

    struct Prices: Codable, Equatable, Sendable {
        @LossyDictionary var byCurrency: [String: Double]
        @LossyDictionary var byYear: [Int: Double]
    }

    struct DictionaryCase: Sendable, CustomTestStringConvertible {
        let json: String
        let byCurrency: [String: Double]
        let byYear: [Int: Double]

        var testDescription: String { json }
    }

    static let dictionaryRows: [DictionaryCase] = [
        .init(
            json: #"{"byCurrency":{"EUR":9.5,"USD":"n/a","GBP":null,"JPY":1000}}"#,
            byCurrency: ["EUR": 9.5, "JPY": 1000], byYear: [:]),
        .init(
            json: #"{"byYear":{"2025":1.5,"soon":2,"2026":[],"2027":3}}"#, byCurrency: [:],
            byYear: [2025: 1.5, 2027: 3]),
        .init(json: #"{"byCurrency":null,"byYear":{}}"#, byCurrency: [:], byYear: [:]),
        .init(json: "{}", byCurrency: [:], byYear: [:]),
    ]

    @Test(arguments: dictionaryRows, WrapperDecoder.allCases)
    func lossyDictionaryDropsExactlyTheBadEntries(_ row: DictionaryCase, decoder: WrapperDecoder) throws {
        let prices = try decoder.decode(Prices.self, from: row.json)
        #expect(prices.byCurrency == row.byCurrency)
        #expect(prices.byYear == row.byYear)
    }

    @Test(arguments: WrapperDecoder.allCases)
    func lossyDictionaryRefusesAValueThatIsNotAnObject(decoder: WrapperDecoder) throws {
        let error = #expect(throws: DecodingError.self) {
            try decoder.decode(Prices.self, from: #"{"byCurrency":[1,2]}"#)
        }
        guard case .typeMismatch(_, let context)? = error else {
            Issue.record("Expected typeMismatch, got \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["byCurrency"])
    }

    // MARK: Encoding

    @Test func encodesPlainCollections() throws {
        let feed = Feed(items: [Item(id: 1)], numbers: [1, 3], maybe: [nil, 2], coerced: [Coerced(wrappedValue: 5)])
        let prices = Prices(byCurrency: ["EUR": 9.5], byYear: [2025: 1.5])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(
            String(decoding: try encoder.encode(feed), as: UTF8.self)
                == #"{"coerced":[5],"items":[{"id":1}],"maybe":[null,2],"numbers":[1,3]}"#)
        #expect(
            String(decoding: try encoder.encode(prices), as: UTF8.self)
                == #"{"byCurrency":{"EUR":9.5},"byYear":{"2025":1.5}}"#)
        #expect(try JSONDecoder().decode(Feed.self, from: encoder.encode(feed)) == feed)
        #expect(try JSONDecoder().decode(Prices.self, from: encoder.encode(prices)) == prices)
    }

    /// JSON text in a string holding the list, which a plain array property parses: `@LossyArray` parses it too,
    /// keeps the good elements and reports the parse once and each dropped element once.
    @Test func lossyArrayParsesJSONTextInAString() throws {
        struct Board: Codable, Equatable {
            @LossyArray var items: [Item]
        }
        let json = #"{"items":"[{\"id\":1},\"x\",{\"id\":3}]"}"#
        let (board, report) = try LenientJSONDecoder().decodeWithReport(Board.self, from: json)
        #expect(board.items == [Item(id: 1), Item(id: 3)])
        #expect(report.issues.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.coerced, .droppedElement])
        #expect(try LenientJSONDecoder().decode(Board.self, from: LenientJSONEncoder().encode(board)) == board)
    }
}

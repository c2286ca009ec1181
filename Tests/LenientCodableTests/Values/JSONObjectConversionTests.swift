// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `decode(_:fromJSONObject:)` holds an object graph to the nesting budget of JSON text: 512 levels, refused with the
/// parser's error past them, and a graph that contains itself refused as nested too deep. Each graph here used to
/// overflow the stack, or was refused only after it had been converted whole.
@Suite struct JSONObjectConversionTests {
    static let decoder = LenientJSONDecoder()

    @Test(arguments: CyclicGraph.all)
    func graphThatContainsItselfIsRefusedAsTooDeep(_ graph: CyclicGraph) throws {
        let (root, unlink) = graph.build()
        defer { unlink() }
        let expected = try Self.tooDeepTextError()
        let asValue = try #require(throws: DecodingError.self) {
            try Self.decoder.decode(JSONValue.self, fromJSONObject: root)
        }
        #expect(DecodingErrorSummary(asValue) == expected)
        #expect(asValue.debugDescription.contains("contains itself"), "\(asValue.debugDescription)")
        let asModel = try #require(throws: DecodingError.self) {
            try Self.decoder.decodeWithReport(Node.self, fromJSONObject: root)
        }
        #expect(DecodingErrorSummary(asModel) == expected)
        let strict = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode([Node].self, fromJSONObject: root)
        }
        #expect(DecodingErrorSummary(strict) == expected)
    }

    @Test func swiftArraysNestedFarBeyondTheLimitAreRefused() throws {
        var root: Any = 0
        for _ in 0..<100_000 { root = [root] }
        defer { Self.releaseNestedArrays(&root) }
        let error = try #require(throws: DecodingError.self) {
            try Self.decoder.decode(JSONValue.self, fromJSONObject: root)
        }
        #expect(DecodingErrorSummary(error) == (try Self.tooDeepTextError()))
        #expect(error.debugDescription.contains("512"), "\(error.debugDescription)")
    }

    @Test func swiftDictionariesNestedFarBeyondTheLimitAreRefused() throws {
        var root: Any = 0
        for _ in 0..<100_000 { root = ["a": root] }
        defer { Self.releaseNestedDictionaries(&root) }
        let error = try #require(throws: DecodingError.self) {
            try Self.decoder.decode([String: Int].self, fromJSONObject: root)
        }
        #expect(DecodingErrorSummary(error) == (try Self.tooDeepTextError()))
    }

    @Test func foundationArraysNestedFarBeyondTheLimitAreRefused() throws {
        let levels = (0..<100_000).map { _ in NSMutableArray() }
        // Emptied one at a time, so that releasing the chain does not recurse through it.
        defer { levels.forEach { $0.removeAllObjects() } }
        for (outer, inner) in zip(levels, levels.dropFirst()) { outer.add(inner) }
        let error = try #require(throws: DecodingError.self) {
            try Self.decoder.decode(JSONValue.self, fromJSONObject: levels[0])
        }
        #expect(DecodingErrorSummary(error) == (try Self.tooDeepTextError()))
    }

    @Test(arguments: NestingShape.allCases)
    func nestingAtTheLimitIsAcceptedAndOneMoreIsRefusedAsParsingDoes(_ shape: NestingShape) throws {
        for depth in [511, 512, 513] {
            let parsed = Result { try Self.decoder.decode(JSONValue.self, from: Data(shape.text(depth: depth).utf8)) }
            let converted = Result {
                try Self.decoder.decode(JSONValue.self, fromJSONObject: shape.object(depth: depth))
            }
            switch (parsed, converted) {
            case (.success(let parsedValue), .success(let convertedValue)):
                #expect(depth <= 512)
                #expect(convertedValue == parsedValue, "depth \(depth)")
            case (.failure(let parseError), .failure(let conversionError)):
                #expect(depth > 512)
                #expect(DecodingErrorSummary(conversionError) == DecodingErrorSummary(parseError), "depth \(depth)")
            default:
                Issue.record("At depth \(depth), parsing gave \(parsed) but converting gave \(converted).")
            }
        }
    }

    @Test(arguments: [JSONSerialization.ReadingOptions(), .mutableContainers])
    func foundationObjectsGiveTheValueThatParsingGives(_ options: JSONSerialization.ReadingOptions) throws {
        var text = #"{"id":9007199254740993,"small":-7,"half":0.5,"price":1.10,"flag":true,"off":false,"#
        text += #""text":"t\u00e9 \ud83d\ude00","none":null,"empty":{},"list":[],"nested":"#
        for level in 0..<40 { text += #"{"level":\#(level),"tags":["a",\#(level),false,null],"next":"# }
        text += "[]" + String(repeating: "}", count: 40) + "}"
        let data = Data(text.utf8)
        let object = try JSONSerialization.jsonObject(with: data, options: options)
        let converted = try Self.decoder.decode(JSONValue.self, fromJSONObject: object)
        #expect(converted == (try Self.decoder.decode(JSONValue.self, from: data)))
        let (value, report) = try Self.decoder.decodeWithReport(JSONValue.self, fromJSONObject: object)
        #expect(value == converted)
        #expect(report.issues.isEmpty)
    }

    @Test func swiftValuesOfEveryAcceptedKindConvert() throws {
        let nothing: Int? = nil
        let wrappedArray: NSArray? = NSArray(array: [1, "one"])
        let object: [String: Any] = [
            "int": 42, "double": 2.5, "bool": true, "string": "s", "nothing": nothing as Any, "null": NSNull(),
            "json": JSONValue.array([1, "x"]), "ints": [1, 2], "strings": ["b": "c"], "wrapped": wrappedArray as Any,
            "number": NSNumber(value: UInt64.max), "decimal": Decimal(string: "0.1") as Any,
        ]
        let expected: JSONValue = [
            "bool": true, "decimal": .number("0.1"), "double": 2.5, "int": 42, "ints": [1, 2], "json": [1, "x"],
            "nothing": nil, "null": nil, "number": .number("18446744073709551615"), "string": "s",
            "strings": ["b": "c"], "wrapped": [1, "one"],
        ]
        let converted = try Self.decoder.decode(JSONValue.self, fromJSONObject: object)
        #expect(converted == expected)
        #expect(converted.objectValue?.keys == expected.objectValue?.keys)
    }

    @Test func valuesThatAreNotJSONAreRefusedWithThePathToThem() throws {
        let date = Date(timeIntervalSince1970: 0)
        let numberKeys = NSDictionary(dictionary: [NSNumber(value: 1): "one"])
        let cases: [(object: Any, path: String)] = [
            (["list": [1, date]], "list[1]"),
            ([Set([1, 2])], "[0]"),
            (["a": NSArray(array: [numberKeys])], "a[0]"),
        ]
        for (object, path) in cases {
            let error = try #require(throws: DecodingError.self) {
                try Self.decoder.decode(JSONValue.self, fromJSONObject: object)
            }
            #expect(DecodingErrorSummary(error) == DecodingErrorSummary(kind: .dataCorrupted, codingPath: []))
            #expect(error.debugDescription.contains("at \(path) "), "\(error.debugDescription)")
        }
    }
}

extension JSONObjectConversionTests {
    struct Node: Decodable {
        var items: [Node]
    }

    /// A graph that holds itself, built fresh for each test, with what empties its containers so that it is freed.
    struct CyclicGraph: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var build: @Sendable () -> (root: Any, unlink: () -> Void)

        static let all = [
            CyclicGraph(testDescription: "an array holding itself") {
                let array = NSMutableArray()
                array.add(array)
                return (array, { array.removeAllObjects() })
            },
            // Unfolded until the budget runs out, this would be 2^512 arrays.
            CyclicGraph(testDescription: "an array holding itself twice, after other values") {
                let array = NSMutableArray()
                array.addObjects(from: [1, "two", NSNull()])
                array.add(array)
                array.add(array)
                return (array, { array.removeAllObjects() })
            },
            CyclicGraph(testDescription: "a dictionary holding itself under two keys") {
                let dictionary = NSMutableDictionary()
                dictionary["items"] = dictionary
                dictionary["more"] = dictionary
                return (dictionary, { dictionary.removeAllObjects() })
            },
            CyclicGraph(testDescription: "an array and a dictionary holding each other, inside Swift values") {
                let array = NSMutableArray()
                let dictionary = NSMutableDictionary()
                array.add(dictionary)
                dictionary["items"] = array
                return ([["items": [dictionary]]] as [Any], { array.removeAllObjects() })
            },
        ]
    }

    enum NestingShape: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case swiftArrays, swiftDictionaries, foundationArrays, foundationDictionaries, alternating

        var testDescription: String { rawValue }

        /// The JSON text of `depth` containers around `0`.
        func text(depth: Int) -> String {
            var text = "0"
            for level in 0..<depth {
                text = isArray(atLevelFromInside: level) ? "[\(text)]" : #"{"a":\#(text)}"#
            }
            return text
        }

        /// The same value as `text(depth:)`, as an object graph of this shape.
        func object(depth: Int) -> Any {
            var object: Any = 0
            for level in 0..<depth {
                switch self {
                case .swiftArrays: object = [object]
                case .swiftDictionaries: object = ["a": object]
                case .foundationArrays: object = NSArray(object: object)
                case .foundationDictionaries: object = NSDictionary(object: object, forKey: "a" as NSString)
                case .alternating:
                    object = level.isMultiple(of: 2) ? [object] : NSDictionary(object: object, forKey: "a" as NSString)
                }
            }
            return object
        }

        private func isArray(atLevelFromInside level: Int) -> Bool {
            switch self {
            case .swiftArrays, .foundationArrays: return true
            case .swiftDictionaries, .foundationDictionaries: return false
            case .alternating: return level.isMultiple(of: 2)
            }
        }
    }

    /// What decoding JSON text nested one level past the budget throws.
    static func tooDeepTextError() throws -> DecodingErrorSummary {
        let text = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        let error = try #require(throws: DecodingError.self) {
            try decoder.decode(JSONValue.self, from: Data(text.utf8))
        }
        #expect(error.parseError?.code == .tooDeeplyNested)
        return DecodingErrorSummary(error)
    }

    /// Releases arrays nested in each other one level at a time: released whole, a chain this deep would overflow the
    /// stack.
    static func releaseNestedArrays(_ root: inout Any) {
        var current = root
        root = 0
        while let array = current as? [Any], let first = array.first {
            current = first
        }
    }

    /// Releases dictionaries nested in each other under the key `a` one level at a time.
    static func releaseNestedDictionaries(_ root: inout Any) {
        var current = root
        root = 0
        while let dictionary = current as? [String: Any], let next = dictionary["a"] {
            current = next
        }
    }
}

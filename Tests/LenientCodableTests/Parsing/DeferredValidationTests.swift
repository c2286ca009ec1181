// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `.lenient` validates a string value's or a number's text when a property reads it, as
/// Foundation's `JSONDecoder` does (`defersValueValidation`): a document whose unread fields hold
/// text that is not JSON decodes as under Foundation, and a read of such a value fails with the
/// parse error's line and column, which `.lenient` then forgives and reports as any invalid value.
@Suite struct DeferredValidationTests {
    struct Item: Codable, Equatable {
        var a: Int
    }

    struct ItemWithB: Codable, Equatable {
        var a: Int
        var b: String?
    }

    struct Kept: Codable, Equatable {
        var a: Int
        var rest: UnknownKeys
    }

    /// Reads nothing: Foundation then only scans the document, so it accepts exactly the
    /// documents whose structure is valid.
    struct Nothing: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    /// Texts Foundation accepts where no property reads them, and refuses when one does.
    static let invalidValues: [String] = [
        "012", "1.", "-", "1e", "--1", "1.2.3", "1e5e5", "-.5", "1-2", "1ee", "00", "1e+", "1.e5", "01.5", "1.5.",
        "1+", "-+", #""\x""#, #""\uD800""#, #""\uDC00""#, #""\u00zz""#, "\"x\u{01}y\"", "\"x\ny\"",
        #"["\x", 012]"#, #"{"c": "\a"}"#,
    ]

    /// Documents whose structure Foundation refuses, whatever is read: `.lenient` refuses them too.
    static let invalidStructures: [String] = [
        "+1", ".5", "0x10", "-a", "-1x", #""\u12""#, #""\u1""#, #""\uD800\u""#, #""abc"#, "tru", "1 2",
    ]

    static func document(_ value: String) -> Data {
        Data(#"{"a": 1, "b": \#(value), "z": 2}"#.utf8)
    }

    @Test(arguments: invalidValues)
    func anUnreadValueDecodesAsUnderFoundation(_ value: String) throws {
        let data = Self.document(value)
        let foundation = try JSONDecoder().decode(Item.self, from: data)
        let (lenient, report) = try LenientJSONDecoder().decodeWithReport(Item.self, from: data)
        #expect(lenient == foundation)
        #expect(report.isEmpty, "Nothing was read, so nothing was forgiven: \(report.issues)")
        // `.strict` parses RFC 8259 exactly, and says where the document goes wrong.
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(.strict).decode(Item.self, from: data)
        }
        #expect(error.parseError != nil)
        var strictButDeferring = LenientJSONDecoder.Options.strict
        strictButDeferring.defersValueValidation = true
        #expect(try LenientJSONDecoder(options: strictButDeferring).decode(Item.self, from: data) == foundation)
    }

    @Test(arguments: invalidStructures)
    func aDocumentFoundationRefusesIsRefused(_ value: String) throws {
        let data = Self.document(value)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(Item.self, from: data) }
        let error = try #require(throws: DecodingError.self) { try LenientJSONDecoder().decode(Item.self, from: data) }
        let parseError = try #require(error.parseError)
        #expect(parseError.line == 1 && parseError.column >= 12, "\(parseError)")
    }

    /// Every file of JSONTestSuite, read by a model that reads nothing: `.lenient` accepts exactly
    /// what Foundation accepts (trailing commas included), since it validates values only when read.
    @Test func everyConformanceFileIsAcceptedWhereFoundationAcceptsIt() throws {
        var differences: [String] = []
        for file in JSONTestSuiteFile.all where !Self.foundationQuirks.contains(file.name) {
            let data = try file.contents()
            let foundation = (try? JSONDecoder().decode(Nothing.self, from: data)) != nil
            let lenient = (try? LenientJSONDecoder().decode(Nothing.self, from: data)) != nil
            if foundation != lenient {
                differences.append("\(file.name): Foundation \(foundation), lenient \(lenient)")
            }
        }
        #expect(differences.isEmpty, "\(differences)")
        #expect(JSONTestSuiteFile.all.count > 300)
    }

    /// Files where Foundation does what FOUNDATION-NOTES.md records as its own surprise, not a
    /// question of when values are validated: encodings it detects differently, a document
    /// nested past its limit at the very end (which traps it), and a NUL after a number.
    static let foundationQuirks: Set<String> = [
        "n_structure_100000_opening_arrays.json", "n_structure_open_array_object.json",
        "i_structure_500_nested_arrays.json", "n_multidigit_number_then_00.json",
        "i_string_UTF-16LE_with_BOM.json", "i_string_utf16BE_no_BOM.json", "i_string_utf16LE_no_BOM.json",
        "n_structure_UTF8_BOM_no_data.json", "i_string_UTF8_surrogate_U+D800.json",
        // Keys: LenientCodable checks every key as it parses; Foundation checks an object's keys
        // when a model makes a keyed container of it, which a model that reads nothing never does.
        "i_object_key_lone_2nd_surrogate.json", "n_object_lone_continuation_byte_in_key_and_trailing_comma.json",
    ]

    @Test func aReadValueIsForgivenAndReportedWithItsPlace() throws {
        let data = Data("{\"a\": 1,\n \"b\": \"caf\\x\"}".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ItemWithB.self, from: data) }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(ItemWithB.self, from: data)
        #expect(value == ItemWithB(a: 1, b: nil))
        let issue = try #require(report.issues.first)
        #expect(report.issues.count == 1)
        #expect(issue.path == "b")
        #expect(issue.kind == .defaulted)
        #expect(issue.message.contains("line 2, column 11"), "\(issue.message)")
        // Round trip: what the encoder writes decodes to the same value, with nothing to forgive.
        let encoded = try LenientJSONEncoder().encode(value)
        let (again, againReport) = try LenientJSONDecoder().decodeWithReport(ItemWithB.self, from: encoded)
        #expect(again == value)
        #expect(againReport.isEmpty)
    }

    @Test func aValueThatMayNotBeDefaultedFailsWithTheParseError() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.defaultsInvalidValues = false
        let data = Data(#"{"a": 012}"#.utf8)
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Item.self, from: data)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["a"])
        let parseError = try #require(context.underlyingError as? JSONParseError)
        #expect(parseError.code == .invalidNumber)
        #expect(parseError.line == 1 && parseError.column == 7)
        #expect(context.debugDescription.contains("'012'"))
    }

    @Test func anInvalidElementIsDroppedFromALossyArray() throws {
        let data = Data(#"{"names": ["x", "\q", "y"]}"#.utf8)
        struct Names: Codable, Equatable { var names: [String] }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Names.self, from: data) }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Names.self, from: data)
        #expect(value.names == ["x", "y"])
        #expect(report.issues.map(\.kind) == [.droppedElement])
        #expect(report.issues.first?.path == "names[1]")
    }

    @Test func aBagLeavesOutAnInvalidMemberAndKeepsTheRest() throws {
        let data = Data(
            #"{"a": 1, "good": [1, "two"], "bad": "\x", "part": {"x": 012, "y": 2}, "fine": "\u00e9"}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Kept.self, from: data)
        #expect(value.a == 1)
        #expect(value.rest.members.keys == ["good", "part", "fine"])
        #expect(value.rest["part"] == ["y": 2])
        #expect(value.rest["fine"] == "é")
        #expect(report.issues.map(\.kind) == [.droppedElement, .droppedElement])
        #expect(report.issues.map(\.path) == ["bad", "part.x"])
        #expect(report.issues.last?.message.contains("'012'") == true)
        // What the bag kept comes back whole through the encoder.
        let again = try LenientJSONDecoder().decode(Kept.self, from: try LenientJSONEncoder().encode(value))
        #expect(again == value)
    }

    @Test func aJSONValuePropertyNeverHoldsInvalidText() throws {
        struct Raw: Codable, Equatable {
            var a: Int
            var payload: JSONValue?
        }
        let data = Data(#"{"a": 1, "payload": {"ok": 1, "n": 1.}}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Raw.self, from: data) }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Raw.self, from: data)
        #expect(value == Raw(a: 1, payload: nil))
        #expect(report.issues.map(\.path) == ["payload"])
        // Without the invalid member, the same value comes through whole.
        let clean = try LenientJSONDecoder().decode(Raw.self, from: Data(#"{"a": 1, "payload": {"ok": 1}}"#.utf8))
        #expect(clean.payload == ["ok": 1])
    }

    /// Used by one test only, whose hook must never run.
    struct Hooked: Codable, Equatable, DecodingHooks {
        var a: Int
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            Issue.record("The hook was handed \(json)")
            return json
        }
    }

    @Test func aHookNeverSeesInvalidText() throws {
        struct Outer: Codable, Equatable { var item: Hooked? }
        let data = Data(#"{"item": {"a": 1, "note": "\x"}}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Outer.self, from: data)
        #expect(value.item == nil)
        #expect(report.issues.map(\.path) == ["item"])
    }

    @Test func aConverterIsNotHandedInvalidText() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.converters.register(String.self) { json in
            Issue.record("The converter was called with \(json)")
            return "converted"
        }
        let (value, report) = try LenientJSONDecoder(options: options).decodeWithReport(
            ItemWithB.self, from: Data(#"{"a": 1, "b": "\x"}"#.utf8))
        #expect(value == ItemWithB(a: 1, b: nil))
        #expect(report.issues.count == 1)
    }

    /// A model that keeps its decoder reads the invalid value after `decode` returned: the input
    /// it needs for the message was kept with the tree.
    @Test func aKeptDecoderReadsTheErrorAfterDecodeReturned() throws {
        final class Lazy: Decodable, @unchecked Sendable {
            // Read only on the test's thread, after `decode` returned.
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        // Without `.lenient`'s defaults, so that the read fails rather than being forgiven.
        var options = LenientJSONDecoder.Options.strict
        options.defersValueValidation = true
        let lazy = try LenientJSONDecoder(options: options).decode(Lazy.self, from: Data("{\"n\":\n 1.}".utf8))
        let container = try lazy.decoder.container(keyedBy: TestCodingKey.self)
        let error = try #require(throws: DecodingError.self) {
            try container.decode(Double.self, forKey: TestCodingKey("n"))
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("Expected dataCorrupted, got \(error)")
            return
        }
        let parseError = try #require(context.underlyingError as? JSONParseError)
        #expect(parseError.line == 2 && parseError.column == 2)
        // Characters beyond ASCII before the value, counted from the kept input after the call.
        let wide = try LenientJSONDecoder(options: options).decode(
            Lazy.self, from: Data("{\"s\": \"日本語é\",\n \"ж\": 0, \"n\": 1.}".utf8))
        let wideError = try #require(throws: DecodingError.self) {
            try wide.decoder.container(keyedBy: TestCodingKey.self).decode(Double.self, forKey: TestCodingKey("n"))
        }
        guard case .dataCorrupted(let wideContext) = wideError else {
            Issue.record("Expected dataCorrupted, got \(wideError)")
            return
        }
        let wideParseError = try #require(wideContext.underlyingError as? JSONParseError)
        #expect(wideParseError.line == 2 && wideParseError.column == 15)
    }

    @Test func JSONTextInAStringDefersAsTheDocumentDoes() throws {
        struct Outer: Codable, Equatable { var inner: Item }
        let data = Data(#"{"inner": "{\"a\": 1, \"b\": 012}"}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Outer.self, from: data)
        #expect(value == Outer(inner: Item(a: 1)))
        #expect(report.issues.map(\.kind) == [.coerced])
    }

    @Test func turningTheOptionOffRefusesTheDocument() throws {
        var options = LenientJSONDecoder.Options.lenient
        options.defersValueValidation = false
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: options).decode(Item.self, from: Self.document("012"))
        }
        #expect(error.parseError?.code == .invalidNumber)
    }

    /// Each read invalid value names its own line and column, counted as for any syntax error:
    /// Unicode scalars, CR LF one line break, also where a long document's errors are looked up
    /// from positions recorded along the way.
    @Test func everyErrorNamesItsLineAndColumn() throws {
        var text = "["
        var expected: [(line: Int, column: Int)] = []
        var line = 1
        var column = 2
        for index in 0..<600 {
            let filler = index.isMultiple(of: 3) ? "\"日本語\"" : "\"abcdefgh\""
            let breakText = index.isMultiple(of: 5) ? "\r\n" : index.isMultiple(of: 7) ? "\n" : " "
            text += filler + ","
            column += filler.unicodeScalars.count + 1
            text += breakText
            if breakText == " " {
                column += 1
            } else {
                line += 1
                column = 1
            }
            expected.append((line, column))
            text += "012,"
            column += 4
        }
        text += "1]"
        let (values, report) = try LenientJSONDecoder().decodeWithReport([Int].self, from: Data(text.utf8))
        #expect(values == [1])
        let dropped = report.issues.filter { $0.message.contains("'012'") }
        #expect(dropped.count == expected.count)
        for (issue, place) in zip(dropped, expected) {
            #expect(issue.message.contains("line \(place.line), column \(place.column)"), "\(issue.message)")
        }
    }

    /// A number that goes on past its valid start (`1-2`, `1.5.`) is one element, counted once:
    /// containers, lossy arrays and paths see the elements Foundation sees, and nothing past them.
    @Test(arguments: ["1-2", "1.5.", "1e5e5", "9-", "0.0.", "1+"])
    func aNumberThatGoesOnIsOneElement(_ number: String) throws {
        struct Counted: Decodable {
            var count: Int?
            var elements: [String] = []
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                count = container.count
                while !container.isAtEnd {
                    if let element = try? container.decode(String.self) {
                        elements.append(element)
                    } else {
                        // A failed decode leaves the index where it was: step over the element.
                        _ = try container.decode(Nothing.self)
                        elements.append("?")
                    }
                }
            }
        }
        let array = Data("[\(number), \"b\"]".utf8)
        let counted = try LenientJSONDecoder().decode(Counted.self, from: array)
        let foundation = try JSONDecoder().decode(Counted.self, from: array)
        #expect(counted.count == 2 && foundation.count == 2)
        #expect(counted.elements == foundation.elements)
        #expect(counted.elements == ["?", "b"])

        struct Ids: Decodable {
            @LossyArray var ids: [String]
            var next: String?
        }
        let document = Data(#"{"ids": ["a", \#(number)], "next": "n", "z": 1}"#.utf8)
        let (ids, report) = try LenientJSONDecoder().decodeWithReport(Ids.self, from: document)
        #expect(ids.ids == ["a"])
        #expect(ids.next == "n")
        #expect(report.issues.map(\.path) == ["ids[1]"])
        let many = "[" + Array(repeating: number, count: 1000).joined(separator: ",") + "]"
        #expect(try LenientJSONDecoder().decode(LossyArray<Int>.self, from: Data(many.utf8)).wrappedValue == [])

        let pathed = Data(#"{"a": [\#(number), 3], "z": 99}"#.utf8)
        #expect(try LenientJSONDecoder().decode(Int.self, from: pathed, at: "a[1]") == 3)
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(JSONValue.self, from: pathed, at: "a[2]")
        }
    }

    /// Read as another kind than its own, an invalid value is Foundation's type mismatch; read
    /// as its own kind, Foundation's "not valid JSON".
    @Test(arguments: [(#""\x""#, true), ("012", false)])
    func theErrorCaseIsFoundations(_ text: String, isString: Bool) throws {
        var options = LenientJSONDecoder.Options.strict
        options.defersValueValidation = true
        let decoder = LenientJSONDecoder(options: options)
        struct S: Decodable { var v: String }
        struct N: Decodable { var v: Double }
        let data = Data(#"{"v": \#(text)}"#.utf8)
        func kind(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "value"
            } catch DecodingError.typeMismatch {
                return "typeMismatch"
            } catch DecodingError.dataCorrupted {
                return "dataCorrupted"
            } catch {
                return "other \(error)"
            }
        }
        let oursAsString = kind { _ = try decoder.decode(S.self, from: data) }
        let oursAsNumber = kind { _ = try decoder.decode(N.self, from: data) }
        #expect(oursAsString == kind { _ = try JSONDecoder().decode(S.self, from: data) })
        #expect(oursAsNumber == kind { _ = try JSONDecoder().decode(N.self, from: data) })
        #expect(oursAsString == (isString ? "dataCorrupted" : "typeMismatch"))
        #expect(oursAsNumber == (isString ? "typeMismatch" : "dataCorrupted"))
    }

    @Test func aDroppedMemberIsReportedOnceAtItsPlace() throws {
        struct Nested: Codable, Equatable, KeyMapping {
            var desc: Int
            var rest: UnknownKeys
            static let keyMapping: [String: KeySource] = ["desc": "ext.desc"]
        }
        let decoder = LenientJSONDecoder()
        decoder.options.reportsUnknownKeys = true
        let (value, report) = try decoder.decodeWithReport(
            Nested.self, from: Data(#"{"ext": {"desc": 1, "other": 012, "kept": true}, "bad": "\x"}"#.utf8))
        #expect(value.desc == 1)
        #expect(value.rest["ext"] == ["kept": true])
        #expect(report.issues.map(\.path).sorted() == ["bad", "ext.other"])
        #expect(report.issues.allSatisfy { $0.kind == .droppedElement })
        let again = try decoder.decodeWithReport(Nested.self, from: try LenientJSONEncoder().encode(value))
        #expect(again.value == value)
        #expect(again.report.isEmpty)
    }

    /// A bag keeps the valid rest of an object or array that holds invalid text, also where a
    /// mapped key path would step through the invalid element: only that element is left out.
    @Test func aBagKeepsTheValidRestOfAContainer() throws {
        struct Stepped: Codable, Equatable, KeyMapping {
            var time: Int?
            var rest = UnknownKeys()
            static let keyMapping: [String: KeySource] = ["time": "info[1].time"]
        }
        let data = Data(#"{"info": [0, 1-2, {"y": 2}], "meta": {"ok": true, "bad": "\x", "deep": [012, 3]}}"#.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Stepped.self, from: data)
        #expect(value.time == nil)
        #expect(value.rest["info"] == [0, ["y": 2]])
        #expect(value.rest["meta"] == ["ok": true, "deep": [3]])
        #expect(report.issues.map(\.path) == ["info[1]", "meta.bad", "meta.deep[0]"])
        #expect(report.issues.allSatisfy { $0.kind == .droppedElement })
        let again = try LenientJSONDecoder().decodeWithReport(
            Stepped.self, from: try LenientJSONEncoder().encode(value))
        #expect(again.value == value)
        #expect(again.report.isEmpty)
    }

    @Test func JSON5IsCheckedWholeAlsoInJSONText() throws {
        struct Outer: Codable { var inner: Item? }
        let decoder = LenientJSONDecoder()
        decoder.allowsJSON5 = true
        let (value, report) = try decoder.decodeWithReport(
            Outer.self, from: Data(#"{"inner": "{\"a\": 1, \"b\": 012}"}"#.utf8))
        // The text does not parse: its number is refused, so the optional property is `nil`.
        #expect(value.inner == nil)
        #expect(report.issues.count == 1)
    }

    /// Many invalid values, unread and read as lossy elements: each costs the same, once.
    @Test func manyInvalidValuesInOneDocument() throws {
        let count = 20_000
        let elements = Array(repeating: #""\x""#, count: count).joined(separator: ",")
        let data = Data(#"{"a": 1, "list": [\#(elements), "ok"]}"#.utf8)
        #expect(try LenientJSONDecoder().decode(Item.self, from: data) == Item(a: 1))
        struct Listed: Codable { var list: [String] }
        let (listed, report) = try LenientJSONDecoder().decodeWithReport(Listed.self, from: data)
        #expect(listed.list == ["ok"])
        #expect(report.issues.count == count)
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Where Foundation's `JSONDecoder` decodes a value, the lenient decoder gives the same value: forgiveness starts
/// only where Foundation fails. Types that decode themselves and probe with `try?` (as API clients' unions and
/// any-JSON types do) must see Foundation's answers first; and a lenient collection never invents an element.
@Suite struct FoundationFirstTests {
    // MARK: Types that probe

    struct Item: Codable, Equatable {
        var name: String
    }

    /// OctoKit's `ContentResponse` shape: a directory listing or a single file.
    enum ContentResponse: Codable, Equatable {
        case list([Item])
        case single(Item)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([Item].self) {
                self = .list(list)
            } else {
                self = .single(try container.decode(Item.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .list(let items): try container.encode(items)
            case .single(let item): try container.encode(item)
            }
        }
    }

    /// An any-JSON type that tries `String` first, as many API clients' do.
    enum AnyScalar: Codable, Equatable {
        case string(String)
        case int(Int)
        case bool(Bool)
        case double(Double)
        case null

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let number = try? container.decode(Int.self) {
                self = .int(number)
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? container.decode(Double.self) {
                self = .double(number)
            } else if container.decodeNil() {
                self = .null
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a scalar.")
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .int(let number): try container.encode(number)
            case .bool(let flag): try container.encode(flag)
            case .double(let number): try container.encode(number)
            case .null: try container.encodeNil()
            }
        }
    }

    struct Envelope<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value
    }

    static let probes: [(String, String)] = [
        ("ContentResponse", #"{"value":{"name":"Package.swift"}}"#),
        ("ContentResponse", #"{"value":[{"name":"a"},{"name":"b"}]}"#),
        ("AnyScalar", #"{"value":5}"#),
        ("AnyScalar", #"{"value":"5"}"#),
        ("AnyScalar", #"{"value":true}"#),
        ("AnyScalar", #"{"value":1.5}"#),
        ("AnyScalar", #"{"value":null}"#),
        ("AnyScalar", #"{"value":"true"}"#),
    ]

    @Test(arguments: probes)
    func probingTypesGetFoundationsValue(type: String, json: String) throws {
        switch type {
        case "ContentResponse": try Self.expectFoundationsValue(Envelope<ContentResponse>.self, json)
        default: try Self.expectFoundationsValue(Envelope<AnyScalar>.self, json)
        }
    }

    static func expectFoundationsValue<T: Codable & Equatable>(_ type: T.Type, _ json: String) throws {
        let data = Data(json.utf8)
        let expected = try JSONDecoder().decode(T.self, from: data)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(T.self, from: data)
        #expect(value == expected)
        #expect(report.isEmpty, "nothing to forgive where Foundation decodes: \(report)")
        #expect(try LenientJSONDecoder(.strict).decode(T.self, from: data) == expected)
        // And back: what the encoder writes decodes to the same value.
        #expect(try LenientJSONDecoder().decode(T.self, from: LenientJSONEncoder().encode(value)) == value)
    }

    /// Where Foundation fails, the type's own probes fail too, and then the coercions apply: a string holding a
    /// number for a wrapper that reads `Int`, with the coercion reported once.
    struct Count: Codable, Equatable {
        var value: Int
        init(value: Int) { self.value = value }
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Int.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    @Test func coercionsApplyWhereFoundationFails() throws {
        let json = #"{"value":"42"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Envelope<Count>.self, from: Data(json.utf8)) }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Envelope<Count>.self, from: json)
        #expect(value.value == Count(value: 42))
        #expect(report.issues.map(\.kind) == [.coerced])
        #expect(report.issues.first?.path == "value")
        #expect(
            try LenientJSONDecoder().decode(Envelope<Count>.self, from: LenientJSONEncoder().encode(value)) == value)
        // A union whose every branch fails in Foundation's terms decodes again with the coercions, and its first
        // probe that then succeeds wins: here the JSON text in the string, wrapped in an array. One value, so
        // one issue, which names both.
        let wrapped = try LenientJSONDecoder().decodeWithReport(
            Envelope<ContentResponse>.self, from: #"{"value":"{\"name\":\"x\"}"}"#)
        #expect(wrapped.value.value == .list([Item(name: "x")]))
        #expect(wrapped.report.issues.map(\.kind) == [.coerced])
        #expect(wrapped.report.issues.first?.message.contains("; then wrapped an object in Array<") == true)
    }

    /// `ContentResponse`, asking the value's shape before it decodes.
    enum ShapedContent: Codable, Equatable {
        case list([Item])
        case single(Item)

        init(from decoder: any Decoder) throws {
            if (try? decoder.unkeyedContainer()) != nil {
                self = .list(try decoder.singleValueContainer().decode([Item].self))
            } else {
                self = .single(try decoder.singleValueContainer().decode(Item.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .list(let items): try container.encode(items)
            case .single(let item): try container.encode(item)
            }
        }
    }

    @Test func aUnionWhoseItemNeedsForgivingTakesItsFirstProbeThatThenSucceeds() throws {
        // Foundation decodes neither branch of `{"name":5}`: the first probe that succeeds with forgiveness wins, the
        // list, and the report names the wrap and the coercion (Coercion.md, "Foundation's answer first").
        let json = #"{"value":{"name":5}}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Envelope<ContentResponse>.self, from: Data(json.utf8))
        }
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Envelope<ContentResponse>.self, from: json)
        #expect(value.value == .list([Item(name: "5")]))
        #expect(report.issues.map(\.path) == ["value", "value[0].name"])
        #expect(report.issues.first?.message.contains("Wrapped an object in Array<") == true)
        #expect(
            try LenientJSONDecoder().decode(Envelope<ContentResponse>.self, from: LenientJSONEncoder().encode(value))
                == value)
        // A type that asks the shape first keeps the single item, its name coerced.
        let (shaped, shapedReport) = try LenientJSONDecoder().decodeWithReport(
            Envelope<ShapedContent>.self, from: json)
        #expect(shaped.value == .single(Item(name: "5")))
        #expect(shapedReport.issues.map(\.path) == ["value.name"])
        #expect(shapedReport.issues.map(\.kind) == [.coerced])
        #expect(
            try LenientJSONDecoder().decode(Envelope<ShapedContent>.self, from: LenientJSONEncoder().encode(shaped))
                == shaped)
        let list = try LenientJSONDecoder().decode(Envelope<ShapedContent>.self, from: #"{"value":[{"name":5}]}"#)
        #expect(list.value == .list([Item(name: "5")]))
    }

    // MARK: No invented elements

    struct Label: Codable, Equatable {
        var id: Int
        var name: String
    }

    struct Tag: Codable, Equatable {
        var id: Int?
        var name: String?
    }

    @Test func anElementOfWhichNoPropertyIsPresentIsDroppedNotInvented() throws {
        let json = #"[{"id":1,"name":"bug"},{"garbage":true},{},{"id":"3"}]"#
        let (labels, report) = try LenientJSONDecoder().decodeWithReport([Label].self, from: json)
        // The last one has its id: its missing name is defaulted, as any missing property is.
        #expect(labels == [Label(id: 1, name: "bug"), Label(id: 3, name: "")])
        let dropped = report.issues(ofKind: .droppedElement)
        #expect(dropped.map(\.path) == ["[1]", "[2]"])
        #expect(dropped.first?.message.contains("None of the properties of Label") == true)
        // Nothing is reported about the fields of a dropped element.
        #expect(!report.issues.contains { $0.path.hasPrefix("[1].") || $0.path.hasPrefix("[2].") })
        #expect(report.issues.map(\.path) == ["[1]", "[2]", "[3].id", "[3].name"])
        // In a dictionary, a set and a lossy wrapper too.
        let byName = try LenientJSONDecoder().decode([String: Label].self, from: #"{"a":{"id":1,"name":"x"},"b":{}}"#)
        #expect(byName == ["a": Label(id: 1, name: "x")])
        struct Board: Decodable {
            @LossyArray var labels: [Label]
        }
        #expect(
            try LenientJSONDecoder().decode(Board.self, from: #"{"labels":[{"x":1},{"id":2,"name":"y"}]}"#).labels
                == [Label(id: 2, name: "y")])
    }

    @Test func anElementWhoseMissingPropertiesAreOptionalDecodesAsInFoundation() throws {
        let json = #"[{},{"id":1},{"other":true}]"#
        let expected = try JSONDecoder().decode([Tag].self, from: Data(json.utf8))
        let (tags, report) = try LenientJSONDecoder().decodeWithReport([Tag].self, from: json)
        #expect(tags == expected)
        #expect(report.isEmpty)
        #expect(try LenientJSONDecoder().decode([Tag].self, from: LenientJSONEncoder().encode(tags)) == tags)
    }

    @Test func aTopLevelObjectStillTakesItsDefaults() throws {
        // Outside a collection there is nothing to leave out: the defaults apply and are reported
        // (`requiredProperties` refuses them).
        let (label, report) = try LenientJSONDecoder().decodeWithReport(Label.self, from: "{}")
        #expect(label == Label(id: 0, name: ""))
        #expect(report.issues.map(\.kind) == [.defaulted, .defaulted])
    }
}

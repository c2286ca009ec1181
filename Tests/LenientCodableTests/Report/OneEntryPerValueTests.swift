// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Each value forgiven is in the report exactly once: two values that look alike (the same JSON
/// path and message, in trees the decoder built itself) are two entries, and one value read
/// twice is one.
struct OneEntryPerValueTests {
    struct Size: Codable, Equatable, KeyMapping {
        var width: Int
        var height: Int
        static let keyMapping: [String: KeySource] = ["width": "size", "height": "size"]
        static let decodingTransforms: [String: JSONTransform] = ["width": .member("w"), "height": .member("h")]
    }

    /// Two properties transformed out of one member: each coerces a value of its own, with the
    /// same JSON path and the same message.
    @Test(arguments: [#"{"size":{"w":"10","h":"10"}}"#, #"{"size":{"w":"10","h":"20"}}"#])
    func twoPropertiesTransformedOutOfOneMemberAreTwoEntries(_ text: String) throws {
        let (size, report) = try LenientJSONDecoder().decodeWithReport(Size.self, from: text)
        #expect(size.width == 10 && [10, 20].contains(size.height))
        #expect(report.issues.map(\.path) == ["width", "height"])
        #expect(report.issues.map(\.kind) == [.coerced, .coerced])
        #expect(report.issues.map(\.jsonPath) == ["size", "size"])
    }

    struct Label: Codable, Equatable, KeyMapping {
        var title: String
        var displayName: String
        static let keyMapping: [String: KeySource] = ["title": "name", "displayName": "name"]
    }

    struct Holder: Codable, Equatable {
        var label: Label
    }

    /// Two properties defaulted for one missing key are two entries, inside JSON text in a
    /// string as in the document itself; the text's parse is one more.
    @Test(arguments: [#"{"label":{"other":1}}"#, #"{"label":"{\"other\":1}"}"#])
    func twoDefaultsForOneMissingKeyAreTwoEntriesInJSONText(_ text: String) throws {
        let (holder, report) = try LenientJSONDecoder().decodeWithReport(Holder.self, from: text)
        #expect(holder == Holder(label: Label(title: "", displayName: "")))
        let defaulted = report.issues.filter { $0.kind == .defaulted }
        #expect(defaulted.map(\.path) == ["label.title", "label.displayName"])
        #expect(report.issues.count == (text.contains("\\\"") ? 3 : 2))
        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Holder.self, from: LenientJSONEncoder().encode(holder))
        #expect(again == holder && reportAgain.isEmpty)
    }

    /// A list's element wrapped from JSON text and the same text decoded as itself are one value:
    /// a model that probes both ways forgave each coerced member once.
    struct Item: Codable, Equatable {
        var v: Int
    }

    enum ListOrItem: Decodable, Equatable {
        case list([Item])
        case item(Item)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let list = try? container.decode([Item].self), list.count > 1 {
                self = .list(list)
            } else {
                self = .item(try container.decode(Item.self))
            }
        }
    }

    @Test func oneValueReadTwiceInsideJSONTextIsOneEntry() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            ListOrItem.self, from: #""{\"v\":\"3\"}""#)
        #expect(value == .item(Item(v: 3)))
        #expect(report.issues.filter { $0.message.hasPrefix("Coerced string") }.count == 1)
        #expect(report.issues.filter { $0.message.hasPrefix("Parsed the JSON text") }.count == 1)
    }

    struct Inner: Codable, Equatable {
        var v: Int
    }

    struct Probing: Decodable, Equatable {
        var data: Inner?

        enum CodingKeys: String, CodingKey { case data }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            data = container.contains(.data) ? try container.decode(Inner.self, forKey: .data) : nil
        }
    }

    /// A member found under another spelling, asked for with `contains` and then parsed from JSON
    /// text: one entry, that says both.
    @Test func aFallbackAskedForAndThenParsedIsOneEntry() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            Probing.self, from: #"{"DATA":"{\"v\":1}"}"#)
        #expect(value.data == Inner(v: 1))
        #expect(report.issues.count == 1)
        #expect(report.issues.first?.kind == .keyFallback)
        #expect(report.issues.first?.message.contains("then parsed") == true)
    }

    struct Cash: Codable, Equatable {
        var amount: Int
    }

    enum Payment: TaggedCodable, Equatable {
        case cash(Cash)
        static let tagKey = "kind"
        static let contentKey: String? = "data"
        static let variants: [TaggedVariant<Payment>] = [.init("cash", Cash.self, Payment.cash)]
    }

    /// The same through a tagged enum's content key, which the enum asks for before decoding it;
    /// also when the content is wrapped rather than parsed.
    @Test(arguments: [#"{"kind":"cash","DATA":"{\"amount\":1}"}"#, #"{"kind":"cash","Data":{"amount":"1"}}"#])
    func aContentKeyFoundUnderAnotherSpellingIsOneEntry(_ text: String) throws {
        let (payment, report) = try LenientJSONDecoder().decodeWithReport(Payment.self, from: text)
        #expect(payment == .cash(Cash(amount: 1)))
        #expect(report.issues.map(\.kind) == (text.contains("DATA") ? [.keyFallback] : [.keyFallback, .coerced]))
        #expect(report.issues.filter { $0.kind == .keyFallback }.count == 1)
        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Payment.self, from: LenientJSONEncoder().encode(payment))
        #expect(again == payment && reportAgain.isEmpty)
    }

    struct Leaf: Codable, Equatable, DecodingHooks {
        struct Negative: Error {}
        var n: Int
        mutating func didDecode(from json: JSONValue) throws { if n < 0 { throw Negative() } }
    }

    struct Owner: Codable, Equatable, DeclaredDefaults {
        var leaf = Leaf(n: 9)
        var leaves = [Leaf(n: 1)]
    }

    /// A value a hook refused, replaced by the declared default, is reported as rejected, as it
    /// is where the type's own default takes its place.
    @Test func aValueAHookRefusedIsRejectedAlsoForADeclaredDefault() throws {
        let (owner, report) = try LenientJSONDecoder().decodeWithReport(
            Owner.self, from: #"{"leaf":{"n":-1},"leaves":{"n":-2}}"#)
        #expect(owner == Owner())
        #expect(report.issues.map(\.path) == ["leaf", "leaves"])
        #expect(report.issues.map(\.kind) == [.rejected, .rejected])
        #expect(report.issues.allSatisfy { $0.message.contains("declared default") })
        let (again, reportAgain) = try LenientJSONDecoder().decodeWithReport(
            Owner.self, from: LenientJSONEncoder().encode(owner))
        #expect(again == owner && reportAgain.isEmpty)
    }

    struct Shared: Codable, Equatable, KeyMapping {
        var a = 0
        var b = 0
        static var keyMapping: [String: KeySource] { ["a": "n", "b": "n"] }
    }

    struct SharedHolder: Codable, Equatable {
        var w: Shared
    }

    struct SharedHooked: Codable, Equatable, KeyMapping, DecodingHooks {
        var a = 0
        var b = 0
        static var keyMapping: [String: KeySource] { ["a": "n", "b": "n"] }
        static func willDecode(_ json: JSONValue) throws -> JSONValue {
            var json = json
            if json.objectValue != nil { json["added"] = 1 }
            return json
        }
    }

    /// Two properties that read one member forgive one value: one entry, in the document, inside
    /// JSON text and inside the JSON a hook returned alike.
    @Test func twoPropertiesReadingOneMemberAreOneEntryWhereverItIs() throws {
        let decoder = LenientJSONDecoder()
        let plain = try decoder.decodeWithReport(SharedHolder.self, from: #"{"w":{"n":"5"}}"#)
        let text = try decoder.decodeWithReport(SharedHolder.self, from: #"{"w":"{\"n\":\"5\"}"}"#)
        let hooked = try decoder.decodeWithReport(SharedHooked.self, from: #"{"n":"5"}"#)
        #expect(plain.value == SharedHolder(w: Shared(a: 5, b: 5)) && text.value == plain.value)
        #expect(hooked.value == SharedHooked(a: 5, b: 5))
        #expect(plain.report.issues.map(\.kind) == [.coerced])
        #expect(text.report.issues.filter { $0.message.hasPrefix("Coerced string") }.count == 1)
        #expect(text.report.issues.count == 2)
        #expect(hooked.report.issues.map(\.kind) == [.coerced])
    }
}

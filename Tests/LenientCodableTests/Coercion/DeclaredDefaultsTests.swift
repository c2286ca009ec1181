// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `DeclaredDefaults`: a property's initial value is its default.
@Suite struct DeclaredDefaultsTests {
    struct Page: Codable, Equatable, DeclaredDefaults {
        var pageSize = 20
        var sort = "newest"
        var tags: [String] = ["all"]
        var note: String? = "kept out"
    }

    struct Renamed: Codable, Equatable, DeclaredDefaults {
        var pageSize = 20
        var title = "untitled"
        enum CodingKeys: String, CodingKey {
            case pageSize = "page_size"
            case title = "name"
        }
    }

    @propertyWrapper struct Uppercased: Codable, Equatable {
        var wrappedValue: String
        init(wrappedValue: String) { self.wrappedValue = wrappedValue.uppercased() }
        init(from decoder: any Decoder) throws {
            wrappedValue = try decoder.singleValueContainer().decode(String.self).uppercased()
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(wrappedValue)
        }
    }

    struct Wrapped: Codable, Equatable, DeclaredDefaults {
        @Uppercased var title = "untitled"
        var count = 3
    }

    final class Settings: Codable, Equatable, DeclaredDefaults {
        var volume = 5
        var name = "default"
        init() {}
        static func == (lhs: Settings, rhs: Settings) -> Bool { lhs.volume == rhs.volume && lhs.name == rhs.name }
    }

    struct Inner: Codable, Equatable, DeclaredDefaults {
        var limit = 7
    }

    struct Outer: Codable, Equatable, DeclaredDefaults {
        var inner = Inner(limit: 9)
        var enabled = true
    }

    /// Only `Decodable`: its defaults come from `Mirror`.
    struct DecodeOnly: Decodable, Equatable, DeclaredDefaults {
        var size = 3
        var label = "none"
    }

    struct RequiredID: Codable, Equatable, DeclaredDefaults, KeyMapping {
        var id = 1
        var name = "anonymous"
        static let requiredProperties: Set<String> = ["id"]
    }

    /// Counts the calls of its `init()`, which a decoder must make once per type.
    final class Calls: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        // lock()/unlock() rather than withLock, which Apple's Foundation has only from macOS 14.
        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }
        func increment() {
            lock.lock()
            count += 1
            lock.unlock()
        }
    }

    static let countedCalls = Calls()

    struct Counted: Codable, Equatable, DeclaredDefaults {
        var value = 42
        init() { DeclaredDefaultsTests.countedCalls.increment() }
    }

    /// Declared defaults beside a mapping with fallbacks and a transform.
    struct Priced: Codable, Equatable, DeclaredDefaults, KeyMapping {
        var price = 10
        static let keyMapping: [String: KeySource] = ["price": ["cost", "price"]]
        static let decodingTransforms: [String: JSONTransform] = ["price": .member("value")]
    }

    static let modes: [LenientJSONDecoder.Options] = [.lenient, .strict]

    @Test func missingAndNullPropertiesTakeTheirDeclaredValueInEveryMode() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            #expect(try decoder.decode(Page.self, from: "{}") == Page(note: nil))
            let page = try decoder.decode(Page.self, from: #"{"pageSize":null,"sort":"top","tags":null}"#)
            #expect(page == Page(sort: "top", note: nil))
        }
    }

    @Test func anInvalidValueTakesItsDeclaredValueInLenientAndThrowsInStrict() throws {
        let json = #"{"pageSize":"many","sort":"top"}"#
        #expect(try LenientJSONDecoder().decode(Page.self, from: json) == Page(sort: "top", note: nil))
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode(Page.self, from: json)
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["pageSize"])
    }

    @Test func eachDeclaredValueIsReportedAsDefaulted() throws {
        let (_, report) = try LenientJSONDecoder().decodeWithReport(
            Page.self, from: #"{"sort":null,"tags":"x","pageSize":"many"}"#)
        let byPath = Dictionary(uniqueKeysWithValues: report.issues.map { ($0.path, $0) })
        #expect(byPath.mapValues(\.kind) == ["pageSize": .defaulted, "sort": .defaulted, "tags": .coerced])
        #expect(byPath["pageSize"]?.message.contains("used the declared default 20") == true)
        #expect(byPath["sort"]?.message.contains("used the declared default \"newest\"") == true)
        let (_, missing) = try LenientJSONDecoder(options: .strict).decodeWithReport(Page.self, from: "{}")
        #expect(missing.issues.map(\.path).sorted() == ["pageSize", "sort", "tags"])
        #expect(missing.issues.allSatisfy { $0.kind == .defaulted && $0.message.contains("Missing value") })
    }

    @Test func anOptionalPropertyKeepsFoundationsNil() throws {
        #expect(try LenientJSONDecoder().decode(Page.self, from: "{}").note == nil)
    }

    @Test func customCodingKeysAndPropertyWrappersFindTheirDefault() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            #expect(try decoder.decode(Renamed.self, from: #"{"name":"x"}"#) == Renamed(pageSize: 20, title: "x"))
            #expect(try decoder.decode(Renamed.self, from: #"{"page_size":3}"#) == Renamed(pageSize: 3))
            let wrapped = try decoder.decode(Wrapped.self, from: #"{"count":1}"#)
            #expect(wrapped.title == "UNTITLED")
            #expect(wrapped.count == 1)
            #expect(try decoder.decode(Wrapped.self, from: #"{"title":"dune"}"#).title == "DUNE")
        }
    }

    @Test func classesNestedTypesAndDecodableOnlyTypes() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            let settings = try decoder.decode(Settings.self, from: #"{"name":"loud"}"#)
            #expect(settings.volume == 5)
            #expect(settings.name == "loud")
            #expect(try decoder.decode(Outer.self, from: "{}") == Outer(inner: Inner(limit: 9), enabled: true))
            #expect(try decoder.decode(Outer.self, from: #"{"inner":{}}"#) == Outer(inner: Inner(limit: 7)))
            #expect(try decoder.decode(DecodeOnly.self, from: #"{"label":"x"}"#) == DecodeOnly(size: 3, label: "x"))
        }
    }

    @Test func mappingAndTransformsApplyBeforeTheDeclaredDefault() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            let (found, report) = try decoder.decodeWithReport(Priced.self, from: #"{"price":{"value":4}}"#)
            #expect(found.price == 4)
            #expect(report.issues.map(\.kind) == [.keyFallback])
            #expect(try decoder.decode(Priced.self, from: #"{"price":null}"#).price == 10)
            #expect(try decoder.decode(Priced.self, from: "{}").price == 10)
        }
    }

    @Test func requiredPropertiesWin() throws {
        for options in Self.modes {
            let decoder = LenientJSONDecoder(options: options)
            #expect(throws: DecodingError.self) { try decoder.decode(RequiredID.self, from: #"{"name":"a"}"#) }
            #expect(throws: DecodingError.self) { try decoder.decode(RequiredID.self, from: #"{"id":null}"#) }
            #expect(try decoder.decode(RequiredID.self, from: #"{"id":2}"#) == RequiredID(id: 2, name: "anonymous"))
        }
        let list = try LenientJSONDecoder().decode([RequiredID].self, from: #"[{"id":2},{"name":"b"}]"#)
        #expect(list == [RequiredID(id: 2)])
    }

    @Test func initIsCalledOncePerTypeWhateverTheNumberOfDecodes() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<20 {
                        _ = try? LenientJSONDecoder().decode([Counted].self, from: #"[{},{"value":null}]"#)
                    }
                }
            }
        }
        let values = try LenientJSONDecoder(options: .strict).decode([Counted].self, from: #"[{},{"value":1}]"#)
        #expect(values.map(\.value) == [42, 1])
        #expect(Self.countedCalls.value == 1)
    }

    @Test func decodeEncodeDecodeGivesTheSameValue() throws {
        let decoded = try LenientJSONDecoder().decode(Wrapped.self, from: #"{"count":"4"}"#)
        let data = try LenientJSONEncoder().encode(decoded)
        #expect(try LenientJSONDecoder(options: .strict).decode(Wrapped.self, from: data) == decoded)
        let page = try LenientJSONDecoder().decode(Page.self, from: #"{"sort":"top"}"#)
        #expect(try LenientJSONDecoder().decode(Page.self, from: LenientJSONEncoder().encode(page)) == page)
    }

    @Test func foundationsDecoderDoesNotReadTheDeclaration() throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(Page.self, from: Data("{}".utf8))
        }
        guard case .keyNotFound(let key, _) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "pageSize")
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `@LossyDictionary` reads the keys a plain `[String: V]` reads: its keys are data, so no key
/// decoding strategy converts them, under any decoder.
@Suite struct LossyDictionaryKeyStrategyTests {
    struct Both: Codable, Equatable {
        @LossyDictionary var lossyMap: [String: Int]
        var plainMap: [String: Int]
    }

    /// The decoders compared, each with a key strategy that would change `some_key`.
    enum Setup: String, CaseIterable, Sendable {
        case foundationSnakeCase, foundationCustom
        case lenientSnakeCase, lenientCustom, strictSnakeCase, strictCustom

        /// Drops an `x_` prefix: `x_lossyMap` is the property `lossyMap`.
        static let custom = JSONDecoder.KeyDecodingStrategy.custom { path in
            let key = path[path.count - 1].stringValue
            return AnyKey(stringValue: key.hasPrefix("x_") ? String(key.dropFirst(2)) : key)
        }

        func decode<T: Decodable>(_ type: T.Type, from json: String) throws -> (T, DecodingReport?) {
            switch self {
            case .foundationSnakeCase, .foundationCustom:
                let decoder = JSONDecoder()
                decoder.keyDecodingStrategy = self == .foundationSnakeCase ? .convertFromSnakeCase : Self.custom
                return (try decoder.decode(type, from: Data(json.utf8)), nil)
            case .lenientSnakeCase, .lenientCustom, .strictSnakeCase, .strictCustom:
                let isStrict = self == .strictSnakeCase || self == .strictCustom
                let decoder = LenientJSONDecoder(options: isStrict ? .strict : .lenient)
                let isSnake = self == .lenientSnakeCase || self == .strictSnakeCase
                decoder.keyDecodingStrategy = isSnake ? .convertFromSnakeCase : Self.custom
                let (value, report) = try decoder.decodeWithReport(type, from: json)
                return (value, report)
            }
        }

        private var isCustom: Bool { rawValue.hasSuffix("Custom") }
        /// The properties' keys as the document spells them for the strategy.
        var lossyKey: String { isCustom ? "x_lossyMap" : "lossy_map" }
        var plainKey: String { isCustom ? "x_plainMap" : "plain_map" }
        /// A member key that the strategy would change.
        var memberKey: String { isCustom ? "x_some_key" : "some_key" }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    @Test(arguments: Setup.allCases)
    func theWrapperKeepsTheKeysAsAPlainDictionaryDoes(_ setup: Setup) throws {
        let members = #"{"\#(setup.memberKey)":1,"Other-Key":2}"#
        let json = #"{"\#(setup.lossyKey)":\#(members),"\#(setup.plainKey)":\#(members)}"#
        let (model, report) = try setup.decode(Both.self, from: json)
        #expect(model.plainMap == [setup.memberKey: 1, "Other-Key": 2])
        #expect(model.lossyMap == model.plainMap)
        #expect(report?.issues.isEmpty ?? true, "\(String(describing: report))")
    }

    @Test(arguments: Setup.allCases)
    func droppedMembersAreReportedUnderTheirKeyAsWritten(_ setup: Setup) throws {
        let json = #"{"\#(setup.lossyKey)":{"\#(setup.memberKey)":1,"bad_key":"x","2025":"y"},"\#(setup.plainKey)":{}}"#
        let (model, report) = try setup.decode(Both.self, from: json)
        #expect(model.lossyMap == [setup.memberKey: 1])
        guard let report else { return }
        #expect(report.issues.map(\.kind) == [.droppedElement, .droppedElement])
        // Named as a plain `[String: V]` names its members, and as Foundation's coding path does: by
        // the key as written, a string even when it spells a number.
        #expect(report.issues.map(\.path).sorted() == ["lossyMap.2025", "lossyMap.bad_key"])
        #expect(report.issues.map(\.jsonPath).sorted() == ["\(setup.lossyKey).2025", "\(setup.lossyKey).bad_key"])
        #expect(report.issues.allSatisfy { $0.message.hasPrefix("Dropped element: ") })
    }

    @Test(arguments: [LenientJSONDecoder.Options.lenient, .strict])
    func theKeysRoundTripThroughTheEncodersWithSnakeCase(_ options: LenientJSONDecoder.Options) throws {
        let model = Both(lossyMap: ["some_key": 1, "otherKey": 2], plainMap: ["some_key": 1, "otherKey": 2])
        let lenientEncoder = LenientJSONEncoder()
        lenientEncoder.keyEncodingStrategy = .convertToSnakeCase
        let foundationEncoder = JSONEncoder()
        foundationEncoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = LenientJSONDecoder(options: options)
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let foundationDecoder = JSONDecoder()
        foundationDecoder.keyDecodingStrategy = .convertFromSnakeCase
        for data in [try lenientEncoder.encode(model), try foundationEncoder.encode(model)] {
            let (again, report) = try decoder.decodeWithReport(Both.self, from: data)
            #expect(again == model)
            #expect(report.issues.isEmpty)
            #expect(try foundationDecoder.decode(Both.self, from: data) == model)
        }
    }

    /// Keys that are not strings are converted by `Dictionary`'s own decoding, wrapped or not.
    @Test func nonStringKeysStillDecode() throws {
        struct Years: Codable, Equatable {
            @LossyDictionary var byYear: [Int: String]
        }
        let json = #"{"by_year":{"2024":"a","x":"b","2025":{}}}"#
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try foundation.decode(Years.self, from: Data(json.utf8)).byYear == [2024: "a"])
        for options in [LenientJSONDecoder.Options.lenient, .strict] {
            let decoder = LenientJSONDecoder(options: options)
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let (model, report) = try decoder.decodeWithReport(Years.self, from: json)
            #expect(model.byYear == [2024: "a"])
            #expect(report.issues.map(\.path).sorted() == ["byYear.2025", "byYear.x"])
        }
    }
}

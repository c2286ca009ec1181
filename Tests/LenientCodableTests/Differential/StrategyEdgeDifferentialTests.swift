// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Strategies at their edges, against Foundation's `JSONDecoder` in the same process: `.strict`
/// gives what Foundation gives, and `.lenient` gives the same value or reports what it forgave.
struct StrategyEdgeDifferentialTests {
    struct Holder<Value: Codable & Equatable>: Codable, Equatable {
        var value: Value
    }

    static let fixedDate = Date(timeIntervalSince1970: 0)

    static func decoders(
        date: JSONDecoder.DateDecodingStrategy? = nil, data: JSONDecoder.DataDecodingStrategy? = nil,
        keys: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    ) -> (foundation: JSONDecoder, strict: LenientJSONDecoder, lenient: LenientJSONDecoder) {
        let foundation = JSONDecoder()
        let strict = LenientJSONDecoder(options: .strict)
        let lenient = LenientJSONDecoder()
        if let date {
            foundation.dateDecodingStrategy = date
            strict.dateDecodingStrategy = date
            lenient.dateDecodingStrategy = date
        }
        if let data {
            foundation.dataDecodingStrategy = data
            strict.dataDecodingStrategy = data
            lenient.dataDecodingStrategy = data
        }
        foundation.keyDecodingStrategy = keys
        strict.keyDecodingStrategy = keys
        lenient.keyDecodingStrategy = keys
        return (foundation, strict, lenient)
    }

    /// Foundation refuses `null` for a `Date` or `Data` before a `.custom` strategy's closure
    /// sees it; so does `.strict`, and `.lenient` reports what it does instead.
    @Test(arguments: [#"{"value":null}"#, #"{"value":[null]}"#])
    func aCustomDateOrDataStrategyNeverSeesNull(_ text: String) throws {
        let date = Self.decoders(date: .custom { _ in Self.fixedDate })
        let data = Self.decoders(data: .custom { _ in Data([1]) })
        let json = Data(text.utf8)
        if text.contains("[") {
            try Self.expectNullRefused(Holder<[Date]>.self, json, date)
            try Self.expectNullRefused(Holder<[Data]>.self, json, data)
        } else {
            try Self.expectNullRefused(Holder<Date>.self, json, date)
            try Self.expectNullRefused(Holder<Data>.self, json, data)
        }
        // An optional reads the `null` as `nil` everywhere, without asking the closure.
        #expect(try date.foundation.decode(Holder<Date?>.self, from: Data(#"{"value":null}"#.utf8)).value == nil)
        #expect(try date.lenient.decode(Holder<Date?>.self, from: Data(#"{"value":null}"#.utf8)).value == nil)
        #expect(try data.strict.decode(Holder<Data?>.self, from: Data(#"{"value":null}"#.utf8)).value == nil)
    }

    /// A day in UTC: Foundation's `.formatted` strategy, for the `null` test below.
    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()

    /// `null` for a `Date`, `Data` or `URL` is a missing value of that type under every strategy, as Foundation says,
    /// not a missing `Double`, `String` or list that the strategy would have read; at the top, in a property and in
    /// an array alike.
    @Test(arguments: ["date", "seconds", "milliseconds", "iso8601", "formatted", "data", "base64", "url"])
    func nullIsAMissingValueOfTheTypeUnderEveryStrategy(_ strategy: String) throws {
        let decoders: (foundation: JSONDecoder, strict: LenientJSONDecoder, lenient: LenientJSONDecoder) =
            switch strategy {
            case "seconds": Self.decoders(date: .secondsSince1970)
            case "milliseconds": Self.decoders(date: .millisecondsSince1970)
            case "iso8601": Self.decoders(date: .iso8601)
            case "formatted": Self.decoders(date: .formatted(Self.formatter))
            case "data": Self.decoders(data: .deferredToData)
            case "base64": Self.decoders(data: .base64)
            default: Self.decoders(date: .deferredToDate)
            }
        /// The type a decode says is missing, or the error it threw instead.
        func missingType<T: Decodable>(_ type: T.Type, _ json: String, _ decoder: some DecodesJSONData) -> String {
            do {
                return "decoded \(try decoder.decode(type, from: Data(json.utf8)))"
            } catch DecodingError.valueNotFound(let type, _) {
                return "\(type)"
            } catch {
                return "\(error)"
            }
        }
        func check<V: Codable & Equatable>(_ type: V.Type) {
            for (json, foundation, strict) in [
                (
                    "null", missingType(V.self, "null", decoders.foundation),
                    missingType(V.self, "null", decoders.strict)
                ),
                (
                    "{\"value\":null}", missingType(Holder<V>.self, #"{"value":null}"#, decoders.foundation),
                    missingType(Holder<V>.self, #"{"value":null}"#, decoders.strict)
                ),
                (
                    "[null]", missingType([V].self, "[null]", decoders.foundation),
                    missingType([V].self, "[null]", decoders.strict)
                ),
            ] {
                #expect(foundation == "\(V.self)", "Foundation, \(json)")
                #expect(strict == foundation, "strict, \(json)")
            }
        }
        switch strategy {
        case "data", "base64": check(Data.self)
        case "url": check(URL.self)
        default: check(Date.self)
        }
    }

    static func expectNullRefused<T: Codable & Equatable>(
        _ type: T.Type, _ json: Data,
        _ decoders: (foundation: JSONDecoder, strict: LenientJSONDecoder, lenient: LenientJSONDecoder)
    ) throws {
        let foundationError = #expect(throws: DecodingError.self) { try decoders.foundation.decode(T.self, from: json) }
        let strictError = #expect(throws: DecodingError.self) { try decoders.strict.decode(T.self, from: json) }
        guard case .valueNotFound? = foundationError, case .valueNotFound(_, let context)? = strictError else {
            Issue.record(
                "expected valueNotFound from both, got \(String(describing: foundationError)) and \(String(describing: strictError))"
            )
            return
        }
        #expect(context.codingPath.first?.stringValue == "value")
        if let (_, report) = try? decoders.lenient.decodeWithReport(T.self, from: json) {
            #expect(!report.isEmpty)
        }
    }

    /// A repeated key of a `[String: T]` under a key strategy that converts keys: Foundation reads
    /// every member and fails on one it cannot read; the lenient decoder keeps the first, as both
    /// do with the default keys, and reports the one Foundation would have failed on.
    @Test(arguments: [JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase, .custom { $0.last! }])
    func aRepeatedMemberFoundationCannotReadIsReported(_ keys: JSONDecoder.KeyDecodingStrategy) throws {
        let decoders = Self.decoders(keys: keys)
        for (text, path) in [(#"{"a":1,"a":"x"}"#, "a"), (#"{"value":{"b":2,"b":[3]}}"#, "value.b")] {
            let json = Data(text.utf8)
            if path == "a" {
                #expect(throws: DecodingError.self) { try decoders.foundation.decode([String: Int].self, from: json) }
                #expect(throws: DecodingError.self) { try decoders.strict.decode([String: Int].self, from: json) }
                let (value, report) = try decoders.lenient.decodeWithReport([String: Int].self, from: json)
                #expect(value == ["a": 1])
                #expect(report.issues.map(\.path) == [path] && report.issues.map(\.kind) == [.droppedElement])
            } else {
                #expect(throws: DecodingError.self) {
                    try decoders.foundation.decode(Holder<[String: Int]>.self, from: json)
                }
                let (value, report) = try decoders.lenient.decodeWithReport(Holder<[String: Int]>.self, from: json)
                #expect(value.value == ["b": 2])
                #expect(report.issues.map(\.path) == [path] && report.issues.map(\.kind) == [.droppedElement])
            }
        }
        // A repeated member Foundation reads is left out by both, and reported by neither.
        let readable = Data(#"{"a":1,"a":2}"#.utf8)
        let foundations = try decoders.foundation.decode([String: Int].self, from: readable)
        let (lenient, report) = try decoders.lenient.decodeWithReport([String: Int].self, from: readable)
        #expect(lenient == foundations && report.isEmpty)
        #expect(try decoders.strict.decode([String: Int].self, from: readable) == foundations)
    }
}

// MARK: - A custom strategy that probes

extension StrategyEdgeDifferentialTests {
    /// Reads a number as seconds, and a string of digits as milliseconds.
    static let probingDate: JSONDecoder.DateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        if let seconds = try? container.decode(Double.self) { return Date(timeIntervalSince1970: seconds) }
        let text = try container.decode(String.self)
        guard let milliseconds = Double(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a number: \(text)")
        }
        return Date(timeIntervalSince1970: milliseconds / 1000)
    }

    /// Reads a number as one byte, and a string as its UTF-8 bytes.
    static let probingData: JSONDecoder.DataDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        if let byte = try? container.decode(UInt8.self) { return Data([byte]) }
        return Data(try container.decode(String.self).utf8)
    }

    /// A `.custom` closure that probes takes Foundation's branch wherever the value is: at the
    /// top level, in a list or dictionary, in a model; and nothing is reported.
    @Test func aCustomStrategyThatProbesTakesFoundationsBranchAnywhere() throws {
        let date = Self.decoders(date: Self.probingDate)
        let data = Self.decoders(data: Self.probingData)
        for (text, check) in [
            (
                #""12000""#,
                { (d: JSONDecoder, l: LenientJSONDecoder, json: Data) throws -> Void in
                    let (value, report) = try l.decodeWithReport(Date.self, from: json)
                    let foundations = try d.decode(Date.self, from: json)
                    #expect(value == foundations && report.isEmpty)
                }
            ),
            (
                #"["12000", 5]"#,
                { d, l, json in
                    let (value, report) = try l.decodeWithReport([Date].self, from: json)
                    let foundations = try d.decode([Date].self, from: json)
                    #expect(value == foundations && report.isEmpty)
                }
            ),
            (
                #"{"a":"12000"}"#,
                { d, l, json in
                    let (value, report) = try l.decodeWithReport([String: Date].self, from: json)
                    let foundations = try d.decode([String: Date].self, from: json)
                    #expect(value == foundations && report.isEmpty)
                }
            ),
            (
                #"{"value":"12000"}"#,
                { d, l, json in
                    let (value, report) = try l.decodeWithReport(Holder<Date>.self, from: json)
                    let foundations = try d.decode(Holder<Date>.self, from: json)
                    #expect(value == foundations && report.isEmpty)
                }
            ),
        ] {
            try check(date.foundation, date.lenient, Data(text.utf8))
        }
        #expect(try date.lenient.decode(Date.self, from: Data(#""12000""#.utf8)) == Date(timeIntervalSince1970: 12))
        for text in [#""12""#, #"["12", 7]"#] {
            let json = Data(text.utf8)
            if text.hasPrefix("[") {
                let (value, report) = try data.lenient.decodeWithReport([Data].self, from: json)
                let foundations = try data.foundation.decode([Data].self, from: json)
                #expect(value == foundations && report.isEmpty)
            } else {
                let (value, report) = try data.lenient.decodeWithReport(Data.self, from: json)
                let foundations = try data.foundation.decode(Data.self, from: json)
                #expect(value == Data("12".utf8) && value == foundations)
                #expect(report.isEmpty)
            }
        }
    }
}

/// Foundation's decoder and the lenient one, as one kind of thing to decode with.
protocol DecodesJSONData {
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
}

extension JSONDecoder: DecodesJSONData {}
extension LenientJSONDecoder: DecodesJSONData {}

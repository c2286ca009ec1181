// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `decode(_:from:at:)`: the payload of an API envelope, with paths from the document's root.
@Suite struct DecodeAtPathTests {
    struct Book: Codable, Equatable {
        var name: String
        var page: Int
    }

    static let envelope =
        #"{"code":0,"data":{"list":[{"name":"Dune","page":412},{"name":"Emma","page":"474"}]},"info":[{"time":1},{"time":2}]}"#

    @Test func decodesThePayloadOfAnEnvelopeFromEveryInput() throws {
        let decoder = LenientJSONDecoder()
        let expected = [Book(name: "Dune", page: 412), Book(name: "Emma", page: 474)]
        #expect(try decoder.decode([Book].self, from: Data(Self.envelope.utf8), at: "data.list") == expected)
        #expect(try decoder.decode([Book].self, from: Self.envelope, at: "data.list") == expected)
        #expect(try decoder.decode([Book].self, from: Array(Self.envelope.utf8), at: "data.list") == expected)
        let value = try JSONValue(parsing: Self.envelope)
        #expect(try decoder.decode([Book].self, from: value, at: "data.list") == expected)
    }

    @Test func pathsStepIntoArrays() throws {
        let decoder = LenientJSONDecoder(options: .strict)
        #expect(try decoder.decode(Int.self, from: Self.envelope, at: "info[1].time") == 2)
        #expect(try decoder.decode(Book.self, from: Self.envelope, at: "data.list[0]") == Book(name: "Dune", page: 412))
        #expect(try decoder.decode(Int.self, from: "[[1,2],[3]]", at: "[1][0]") == 3)
        #expect(try decoder.decode(Int.self, from: "7", at: "") == 7)
    }

    @Test func reportPathsStartAtTheDocumentRoot() throws {
        let (books, report) = try LenientJSONDecoder().decodeWithReport(
            [Book].self, from: Self.envelope, at: "data.list")
        #expect(books.count == 2)
        #expect(report.issues.map(\.path) == ["data.list[1].page"])
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder(options: .strict).decode([Book].self, from: Self.envelope, at: "data.list")
        }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["data", "list", "Index 1", "page"])
    }

    @Test(arguments: [
        ("data.missing", ["data"], "keyNotFound"),
        ("data.list[5]", ["data", "list", "Index 5"], "valueNotFound"),
        ("code.value", ["code"], "typeMismatch"),
        ("data[0]", ["data"], "typeMismatch"),
    ])
    func aPathThatDoesNotExistThrowsWithThePathSoFar(path: String, codingPath: [String], kind: String) throws {
        for decoder in [LenientJSONDecoder(), LenientJSONDecoder(options: .strict)] {
            let error = try #require(throws: DecodingError.self) {
                try decoder.decode(Int.self, from: Self.envelope, at: path)
            }
            let (found, context): (String, DecodingError.Context?) =
                switch error {
                case .keyNotFound(let key, let context):
                    ("keyNotFound", .init(codingPath: context.codingPath + [key], debugDescription: ""))
                case .valueNotFound(_, let context): ("valueNotFound", context)
                case .typeMismatch(_, let context): ("typeMismatch", context)
                default: ("other", nil)
                }
            #expect(found == kind)
            let expected = kind == "keyNotFound" ? codingPath + [String(path.split(separator: ".").last!)] : codingPath
            #expect(context?.codingPath.map(\.stringValue) == expected)
        }
    }

    @Test(arguments: [
        "a..b", "a[", "a[x]", "a[-1]", "a[+1]", "a[ 1]", "a[99999999999]", "a[2147483648]", "a]", "a[1]]", "a]b", "]",
    ])
    func aMalformedPathIsRefused(_ path: String) throws {
        let error = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Int.self, from: #"{"a":[1,{"b":1}]}"#, at: path)
        }
        guard case .dataCorrupted(let context) = error else {
            Issue.record("expected dataCorrupted, got \(error)")
            return
        }
        #expect(context.debugDescription.contains("is not a valid path"))
        if path.filter({ $0 == "]" }).count > path.filter({ $0 == "[" }).count {
            #expect(context.debugDescription.contains("a bracket that was never opened"))
        }
    }

    /// An index is read as `KeySource` reads one: digits, up to `Int32.max`.
    @Test func indicesReadAsInKeySource() throws {
        let document = #"{"a":[10,{"b":2}]}"#
        #expect(try LenientJSONDecoder().decode(Int.self, from: document, at: "a[0]") == 10)
        #expect(try LenientJSONDecoder().decode(Int.self, from: document, at: "a[1].b") == 2)
        #expect(try LenientJSONDecoder().decode(Int.self, from: document, at: "a.[1].b") == 2)
        #expect(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Int.self, from: document, at: "a[2147483647]")
        }
        // A closing bracket alone is an odd bracket, refused as an unclosed one is (a key path
        // of a `KeyMapping` reads it as part of a key).
        let refused = try #require(throws: DecodingError.self) {
            try LenientJSONDecoder().decode(Int.self, from: #"{"a]":1}"#, at: "a]")
        }
        guard case .dataCorrupted = refused else {
            Issue.record("expected dataCorrupted, got \(refused)")
            return
        }
    }

    @Test func decodedPayloadRoundTripsThroughTheEncoder() throws {
        let books = try LenientJSONDecoder().decode([Book].self, from: Self.envelope, at: "data.list")
        let encoded = try LenientJSONEncoder().encode(["data": ["list": books]])
        #expect(try LenientJSONDecoder(options: .strict).decode([Book].self, from: encoded, at: "data.list") == books)
    }
}

/// `reportHandler`: every decode whose report is not empty reaches it, whatever the overload.
@Suite struct ReportHandlerTests {
    final class Log: @unchecked Sendable {
        // Appended to under the lock by the handler, read after the decodes on the same task.
        private let lock = NSLock()
        private var entries: [(type: String, paths: [String])] = []
        func append(_ type: Any.Type, _ report: DecodingReport) {
            lock.lock()
            entries.append(("\(type)", report.issues.map(\.path)))
            lock.unlock()
        }
        var all: [(type: String, paths: [String])] {
            lock.lock()
            defer { lock.unlock() }
            return entries
        }
    }

    struct Book: Codable, Equatable {
        var name: String
        var page: Int
    }

    @Test func everyOverloadWithAForgivenValueCallsTheHandlerOnce() throws {
        let log = Log()
        let decoder = LenientJSONDecoder()
        decoder.reportHandler = { type, report in log.append(type, report) }
        let messy = #"{"name":"Dune","page":"412"}"#
        _ = try decoder.decode(Book.self, from: Data(messy.utf8))
        _ = try decoder.decode(Book.self, from: messy)
        _ = try decoder.decode(Book.self, from: Array(messy.utf8))
        _ = try decoder.decode(Book.self, from: try JSONValue(parsing: messy))
        _ = try decoder.decode(Book.self, fromJSONObject: ["name": "Dune", "page": "412"])
        _ = try decoder.decodeWithReport(Book.self, from: messy)
        _ = try decoder.decode([Book].self, from: "[\(messy)]", at: "")
        #expect(log.all.count == 7)
        #expect(log.all.allSatisfy { $0.type == "\(Book.self)" || $0.type == "\([Book].self)" })
        #expect(log.all.allSatisfy { $0.paths == ["page"] || $0.paths == ["[0].page"] })
    }

    @Test func cleanInputAndFailedDecodesDoNotCallIt() throws {
        let log = Log()
        let decoder = LenientJSONDecoder()
        decoder.reportHandler = { type, report in log.append(type, report) }
        _ = try decoder.decode(Book.self, from: #"{"name":"Dune","page":412}"#)
        _ = try? decoder.decode(
            Book.self, from: #"{"name":"Dune","page":{}}"#.replacingOccurrences(of: "Dune", with: "x") + "x")
        #expect(log.all.isEmpty)
    }

    @Test func decodeWithReportFromAJSONObjectGraph() throws {
        let object: [String: Any] = ["name": "Dune", "page": "412"]
        let (book, report) = try LenientJSONDecoder().decodeWithReport(Book.self, fromJSONObject: object)
        #expect(book == Book(name: "Dune", page: 412))
        #expect(report.issues.map(\.path) == ["page"])
    }
}

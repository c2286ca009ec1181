// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// A value that Foundation decodes keeps Foundation's value in `.lenient`, even when something
/// else in the same object needs forgiving (the object is then decoded in its forgiving pass),
/// and a key found only by loose matching never makes a model fail where Foundation succeeds.
@Suite struct ForgivingPassParityTests {
    enum Marker: String, Codable, Equatable {
        case none = "nil"
        case some
    }

    struct NullLike: Codable, Equatable {
        var count: Int?
        var link: URL?
        var payload: JSONValue?
        var bytes: Data?
        var marker: Marker?
        var label: String?
        var number: Int?
    }

    /// `"null"`, `"nil"`, `"<null>"`, `"(null)"` count as `null` for a type that cannot read them
    /// (an `Int?`); a type that reads them as Foundation does keeps Foundation's value.
    @Test(arguments: ["null", "nil", "<null>", "(null)", "NULL"])
    func nullLikeStringsKeepFoundationsValueBesideAForgivenSibling(text: String) throws {
        let clean =
            #"{"count": 1, "link": "\#(text)", "payload": "\#(text)", "bytes": "\#(text)", "marker": "\#(text)", "label": "\#(text)", "number": "\#(text)"}"#
        // `count` spelled another way is found loosely and `number` needs forgiving: the object
        // is decoded in its forgiving pass, and each other value as Foundation reads it.
        let messy = clean.replacingOccurrences(of: #""count": 1"#, with: #""COUNT": "many""#)
        let foundation = try? JSONDecoder().decode(NullLike.self, from: Data(clean.utf8))
        let (value, report) = try LenientJSONDecoder().decodeWithReport(NullLike.self, from: messy)
        #expect(value.count == nil)
        #expect(value.number == nil, "an Int? cannot read \(text)")
        #expect(value.link == URL(string: text))
        #expect(value.payload == .string(text))
        #expect(value.label == text)
        #expect(value.bytes == Data(base64Encoded: text))
        #expect(value.marker == Marker(rawValue: text))
        if let foundation {
            // Where Foundation decodes the whole object (its `number` aside), the same values.
            #expect(value.link == foundation.link && value.payload == foundation.payload)
            #expect(value.bytes == foundation.bytes && value.marker == foundation.marker)
        }
        var expected = [IssueSummary(.defaulted, "count"), IssueSummary(.defaulted, "number")]
        if Data(base64Encoded: text) == nil { expected.append(IssueSummary(.defaulted, "bytes")) }
        if Marker(rawValue: text) == nil { expected.append(IssueSummary(.defaulted, "marker")) }
        #expect(report.issues.map(IssueSummary.init).sorted() == expected.sorted(), "\(report)")
        // `decode` and `decodeWithReport` agree, and what decoded round-trips.
        #expect(try LenientJSONDecoder().decode(NullLike.self, from: messy) == value)
        let again = try LenientJSONDecoder().decodeWithReport(
            NullLike.self, from: try LenientJSONEncoder().encode(value))
        #expect(again.value == value)
        #expect(again.report.isEmpty, "\(again.report)")
    }

    struct Post: Decodable, Equatable {
        var title: String
        var firstTag: String?
        enum CodingKeys: String, CodingKey { case title, tags }

        init(title: String, firstTag: String?) {
            self.title = title
            self.firstTag = firstTag
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            title = try container.decode(String.self, forKey: .title)
            if container.contains(.tags) {
                var tags = try container.nestedUnkeyedContainer(forKey: .tags)
                firstTag = tags.isAtEnd ? nil : try tags.decode(String.self)
            } else {
                firstTag = nil
            }
        }
    }

    /// A key found only loosely makes `contains` answer `true`; when the model's own code then
    /// fails on what it found, the model is decoded again without loose matching, as Foundation
    /// decodes it.
    @Test(arguments: [
        (#"{"title": "a", "Tags": "swift"}"#, Post(title: "a", firstTag: nil)),
        (#"{"title": "a", "TAGS": null}"#, Post(title: "a", firstTag: nil)),
        (#"{"title": "a", "tags_": {"x": 1}}"#, Post(title: "a", firstTag: nil)),
        (#"{"title": "a", "Tags": ["swift"]}"#, Post(title: "a", firstTag: "swift")),
        (#"{"title": "a", "tags": ["swift"]}"#, Post(title: "a", firstTag: "swift")),
    ])
    func aLooseMatchThatMakesTheModelFailIsDroppedForFoundationsAnswer(json: String, expected: Post) throws {
        let data = Data(json.utf8)
        let (value, report) = try LenientJSONDecoder().decodeWithReport(Post.self, from: data)
        #expect(value == expected)
        if let foundation = try? JSONDecoder().decode(Post.self, from: data), expected.firstTag == nil {
            #expect(value == foundation)
            #expect(report.isEmpty, "\(report)")
        }
        // In an array, the element is kept, not dropped.
        let (list, listReport) = try LenientJSONDecoder().decodeWithReport([Post].self, from: "[\(json)]")
        #expect(list == [expected])
        #expect(!listReport.issues.contains { $0.kind == .droppedElement }, "\(listReport)")
    }
}

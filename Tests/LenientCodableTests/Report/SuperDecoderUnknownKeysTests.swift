// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `reportsUnknownKeys` looks inside the values a model decodes through super decoders, as it
/// looks inside those it decodes through its containers: each member nothing read is reported
/// once, with its path.
@Suite struct SuperDecoderUnknownKeysTests {
    static var decoder: LenientJSONDecoder {
        var options = LenientJSONDecoder.Options.lenient
        options.reportsUnknownKeys = true
        return LenientJSONDecoder(options: options)
    }

    struct Inner: Codable, Equatable {
        var other: Int
    }

    /// Asks for two super decoders of the same member, reads through the second.
    struct ThroughSuperTwice: Decodable, Equatable {
        var other: Int
        enum CodingKeys: String, CodingKey { case inner }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.superDecoder(forKey: .inner).container(keyedBy: CodingKeys.self)
            other = try Inner(from: container.superDecoder(forKey: .inner)).other
        }
    }

    /// A super decoder's container hands out a super decoder in turn.
    struct ThroughNestedSuper: Decodable, Equatable {
        var other: Int
        enum CodingKeys: String, CodingKey { case outer, inner }
        init(from decoder: any Decoder) throws {
            let outer = try decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .outer)
            other = try Inner(from: outer.container(keyedBy: CodingKeys.self).superDecoder(forKey: .inner)).other
        }
    }

    class Base: Decodable {
        var a: Int
    }

    /// The class pattern of `superDecoder()`: the superclass decodes the member `super`.
    final class Derived: Base {
        var b: Int
        enum CodingKeys: String, CodingKey { case b }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            b = try container.decode(Int.self, forKey: .b)
            try super.init(from: container.superDecoder())
        }
    }

    @Test func whatAModelLeavesUnreadThroughASuperDecoderIsReportedOnce() throws {
        let (value, report) = try Self.decoder.decodeWithReport(
            ThroughSuperTwice.self, from: #"{"inner":{"other":1,"junk":2},"z":3}"#)
        #expect(value.other == 1)
        #expect(report.issues(ofKind: .unknownKey).map(\.path).sorted() == ["inner.junk", "z"])
        #expect(report.issues.count == 2, "\(report)")
    }

    @Test func superDecodersOfSuperDecodersAreLookedInsideToo() throws {
        let json = #"{"outer":{"inner":{"other":1,"junk":2},"g":1},"z":3}"#
        let (value, report) = try Self.decoder.decodeWithReport(ThroughNestedSuper.self, from: json)
        #expect(value.other == 1)
        #expect(report.issues(ofKind: .unknownKey).map(\.path).sorted() == ["outer.g", "outer.inner.junk", "z"])
        #expect(report.issues.count == 3, "\(report)")
    }

    @Test func aSuperclassDecodedFromSuperReportsWhatItLeftUnread() throws {
        let (value, report) = try Self.decoder.decodeWithReport(
            [Derived].self, from: #"[{"b":1,"super":{"a":2,"q":3}},{"b":1,"super":{"a":"2"},"r":1}]"#)
        #expect(value.map(\.a) == [2, 2])
        #expect(
            report.issues.map { "\($0.kind) \($0.path)" }.sorted() == [
                "coerced [1].super.a", "unknownKey [0].super.q", "unknownKey [1].r",
            ])
    }

    /// Nothing is reported where the super decoder's value was read whole, nor without the option.
    @Test func aValueReadWholeThroughASuperDecoderHasNoUnknownKeys() throws {
        let json = #"{"inner":{"other":1}}"#
        #expect(try Self.decoder.decodeWithReport(ThroughSuperTwice.self, from: json).report.isEmpty)
        let quiet = try LenientJSONDecoder().decodeWithReport(
            ThroughSuperTwice.self, from: #"{"inner":{"other":1,"junk":2},"z":3}"#)
        #expect(quiet.report.isEmpty)
    }

    /// Where the super decoders of a model that then fails went, for the test below.
    final class Escaped: @unchecked Sendable {
        // Written and read on the test's own thread only: the lock-free box a decode in the same
        // task fills.
        weak var superDecoder: AnyObject?
    }

    /// Makes a super decoder, reads through it, then fails.
    struct FailsAfterASuperDecoder: Decodable {
        enum CodingKeys: String, CodingKey { case inner }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let superDecoder = try container.superDecoder(forKey: .inner)
            (decoder.userInfo[SuperDecoderUnknownKeysTests.escapedKey] as? Escaped)?.superDecoder =
                superDecoder as AnyObject
            _ = try superDecoder.container(keyedBy: CodingKeys.self)
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "refused"))
        }
    }

    struct Probing: Decodable {
        var failed: FailsAfterASuperDecoder?
        var count: Int
        enum CodingKeys: String, CodingKey { case failed, count }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            failed = try? container.decode(FailsAfterASuperDecoder.self, forKey: .failed)
            count = try container.decode(Int.self, forKey: .count)
        }
    }

    static let escapedKey = CodingUserInfoKey(rawValue: "escaped")!

    /// A super decoder whose model failed is gone with the decode: remembering it for the report
    /// keeps no decoder alive.
    @Test func aSuperDecoderOfAFailedModelDoesNotOutliveTheDecode() throws {
        let escaped = Escaped()
        let decoder = Self.decoder
        decoder.userInfo[Self.escapedKey] = escaped
        let (value, report) = try decoder.decodeWithReport(
            Probing.self, from: #"{"failed":{"inner":{"x":1}},"count":2}"#)
        #expect(value.failed == nil && value.count == 2)
        #expect(report.isEmpty, "\(report)")
        #expect(escaped.superDecoder == nil)
    }

    struct KeepsAll: Codable, Equatable {
        var id: Int
        var extras = UnknownKeys()
    }

    /// Asks for the decoder of `super` and never decodes through it.
    struct AsksAndLeaves: Decodable {
        var id: Int
        enum CodingKeys: String, CodingKey { case id }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.superDecoder()
            id = try container.decode(Int.self, forKey: .id)
        }
    }

    /// A super decoder that nothing decodes through reads nothing: a member named `super` that an
    /// `UnknownKeys` property keeps is not looked inside, and one whose decoder a model only asked
    /// for is unknown.
    @Test(arguments: [LenientJSONDecoder.Options.lenient, .strict])
    func aSuperDecoderNothingDecodesThroughReadsNothing(preset: LenientJSONDecoder.Options) throws {
        var options = preset
        options.reportsUnknownKeys = true
        let decoder = LenientJSONDecoder(options: options)
        let (kept, keptReport) = try decoder.decodeWithReport(KeepsAll.self, from: #"{"id":1,"super":{"x":1},"y":2}"#)
        #expect(kept.extras == ["super": ["x": 1], "y": 2])
        #expect(keptReport.isEmpty, "\(keptReport)")
        #expect(try decoder.decode(KeepsAll.self, from: LenientJSONEncoder().encode(kept)) == kept)
        let (_, report) = try decoder.decodeWithReport(AsksAndLeaves.self, from: #"{"id":1,"super":{"x":1}}"#)
        #expect(report.issues.map { "\($0.kind) \($0.path)" } == ["unknownKey super"])
    }

    /// An element decoded through an unkeyed container's super decoder, and a member decoded through
    /// a nested container's: what the model leaves unread is reported with the model, as when it
    /// decodes them through the containers themselves.
    struct ThroughOtherContainers: Decodable {
        var first: Inner
        var second: Inner
        enum CodingKeys: String, CodingKey { case list, nested, inner }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            first = try Inner(from: list.superDecoder())
            let nested = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .nested)
            second = try Inner(from: nested.superDecoder(forKey: .inner))
        }
    }

    @Test func superDecodersOfUnkeyedAndNestedContainersAreLookedInside() throws {
        let json = #"{"list":[{"other":1,"q":2}],"nested":{"inner":{"other":3,"y":4}}}"#
        let (value, report) = try Self.decoder.decodeWithReport(ThroughOtherContainers.self, from: json)
        #expect(value.first.other == 1 && value.second.other == 3)
        #expect(report.issues.map(\.path).sorted() == ["list[0].q", "nested.inner.y"], "\(report)")
    }

    struct KeepsSuper: Decodable {
        var base: Inner
        var extras = UnknownKeys()
        enum CodingKeys: String, CodingKey { case extras }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            base = try Inner(from: container.superDecoder())
            extras = try container.decode(UnknownKeys.self, forKey: .extras)
        }
    }

    /// A member that an `UnknownKeys` property keeps is not looked inside, though a super decoder read
    /// part of it.
    @Test func aKeptMemberIsNotReportedInside() throws {
        let (value, report) = try Self.decoder.decodeWithReport(
            KeepsSuper.self, from: #"{"super":{"other":1,"in":2},"z":2}"#)
        #expect(value.base.other == 1)
        #expect(value.extras == ["super": ["other": 1, "in": 2], "z": 2])
        #expect(report.isEmpty, "\(report)")
    }

    /// Keeps its super decoder, for the parent to read through later in the same decode.
    final class Child: Decodable, @unchecked Sendable {
        // Written once in `init(from:)` and read by the parent's `init(from:)` on the same thread.
        var kept: (any Decoder)?
        var other: Int
        enum CodingKeys: String, CodingKey { case inner }
        init(from decoder: any Decoder) throws {
            let superDecoder = try decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .inner)
            kept = superDecoder
            other = try Inner(from: superDecoder).other
        }
    }

    struct ReadsLater: Decodable {
        var y: Int
        enum CodingKeys: String, CodingKey { case child }
        enum InnerKeys: String, CodingKey { case y }
        init(from decoder: any Decoder) throws {
            let child = try decoder.container(keyedBy: CodingKeys.self).decode(Child.self, forKey: .child)
            y = try #require(child.kept).container(keyedBy: InnerKeys.self).decode(Int.self, forKey: .y)
            child.kept = nil
        }
    }

    /// A member read through a kept super decoder after its model was reported is no unknown key:
    /// unknown is what nothing in the whole decode reads.
    @Test func readsThroughAKeptSuperDecoderCountUntilTheDecodeEnds() throws {
        let (value, report) = try Self.decoder.decodeWithReport(
            ReadsLater.self, from: #"{"child":{"inner":{"other":1,"y":2,"w":3}}}"#)
        #expect(value.y == 2)
        #expect(report.issues.map(\.path) == ["child.inner.w"], "\(report)")
    }

    struct DefaultedThroughSuper: Decodable {
        var count: Defaulted<Int>
        enum CodingKeys: String, CodingKey { case count }
        init(from decoder: any Decoder) throws {
            count = try Defaulted(from: decoder.container(keyedBy: CodingKeys.self).superDecoder(forKey: .count))
        }
    }

    /// The decoder of a missing member reports where the member would be.
    @Test func aMissingMembersSuperDecoderReportsTheMembersPath() throws {
        let (value, report) = try LenientJSONDecoder().decodeWithReport(
            [DefaultedThroughSuper].self, from: #"[{}]"#)
        #expect(value.first?.count.wrappedValue == 0)
        #expect(report.issues.map(\.jsonPath) == ["[0].count"], "\(report)")
    }
}

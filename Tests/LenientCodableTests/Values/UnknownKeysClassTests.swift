// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// `UnknownKeys` in class hierarchies and in values written through a super encoder: a member
/// that one level's properties read is never kept by the other's bag (a cleared property would
/// come back from the kept copy), and a bag written through `superEncoder` is not lost.
@Suite struct UnknownKeysClassTests {
    class Shape: Codable {
        var name: String
        var extras = UnknownKeys()
        init(name: String) { self.name = name }
    }

    final class Circle: Shape {
        var radius: Double
        var label: String?
        private enum CodingKeys: String, CodingKey { case radius, label }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            radius = try container.decode(Double.self, forKey: .radius)
            label = try container.decodeIfPresent(String.self, forKey: .label)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(radius, forKey: .radius)
            try container.encodeIfPresent(label, forKey: .label)
        }
    }

    /// The superclass's bag, decoded after the subclass read its keys, keeps only the members
    /// neither level reads, from the first decode on; clearing a subclass property survives the
    /// round trip.
    @Test func superclassBagKeepsNoMemberTheSubclassReads() throws {
        let json = #"{"name": "c", "radius": 2, "label": "old", "color": "red"}"#
        let circle = try LenientJSONDecoder().decode(Circle.self, from: json)
        #expect(circle.extras.keys == ["color"])
        circle.label = nil
        let again = try LenientJSONDecoder().decode(Circle.self, from: LenientJSONEncoder().encode(circle))
        #expect(again.label == nil)
        #expect(again.radius == 2 && again.name == "c")
        #expect(again.extras.keys == ["color"])
    }

    class Animal: Codable {
        var name: String
        var legs: Int
        var extras = UnknownKeys()
        init(name: String, legs: Int) {
            self.name = name
            self.legs = legs
        }
    }

    final class Dog: Animal {
        var breed: String?
        var dogExtras = UnknownKeys()
        private enum CodingKeys: String, CodingKey { case breed, dogExtras }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            breed = try container.decodeIfPresent(String.self, forKey: .breed)
            dogExtras = try container.decode(UnknownKeys.self, forKey: .dogExtras)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(breed, forKey: .breed)
            try container.encode(dogExtras, forKey: .dogExtras)
        }
    }

    /// Two bags, one a level: the subclass's, collected before the superclass has asked for its
    /// keys, knows them from the type's second decode on; the round trip is stable from then.
    @Test func twoLevelsWithABagEach() throws {
        let decoder = LenientJSONDecoder()
        let json = #"{"name": "Rex", "legs": 4, "breed": "collie", "x": 1}"#
        _ = try decoder.decode(Dog.self, from: json)
        let dog = try decoder.decode(Dog.self, from: json)
        #expect(dog.extras.keys == ["x"])
        #expect(dog.dogExtras.keys == ["x"])
        dog.breed = nil
        let data = try LenientJSONEncoder().encode(dog)
        let again = try decoder.decode(Dog.self, from: data)
        #expect(again.breed == nil)
        #expect(again.name == "Rex" && again.legs == 4)
        #expect(again.extras.keys == ["x"] && again.dogExtras.keys == ["x"])
        #expect(try decoder.decode(Dog.self, from: LenientJSONEncoder().encode(again)).extras == again.extras)
    }

    struct CircleThenDog: Codable {
        var circle: Circle
        var dog: Dog
    }

    /// A subclass's bag read after a value of another class hierarchy (the property before it,
    /// the element before it in an array of a polymorphic type) keeps none of its superclass's
    /// members from the type's second decode on, as alone; the round trip is stable.
    @Test func aSubclassBagAfterAnotherHierarchysValue() throws {
        let decoder = LenientJSONDecoder()
        let json = #"{"circle": {"name": "c", "radius": 1}, "dog": {"name": "Rex", "legs": 4, "x": 1}}"#
        _ = try decoder.decode(CircleThenDog.self, from: json)
        for options in [LenientJSONDecoder.Options.lenient, .strict] {
            let value = try LenientJSONDecoder(options: options).decode(CircleThenDog.self, from: json)
            #expect(value.dog.dogExtras.keys == ["x"])
            #expect(value.dog.extras.keys == ["x"])
            let (again, report) = try LenientJSONDecoder(options: options).decodeWithReport(
                CircleThenDog.self, from: LenientJSONEncoder().encode(value))
            #expect(again.dog.dogExtras == value.dog.dogExtras && again.dog.extras == value.dog.extras)
            #expect(again.dog.name == "Rex" && again.circle.radius == 1)
            #expect(report.isEmpty)
        }
    }

    struct Inner: Codable, Equatable {
        var a: Int
        var extras = UnknownKeys()
    }

    /// Forwards its member through a super decoder and a super encoder, as hand-written
    /// conformances do.
    struct Outer: Codable, Equatable {
        var inner: Inner
        enum CodingKeys: String, CodingKey { case inner }

        init(inner: Inner) { self.inner = inner }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            inner = try Inner(from: container.superDecoder(forKey: .inner))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try inner.encode(to: container.superEncoder(forKey: .inner))
        }
    }

    /// A bag written through `superEncoder(forKey:)` comes back, whether the lenient decoder
    /// filled it or Foundation's read it as an ordinary property.
    @Test func bagWrittenThroughASuperEncoder() throws {
        let json = #"{"inner": {"a": 1, "q": 2, "z": {"k": 3}}}"#
        let value = try LenientJSONDecoder().decode(Outer.self, from: json)
        #expect(value.inner.extras.keys == ["q", "z"])
        let data = try LenientJSONEncoder().encode(value)
        let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
        #expect(object["inner"]?.keys.sorted() == ["a", "q", "z"])
        #expect(try LenientJSONDecoder().decode(Outer.self, from: data) == value)

        let fromFoundation = try JSONDecoder().decode(
            Outer.self, from: Data(#"{"inner": {"a": 1, "extras": {"q": 2}}}"#.utf8))
        let written = try LenientJSONEncoder().encode(fromFoundation)
        #expect(try LenientJSONDecoder().decode(Outer.self, from: written).inner.extras["q"] == JSONValue(2))
    }

    /// Another level's bag after the super-encoded member still gets its own members.
    @Test func bagsOnBothSidesOfASuperEncodedMember() throws {
        struct Envelope: Codable, Equatable {
            var outer: Outer
            var extras = UnknownKeys()
        }
        let json = #"{"outer": {"inner": {"a": 1, "q": 2}}, "meta": true}"#
        let value = try LenientJSONDecoder().decode(Envelope.self, from: json)
        #expect(value.extras.keys == ["meta"])
        let again = try LenientJSONDecoder().decode(Envelope.self, from: LenientJSONEncoder().encode(value))
        #expect(again == value)
    }

    final class Square: Shape {
        var side: Double
        private enum CodingKeys: String, CodingKey { case side }

        required init(from decoder: any Decoder) throws {
            side = try decoder.container(keyedBy: CodingKeys.self).decode(Double.self, forKey: .side)
            try super.init(from: decoder)
        }

        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(side, forKey: .side)
        }
    }

    /// What one subclass reads is none of another's business: decoding circles and squares does
    /// not make a plain shape, or a circle, drop the members that the other subclass would read.
    @Test func siblingsAreTheDecodedTypesOwn() throws {
        let decoder = LenientJSONDecoder()
        let json = #"{"name": "s", "radius": 5, "side": 3, "z": 1}"#
        #expect(try decoder.decode(Shape.self, from: json).extras.keys == ["radius", "side", "z"])
        _ = try decoder.decode(Circle.self, from: #"{"name": "c", "radius": 2}"#)
        _ = try decoder.decode(Square.self, from: #"{"name": "q", "side": 2}"#)
        let shape = try decoder.decode(Shape.self, from: json)
        #expect(shape.extras.keys == ["radius", "side", "z"])
        let circle = try decoder.decode(Circle.self, from: json)
        #expect(circle.extras.keys == ["side", "z"])
        let written = try JSONSerialization.jsonObject(with: LenientJSONEncoder().encode(circle)) as? [String: Any]
        #expect(written?.keys.sorted() == ["name", "radius", "side", "z"])
    }

    class Level1: Codable {
        var a: Int
        var extras = UnknownKeys()
    }

    class Level2: Level1 {
        var b: Int?
        private enum CodingKeys: String, CodingKey { case b }
        required init(from decoder: any Decoder) throws {
            b = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .b)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(b, forKey: .b)
        }
    }

    final class Level3: Level2 {
        var c: Int?
        private enum CodingKeys: String, CodingKey { case c }
        required init(from decoder: any Decoder) throws {
            c = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .c)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(c, forKey: .c)
        }
    }

    /// Three levels: the base's bag keeps neither the middle level's members nor the top's, and
    /// a value cleared at the middle level stays cleared.
    @Test func threeLevels() throws {
        let value = try LenientJSONDecoder().decode(Level3.self, from: #"{"a": 1, "b": 2, "c": 3, "z": 4}"#)
        #expect(value.extras.keys == ["z"])
        value.b = nil
        let again = try LenientJSONDecoder().decode(Level3.self, from: LenientJSONEncoder().encode(value))
        #expect(again.b == nil && again.c == 3 && again.a == 1)
        #expect(again.extras.keys == ["z"])
    }

    /// Two values written through super encoders at one key: the last wins, with its own bag
    /// only; a value written over a super-encoded one keeps none of its members.
    @Test func aSuperEncodedValueWrittenOverKeepsNoneOfTheFirstBag() throws {
        struct Twice: Encodable {
            var first: Inner
            var second: Inner
            enum CodingKeys: String, CodingKey { case x }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try first.encode(to: container.superEncoder())
                try second.encode(to: container.superEncoder())
                try first.encode(to: container.superEncoder(forKey: .x))
                try container.encode([1, 2], forKey: .x)
            }
        }
        var first = Inner(a: 1)
        first.extras = try LenientJSONDecoder().decode(Inner.self, from: #"{"a": 1, "q": 1}"#).extras
        var second = Inner(a: 2)
        second.extras = try LenientJSONDecoder().decode(Inner.self, from: #"{"a": 2, "r": 2}"#).extras
        let encoder = LenientJSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(Twice(first: first, second: second))
        #expect(String(decoding: data, as: UTF8.self) == #"{"super":{"a":2,"r":2},"x":[1,2]}"#)
        let value = try encoder.encodeToJSONValue(Twice(first: first, second: second))
        #expect(value == (try LenientJSONDecoder().decode(JSONValue.self, from: data)))
    }

    class MappedBase: Codable, KeyMapping {
        var a = 0
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["a": "alpha"] }
    }

    final class MappedSub: MappedBase {
        var b = 0
        var subExtras = UnknownKeys()
        private enum CodingKeys: String, CodingKey { case b, subExtras }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            b = try container.decode(Int.self, forKey: .b)
            subExtras = try container.decode(UnknownKeys.self, forKey: .subExtras)
            try super.init(from: decoder)
        }
        override func encode(to encoder: any Encoder) throws {
            try super.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(b, forKey: .b)
            try container.encode(subExtras, forKey: .subExtras)
        }
    }

    /// The other level's key mapping counts: the member the superclass reads under its mapped
    /// key is not in the subclass's bag (from the type's second decode on, as documented).
    @Test func theOtherLevelsMappingCounts() throws {
        let decoder = LenientJSONDecoder()
        let json = #"{"alpha": 1, "b": 2, "c": 3}"#
        _ = try decoder.decode(MappedSub.self, from: json)
        let value = try decoder.decode(MappedSub.self, from: json)
        #expect(value.a == 1 && value.b == 2)
        #expect(value.extras.keys == ["c"])
        #expect(value.subExtras.keys == ["c"])
        value.a = 5
        let again = try decoder.decode(MappedSub.self, from: LenientJSONEncoder().encode(value))
        #expect(again.a == 5 && again.extras.keys == ["c"] && again.subExtras.keys == ["c"])
    }

    enum KeptKeys: String, CodingKey { case b, extras }

    // Written once by the decode of `KeptSub` in `aBagReadFromAKeptContainer`, the one test that
    // reads it; a static stored property, alive for the process.
    nonisolated(unsafe) static var keptContainer: KeyedDecodingContainer<KeptKeys>?

    class KeptBase: Codable, KeyMapping {
        var a = 0
        var extras = UnknownKeys()
        static var keyMapping: [String: KeySource] { ["a": "ext.alpha"] }
    }

    final class KeptSub: KeptBase {
        var b = 0
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: KeptKeys.self)
            b = try container.decode(Int.self, forKey: .b)
            UnknownKeysClassTests.keptContainer = container
            try super.init(from: decoder)
        }
    }

    /// A container kept past the decode reads the same bag as the decode did: the other levels
    /// are those of the type it was decoded for.
    @Test func aBagReadFromAKeptContainer() throws {
        let json = #"{"ext": {"alpha": 1, "x": 2}, "b": 3, "c": 4}"#
        let decoder = LenientJSONDecoder()
        _ = try decoder.decode(KeptSub.self, from: json)
        let value = try decoder.decode(KeptSub.self, from: json)
        let kept = try #require(Self.keptContainer)
        let later = try kept.decode(UnknownKeys.self, forKey: .extras)
        #expect(later == value.extras)
        #expect(later.keys == ["ext", "c"])
    }

    struct FlatBag: Codable {
        var userName = ""
        var extras = UnknownKeys()
    }

    /// Many spellings of one key that loose matching could read: collecting the bag stays
    /// linear (each spelling asked the same two searches of the whole object before).
    @Test func manyLooseSpellingsOfOneKeyStayLinear() throws {
        // `username` in the cases that the bits of `index` choose, then `index / 256` underscores.
        func spelling(_ index: Int) -> String {
            var spelled = ""
            for (position, letter) in "username".enumerated() {
                spelled.append(index >> position & 1 == 1 ? Character(letter.uppercased()) : letter)
            }
            return spelled + String(repeating: "_", count: index >> 8)
        }
        var members: [String] = []
        for index in 0..<3_000 { members.append(#""junk\#(index)": \#(index)"#) }
        // Leaving out `userName` itself (16, 272, ...): every spelling is a loose match only.
        for index in 1...3_000 where index & 0xFF != 16 { members.append(#""\#(spelling(index))": "v\#(index)""#) }
        let value = try LenientJSONDecoder().decode(FlatBag.self, from: "{" + members.joined(separator: ",") + "}")
        // The first loose match is read; every other spelling is kept.
        #expect(value.userName == "v1")
        #expect(value.extras.count == members.count - 1)
        #expect(value.extras["junk0"] == JSONValue(0))
        #expect(value.extras[spelling(1)] == nil && value.extras[spelling(2)] == JSONValue("v2"))
    }
}

// MARK: - A subclass's bag beside `superDecoder()`

extension UnknownKeysClassTests {
    class SuperBase: Codable {
        var id: Int
        init(id: Int) { self.id = id }
    }

    /// The `superDecoder()` pattern with a bag in the subclass: the bag keeps `super` whole (the
    /// decoder cannot know what the superclass reads), and the encoder merges it into the object
    /// the superclass writes through `superEncoder()`, the superclass's members winning.
    final class SuperSub: SuperBase {
        var name: String
        var extras = UnknownKeys()
        enum CodingKeys: String, CodingKey { case name, extras }
        init(id: Int, name: String) {
            self.name = name
            super.init(id: id)
        }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            try super.init(from: container.superDecoder())
            extras = try container.decode(UnknownKeys.self, forKey: .extras)
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try super.encode(to: container.superEncoder())
            try container.encode(extras, forKey: .extras)
        }
    }

    @Test func membersTheSuperclassDoesNotReadComeBackBesideItsOwn() throws {
        let text = #"{"name":"a","super":{"id":1,"q":{"r":2}},"z":3}"#
        let (value, report) = try LenientJSONDecoder().decodeWithReport(SuperSub.self, from: text)
        #expect(value.id == 1 && value.name == "a" && report.isEmpty)
        let written = try LenientJSONEncoder().encode(value)
        #expect(String(decoding: written, as: UTF8.self) == text)
        let again = try LenientJSONDecoder().decode(SuperSub.self, from: written)
        #expect(again.id == 1 && again.name == "a" && again.extras == value.extras)
        // The superclass's own value wins over what the bag kept of it.
        value.id = 5
        let edited = try LenientJSONDecoder().decode(SuperSub.self, from: LenientJSONEncoder().encode(value))
        #expect(edited.id == 5 && edited.extras["super"]?["q"] == ["r": 2] && edited.extras["z"] == 3)
        // A superclass that writes something other than an object keeps it.
        let built = SuperSub(id: 2, name: "b")
        built.extras = ["super": "legacy"]
        #expect(
            String(decoding: try LenientJSONEncoder().encode(built), as: UTF8.self)
                == #"{"name":"b","super":{"id":2}}"#)
    }

    class OptionalBase: Codable {
        var opt: Int?
        var a = 0
    }

    final class BagFirstSub: OptionalBase {
        var bag = UnknownKeys()
        enum CodingKeys: String, CodingKey { case bag }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            bag = try container.decode(UnknownKeys.self, forKey: .bag)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bag, forKey: .bag)
            try super.encode(to: container.superEncoder())
        }
    }

    class BaggedBase: Codable {
        var a = 0
        var extras = UnknownKeys()
    }

    final class BaggedSub: BaggedBase {
        var bag = UnknownKeys()
        enum CodingKeys: String, CodingKey { case bag }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            bag = try container.decode(UnknownKeys.self, forKey: .bag)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bag, forKey: .bag)
            try super.encode(to: container.superEncoder())
        }
    }

    /// What the superclass leaves out on purpose stays out: a property set to `nil`, and what
    /// its own bag no longer holds; the subclass's copy of `super` does not bring them back.
    @Test func whatTheSuperclassLeavesOutStaysOut() throws {
        let value = try LenientJSONDecoder().decode(BagFirstSub.self, from: #"{"super":{"opt":5,"a":1,"y":2},"z":1}"#)
        #expect(value.opt == 5 && value.bag["z"] == 1)
        value.opt = nil
        let cleared = try LenientJSONDecoder().decode(BagFirstSub.self, from: LenientJSONEncoder().encode(value))
        #expect(cleared.opt == nil && cleared.a == 1 && cleared.bag["z"] == 1)
        #expect(cleared.bag["super"]?["y"] == 2)

        let bagged = try LenientJSONDecoder().decode(BaggedSub.self, from: #"{"super":{"a":1,"y":2}}"#)
        #expect(bagged.extras["y"] == 2)
        bagged.extras = UnknownKeys()
        let emptied = try LenientJSONDecoder().decode(BaggedSub.self, from: LenientJSONEncoder().encode(bagged))
        #expect(emptied.a == 1 && emptied.extras.isEmpty)
    }
}

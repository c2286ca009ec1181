// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// An enum with associated values, chosen by a tag field, that decodes and encodes itself with no
/// hand-written `init(from:)` or `encode(to:)` and no macro.
///
/// ```swift
/// enum Payment: TaggedCodable {
///     case card(Card)
///     case cash(Cash)
///     static let tagKey = "type"                 // {"type": "card", "number": "4242…"}
///     static let variants: [TaggedVariant<Payment>] = [
///         .init("card", Card.self, Payment.card),
///         .init("cash", Cash.self, Payment.cash),
///     ]
/// }
/// ```
///
/// The payload's members sit beside the tag (internally tagged), or under ``contentKey`` when
/// the type sets one (adjacently tagged: `{"type": "card", "data": {…}}`). It works under any
/// decoder and encoder, Foundation's included. An unknown tag throws `dataCorrupted` naming the
/// tag and the known ones; under `LenientJSONDecoder` such an element of a lossy collection is
/// dropped and reported, and a type that also conforms to ``CaseFallback`` takes its fallback
/// case instead.
public protocol TaggedCodable: Codable {
    /// The member that holds the tag.
    static var tagKey: String { get }
    /// The member that holds the payload, or `nil` (the default) when the payload's members sit
    /// beside the tag.
    static var contentKey: String? { get }
    /// The cases: each one's tag, payload type and case constructor.
    static var variants: [TaggedVariant<Self>] { get }
}

extension TaggedCodable {
    /// The payload's members sit beside the tag.
    public static var contentKey: String? { nil }

    /// Decodes the variant that the tag names.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError.dataCorrupted` for a tag no variant has (unless the type conforms
    ///   to ``CaseFallback``), and the errors of decoding the tag and the payload.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TagCodingKey.self)
        let tagKey = TagCodingKey(Self.tagKey)
        if let treeDecoder = decoder as? TreeDecoder, treeDecoder.isLenient {
            self = try treeDecoder.decodeTagged(Self.self, container: container, tagKey: tagKey)
            return
        }
        let tag = try container.decode(String.self, forKey: tagKey)
        let treeDecoder = decoder as? TreeDecoder
        treeDecoder?.keyIsNotAProperty()
        guard let variant = Self.variants.first(where: { $0.tag == tag }) else {
            if let value = Self.taggedFallbackCase {
                if let treeDecoder {
                    treeDecoder.record(
                        .defaulted, path: treeDecoder.codingPathNode, found: treeDecoder.nodeIndex,
                        "Unknown tag \"\(tag)\" for \(Self.self); used the fallback case \(value).")
                }
                self = value
                return
            }
            throw Self.unknownTag(tag.debugDescription, container: container, tagKey: tagKey)
        }
        self = try Self.decodePayload(of: variant, container: container, decoder: decoder)
    }

    /// The fallback case, when the type also conforms to ``CaseFallback``.
    static var taggedFallbackCase: Self? {
        (Self.self as? any CaseFallback.Type)?.fallbackCase as? Self
    }

    /// The payload of a variant, beside the tag or under ``contentKey``.
    static func decodePayload(
        of variant: TaggedVariant<Self>, container: KeyedDecodingContainer<TagCodingKey>, decoder: any Decoder
    ) throws -> Self {
        guard let contentKey = Self.contentKey else {
            // The tag's member is the enum's: no `UnknownKeys` property of the payload keeps it.
            guard let treeDecoder = decoder as? TreeDecoder else { return try variant.decodePayload(decoder) }
            return try treeDecoder.decodingPayload(besideTag: Self.tagKey) { try variant.decodePayload(decoder) }
        }
        let key = TagCodingKey(contentKey)
        // The content key is none of the payload's properties: taken back out of what `contains`
        // and the decode count, also when the payload fails (a Foundation-like pass then decodes
        // it again). See ``TreeDecoder/keyIsNotAProperty()``.
        let treeDecoder = decoder as? TreeDecoder
        let contentIsPresent = treeDecoder != nil && container.contains(key)
        if contentIsPresent { treeDecoder?.keyIsNotAProperty() }
        defer { if contentIsPresent { treeDecoder?.keyIsNotAProperty() } }
        return try variant.decodeContent(container, key)
    }

    /// The error for a tag no variant has; `tag` is the tag as a message quotes it.
    static func unknownTag(
        _ tag: String, container: KeyedDecodingContainer<TagCodingKey>, tagKey: TagCodingKey
    ) -> DecodingError {
        let known = Self.variants.map { "\"\($0.tag)\"" }.joined(separator: ", ")
        return DecodingError.dataCorrupted(
            .init(
                codingPath: container.codingPath + [tagKey],
                debugDescription: "Unknown tag \(tag) for \(Self.self); the known tags are \(known)."))
    }

    /// Encodes the tag and the payload of the case.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: `EncodingError.invalidValue` when no variant makes this case; without a
    ///   ``contentKey``, when the payload does not encode as an object (its members go beside the
    ///   tag, so a number or an array would replace the tag) or writes the tag key itself, or
    ///   leaves out a `nil` optional at the tag key (decoded, it would read the tag); and the
    ///   errors of encoding the payload.
    public func encode(to encoder: any Encoder) throws {
        guard let (variant, payload) = Self.variant(of: self) else {
            throw EncodingError.invalidValue(
                self,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription: "No variant of \(Self.self).variants makes the case \(self)."))
        }
        if let contentKey = Self.contentKey, Self.contentKeyReplacesTheTag(contentKey, under: encoder) {
            throw EncodingError.invalidValue(
                self,
                .init(
                    codingPath: encoder.codingPath,
                    debugDescription:
                        "\(Self.self).contentKey \"\(contentKey)\" is written as the tag key \"\(Self.tagKey)\": the payload would replace the tag."
                ))
        }
        var container = encoder.container(keyedBy: TagCodingKey.self)
        try container.encode(variant.tag, forKey: TagCodingKey(Self.tagKey))
        if let contentKey = Self.contentKey {
            try variant.encodeContent(payload, &container, TagCodingKey(contentKey))
        } else if let treeEncoder = encoder as? TreeEncoder {
            // The payload is encoded on its own, with its hooks and mapping, as under a content
            // key; then its members go beside the tag.
            let problem: TaggedPayloadProblem?
            do {
                problem = try treeEncoder.encodeBesideTag(tag: variant.tag, tagKey: Self.tagKey) {
                    try variant.encodePayload(payload, $0)
                }
            } catch let refused as TaggedPayloadProblem {
                // A `nil` optional under the tag key, refused where it is met.
                problem = refused
            }
            if let problem {
                throw Self.payloadError(problem, variant: variant, codingPath: encoder.codingPath)
            }
        } else {
            // Another encoder (Foundation's traps when a value asks for a keyed container and then
            // another kind): the payload writes through one that refuses anything but the tag's
            // object, and the tag key.
            let guarded = TaggedPayloadEncoder(base: encoder, tagKey: Self.tagKey, tag: variant.tag)
            do {
                try variant.encodePayload(payload, guarded)
            } catch let problem as TaggedPayloadProblem {
                // What the payload first did wrong (a container for the tag key, then a value in it).
                throw Self.payloadError(
                    guarded.refusal.problem ?? problem, variant: variant, codingPath: encoder.codingPath)
            }
            if let problem = guarded.refusal.problem {
                throw Self.payloadError(problem, variant: variant, codingPath: encoder.codingPath)
            }
        }
    }

    /// Whether the content key is written as the tag key: the same, or the same once
    /// ``LenientJSONEncoder``'s key strategy converts both (another encoder's strategy is its own).
    private static func contentKeyReplacesTheTag(_ contentKey: String, under encoder: any Encoder) -> Bool {
        if contentKey == tagKey { return true }
        guard let treeEncoder = encoder as? TreeEncoder else { return false }
        return treeEncoder.jsonKey(for: TagCodingKey(contentKey), suffix: .root)
            == treeEncoder.jsonKey(for: TagCodingKey(tagKey), suffix: .root)
    }

    /// The error for a payload that cannot go beside the tag.
    private static func payloadError(
        _ problem: TaggedPayloadProblem, variant: TaggedVariant<Self>, codingPath: [any CodingKey]
    ) -> EncodingError {
        let reason =
            switch problem {
            case .notAnObject:
                "does not encode as an object, so its members cannot go beside the tag \"\(tagKey)\"; set contentKey to write it under a key of its own"
            case .writesTheTagKey:
                "writes the key \"\(tagKey)\" itself, which would replace the tag"
            case .leavesNilAtATag(let key):
                "has a nil optional at the key \"\(key)\", where a tag is written: left out, decoding reads the tag into it, and written null, it replaces the tag"
            }
        return EncodingError.invalidValue(
            variant.tag,
            .init(
                codingPath: codingPath,
                debugDescription: "The payload of \(Self.self)'s variant \"\(variant.tag)\" \(reason)."))
    }

    /// The variant that makes this case, and the case's payload: the case whose name the variant's
    /// constructor gives back for the same payload.
    private static func variant(of value: Self) -> (TaggedVariant<Self>, Any)? {
        guard let (name, payload) = caseAndPayload(of: value) else { return nil }
        for variant in variants where variant.accepts(payload) {
            if let made = variant.make(payload), caseAndPayload(of: made)?.name == name { return (variant, payload) }
        }
        return nil
    }

    /// The name of the case and its associated value; `nil` for a case without one.
    private static func caseAndPayload(of value: Self) -> (name: String, payload: Any)? {
        guard let child = Mirror(reflecting: value).children.first, let name = child.label else { return nil }
        // A labelled associated value, `case card(card: Card)`, is reflected as a one-element
        // tuple, `(card: Card)`: the payload is its element. No `Codable` payload is a tuple itself.
        let associated = Mirror(reflecting: child.value)
        if associated.displayStyle == .tuple, associated.children.count == 1, let element = associated.children.first {
            return (name, element.value)
        }
        return (name, child.value)
    }
}

/// One case of a ``TaggedCodable`` enum: its tag, its payload type and its constructor.
public struct TaggedVariant<Enum>: Sendable {
    /// The tag that names the case.
    public let tag: String
    let coding: any VariantCoding<Enum>

    /// A case with the given tag, whose payload decodes and encodes as `payload`.
    ///
    /// - Parameters:
    ///   - tag: The value of the tag field that names the case.
    ///   - payload: The type of the case's associated value.
    ///   - make: The case, as a function of the payload: `Payment.card`.
    public init<Payload: Codable>(_ tag: String, _ payload: Payload.Type, _ make: @escaping @Sendable (Payload) -> Enum)
    {
        self.tag = tag
        coding = PayloadCoding(make: make)
    }

    func decodePayload(_ decoder: any Decoder) throws -> Enum { try coding.decodePayload(decoder) }
    func decodeContent(_ container: KeyedDecodingContainer<TagCodingKey>, _ key: TagCodingKey) throws -> Enum {
        try coding.decodeContent(container, key)
    }
    func encodePayload(_ payload: Any, _ encoder: any Encoder) throws { try coding.encodePayload(payload, encoder) }
    func encodeContent(_ payload: Any, _ container: inout KeyedEncodingContainer<TagCodingKey>, _ key: TagCodingKey)
        throws
    { try coding.encodeContent(payload, &container, key) }
    func accepts(_ payload: Any) -> Bool { coding.accepts(payload) }
    func make(_ payload: Any) -> Enum? { coding.make(payload) }
}

/// How one variant reads and writes its payload, with the payload's type erased.
protocol VariantCoding<Enum>: Sendable {
    associatedtype Enum
    func decodePayload(_ decoder: any Decoder) throws -> Enum
    func decodeContent(_ container: KeyedDecodingContainer<TagCodingKey>, _ key: TagCodingKey) throws -> Enum
    func encodePayload(_ payload: Any, _ encoder: any Encoder) throws
    func encodeContent(_ payload: Any, _ container: inout KeyedEncodingContainer<TagCodingKey>, _ key: TagCodingKey)
        throws
    func accepts(_ payload: Any) -> Bool
    func make(_ payload: Any) -> Enum?
}

struct PayloadCoding<Enum, Payload: Codable>: VariantCoding {
    let make: @Sendable (Payload) -> Enum

    func decodePayload(_ decoder: any Decoder) throws -> Enum {
        // Through the decoder's own unwrapping, so that the payload's hooks and key mapping apply.
        make(try decoder.singleValueContainer().decode(Payload.self))
    }

    func decodeContent(_ container: KeyedDecodingContainer<TagCodingKey>, _ key: TagCodingKey) throws -> Enum {
        make(try container.decode(Payload.self, forKey: key))
    }

    func encodePayload(_ payload: Any, _ encoder: any Encoder) throws {
        guard let payload = payload as? Payload else { return }
        if encoder is TreeEncoder {
            // LenientJSONEncoder adds the payload's members to the tag's object, with its hooks and mapping.
            var container = encoder.singleValueContainer()
            try container.encode(payload)
        } else {
            // Other encoders merge the keyed containers that one value asks for.
            try payload.encode(to: encoder)
        }
    }

    func encodeContent(_ payload: Any, _ container: inout KeyedEncodingContainer<TagCodingKey>, _ key: TagCodingKey)
        throws
    {
        guard let payload = payload as? Payload else { return }
        try container.encode(payload, forKey: key)
    }

    func accepts(_ payload: Any) -> Bool { payload is Payload }

    func make(_ payload: Any) -> Enum? { (payload as? Payload).map(make) }
}

/// A key spelled at run time: the tag and content members of a ``TaggedCodable`` type.
struct TagCodingKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension TreeDecoder {
    /// A ``TaggedCodable`` value at the current node, in `.lenient`.
    ///
    /// A tag Foundation reads (a string) names the variant, as under any decoder. A tag it refuses
    /// is forgiven as one value: a number or a bool is coerced to its text (`1` names the variant
    /// `"1"`), and one that names no variant — coerced, missing, `null`, an object or an array —
    /// takes the fallback case when the type has one, reported once, for the enum, in place of
    /// whatever reading the tag recorded. Without a fallback case, a tag that is no string and no
    /// coercible scalar fails with Foundation's error (`keyNotFound` for a missing tag, not an
    /// unknown tag `""`).
    func decodeTagged<T: TaggedCodable>(
        _ type: T.Type, container: KeyedDecodingContainer<TagCodingKey>, tagKey: TagCodingKey
    ) throws -> T {
        let mark = reportMark
        // The tag is none of the payload's properties: what reading it counts is taken back out
        // (see ``keyIsNotAProperty()``), so that `{"type": "card"}` in a list is an element of
        // which no property was present.
        let keysFoundBefore = keysFound
        let tag: String
        let quoted: String
        switch readTagAsFoundation(container, tagKey) {
        case .success(let found):
            tag = found
            quoted = found.debugDescription
        case .failure(let refusal):
            // What the member holds, for the message and the coercion (a missing member reads as null).
            let member = (try? container.superDecoder(forKey: tagKey)) as? TreeDecoder
            rollbackReport(to: mark)
            let isMissing: Bool
            if case DecodingError.keyNotFound = refusal { isMissing = true } else { isMissing = false }
            guard !isMissing, let member, let coerced = member.coercedTag() else {
                guard let fallback = T.taggedFallbackCase, mayForgive() else { throw refusal }
                rollbackReport(to: mark)
                // A missing tag is a missing property: an element of a collection of which nothing
                // was present is left out, not made up of the fallback (``unwrapElement(_:at:path:isCurrent:)``).
                if isMissing { missingValuesDefaulted &+= 1 }
                keysFound = keysFoundBefore
                let found =
                    isMissing
                    ? "Missing tag \(tagKey.stringValue.debugDescription)"
                    : "Found \(member.map { $0.describeFound(at: $0.nodeIndex) } ?? "null") for the tag \(tagKey.stringValue.debugDescription)"
                let of = isMissing ? "for" : "of"
                record(
                    .defaulted, path: codingPathNode, found: nodeIndex,
                    "\(found) \(of) \(T.self); used the fallback case \(fallback).")
                return fallback
            }
            tag = coerced
            quoted = member.describeFound(at: member.nodeIndex)
        }
        keysFound = keysFoundBefore
        if let variant = T.variants.first(where: { $0.tag == tag }) {
            return try T.decodePayload(of: variant, container: container, decoder: self)
        }
        guard let fallback = T.taggedFallbackCase else {
            throw T.unknownTag(quoted, container: container, tagKey: tagKey)
        }
        // The enum is the one value forgiven: what reading its tag recorded (a coercion) goes.
        rollbackReport(to: mark)
        record(
            .defaulted, path: codingPathNode, found: nodeIndex,
            "Unknown tag \(quoted) for \(T.self); used the fallback case \(fallback).")
        return fallback
    }

    /// The tag as Foundation's decoder reads it, or Foundation's error; nothing is forgiven, and
    /// only a loose match of the tag's key is recorded, when the tag is read.
    private func readTagAsFoundation(_ container: KeyedDecodingContainer<TagCodingKey>, _ tagKey: TagCodingKey)
        -> Result<String, any Error>
    {
        // The caller asks ``mayForgive()`` for what it forgives afterwards.
        asFoundation { Result { try container.decode(String.self, forKey: tagKey) } }
    }

    /// The current node, a number or a bool, as the text of a tag, coerced and reported as a
    /// `String` property's would be; `nil` for any other value, or when the options do not coerce.
    private func coercedTag() -> String? {
        switch tree[nodeIndex].kind {
        case .number, .true, .false: return try? unwrapString(at: nodeIndex, path: codingPathNode)
        default: return nil
        }
    }
}

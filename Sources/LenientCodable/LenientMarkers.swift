// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 Why two marker protocols. Each `T.self is P.Type` that the Swift runtime has not answered before
 for that pair of type and protocol scans every protocol conformance record of every loaded image:
 a few thousand in a small program, hundreds of thousands in a large app. The answer is cached, so
 the cost falls on the first decode of every type, the one an app pays at launch for each model.

 The coders used to ask each type about every protocol that changes how it is coded (key mapping,
 declared defaults, hooks, polymorphism, the package's collections and wrappers): eight scans for a
 plain model, whose answers were all "no". Every such protocol now refines one marker, so a plain
 model costs a single scan, and only a type that conforms is asked which protocols it conforms to.
 The package's own conformances (arrays, sets, string-keyed dictionaries, wrappers) answer through
 the marker's one requirement, without a further question.

 There are two markers because arrays and dictionaries conform under different conditions for
 decoding (`Element: Decodable`) and encoding (`Element: Encodable`), and a type conforms to a
 protocol once.
 */

/// Not API: the protocol that every protocol which changes how ``LenientJSONDecoder`` decodes a
/// type refines, so that the decoder asks the Swift runtime one question of a type that conforms
/// to none of them instead of one question per protocol.
///
/// ``KeyMapping``, ``DeclaredDefaults``, ``DecodingHooks`` and ``PolymorphicDecodable`` refine it;
/// conform to those, never to this protocol directly. A generic type that conforms to one of them
/// conditionally must also state the same conditional conformance to this protocol:
///
/// ```swift
/// extension Page: DecodingHooks where Item: Identifiable {}
/// extension Page: _LenientDecodingMarker where Item: Identifiable {}
/// ```
public protocol _LenientDecodingMarker {
    /// Not API: what the type is to the decoder. The default, the only one outside the package,
    /// makes the decoder ask which of the package's protocols the type conforms to.
    static var _lenientDecodingRole: _LenientDecodingRole { get }
}

extension _LenientDecodingMarker {
    /// Not API: a type that adopts some of the package's protocols.
    public static var _lenientDecodingRole: _LenientDecodingRole { _LenientDecodingRole(.adopter) }
}

/// Not API: what a type that conforms to ``_LenientDecodingMarker`` is to the decoder.
public struct _LenientDecodingRole {
    enum Kind {
        /// A type outside the package that adopts some of its protocols: the decoder asks which.
        case adopter
        /// An array or set, read straight from the array's elements.
        case collection(any LenientCollection.Type)
        /// A dictionary: `[String: Value]` read straight from the object's members, other keys
        /// member by member in `.lenient` (see `DictionaryDecodable`).
        case dictionary(any DictionaryDecodable.Type)
        /// One of the package's wrappers, which forgive on purpose; with the type as a wrapper
        /// whose default a report names, when it is one.
        case forgivingWrapper((any DefaultingWrapper.Type)?)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }
}

/// Not API: the protocol that every protocol which changes how ``LenientJSONEncoder`` encodes a
/// type refines, so that the encoder asks the Swift runtime one question of a type that conforms
/// to none of them instead of one question per protocol.
///
/// ``KeyMapping``, ``DeclaredDefaults`` and ``EncodingHooks`` refine it; conform to those, never to
/// this protocol directly. A generic type that conforms to one of them conditionally must also
/// state the same conditional conformance to this protocol:
///
/// ```swift
/// extension Page: EncodingHooks where Item: Identifiable {}
/// extension Page: _LenientEncodingMarker where Item: Identifiable {}
/// ```
public protocol _LenientEncodingMarker {
    /// Not API: what the type is to the encoder. The default, the only one outside the package,
    /// makes the encoder ask which of the package's protocols the type conforms to.
    static var _lenientEncodingRole: _LenientEncodingRole { get }
}

extension _LenientEncodingMarker {
    /// Not API: a type that adopts some of the package's protocols.
    public static var _lenientEncodingRole: _LenientEncodingRole { _LenientEncodingRole(.adopter) }
}

/// Not API: what a type that conforms to ``_LenientEncodingMarker`` is to the encoder.
public struct _LenientEncodingRole {
    enum Kind {
        /// A type outside the package that adopts some of its protocols: the encoder asks which.
        case adopter
        /// An array or `[String: Value]`, which the encoder writes itself.
        case collection(any EncodableCollection.Type)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }
}

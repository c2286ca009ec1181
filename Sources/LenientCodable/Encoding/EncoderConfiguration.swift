// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// An encoder's settings as one immutable object, together with what every call derives from
/// them: built the first time a call needs it after a setting changed, then shared by every call
/// until the next change.
///
/// A call used to copy ``EncoderSettings`` out of the encoder, and with it a dozen references
/// (strategies with closures, the converters, `userInfo`), each retained on the way in and
/// released on the way out, and then rebuilt `userInfo` as the `[CodingUserInfoKey: Any]` that
/// `Encoder` hands out. Sharing one object costs a single retain per call.
final class EncoderConfiguration: @unchecked Sendable {
    // Sendable by hand: every property is a `let` set in `init`, and `userInfo` holds the same
    // `Sendable` values as the settings' own `userInfo`, only typed as `Any` for `Encoder`. Its
    // memory is reference counted as usual: the encoder and every call and tree that uses it
    // retain it (`EncoderReuseTests` shares one across eight tasks while it is replaced).

    /// The settings as they were when a call first needed them.
    let settings: EncoderSettings
    /// ``EncoderSettings/userInfo`` as `Encoder.userInfo` spells it.
    let userInfo: [CodingUserInfoKey: Any]
    /// The key strategy, resolved once.
    let keyMode: EncodingTree.KeyMode
    /// Whether the settings register any converter; when not, no value looks for one.
    let hasConverters: Bool
    /// Whether a `nil` optional property is written as `null` rather than left out.
    let writesNilAsNull: Bool

    /// Derives what calls need from a copy of the settings.
    init(settings: EncoderSettings) {
        self.settings = settings
        hasConverters = !settings.converters.isEmpty
        writesNilAsNull = settings.nilEncodingStrategy == .writeNull
        switch settings.keyEncodingStrategy {
        case .convertToSnakeCase: keyMode = .snakeCase
        case .custom(let convert): keyMode = .custom(convert)
        default: keyMode = .useDefaultKeys
        }
        userInfo = settings.userInfo.asCoderUserInfo
    }
}

extension Dictionary where Key == CodingUserInfoKey, Value == any Sendable {
    /// The values as `Encoder.userInfo` and `Decoder.userInfo` hand them out; an empty
    /// dictionary without the allocation that `mapValues` would make.
    var asCoderUserInfo: [CodingUserInfoKey: Any] {
        isEmpty ? [:] : mapValues { $0 as Any }
    }
}

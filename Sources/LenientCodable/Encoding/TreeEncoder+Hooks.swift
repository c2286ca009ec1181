// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension TreeEncoder {
    /// Runs a value's ``EncodingHooks/didEncode(_:)`` on what it encoded into this encoder's node
    /// and puts the result back in the node.
    ///
    /// Only types that conform get here, so only they pay for the ``JSONValue``. The hook sees its
    /// members in encode order, after key mapping; the members it keeps stay in place and the
    /// ones it adds (renamed ones included) come after them, in the order it adds them. Under
    /// `.sortedKeys` the writer sorts them all.
    ///
    /// - Throws: `EncodingError.invalidValue` with this encoder's coding path and the hook's error
    ///   as `underlyingError`; errors in the JSON it returns (a number that is not one) as
    ///   ``TreeEncoder/encode(_:into:key:fillsEmpty:)`` reports them.
    @inline(never)
    func applyEncodingHooksSlowPath<T>(_ value: T) throws {
        guard let hooked = value as? any EncodingHooks else { return }
        var json: JSONValue
        do {
            json = try tree.jsonValue(at: node, sortsKeys: false)
        } catch {
            throw Self.depthError(topLevelValue: value)
        }
        do {
            try hooked.didEncode(&json)
        } catch {
            throw Self.hookError(error, value: value, codingPath: codingPath)
        }
        tree.clear(node)
        try insert(taking: &json, into: node, key: nil)
    }

    @inline(never)
    static func hookError<T>(_ error: any Error, value: T, codingPath: [any CodingKey]) -> EncodingError {
        EncodingError.invalidValue(
            value,
            .init(
                codingPath: codingPath, debugDescription: "The encoding hook of \(type(of: value)) failed: \(error).",
                underlyingError: error))
    }
}

// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

extension TreeDecoder {
    /// An unkeyed container over an array node: a cursor that moves from element to element
    /// by each element's `end`, so reading an array is one pass over its nodes.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let decoder: TreeDecoder
        /// The container's own path; its elements' paths refer to it.
        let pathBox: PathBox
        var codingPathNode: CodingPathNode { pathBox.node }
        let count: Int?
        private(set) var currentIndex = 0
        /// The node of the element at `currentIndex`.
        private var elementIndex: Int

        init(decoder: TreeDecoder, arrayIndex: Int, pathBox: PathBox) {
            self.decoder = decoder
            self.pathBox = pathBox
            self.count = decoder.tree.count(of: arrayIndex)
            self.elementIndex = arrayIndex + 1
        }

        var codingPath: [any CodingKey] { codingPathNode.path }

        var isAtEnd: Bool { currentIndex >= count! }

        @inline(never)
        private func atEnd(_ type: Any.Type) -> DecodingError {
            DecodingError.valueNotFound(
                type,
                .init(
                    codingPath: codingPathNode.path(byAppendingIndex: currentIndex),
                    debugDescription: "Unkeyed container is at end."))
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw atEnd(Never.self) }
            guard decoder.tree[elementIndex].kind == .null else { return false }
            elementIndex = decoder.tree.next(after: elementIndex)
            currentIndex += 1
            return true
        }

        /// Decodes the current element; the cursor moves only when decoding succeeds, as in Foundation.
        @inline(__always)
        private mutating func decodeElement<T>(_ type: T.Type, _ body: (TreeDecoder, Int, CodingPathNode) throws -> T)
            throws -> T
        {
            guard !isAtEnd else { throw atEnd(type) }
            let decoder = self.decoder
            let index = elementIndex
            let value: T
            if decoder.isCaught(TreeDecoder.ProbeCall(node: index, missingKey: nil, type: ObjectIdentifier(T.self))) {
                // A probe that the first pass of the type now in its second saw fail (TreeDecoder+Probes.swift).
                let path = pathBox.appending(index: currentIndex)
                value = try decoder.answeringAsFoundation { try body(decoder, index, path) }
            } else {
                if decoder.callLogging != 0 { decoder.logCall(at: index) }
                do {
                    value = try body(decoder, index, pathBox.appending(index: currentIndex))
                } catch {
                    decoder.recordFailedCall(.init(node: index, missingKey: nil, type: ObjectIdentifier(T.self)))
                    throw error
                }
            }
            elementIndex = decoder.tree.next(after: index)
            currentIndex += 1
            return value
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool {
            try decodeElement(type) { try $0.unwrapBool(at: $1, path: $2) }
        }
        mutating func decode(_ type: String.Type) throws -> String {
            try decodeElement(type) { try $0.unwrapString(at: $1, path: $2) }
        }
        mutating func decode(_ type: Double.Type) throws -> Double {
            try decodeElement(type) { try $0.unwrapDouble(at: $1, path: $2) }
        }
        mutating func decode(_ type: Float.Type) throws -> Float {
            try decodeElement(type) { try $0.unwrapFloat(at: $1, path: $2) }
        }
        mutating func decode(_ type: Int.Type) throws -> Int { try decodeInteger() }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger() }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger() }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger() }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger() }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger() }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger() }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger() }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger() }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger() }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func decode(_ type: Int128.Type) throws -> Int128 { try decodeInteger() }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeInteger() }

        @inline(__always)
        private mutating func decodeInteger<T: FixedWidthInteger>() throws -> T {
            try decodeElement(T.self) { try $0.unwrapInteger(at: $1, path: $2) }
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try decodeElement(type) { try $0.unwrap(type, at: $1, path: $2) }
        }

        /// `nil` for `null`, and past the end, where the index still moves on, as Foundation's
        /// container does (so later errors name the same index); otherwise the element.
        @inline(__always)
        private mutating func decodeIfPresentElement<T>(_ decode: (inout Self) throws -> T) throws -> T? {
            if isAtEnd {
                currentIndex += 1
                return nil
            }
            if try decodeNil() { return nil }
            return try decode(&self)
        }

        mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
            try decodeIfPresentElement { try $0.decode(Bool.self) }
        }
        mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
            try decodeIfPresentElement { try $0.decode(String.self) }
        }
        mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
            try decodeIfPresentElement { try $0.decode(Double.self) }
        }
        mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
            try decodeIfPresentElement { try $0.decode(Float.self) }
        }
        mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
            try decodeIfPresentElement { try $0.decode(Int.self) }
        }
        mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
            try decodeIfPresentElement { try $0.decode(Int8.self) }
        }
        mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
            try decodeIfPresentElement { try $0.decode(Int16.self) }
        }
        mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
            try decodeIfPresentElement { try $0.decode(Int32.self) }
        }
        mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
            try decodeIfPresentElement { try $0.decode(Int64.self) }
        }
        mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
            try decodeIfPresentElement { try $0.decode(UInt.self) }
        }
        mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
            try decodeIfPresentElement { try $0.decode(UInt8.self) }
        }
        mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
            try decodeIfPresentElement { try $0.decode(UInt16.self) }
        }
        mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
            try decodeIfPresentElement { try $0.decode(UInt32.self) }
        }
        mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
            try decodeIfPresentElement { try $0.decode(UInt64.self) }
        }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
            try decodeIfPresentElement { try $0.decode(Int128.self) }
        }
        @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
        mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
            try decodeIfPresentElement { try $0.decode(UInt128.self) }
        }
        mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
            try decodeIfPresentElement { try $0.decode(T.self) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decodeElement(KeyedDecodingContainer<NestedKey>.self) { decoder, index, path in
                let node = decoder.tree[index]
                guard node.kind == .object else {
                    throw decoder.containerMismatch(
                        node, expected: [String: Any].self, container: "keyed decoding container", path: path.path)
                }
                return KeyedDecodingContainer(
                    KeyedContainer<NestedKey>(decoder: decoder, objectIndex: index, pathBox: PathBox(path)))
            }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try decodeElement((any UnkeyedDecodingContainer).self) { decoder, index, path in
                let node = decoder.tree[index]
                guard node.kind == .array else {
                    throw decoder.containerMismatch(
                        node, expected: [Any].self, container: "unkeyed decoding container", path: path.path)
                }
                return UnkeyedContainer(decoder: decoder, arrayIndex: index, pathBox: PathBox(path))
            }
        }

        mutating func superDecoder() throws -> any Decoder {
            try decodeElement((any Decoder).self) { decoder, index, path in
                let superDecoder = decoder.superDecoder(at: index, path: path)
                // What the model leaves unread in the element is reported with the model, once it
                // decodes through the super decoder (see `noteUseAsSuperDecoder`).
                if decoder.readKeys != nil {
                    superDecoder.occasional.pendingSuperNote = (decoder, decoder.nodeIndex, nil)
                }
                return superDecoder
            }
        }
    }
}

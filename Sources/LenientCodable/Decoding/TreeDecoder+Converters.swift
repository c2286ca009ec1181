// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/*
 Converters registered on the options (`DecodingConverters`). Nothing here runs unless the options
 hold at least one converter (`TreeDecoder.hasConverters`), and then only for the types that have
 one, found once per type and decode in `TypeTraits`.

 Standard scalars (Bool, String, integers, Double, Float, Decimal) call `convertScalar` from the
 branch of their unwrapping that handles JSON of another kind, before the coercion table. Every
 other type goes through `unwrapConvertingSlowPath`: its own decoding first, watched through the
 report, then the converter when that decoding failed or forgave anything.
 */

extension TreeDecoder {
    /// Whether a standard scalar's JSON of another kind goes to the converter registered for its
    /// type: the type has one and the JSON is not `null`. Not generic, so that the unwrapping
    /// functions that call it mention no `T?`; and reading only constants (not the traits table),
    /// so that the loops that inline those functions keep their exclusivity checks optimized away.
    @inline(never)
    func hasScalarConverter(_ type: Any.Type, at index: Int) -> Bool {
        tree[index].kind != .null && options.converters.converter(for: type) != nil
    }

    /// The value of a standard scalar whose JSON is of another kind, from the converter registered
    /// for its type; when the converter throws, the coercion table's rule (in lenient mode).
    ///
    /// - Parameter table: The coercion table's rule for the type.
    /// - Throws: The converter's failure when neither it nor the table can read the value.
    @inline(never)
    func convertScalar<T>(
        _ type: T.Type, at index: Int, path: CodingPathNode, table: (Int, CodingPathNode) throws -> T
    ) throws -> T {
        do {
            return try convert(T.self, at: index, path: path)
        } catch {
            if isLenient, mayForgive(), let value = try? table(index, path) { return value }
            throw error
        }
    }

    /// Decodes a type that has a converter and decodes itself: its own decoding, then the converter
    /// when that failed or had to forgive something, then the coercion table's second chances.
    @inline(never)
    func unwrapConvertingSlowPath<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool
    ) throws -> T {
        // The traits of the type's own decoding, without the `.converted` kind of this decode.
        let traits = TypeTraits.shared(for: T.self, id: ObjectIdentifier(T.self))
        guard tree[index].kind != .null else {
            return try ownDecoding(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
        }
        // Watch the own decoding through the report, installing one when nobody asked for it.
        let savedReport = report
        let collector = savedReport ?? ReportCollector()
        report = collector
        defer { report = savedReport }
        let mark = collector.issues.count
        let own: Result<T, any Error>
        do {
            let value = try ownDecoding(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
            let forgave = collector.issues[mark...].contains { $0.kind != .unknownKey }
            if !forgave { return value }
            own = .success(value)
        } catch {
            own = .failure(error)
        }
        let ownIssues = collector.issues[mark...]
        collector.issues.removeSubrange(mark...)
        report = savedReport
        do {
            return try convert(T.self, at: index, path: path)
        } catch let converterError {
            switch own {
            case .success(let value):
                // The converter could not do better than the type's own lenient decoding.
                savedReport?.issues.append(contentsOf: ownIssues)
                return value
            case .failure:
                if isLenient, mayForgive(),
                    let value = try coerceAfterFailure(type, at: index, path: path, failure: converterError)
                {
                    return value
                }
                throw converterError
            }
        }
    }

    /// A type's own decoding, without the coercion table's second chances.
    private func ownDecoding<T: Decodable>(
        _ type: T.Type, at index: Int, path: CodingPathNode, isCurrent: Bool, traits: TypeTraits
    ) throws -> T {
        switch traits.kind {
        case .date: return reinterpret(try unwrapDate(at: index, path: path), as: T.self)
        case .data: return reinterpret(try unwrapData(at: index, path: path), as: T.self)
        case .url: return reinterpret(try unwrapURL(at: index, path: path), as: T.self)
        case .dictionary(let dictionaryType) where tree[index].kind == .object && dictionaryType.readsMembers(in: self):
            return try dictionaryType.decodeMembers(as: T.self, from: self, at: index, path: path)
        case .collection(let collectionType) where tree[index].kind == .array:
            return try collectionType.decodeElements(as: T.self, from: self, at: index, path: path)
        case .model, .float, .int64, .decimal, .jsonValue, .dictionary, .collection, .converted:
            let value = try decodeModel(type, at: index, path: path, isCurrent: isCurrent, traits: traits)
            if readKeys != nil { reportUnreadKeysOfModel(at: index, path: path) }
            return value
        }
    }

    /// Calls a converter on the value's JSON and reports the conversion.
    private func convert<T>(_ type: T.Type, at index: Int, path: CodingPathNode) throws -> T {
        try checkValidText(at: index, path: path)
        let value: T
        do {
            // Registered under T's identifier, so the registration converts to T.
            guard let typed = options.converters.converter(for: T.self) as? DecodingConverters.TypedConverter<T> else {
                throw DecodingError.typeMismatch(
                    T.self, .init(codingPath: path.path, debugDescription: "The converter produces another type."))
            }
            value = try typed.convert(tree.value(at: index))
        } catch {
            throw converterFailure(T.self, error: error, at: index, path: path)
        }
        record(
            .coerced, path: path, found: index,
            "Converted \(describeFound(at: index)) to \(T.self) with the converter registered for \(T.self).")
        return value
    }

    @inline(never)
    private func converterFailure(_ type: Any.Type, error: any Error, at index: Int, path: CodingPathNode)
        -> DecodingError
    {
        DecodingError.dataCorrupted(
            .init(
                codingPath: path.path,
                debugDescription:
                    "The converter registered for \(type) cannot convert \(describeFound(at: index)): \(TreeDecoder.reason(error, under: path)).",
                underlyingError: error))
    }
}

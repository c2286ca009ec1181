// Temporary until the validating writer lands.
extension JSONValueWriter {
    static func compactUTF8(_ value: JSONValue, maxDepth: Int) throws -> [UInt8] {
        compactUTF8(value)
    }
}

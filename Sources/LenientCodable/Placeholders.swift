// Temporary: replaced by the real parser and decoder in the next commits.
import Foundation
enum JSONInput {
    static func withUTF8<R>(_ buffer: UnsafeBufferPointer<UInt8>, isKnownUTF8: Bool = false, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R { try body(buffer) }
}
struct JSONTree { func value(at index: Int) -> JSONValue { .null } }
enum JSONParser {
    struct Options { var allowsJSON5: Bool; var allowsTrailingCommas: Bool }
    static func parse(_ input: UnsafeBufferPointer<UInt8>, options: Options) throws -> JSONTree { JSONTree() }
}
final class TreeDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> { fatalError() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { fatalError() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { fatalError() }
    func currentJSONValue() -> JSONValue { .null }
    static func decode<T: Decodable>(_ type: T.Type, from buffer: UnsafeBufferPointer<UInt8>, settings: DecoderSettings, isKnownUTF8: Bool = false) throws -> T {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not yet"))
    }
}
/// Parses a document to the internal tree and returns its node count. For the benchmark package only.
@_spi(Benchmarks) public func _parseForBenchmark(_ data: Data) throws -> Int { 0 }

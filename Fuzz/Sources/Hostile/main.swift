// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Hostile input at full size, in a release build: `hostile <case> <size>` builds one document, parses and decodes it,
// and prints one line: the case, the size, the input bytes, the seconds spent parsing and decoding (building the
// input excluded) and the outcome. scripts/hostile.sh runs every case at three sizes under `/usr/bin/time -v` for the
// peak memory. The unit tests (Tests/LenientCodableTests/Robustness/) run the same cases at sizes fit for debug builds.

import Foundation
import LenientCodable

/// A record of the big-document case.
struct Record: Codable, Equatable {
    var id: Int
    var name: String
    var score: Double
    var tags: [String]
    var active: Bool
}

/// A model that reads one key of a huge object.
struct OneKey: Codable {
    var k0: Int
}

/// A list of lists, for JSON text nested in strings.
struct List: Decodable {
    var items: [List]
}

/// A comment thread whose type has hooks, and the same without.
struct HookedComment: Decodable, DecodingHooks {
    var replies: [HookedComment]?
    var scores: [Int]?
}

struct PlainComment: Decodable {
    var replies: [PlainComment]?
    var scores: [Int]?
}

/// A model whose hook wraps its JSON in one more level each time, until the nesting budget runs out.
final class Russian: Decodable, DecodingHooks {
    var child: Russian?
    static func willDecode(_ json: JSONValue) throws -> JSONValue { ["child": json] }
}

/// A chain of objects, for deep paths.
final class Chain: Decodable {
    var next: Chain?
    var values: [Int]?
}

/// A class hierarchy chosen by a field.
class Shape: Decodable, PolymorphicDecodable {
    var children: [Shape]?
    static func decodingType(for json: JSONValue) -> (any Decodable.Type)? {
        json["kind"]?.stringValue == "group" ? Group.self : nil
    }
}
final class Group: Shape {}

/// A thread of comments 255 deep whose innermost one holds `size` scores.
func commentThread(scores: Int, open: String = #"{"replies":["#) -> Data {
    var text = String(repeating: open, count: 255) + #"{"scores":["#
    text.reserveCapacity(scores * 7 + 3000)
    for index in 0..<scores { text += index == 0 ? "\(index)" : ",\(index)" }
    text += "]}" + String(repeating: "]}", count: 255)
    return Data(text.utf8)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let size = Int(arguments[2]) else {
    FileHandle.standardError.write(
        Data(
            "usage: hostile <whitespace|document|nesting|digits|key|keys|string|truncation|strings|hookstack|hooked|unhooked|polymorphic|paths|reportpaths> <size>\n"
                .utf8))
    exit(2)
}
let name = arguments[1]

/// Runs `body`, timing it, and prints the result line; exits 1 when the outcome is not the expected one.
func measure(_ input: Data, expect: String, _ body: () throws -> String) {
    let start = ContinuousClock.now
    let outcome: String
    do {
        outcome = try body()
    } catch let error as DecodingError {
        if case .dataCorrupted(let context) = error, let parseError = context.underlyingError as? JSONParseError {
            outcome = "error \(parseError.code)"
        } else {
            outcome = "error \(error)"
        }
    } catch let error as JSONParseError {
        outcome = "error \(error.code)"
    } catch {
        outcome = "error \(error)"
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
        "\(name)\t\(size)\t\(input.count) bytes\t\(String(format: "%.3f", seconds)) s\t\(outcome)")
    if !outcome.hasPrefix(expect) {
        print("unexpected outcome: expected \(expect)")
        exit(1)
    }
}

let strict = LenientJSONDecoder(options: .strict)
let lenient = LenientJSONDecoder(options: .lenient)

switch name {
case "whitespace":
    // `size` bytes of whitespace around one number.
    var input = Data(count: size)
    input.withUnsafeMutableBytes { buffer in
        for index in buffer.indices { buffer[index] = [0x20, 0x0A, 0x09, 0x0D][index & 3] }
    }
    input.append(contentsOf: Array("1".utf8))
    measure(input, expect: "value 1") {
        let value = try strict.decode(Int.self, from: input)
        let tree = try JSONValue(parsing: input)
        return "value \(value) \(tree)"
    }
case "document":
    // An array of records, about `size` bytes.
    let record = #"{"id":123456,"name":"Ada Lovelace \u00e9\n","score":3.25,"tags":["a","bc","def"],"active":true}"#
    var text = "["
    text.reserveCapacity(size + 200)
    var count = 0
    while text.utf8.count < size {
        if count > 0 { text += "," }
        text += record
        count += 1
    }
    text += "]"
    let input = Data(text.utf8)
    text = ""
    measure(input, expect: "value \(count)") {
        let records = try strict.decode([Record].self, from: input)
        let lenientRecords = try lenient.decode([Record].self, from: input)
        precondition(records == lenientRecords)
        return "value \(records.count) records"
    }
case "nesting":
    let input = Data((String(repeating: "[", count: size) + String(repeating: "]", count: size)).utf8)
    measure(input, expect: "error tooDeeplyNested") {
        for decoder in [strict, lenient] {
            do {
                _ = try decoder.decode(JSONValue.self, from: input)
            } catch let error as DecodingError {
                guard case .dataCorrupted(let context) = error,
                    (context.underlyingError as? JSONParseError)?.code == .tooDeeplyNested
                else { throw error }
            }
        }
        _ = try JSONValue(parsing: input, allowsJSON5: true)
        return "value"
    }
case "digits":
    let input = Data(("[" + String(repeating: "7", count: size) + "." + String(repeating: "3", count: size) + "]").utf8)
    measure(input, expect: "value") {
        let value = try JSONValue(parsing: input)
        let decimal = try? strict.decode([Decimal].self, from: input)
        let double = try? strict.decode([Double].self, from: input)
        let lenientText = try lenient.decode([String].self, from: input)
        precondition(lenientText[0].utf8.count == 2 * size + 1)
        return "value \(value.arrayValue?.count ?? 0) decimal \(decimal != nil) double \(double != nil)"
    }
case "key":
    let key = String(repeating: "k", count: size)
    let input = Data(#"{"\#(key)":1,"k0":2}"#.utf8)
    measure(input, expect: "value") {
        let dictionary = try strict.decode([String: Int].self, from: input)
        let one = try lenient.decode(OneKey.self, from: input)
        precondition(dictionary[key] == 1 && one.k0 == 2)
        return "value \(dictionary.count) keys"
    }
case "keys":
    var text = "{"
    for index in 0..<size { text += index == 0 ? #""k\#(index)":\#(index)"# : #","k\#(index)":\#(index)"# }
    text += "}"
    let input = Data(text.utf8)
    measure(input, expect: "value") {
        let dictionary = try strict.decode([String: Int].self, from: input)
        let one = try lenient.decode(OneKey.self, from: input)
        let strictOne = try strict.decode(OneKey.self, from: input)
        precondition(dictionary.count == size && one.k0 == 0 && strictOne.k0 == 0)
        return "value \(dictionary.count) keys"
    }
case "string":
    let chunk = #"abc\n\u00e9\ud83d\ude00 "#
    let input = Data(("\"" + String(repeating: chunk, count: size / chunk.utf8.count) + "\"").utf8)
    measure(input, expect: "value") {
        let text = try strict.decode(String.self, from: input)
        return "value \(text.unicodeScalars.count) scalars"
    }
case "truncation":
    // Every `size`-th prefix of twitter.json, which must all fail with a parse error.
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../Benchmarks/Corpus/twitter.json")
    let document = try Data(contentsOf: url.standardizedFileURL)
    measure(document, expect: "value") {
        var count = 0
        for end in stride(from: 0, to: document.count, by: size) {
            do {
                _ = try JSONValue(parsing: document.prefix(end))
                fatalError("prefix of \(end) bytes parsed")
            } catch let error as JSONParseError {
                precondition(error.byteOffset <= end)
            }
            count += 1
        }
        return "value \(count) prefixes refused"
    }
case "strings":
    // `size` levels of strings, each holding JSON text of 255 nested lists (510 levels) around the next: one
    // nesting budget of 512 for the whole decode stops it at the second level, whatever the size.
    var text = #"{"items":[]}"#
    for _ in 0..<size {
        text =
            String(repeating: #"{"items":["#, count: 255)
            + String(decoding: try JSONEncoder().encode(text), as: UTF8.self) + String(repeating: "]}", count: 255)
    }
    let input = Data(text.utf8)
    text = ""
    measure(input, expect: "value") {
        let (_, report) = try lenient.decodeWithReport(List.self, from: input)
        return "value, \(report.issues.count) issues"
    }
case "hookstack":
    // The stack that 512 levels of hooked JSON need: the decode runs on a thread of `size` KB.
    let input = Data("{}".utf8)
    measure(input, expect: "error") {
        final class Slot: @unchecked Sendable {
            // Written by the thread before it signals, read after the wait.
            var outcome = ""
        }
        let slot = Slot()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do {
                _ = try strict.decode(Russian.self, from: input)
                slot.outcome = "value"
            } catch {
                slot.outcome = "error (nesting budget)"
            }
            done.signal()
        }
        thread.stackSize = size * 1024
        thread.start()
        done.wait()
        return slot.outcome
    }
case "hooked":
    let input = commentThread(scores: size)
    measure(input, expect: "value") {
        let (thread, report) = try lenient.decodeWithReport(HookedComment.self, from: input)
        _ = try strict.decode(HookedComment.self, from: input)
        return "value \(thread.replies?.count ?? 0) replies, \(report.issues.count) issues"
    }
case "unhooked":
    let input = commentThread(scores: size)
    measure(input, expect: "value") {
        let (thread, report) = try lenient.decodeWithReport(PlainComment.self, from: input)
        _ = try strict.decode(PlainComment.self, from: input)
        return "value \(thread.replies?.count ?? 0) replies, \(report.issues.count) issues"
    }
case "polymorphic":
    let input = commentThread(scores: size, open: #"{"kind":"group","children":["#)
    measure(input, expect: "value") {
        let shape = try lenient.decode(Shape.self, from: input)
        _ = try strict.decode(Shape.self, from: input)
        return "value \(shape is Group)"
    }
case "paths", "reportpaths":
    // `size` bad integers in a list 500 levels deep: each is dropped, and each drop's path is 500 keys long.
    let bad = Array(repeating: #""x""#, count: size).joined(separator: ",")
    let input = Data(
        (String(repeating: #"{"next":"#, count: 500) + #"{"values":[\#(bad)]}"# + String(repeating: "}", count: 500))
            .utf8)
    measure(input, expect: "value") {
        if name == "paths" {
            _ = try lenient.decode(Chain.self, from: input)
            return "value"
        }
        let (_, report) = try lenient.decodeWithReport(Chain.self, from: input)
        return "value, \(report.issues.count) issues"
    }
default:
    print("unknown case \(name)")
    exit(2)
}

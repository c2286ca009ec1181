// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Peak memory of decoding a 100 MB array of objects, against the input's size.
//
//   swift run -c release --package-path Benchmarks peak-memory [megabytes] [--small-objects]
//
// The document is twitter.json's statuses, repeated until the array is at least the size asked
// for (100 MB by default), written to a temporary file; with `--small-objects`, it is objects of
// three members (`{"id":17,"name":"user 17","active":true}`, about 45 bytes each), where the
// parsed tree weighs most against the input. Each decoder then runs in a process of
// its own, which reads the file and decodes it once into `[Status]`; the process reports its
// peak resident memory (getrusage's ru_maxrss) before and after. "peak / input" is the whole
// process's peak — the input's own bytes, the runtime, the parsed tree and the decoded models —
// over the document's size.

import CorpusModels
import Foundation
@_spi(Benchmarks) import LenientCodable

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's peak resident memory so far, in bytes.
func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)  // an enum case in Glibc's import
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)  // bytes on Apple platforms
    #else
    return Int(usage.ru_maxrss) * 1024  // kilobytes elsewhere
    #endif
}

/// An element of the small-objects document.
struct SmallObject: Codable {
    var id: Int
    var name: String
    var active: Bool
}

/// The decoders measured, by the name a child process is given, for elements of type `Element`.
func decoderTable<Element: Decodable>(of element: Element.Type) -> [(name: String, decode: (Data) throws -> Int)] {
    [
        ("parse-only", { try _parseForBenchmark($0) }),
        ("strict", { try LenientJSONDecoder(.strict).decode([Element].self, from: $0).count }),
        ("lenient", { try LenientJSONDecoder().decode([Element].self, from: $0).count }),
        ("report", { try LenientJSONDecoder().decodeWithReport([Element].self, from: $0).value.count }),
        ("foundation", { try JSONDecoder().decode([Element].self, from: $0).count }),
    ]
}

let smallObjects = CommandLine.arguments.contains("--small-objects")
let decoders = smallObjects ? decoderTable(of: SmallObject.self) : decoderTable(of: Status.self)

/// Writes small objects as one array of at least `bytes` bytes.
func writeSmallObjects(to url: URL, bytes: Int) throws -> Int {
    var output = Data([UInt8(ascii: "[")])
    output.reserveCapacity(bytes + 1_000)
    var count = 0
    while output.count < bytes {
        if count > 0 { output.append(UInt8(ascii: ",")) }
        output.append(contentsOf: #"{"id":\#(count),"name":"user \#(count)","active":\#(count % 3 == 0)}"#.utf8)
        count += 1
    }
    output.append(UInt8(ascii: "]"))
    try output.write(to: url)
    return count
}

/// Writes the statuses of twitter.json, repeated, as one array of at least `bytes` bytes.
func writeDocument(to url: URL, bytes: Int) throws -> Int {
    let document = try JSONDecoder().decode(TwitterDocument.self, from: Corpus.twitter.load())
    let encoder = JSONEncoder()
    let statuses = try document.statuses.map { try encoder.encode($0) }
    var output = Data([UInt8(ascii: "[")])
    output.reserveCapacity(bytes + 1_000_000)
    var count = 0
    while output.count < bytes {
        for status in statuses {
            if count > 0 { output.append(UInt8(ascii: ",")) }
            output.append(status)
            count += 1
        }
    }
    output.append(UInt8(ascii: "]"))
    try output.write(to: url)
    return count
}

let arguments = CommandLine.arguments.filter { $0 != "--small-objects" }
if arguments.count == 4, arguments[1] == "child", let decoder = decoders.first(where: { $0.name == arguments[3] }) {
    // One decode in a fresh process: prints "<input bytes> <peak before> <peak after> <elements>".
    let data = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let before = peakResidentBytes()
    let elements = try decoder.decode(data)
    let after = peakResidentBytes()
    print(data.count, before, after, elements)
    exit(0)
}

let megabytes = arguments.count > 1 ? Int(arguments[1]) ?? 100 : 100
let url = FileManager.default.temporaryDirectory.appendingPathComponent("lenientcodable-peak-\(getpid()).json")
defer { try? FileManager.default.removeItem(at: url) }
let elements =
    smallObjects
    ? try writeSmallObjects(to: url, bytes: megabytes * 1_000_000)
    : try writeDocument(to: url, bytes: megabytes * 1_000_000)
print(
    "Document: \(elements) \(smallObjects ? "small objects" : "twitter statuses") in one array,",
    "\(megabytes) MB or a little more.")
print("")
print("decoder      input MB   before MB   peak MB   peak / input   decode's own / input")
print(String(repeating: "-", count: 80))

let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
for decoder in decoders {
    let process = Process()
    process.executableURL = executable
    process.arguments = ["child", url.path, decoder.name] + (smallObjects ? ["--small-objects"] : [])
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: output, as: UTF8.self).split(separator: " ").compactMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard process.terminationStatus == 0, fields.count == 4 else {
        print("\(decoder.name): the child process failed (status \(process.terminationStatus))")
        exit(1)
    }
    let (input, before, peak) = (Double(fields[0]), Double(fields[1]), Double(fields[2]))
    func megabytes(_ bytes: Double) -> String { String(format: "%.1f", bytes / 1_000_000) }
    print(
        decoder.name.padding(toLength: 12, withPad: " ", startingAt: 0),
        megabytes(input).leftPadded(9), megabytes(before).leftPadded(11), megabytes(peak).leftPadded(9),
        String(format: "%.2fx", peak / input).leftPadded(14),
        String(format: "%.2fx", (peak - before) / input).leftPadded(22))
    print("RESULT peak-memory \(decoder.name) \(String(format: "%.3f", peak / input))")
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

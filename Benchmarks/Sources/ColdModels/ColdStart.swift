// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable

/// The cold-start measure: the first decode of each of many model types in a fresh process, as an app
/// does at launch, and the second decode of each (warm), for Foundation and both LenientCodable modes.
///
/// The parent runs a fresh child process per implementation and round, alternating the order, and
/// prints each round's times and ratios, the medians, and `RESULT` lines. A child decodes every model
/// type once, then once more, and prints the two totals.
public enum ColdStart {
    static let implementations = ["foundation", "strict", "lenient"]

    /// Runs as the parent or, with `--child NAME`, as one measured process. `label` names the binary
    /// in the output (`cold`, or `cold-large` for the one that also holds thousands of unrelated
    /// conformances).
    public static func main(label: String) {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--child", arguments.count == 2 {
            child(arguments[1])
            return
        }
        var rounds = 7
        if arguments.first == "--rounds", arguments.count == 2, let count = Int(arguments[1]), count > 0 {
            rounds = count
            arguments.removeAll()
        }
        guard arguments.isEmpty else {
            print("usage: \(CommandLine.arguments[0]) [--rounds N]")
            exit(2)
        }
        parent(label: label, rounds: rounds)
    }

    private static func child(_ implementation: String) {
        let decode: (any Decodable.Type, Data) throws -> Any
        switch implementation {
        case "foundation":
            let decoder = JSONDecoder()
            decode = { type, data in try decoder.decode(type, from: data) }
        case "strict":
            let decoder = LenientJSONDecoder(options: .strict)
            decode = { type, data in try decoder.decode(type, from: data) }
        case "lenient":
            let decoder = LenientJSONDecoder(options: .lenient)
            decode = { type, data in try decoder.decode(type, from: data) }
        default:
            print("unknown implementation \(implementation)")
            exit(2)
        }
        // The documents are built before the clock starts: only decoding is timed.
        let documents = coldModelDocuments()
        let clock = ContinuousClock()
        do {
            let first = try clock.measure {
                for index in 0..<coldModelCount { try coldDecode(index, documents[index], decode) }
            }
            let warm = try clock.measure {
                for index in 0..<coldModelCount { try coldDecode(index, documents[index], decode) }
            }
            print("FIRST \(milliseconds(first)) WARM \(milliseconds(warm))")
        } catch {
            print("ERROR \(error)")
            exit(1)
        }
    }

    private static func parent(label: String, rounds: Int) {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        var first: [String: [Double]] = [:]
        var warm: [String: [Double]] = [:]
        print("\(label): first and warm decode of \(coldModelCount) model types, \(rounds) rounds of fresh processes")
        for round in 0..<rounds {
            // Each round starts with another implementation, so that none always runs first.
            let order = implementations.indices.map { implementations[($0 + round) % implementations.count] }
            var line = "round \(round + 1):"
            for implementation in order {
                guard let (firstTime, warmTime) = runChild(executable, implementation) else {
                    print("child \(implementation) failed")
                    exit(1)
                }
                first[implementation, default: []].append(firstTime)
                warm[implementation, default: []].append(warmTime)
                line += " \(implementation) \(format(firstTime)) / \(format(warmTime)) ms;"
            }
            let base = first["foundation"]!.last!
            let warmBase = warm["foundation"]!.last!
            line += " first ratio strict \(format(first["strict"]!.last! / base, 2))"
            line += " lenient \(format(first["lenient"]!.last! / base, 2));"
            line += " warm ratio strict \(format(warm["strict"]!.last! / warmBase, 2))"
            line += " lenient \(format(warm["lenient"]!.last! / warmBase, 2))"
            print(line)
        }
        print()
        for (phase, times) in [("first", first), ("warm", warm)] {
            let base = median(times["foundation"]!)
            for implementation in implementations {
                let value = median(times[implementation]!)
                print("RESULT \(label) \(phase) \(implementation) \(format(value, 3)) \(format(value / base, 3))")
            }
        }
    }

    private static func runChild(_ executable: URL, _ implementation: String) -> (Double, Double)? {
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--child", implementation]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return nil
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = output.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, words.count == 4, words[0] == "FIRST", words[2] == "WARM",
            let firstTime = Double(words[1]), let warmTime = Double(words[3])
        else { return nil }
        return (firstTime, warmTime)
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    private static func format(_ value: Double, _ digits: Int = 1) -> String {
        String(format: "%.\(digits)f", value)
    }
}

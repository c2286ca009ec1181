// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Compares LenientCodable with Foundation in one process on the corpus documents and their variants:
//
//     swift run -c release --package-path Benchmarks compare [--iterations N] [--corpus NAME]... [--cold]

import Foundation

let usage = """
    usage: compare [--iterations N] [--corpus NAME]... [--cold]
      --iterations N   measured rounds per corpus (default: as many as fit in about 35 seconds, 10 to 300)
      --corpus NAME    measure only this suite; repeatable (\(Suite.all.map(\.name).joined(separator: ", ")))
      --cold           also run cold-start and cold-start-large (built beside compare), after the suites
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("compare: \(message)\n\(usage)\n".utf8))
    exit(2)
}

var runner = Runner()
var selected: [String] = []
var runsCold = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--iterations":
        guard let value = arguments.popFirst().flatMap(Int.init), value > 0 else {
            fail("--iterations needs a positive number")
        }
        runner.iterations = value
    case "--corpus":
        guard let name = arguments.popFirst() else { fail("--corpus needs a name") }
        guard Suite.all.contains(where: { $0.name == name }) else { fail("no suite named \(name)") }
        selected.append(name)
    case "--cold":
        runsCold = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}
let suites = Suite.all.filter { selected.isEmpty || selected.contains($0.name) }

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

#if DEBUG
log("warning: a debug build; measure with `swift run -c release`.")
#endif

var measurements: [Measurement] = []
var checks: [String] = []
var variants: [String: String] = [:]
for (name, make) in suites {
    do {
        let suite = try make()
        checks += runner.check(suite)
        variants[suite.name] = suite.variantOf
        measurements += runner.measure(suite, log: log)
    } catch {
        fail("cannot set up \(name): \(error)")
    }
}

// Checks come first: a row whose implementation gets the wrong answer has no meaningful speed.
checks.forEach { print($0) }
print()
let report = Report(measurements: measurements, variants: variants)
report.printTable()
report.printParseThroughput()
report.printVariantRatios()
report.printResultLines()

/// Runs one of the cold-start executables that sit beside this one, printing what it prints.
func runCold(_ name: String) {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
    let process = Process()
    process.executableURL = directory.appendingPathComponent(name)
    do {
        try process.run()
        process.waitUntilExit()
    } catch {
        log("cannot run \(name): \(error); build it with `swift build -c release --package-path Benchmarks`")
    }
}

if runsCold {
    print()
    runCold("cold-start")
    print()
    runCold("cold-start-large")
}

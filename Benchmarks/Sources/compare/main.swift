// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

// Compares LenientCodable with Foundation in one process on the corpus documents:
//
//     swift run -c release --package-path Benchmarks compare [--iterations N] [--corpus NAME]...

import CorpusModels
import Foundation

let usage = """
    usage: compare [--iterations N] [--corpus NAME]...
      --iterations N   measured rounds per corpus (default: as many as fit in about 35 seconds, 10 to 300)
      --corpus NAME    measure only this document; repeatable (\(Corpus.allCases.map(\.name).joined(separator: ", ")))
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("compare: \(message)\n\(usage)\n".utf8))
    exit(2)
}

var runner = Runner()
var corpora: [Corpus] = []
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
        guard let corpus = Corpus(rawValue: name) else { fail("no corpus named \(name)") }
        corpora.append(corpus)
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}
if corpora.isEmpty { corpora = Corpus.allCases }

func log(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

#if DEBUG
log("warning: a debug build; measure with `swift run -c release`.")
#endif

var measurements: [Measurement] = []
var checks: [String] = []
for corpus in corpora {
    do {
        let suite = try Suite.corpus(corpus)
        checks += runner.check(suite)
        measurements += runner.measure(suite, log: log)
    } catch {
        fail("cannot set up \(corpus.name): \(error)")
    }
}

// Checks come first: a row whose implementation gets the wrong answer has no meaningful speed.
checks.forEach { print($0) }
print()
let report = Report(measurements: measurements)
report.printTable()
report.printParseThroughput()
report.printResultLines()

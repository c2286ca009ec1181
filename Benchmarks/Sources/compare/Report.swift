// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation

/// Prints measurements as a table for people and as `RESULT` lines for scripts.
struct Report {
    var measurements: [Measurement]
    /// The suites that measure another suite's document in another way, with that suite's name.
    var variants: [String: String] = [:]

    /// Each row's time divided by its baseline's time in the same suite, or nil without a baseline.
    func ratio(of measurement: Measurement) -> Double? {
        let baseline = measurements.first {
            $0.suite == measurement.suite && $0.row.operation == measurement.row.operation
                && $0.row.implementation == measurement.row.operation.baseline
        }
        return baseline.map { measurement.median / $0.median }
    }

    /// Rows grouped by suite, then by operation in a fixed order, Foundation's row last, the others in the order they
    /// were declared in.
    private var ordered: [Measurement] {
        let operations: [Operation] = [.decode, .encode, .parse]
        let suites = measurements.map(\.suite).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        return suites.flatMap { suite in
            operations.flatMap { operation in
                let rows = measurements.filter { $0.suite == suite && $0.row.operation == operation }
                return rows.filter { $0.row.implementation != operation.baseline }
                    + rows.filter { $0.row.implementation == operation.baseline }
            }
        }
    }

    func printTable() {
        let header = [
            "corpus".padding(14), "operation".padding(10), "implementation".padding(20),
            "median ms".leftPadding(10), "p25-p75 ms".leftPadding(18), "MB/s".leftPadding(8),
            "/ Foundation".leftPadding(13),
        ]
        print(header.joined(separator: " "))
        print(String(repeating: "-", count: header.joined(separator: " ").count))
        var previousSuite: String?
        for measurement in ordered {
            if let previousSuite, previousSuite != measurement.suite { print() }
            previousSuite = measurement.suite
            let spread = "\(format(measurement.percentile(0.25), 3))-\(format(measurement.percentile(0.75), 3))"
            let ratio = ratio(of: measurement).map { format($0, 2) + "x" } ?? "-"
            print(
                [
                    measurement.suite.padding(14), measurement.row.operation.rawValue.padding(10),
                    measurement.row.implementation.padding(20), format(measurement.median, 3).leftPadding(10),
                    spread.leftPadding(18), format(measurement.megabytesPerSecond, 1).leftPadding(8),
                    ratio.leftPadding(13),
                ].joined(separator: " "))
        }
        print()
        print(
            "Times are medians of alternating rounds; \"/ Foundation\" is our time over Foundation's (below 1 is faster)."
        )
        print("MB/s counts the document for decode and parse, Foundation's compact output for encode.")
    }

    func printParseThroughput() {
        let parses = ordered.filter { $0.row.operation == .parse }
        guard !parses.isEmpty else { return }
        print()
        print("Parse-only throughput (MB/s):")
        for measurement in parses {
            print(
                "  \(measurement.suite.padding(14)) \(measurement.row.implementation.padding(20)) \(format(measurement.megabytesPerSecond, 1))"
            )
        }
    }

    /// Sets a variant's ratios to Foundation beside the plain model's, row by row: `twitter-mapped`
    /// decoding at 0.42x Foundation where the plain model decodes at 0.40x means mapping keys costs
    /// 5%. The plain model's ratio comes from the variant's own `plain-<implementation>` row when it
    /// has one (measured in the same rounds), or else from the suite it is a variant of.
    func printVariantRatios() {
        let lines = ordered.compactMap { measurement -> String? in
            guard let base = variants[measurement.suite],
                measurement.row.implementation != measurement.row.operation.baseline,
                !measurement.row.implementation.hasPrefix("plain-"),
                let ratio = ratio(of: measurement)
            else { return nil }
            let sameRounds = measurements.first {
                $0.suite == measurement.suite && $0.row.operation == measurement.row.operation
                    && $0.row.implementation == "plain-" + measurement.row.implementation
            }
            let otherSuite = measurements.first {
                $0.suite == base && $0.row.operation == measurement.row.operation
                    && $0.row.implementation == measurement.row.implementation
            }
            guard let baseMeasurement = sameRounds ?? otherSuite, let baseRatio = self.ratio(of: baseMeasurement)
            else { return nil }
            let baseName = sameRounds == nil ? base : "plain model (same rounds)"
            return "  \(measurement.suite) \(measurement.row.operation.rawValue) \(measurement.row.implementation): "
                + "\(format(ratio, 2))x Foundation, \(baseName) \(format(baseRatio, 2))x, "
                + "variant / plain \(format(ratio / baseRatio, 3))"
        }
        guard !lines.isEmpty else { return }
        print()
        print("Variants against the plain model (ratios to Foundation; 1.100 is 10% slower relative to Foundation):")
        lines.forEach { print($0) }
    }

    /// `RESULT <corpus> <operation> <implementation> <median_ms> <ratio_to_foundation>`, one per row.
    func printResultLines() {
        print()
        for measurement in ordered {
            let ratio = ratio(of: measurement).map { format($0, 3) } ?? "nan"
            print(
                "RESULT \(measurement.suite) \(measurement.row.operation.rawValue) \(measurement.row.implementation) "
                    + "\(format(measurement.median, 3)) \(ratio)")
        }
    }

    private func format(_ value: Double, _ fractionDigits: Int) -> String {
        String(format: "%.\(fractionDigits)f", value)
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    fileprivate func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

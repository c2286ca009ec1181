// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// The timings of one row.
struct Measurement {
    var suite: String
    var row: Row
    /// Milliseconds per iteration, sorted.
    var times: [Double]

    var median: Double { percentile(0.5) }

    func percentile(_ fraction: Double) -> Double {
        let position = fraction * Double(times.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, times.count - 1)
        return times[lower] + (times[upper] - times[lower]) * (position - Double(lower))
    }

    /// Megabytes (10^6 bytes) per second at the median.
    var megabytesPerSecond: Double { Double(row.bytes) / (median / 1000) / 1_000_000 }
}

/// Runs a suite's rows one after the other, round after round, so that whatever else the machine
/// does slows every implementation alike.
struct Runner {
    var warmUpRounds = 3
    /// A fixed number of measured rounds, or nil to fit the rounds into `secondsPerSuite`.
    var iterations: Int?
    var secondsPerSuite = 35.0
    var iterationRange = 10...300

    private let clock = ContinuousClock()

    /// Runs the suite's checks and returns one line for each.
    func check(_ suite: Suite) -> [String] {
        suite.checks.map { check in
            let outcome: String
            do {
                outcome = try check.passes() ? "ok" : "FAILED"
            } catch {
                outcome = "FAILED (\(error))"
            }
            return "CHECK \(suite.name): \(check.name): \(outcome)"
        }
    }

    /// Warms the suite up, then measures it. A row that throws is reported and left out.
    func measure(_ suite: Suite, log: (String) -> Void) -> [Measurement] {
        var rows: [Row] = []
        var roundSeconds = 0.0
        for row in suite.rows {
            do {
                let elapsed = try clock.measure {
                    for _ in 0..<warmUpRounds * row.repetitions { try row.run() }
                }
                roundSeconds += seconds(elapsed) / Double(warmUpRounds)
                rows.append(row)
            } catch {
                log("SKIPPED \(suite.name) \(row.operation.rawValue) \(row.implementation): \(error)")
            }
        }
        guard !rows.isEmpty else { return [] }

        let rounds = iterations ?? Int(secondsPerSuite / max(roundSeconds, 1e-6)).clamped(to: iterationRange)
        log("\(suite.name): \(rounds) rounds of \(rows.count) rows (about \(Int(roundSeconds * 1000)) ms a round)")

        var times = Array(repeating: [Double](), count: rows.count)
        for round in 0..<rounds {
            // Start each round at a different row, so no row always follows the same one.
            for offset in rows.indices {
                let index = (round + offset) % rows.count
                let row = rows[index]
                let elapsed = clock.measure {
                    // Every row ran without throwing during warm-up.
                    for _ in 0..<row.repetitions { try? row.run() }
                }
                times[index].append(seconds(elapsed) * 1000 / Double(row.repetitions))
            }
        }
        return rows.indices.map { Measurement(suite: suite.name, row: rows[$0], times: times[$0].sorted()) }
    }

    private func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self {
        min(max(self, range.lowerBound), range.upperBound)
    }
}

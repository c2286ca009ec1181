// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

/// What a row measures; rows of one operation on one document are compared with the row of
/// the same operation whose implementation is the baseline.
enum Operation: String {
    case decode
    case encode
    case parse

    /// The Foundation implementation every other implementation of the operation is compared with.
    var baseline: String {
        switch self {
        case .decode: "foundation"
        case .encode: "foundation-encoder"
        case .parse: "foundation-empty"
        }
    }
}

/// One measured line of the table: an operation, an implementation, and the work of one iteration.
struct Row {
    var operation: Operation
    var implementation: String
    /// The bytes one iteration reads or writes, for MB/s.
    var bytes: Int
    /// How many iterations one timed sample runs, so that a small document's sample is long enough
    /// for the clock; times are reported per iteration.
    var repetitions: Int
    /// Does the work once; it must `blackHole` what it produces.
    var run: () throws -> Void

    init(
        _ operation: Operation, _ implementation: String, bytes: Int, repetitions: Int = 1,
        run: @escaping () throws -> Void
    ) {
        self.operation = operation
        self.implementation = implementation
        self.bytes = bytes
        self.repetitions = repetitions
        self.run = run
    }
}

/// A yes-or-no question asked once before measuring, such as "does the strict decoder decode the
/// same value as Foundation?", so that a fast row is not fast because it skips work.
struct Check {
    var name: String
    var passes: () throws -> Bool
}

/// The rows measured together, alternating, on one document, and the checks run before them.
struct Suite {
    var name: String
    var rows: [Row]
    var checks: [Check] = []
    /// The suite this one measures the same document of in another way (`twitter` for
    /// `twitter-mapped`), whose ratios to Foundation the report sets beside this suite's.
    var variantOf: String? = nil
}

/// Keeps the optimizer from removing the work that produced `value`.
@inline(never) @_optimize(none)
func blackHole(_ value: some Any) {}

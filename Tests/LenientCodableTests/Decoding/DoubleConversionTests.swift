// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

/// Doubles must be correctly rounded, bit for bit the same as the standard library's parser,
/// whichever of the decoder's paths (exact small numbers, Clinger, Eisel–Lemire, fallback)
/// converts them.
@Suite struct DoubleConversionTests {
    /// A reproducible stream of pseudo-random numbers (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func literals(count: Int, seed: UInt64) -> [String] {
        var generator = Generator(state: seed)
        var literals: [String] = []
        for _ in 0..<count {
            let digitCount = Int(generator.next() % 20) + 1
            var digits = String(generator.next() % 9 + 1)
            for _ in 1..<digitCount { digits.append(String(generator.next() % 10)) }
            let pointPosition = Int(generator.next() % UInt64(digitCount + 1))
            var literal = digits
            if pointPosition < digitCount && pointPosition > 0 {
                literal.insert(".", at: literal.index(literal.startIndex, offsetBy: pointPosition))
            }
            let exponent = Int(generator.next() % 600) - 300
            literal += "e\(exponent)"
            if generator.next() % 2 == 0 { literal = "-" + literal }
            literals.append(literal)
        }
        return literals
    }

    static let hardCases: [String] = [
        "2.2250738585072011e-308", "2.2250738585072014e-308", "4.9406564584124654e-324", "2.4703282292062328e-324",
        "1.7976931348623157e308", "1.7976931348623158e308", "9007199254740993", "9007199254740992.5",
        "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307", "1.448997445238699", "3.0000000000000004",
        "7.3177701707893310e+15", "123456789012345678", "1.2345678901234567e-5", "2.5e-323", "9.9999999999999999e22",
        "5e-324", "1e-323", "-0.0", "0e400", "1.00000000000000011102230246251565404236316680908203125",
        "-65.613616999999977", "45.52641500000001", "0.000001", "100000000000000000000", "4.35679828e-315",
    ]

    static func check(_ literals: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = literals.map { Double($0) }
        let finite = zip(literals, reference).filter { _, value in
            guard let value else { return false }
            return value.isFinite
        }
        let decoded = try LenientJSONDecoder(.strict).decode(
            [Double].self, from: "[" + finite.map(\.0).joined(separator: ",") + "]")
        for ((literal, expected), actual) in zip(finite, decoded) {
            #expect(actual.bitPattern == expected?.bitPattern, "\(literal)", sourceLocation: sourceLocation)
        }
    }

    @Test func hardCasesAreCorrectlyRounded() throws {
        // Underflow to zero from non-zero digits is refused (as Foundation does); leave those out.
        let representable = Self.hardCases.filter { literal in
            guard let value = Double(literal) else { return false }
            return value != 0 || !literal.contains(where: { ("1"..."9").contains($0) }) || literal.hasPrefix("0e")
        }
        try Self.check(representable)
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomNumbersAreCorrectlyRounded(seed: UInt64) throws {
        let literals = Self.literals(count: 25_000, seed: seed).filter { literal in
            guard let value = Double(literal) else { return false }
            return value.isFinite && value != 0
        }
        try Self.check(literals)
    }
}

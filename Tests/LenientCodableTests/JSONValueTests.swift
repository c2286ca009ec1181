// LenientCodable — JSON model decoding that forgives what real servers send.
// Licensed under the Apache License, Version 2.0.

import Foundation
import LenientCodable
import Testing

@Suite struct JSONValueTests {
    @Test func numbersCompareByValue() {
        #expect(JSONValue.number("1") == .number("1.0"))
        #expect(JSONValue.number("10e-1") == .number("1"))
        #expect(JSONValue.number("1.5") != .number("1"))
    }
}

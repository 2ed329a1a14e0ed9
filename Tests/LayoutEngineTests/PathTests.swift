import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

@Suite struct PathTests {
    /// Every number reads back as the value rounded to hundredths, whatever its size or sign.
    @Test func svgNumbersReadBackRoundedToHundredths() {
        var generator = SeededGenerator(seed: 42)
        var values: [Double] = [0, -0.0, 0.004, -0.004, 0.005, 1, -1, 4.5, 10.25, 99.999, 1_000_000, -1_000_000.01, 2e19, -3e38, 1e-38]
        values += (0..<5_000).map { _ in Double.random(in: -2_000_000...2_000_000, using: &generator) }
        values += (0..<1_000).map { _ in Double.random(in: -1...1, using: &generator) }
        for value in values {
            var out: [UInt8] = []
            SVGNumber.write(value, into: &out)
            let text = String(decoding: out, as: UTF8.self)
            let parsed = Double(text)
            #expect(parsed != nil, "\(value) wrote \(text)")
            let expected = (value * 100).rounded() / 100
            #expect(abs((parsed ?? .nan) - expected) <= max(1e-9, abs(expected) * 1e-12), "\(value) wrote \(text)")
            if abs(value) < 1e12 {
                #expect(!text.contains(".") || !text.hasSuffix("0"), "\(value) wrote \(text): a trailing zero")
            }
        }
    }

    @Test func svgOfARoundedRect() {
        let path = Path.roundedRect(Rect(x: 0.5, y: -2, width: 10, height: 4.25), radius: 0)
        #expect(path.svg == "M0.5 -2 L10.5 -2 L10.5 2.25 L0.5 2.25 Z")
    }
}

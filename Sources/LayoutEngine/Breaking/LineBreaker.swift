/// A line as the break stage decides it, before positioning.
struct BrokenLine {
    var range: Range<Int>
    /// End of the text without trailing whitespace (hanging spaces and the hard break).
    var contentEnd: Int
    var hardBreak: Bool
}

/// Breaks text into lines first-fit, as CoreText and TextKit do: each line takes as much text
/// as fits, ending at the last UAX #14 opportunity. Trailing whitespace hangs (CSS Text §4.1.3)
/// and is not measured. A word wider than the line is broken at the last grapheme boundary
/// that fits, and a line always takes at least one grapheme so breaking always advances.
struct LineBreaker {
    let flags: ContiguousArray<UnitFlags>
    /// prefix[i] is the advance of units 0..<i, in points.
    let prefix: [Double]
    let width: Double

    /// Measurements within this much of the width count as fitting: float noise, not overflow.
    static let tolerance = 1e-6

    func breakLines(in range: Range<Int>) -> [BrokenLine] {
        var lines: [BrokenLine] = []
        breakLines(in: range, into: &lines)
        return lines
    }

    /// Appends the lines of `range` to `lines`.
    func breakLines(in range: Range<Int>, into lines: inout [BrokenLine]) {
        // Room for the lines the width suggests, so the array rarely grows.
        let estimate = (prefix[range.upperBound] - prefix[range.lowerBound]) / max(width, 1)
        lines.reserveCapacity(lines.count + Int(saturating: min(estimate, 1_000)) + 2)
        var start = range.lowerBound
        while start < range.upperBound {
            let line = nextLine(from: start, limit: range.upperBound)
            lines.append(line)
            start = line.range.upperBound
        }
    }

    private func nextLine(from start: Int, limit: Int) -> BrokenLine {
        var lastBreak = -1
        var i = start
        let maxRight = prefix[start] + width + Self.tolerance
        while i < limit {
            let f = flags[i]
            if i > start && f.contains(.breakBefore) {
                if f.contains(.mustBreakBefore) { return line(start, i, hard: true) }
                lastBreak = i
            }
            if !f.contains(.hangingSpace) && prefix[i + 1] > maxRight {
                if lastBreak > start { return line(start, lastBreak, hard: false) }
                return line(start, emergencyEnd(start: start, overflowAt: i, limit: limit), hard: false)
            }
            i += 1
        }
        return line(start, limit, hard: limit > start && flags[limit - 1].contains(.hardBreak))
    }

    /// The grapheme boundary before the overflowing unit, or after the first grapheme.
    private func emergencyEnd(start: Int, overflowAt index: Int, limit: Int) -> Int {
        var g = index
        while g > start && !flags[g].contains(.graphemeStart) { g -= 1 }
        if g > start { return g }
        var next = start + 1
        while next < limit && !flags[next].contains(.graphemeStart) { next += 1 }
        return next
    }

    private func line(_ start: Int, _ end: Int, hard: Bool) -> BrokenLine {
        var contentEnd = end
        while contentEnd > start && flags[contentEnd - 1].contains(.hangingSpace) { contentEnd -= 1 }
        return BrokenLine(range: start..<end, contentEnd: contentEnd, hardBreak: hard)
    }
}

/// Where a tab's text lines up with its stop, as CoreText's `CTTextTab` alignments and a word
/// processor's tab stops do, along the paragraph's reading direction.
public enum TabAlignment: Sendable, Equatable {
    /// The text after the tab starts at the stop.
    case start
    /// The text after the tab (to the next tab or the line's end) ends at the stop.
    case end
    /// That text is centred on the stop.
    case center
    /// Its first decimal separator ("." or "," as the stop says; the end when it has none)
    /// sits at the stop: a column of numbers lines up on the point.
    case decimal(separator: Unicode.Scalar)
}

/// A tab stop: a distance from the leading edge of the box (before any indent), in points.
public struct TabStop: Sendable, Equatable {
    public var location: Double
    public var alignment: TabAlignment
    public init(location: Double, alignment: TabAlignment = .start) {
        self.location = location
        self.alignment = alignment
    }
}

/// A paragraph's tabs: its stops, and past the last one a stop every `interval` points.
struct TabStops: Equatable {
    /// Ascending by location.
    var stops: [TabStop]
    var interval: Double

    /// CoreText's default: a stop every 28 points.
    static let defaultInterval = 28.0

    /// The first stop past `pen` (a distance from the leading edge).
    func stop(after pen: Double) -> TabStop {
        if let stop = stops.first(where: { $0.location > pen + 1e-9 }) { return stop }
        return TabStop(location: ((pen + 1e-9) / interval).rounded(.down) * interval + interval)
    }

    /// Each tab's width on the line `range` (tabs at `tabs`, ascending), whose text starts
    /// `indent` points from the leading edge: the pen goes through the line in reading order,
    /// each tab taking it to its stop as the stop's alignment says (never backwards).
    /// `separatorAt` finds a decimal separator's offset in a range.
    func widths(line range: Range<Int>, tabs: ArraySlice<Int>, prefix: [Double], indent: Double,
                separatorAt: (Range<Int>, Unicode.Scalar) -> Int?) -> [(offset: Int, width: Double)] {
        var widths: [(offset: Int, width: Double)] = []
        var pen = indent
        var segmentStart = range.lowerBound
        for (k, tab) in tabs.enumerated() {
            pen += prefix[tab] - prefix[segmentStart]
            let stop = stop(after: pen)
            // The text the stop aligns: to the next tab on the line, or the line's end.
            let next = k + 1 < tabs.count ? tabs[tabs.startIndex + k + 1] : range.upperBound
            let segment = prefix[next] - prefix[tab + 1]
            let aligned: Double
            switch stop.alignment {
            case .start: aligned = 0
            case .end: aligned = segment
            case .center: aligned = segment / 2
            case .decimal(let separator):
                aligned = separatorAt(tab + 1..<next, separator).map { prefix[$0] - prefix[tab + 1] } ?? segment
            }
            let width = max(0, stop.location - aligned - pen)
            widths.append((tab, width))
            pen += width
            segmentStart = tab + 1
        }
        return widths
    }
}

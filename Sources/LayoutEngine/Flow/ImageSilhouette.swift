/// An image's silhouette as a shape text flows around (CSS `shape-outside: url()` with
/// `shape-image-threshold`): the pixels whose alpha is above the threshold, the image
/// stretched over a rect. Each band of rows becomes rectangles over its runs of such pixels (a
/// band takes a pixel in any of its rows), and bands with the same runs are joined, so a
/// silhouette is exact to a band's height and to a pixel's width.
public struct ImageSilhouette: Sendable {
    public let width: Int
    public let height: Int
    /// One alpha a pixel, row by row, 0…255.
    public let alpha: [UInt8]

    public init(width: Int, height: Int, alpha: [UInt8]) {
        precondition(width >= 0 && height >= 0 && alpha.count == width * height)
        self.width = width
        self.height = height
        self.alpha = alpha
    }

    /// At most this many bands of rows: a taller image's rows are taken in groups.
    public static let maxBands = 512
    /// At most this many rectangles (five path commands each, within `TextFlow.maxShapePoints`):
    /// past it, gaps narrower than a growing number of pixels are closed until it fits.
    public static let maxRects = TextFlow.maxShapePoints / 5

    /// The silhouette over `rect` in its container's coordinates; nil when no pixel is above
    /// `threshold` (0…1: CSS's default 0 takes every pixel that is not fully transparent).
    public func shape(in rect: Rect, threshold: Double) -> FlowShape? {
        guard width > 0, height > 0, rect.width > 0, rect.height > 0 else { return nil }
        let cut = UInt8(clamping: Int(saturating: (min(max(threshold, 0), 1) * 255).rounded(.down)))
        let bands = min(height, Self.maxBands)
        var runs: [[Range<Int>]] = []
        runs.reserveCapacity(bands)
        for band in 0..<bands {
            let rows = (band * height / bands)..<((band + 1) * height / bands)
            var inside = [Bool](repeating: false, count: width)
            for row in rows {
                let start = row * width
                for column in 0..<width where alpha[start + column] > cut { inside[column] = true }
            }
            runs.append(Self.runs(of: inside))
        }
        var gap = 1
        while Self.rectCount(runs) > Self.maxRects {
            runs = runs.map { band in Self.merged(band, closingGapsUpTo: gap) }
            gap *= 2
        }
        let scaleX = rect.width / Double(width), bandHeight = rect.height / Double(bands)
        var commands: [PathCommand] = []
        var band = 0
        while band < bands {
            // Bands with the same runs as this one, joined into one rectangle a run.
            var end = band + 1
            while end < bands && runs[end] == runs[band] { end += 1 }
            let top = rect.y + Double(band) * bandHeight, bottom = rect.y + Double(end) * bandHeight
            for run in runs[band] {
                let left = rect.x + Double(run.lowerBound) * scaleX, right = rect.x + Double(run.upperBound) * scaleX
                commands += [.move(Point(x: left, y: top)), .line(Point(x: right, y: top)), .line(Point(x: right, y: bottom)),
                             .line(Point(x: left, y: bottom)), .close]
            }
            band = end
        }
        return commands.isEmpty ? nil : FlowShape(.path(Path(commands)))
    }

    /// The runs of true columns.
    static func runs(of inside: [Bool]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var column = 0
        while column < inside.count {
            guard inside[column] else { column += 1; continue }
            var end = column + 1
            while end < inside.count && inside[end] { end += 1 }
            found.append(column..<end)
            column = end
        }
        return found
    }

    /// Runs with gaps of at most `gap` columns between them joined.
    static func merged(_ runs: [Range<Int>], closingGapsUpTo gap: Int) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for run in runs {
            if let last = result.last, run.lowerBound - last.upperBound <= gap {
                result[result.count - 1] = last.lowerBound..<run.upperBound
            } else {
                result.append(run)
            }
        }
        return result
    }

    /// The rectangles the runs make once equal neighbouring bands are joined.
    static func rectCount(_ runs: [[Range<Int>]]) -> Int {
        var count = 0
        for (index, band) in runs.enumerated() where index == 0 || runs[index - 1] != band { count += band.count }
        return count
    }
}

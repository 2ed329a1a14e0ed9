/// Which side of an offset a caret belongs to where one offset has two places: the end of a
/// soft-wrapped line and the start of the next, or the two runs at a bidi boundary.
public enum Affinity: Sendable, Equatable {
    /// With the text after the offset (the default).
    case downstream
    /// With the text before it: the end of the line above, the end of the run before.
    case upstream
}

/// A place between two grapheme clusters.
public struct TextPosition: Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var affinity: Affinity

    public init(offset: Int, affinity: Affinity = .downstream) {
        self.offset = offset
        self.affinity = affinity
    }

    public var description: String { affinity == .upstream ? "\(offset)↑" : "\(offset)" }
}

/// One grapheme cluster (or an attachment) on a line, as a span of the line's axis: what every
/// caret, hit and selection is measured against.
struct CaretBox: Equatable, Sendable {
    /// The text it stands for, whole grapheme clusters.
    var range: Range<Int>
    /// Its extent along the line, left to right on the line's axis.
    var start: Double
    var end: Double
    var rightToLeft: Bool

    /// The offset at the box's left edge, and at its right edge.
    var leftOffset: Int { rightToLeft ? range.upperBound : range.lowerBound }
    var rightOffset: Int { rightToLeft ? range.lowerBound : range.upperBound }
    /// Where a caret before `range.lowerBound` stands, and one after `range.upperBound`.
    var leadingEdge: Double { rightToLeft ? end : start }
    var trailingEdge: Double { rightToLeft ? start : end }
}

/// The boxes of one line in visual order, and the line's place across its axis.
struct LineBoxes: Sendable {
    var boxes: [CaretBox]
    /// The line's extent across its axis (its line box).
    var top: Double
    var bottom: Double
    /// Where the line's text starts along its axis: an empty line's caret.
    var origin: Double
    /// The last offset a caret on this line may take: its end, before a hard break.
    var contentEnd: Int
    var range: Range<Int>
    var softWrapped: Bool

    /// The line's text extent along its axis.
    var left: Double { boxes.first?.start ?? origin }
    var right: Double { boxes.last?.end ?? origin }

    /// Cuts a line's glyphs and attachments into boxes of whole grapheme clusters. Pens are
    /// rebuilt from advances (a glyph's position carries its offset, not its pen): the line's
    /// items tile its axis from its origin, each run advancing by its glyphs' advances and each
    /// attachment standing where its rect does.
    static func make(line: LineLayout, index: Int, runs: [GlyphRunLayout], attachments: [AttachmentLayout],
                     graphemeStarts: [Bool], units: ContiguousArray<UInt16>) -> LineBoxes {
        cut(line: line, index: index, runs: runs, attachments: attachments, graphemeStarts: graphemeStarts, units: units)
    }

    private static func cut(line: LineLayout, index: Int, runs: [GlyphRunLayout], attachments: [AttachmentLayout],
                            graphemeStarts: [Bool], units: ContiguousArray<UInt16>) -> LineBoxes {
        enum Item { case run(GlyphRunLayout), attachment(AttachmentLayout) }
        var items: [(x: Double, item: Item)] = []
        for run in runs where run.lineIndex == index && !run.glyphs.isEmpty {
            items.append((run.glyphs.first!.position.x, .run(run)))
        }
        for box in attachments where box.lineIndex == index { items.append((box.rect.x, .attachment(box))) }
        items.sort { $0.x < $1.x }

        // Every place a cluster may end: other clusters' starts, attachments, run and line ends.
        var boundaries: [Int] = [line.range.upperBound]
        boundaries.reserveCapacity(line.range.count + 2 * items.count + 1)
        for (_, item) in items {
            switch item {
            case .run(let run):
                boundaries.append(run.range.upperBound)
                if !run.isInserted { for glyph in run.glyphs { boundaries.append(glyph.cluster) } }
            case .attachment(let box):
                boundaries.append(box.range.lowerBound)
                boundaries.append(box.range.upperBound)
            }
        }
        boundaries.sort()
        func end(of start: Int) -> Int {
            var low = 0, high = boundaries.count
            while low < high {
                let middle = (low + high) / 2
                if boundaries[middle] <= start { low = middle + 1 } else { high = middle }
            }
            return low < boundaries.count ? boundaries[low] : start + 1
        }

        var boxes: [CaretBox] = []
        boxes.reserveCapacity(line.range.count)
        var pen = line.baselineOrigin.x
        for (_, item) in items {
            switch item {
            case .attachment(let box):
                pen = box.rect.x
                boxes.append(CaretBox(range: box.range, start: pen, end: pen + box.rect.width, rightToLeft: box.bidiLevel % 2 == 1))
                pen += box.rect.width
            case .run(let run):
                let rightToLeft = run.bidiLevel % 2 == 1
                var clusters: [CaretBox] = []
                clusters.reserveCapacity(run.glyphs.count)
                for (cluster, width) in RunClusters(run.glyphs) {
                    clusters.append(CaretBox(range: cluster..<max(cluster + 1, end(of: cluster)), start: pen, end: pen + width,
                                             rightToLeft: rightToLeft))
                    pen += width
                }
                guard !run.isInserted else { break }
                for box in Self.joiningEmpty(clusters) { appendSplitting(box, at: graphemeStarts, into: &boxes) }
            }
        }
        var made = outline(of: line, units: units)
        made.boxes = boxes
        return made
    }

    /// A cluster with no width (lam-alef's alef in many Arabic fonts, a control character) joins
    /// the cluster before it in the text, and they share its width as a ligature does: two
    /// offsets at one place could not be told apart by a tap.
    private static func joiningEmpty(_ clusters: [CaretBox]) -> [CaretBox] {
        guard clusters.count > 1, clusters.contains(where: { $0.end == $0.start }) else { return clusters }
        var out: [CaretBox] = []
        // In visual order; the cluster before in the text is on the left in left-to-right runs.
        let logical = clusters.first!.rightToLeft ? Array(clusters.reversed()) : clusters
        for box in logical {
            if box.end == box.start, var previous = out.last, previous.range.upperBound == box.range.lowerBound {
                previous.range = previous.range.lowerBound..<box.range.upperBound
                out[out.count - 1] = previous
            } else if let previous = out.last, previous.end == previous.start, previous.range.upperBound == box.range.lowerBound {
                // An empty first cluster joins the one after it.
                var joined = box
                joined.range = previous.range.lowerBound..<box.range.upperBound
                out[out.count - 1] = joined
            } else {
                out.append(box)
            }
        }
        return clusters.first!.rightToLeft ? out.reversed() : out
    }

    /// A ligature (one cluster, several graphemes) shares its width evenly among them, as
    /// CoreText places carets inside a ligature without caret positions of its own.
    static func appendSplitting(_ box: CaretBox, at graphemeStarts: [Bool], into boxes: inout [CaretBox]) {
        // Most boxes are one grapheme: appended without the list of starts.
        let inner = (box.range.lowerBound + 1)..<min(box.range.upperBound, graphemeStarts.count)
        guard inner.contains(where: { graphemeStarts[$0] }) else { boxes.append(box); return }
        var starts = [box.range.lowerBound]
        for offset in (box.range.lowerBound + 1)..<box.range.upperBound where offset < graphemeStarts.count && graphemeStarts[offset] {
            starts.append(offset)
        }
        guard starts.count > 1 else { boxes.append(box); return }
        let share = (box.end - box.start) / Double(starts.count)
        let pieces = starts.indices.map { i in
            let range = starts[i]..<(i + 1 < starts.count ? starts[i + 1] : box.range.upperBound)
            // Logical order runs right to left in a right-to-left box.
            let slot = Double(box.rightToLeft ? starts.count - 1 - i : i)
            return CaretBox(range: range, start: box.start + slot * share, end: box.start + (slot + 1) * share,
                            rightToLeft: box.rightToLeft)
        }
        boxes += box.rightToLeft ? pieces.reversed() : pieces
    }

    /// CR LF is one break of two units; every other hard break is one.
    static func hardBreakLength(before end: Int, in units: ContiguousArray<UInt16>) -> Int {
        guard end > 0, end <= units.count else { return 0 }
        if units[end - 1] == 0x0A && end >= 2 && units[end - 2] == 0x0D { return 2 }
        return 1
    }
}

/// A run's glyph clusters in visual order, each with its glyphs' advances summed: a cluster's
/// glyphs sit together. What the caret boxes and the simple caret tile a line with.
struct RunClusters: Sequence, IteratorProtocol {
    private let glyphs: ArraySlice<PositionedGlyph>
    private var index: Int

    init(_ glyphs: ArraySlice<PositionedGlyph>) {
        self.glyphs = glyphs
        index = glyphs.startIndex
    }

    mutating func next() -> (cluster: Int, width: Double)? {
        guard index < glyphs.endIndex else { return nil }
        let cluster = glyphs[index].cluster
        var width = 0.0
        while index < glyphs.endIndex && glyphs[index].cluster == cluster {
            width += glyphs[index].advance
            index += 1
        }
        return (cluster, width)
    }
}

extension LineBoxes {
    /// A line without its boxes: its range and place (all a caret on another line needs; `make`
    /// adds the boxes).
    static func outline(of line: LineLayout, units: ContiguousArray<UInt16>) -> LineBoxes {
        let breakLength = line.hardBreak ? hardBreakLength(before: line.range.upperBound, in: units) : 0
        return LineBoxes(boxes: [], top: line.usedRect.y, bottom: line.usedRect.y + line.usedRect.height,
                         origin: line.baselineOrigin.x, contentEnd: max(line.range.lowerBound, line.range.upperBound - breakLength),
                         range: line.range, softWrapped: !line.hardBreak)
    }
}

/// Part of an item that lies on one line, with its glyphs: what positioning places.
struct LinePiece {
    var range: Range<Int>
    /// Unowned, as in `Item`: the registry outlives the layout.
    unowned(unsafe) var font: Font
    var style: Int
    var level: UInt8
    var glyphs: ArraySlice<ShapedGlyph>
    /// Trailing whitespace: at the paragraph's level (UAX #9 L1) and not counted in the width.
    var isTrailing: Bool
    var isToken: Bool = false
    /// Multiplies the style's size: Type Mode gives each line a size of its own.
    var sizeFactor: Double = 1
}

extension ParagraphWork {
    /// The point size a piece is drawn at.
    @inline(__always)
    func size(of piece: LinePiece) -> Double { text.styles[piece.style].size * piece.sizeFactor }

    /// The pieces of items inside `range`, in logical order. Trailing whitespace from
    /// `contentEnd` on is split off at the paragraph's base level (UAX #9 L1).
    func pieces(in range: Range<Int>, contentEnd: Int, baseLevel: UInt8) -> [LinePiece] {
        var result: [LinePiece] = []
        var index = firstItem(endingAfter: range.lowerBound)
        while index < items.count && items[index].range.lowerBound < range.upperBound {
            let item = items[index]
            let overlap = max(item.range.lowerBound, range.lowerBound)..<min(item.range.upperBound, range.upperBound)
            let split = min(max(overlap.lowerBound, contentEnd), overlap.upperBound)
            for (part, trailing) in [(overlap.lowerBound..<split, false), (split..<overlap.upperBound, true)] where !part.isEmpty {
                let glyphs = self.glyphs(of: index, in: part, line: range)
                result.append(LinePiece(range: part, font: item.font, style: item.style,
                                        level: trailing ? baseLevel : item.level, glyphs: glyphs, isTrailing: trailing))
            }
            index += 1
        }
        return result
    }

    /// Index of the first item whose range ends after `offset` (items are sorted).
    func firstItem(endingAfter offset: Int) -> Int {
        var low = 0
        var high = items.count
        while low < high {
            let mid = (low + high) / 2
            if items[mid].range.upperBound <= offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The glyphs of item `index` for the units `part`; shaped again, within the line, when
    /// HarfBuzz marked a cut edge unsafe to break (a ligature or joining form spans it).
    func glyphs(of index: Int, in part: Range<Int>, line: Range<Int>) -> ArraySlice<ShapedGlyph> {
        let item = items[index]
        let run = runs[index]
        if part == item.range { return run.glyphs[...] }
        let cutsStart = part.lowerBound > item.range.lowerBound
        let cutsEnd = part.upperBound < item.range.upperBound
        if (cutsStart && !isSafeBreak(run, at: part.lowerBound, rtl: item.isRTL))
            || (cutsEnd && !isSafeBreak(run, at: part.upperBound, rtl: item.isRTL)) {
            let reshaped = shapingUnits.withUnsafeBufferPointer { units in
                shaper.shape(units, range: part, context: line, font: item.font, rtl: item.isRTL,
                             script: item.script, style: shapingStyles[item.style])
            }
            return reshaped.glyphs[...]
        }
        return slice(run, part, rtl: item.isRTL)
    }

    /// The glyphs whose cluster lies in `part`, found by binary search: clusters rise along a
    /// left-to-right run and fall along a right-to-left one.
    func slice(_ run: ShapedRun, _ part: Range<Int>, rtl: Bool) -> ArraySlice<ShapedGlyph> {
        let start = Self.firstGlyph(run.glyphs, rtl ? part.upperBound : part.lowerBound, rtl: rtl)
        let end = Self.firstGlyph(run.glyphs, rtl ? part.lowerBound : part.upperBound, rtl: rtl)
        return run.glyphs[start..<end]
    }

    /// The first glyph index whose cluster is at or past `offset` in the run's direction:
    /// `cluster >= offset` along a left-to-right run, `cluster < offset` along a right-to-left one.
    @inline(__always)
    static func firstGlyph(_ glyphs: [ShapedGlyph], _ offset: Int, rtl: Bool) -> Int {
        var low = 0
        var high = glyphs.count
        glyphs.withUnsafeBufferPointer { g in
            while low < high {
                let mid = (low + high) >> 1
                let past = rtl ? g[mid].cluster < offset : g[mid].cluster >= offset
                if past { high = mid } else { low = mid + 1 }
            }
        }
        return low
    }

    /// A cut before `offset` keeps the shaping when a glyph cluster starts exactly there
    /// and HarfBuzz did not flag it unsafe to break.
    func isSafeBreak(_ run: ShapedRun, at offset: Int, rtl: Bool) -> Bool {
        let glyphs = slice(run, offset..<(offset + 1), rtl: rtl)
        guard let first = glyphs.first, first.cluster == offset else { return false }
        return !glyphs.contains { $0.unsafeToBreak }
    }
}

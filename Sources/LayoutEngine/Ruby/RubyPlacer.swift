/// The decorate stage for ruby: each annotation's reading glyphs over (or beside) its base, once
/// the base has its place on its line (`RubyAnnotation`). Runs of their own, beside the text's,
/// as emphasis marks are.
///
/// Across the line the reading's frame sits flush against the base's: past the base font's
/// character frame (its ideographic em box, or ascent and descent: `Font.characterFrame`) over
/// or under it in horizontal text, past half the em on the column's right
/// (over) or left (under) in vertical text. Along it, by the simple rules:
/// - a reading over one cluster, or one as wide as its base, is centred on it;
/// - a reading of Japanese characters narrower than a base of several clusters is spaced
///   across it, the space between its characters twice that at its ends, those capped at half
///   the base's em (the rules' 1:2:1); other readings stay solid, centred;
/// - jukugo: where no reading on a line is wider than its cluster, each is centred on its own
///   cluster; otherwise the line's readings are set as one, as group ruby is.
/// The base was spaced to hold a wider reading before breaking (`RubyBases`), so no reading
/// overhangs the text beside its base.
enum RubyPlacer {
    static func place(_ layout: ParagraphLayout, text: AttributedText, fonts: FontRegistry, writingMode: WritingMode,
                      budget: WorkBudget) throws(LayoutError) -> [GlyphRunLayout] {
        let ruby = text.ruby
        var placed: [GlyphRunLayout] = []
        var first = 0
        while first < layout.runs.count {
            try budget.check()
            let lineIndex = layout.runs[first].lineIndex, end = LinePens.lineEnd(from: first, in: layout.runs)
            let line = layout.lines[lineIndex].range
            var index = ShapedParagraph.firstIndex(ruby.count) { ruby[$0].base.upperBound > line.lowerBound }
            if index < ruby.count && ruby[index].base.lowerBound < line.upperBound {
                let pens = LinePens.starts(first..<end, of: layout, lineIndex: lineIndex)
                let setter = LineSetter(layout: layout, runs: first..<end, pens: pens, lineIndex: lineIndex, writingMode: writingMode,
                                        fonts: fonts, units: text.units)
                while index < ruby.count && ruby[index].base.lowerBound < line.upperBound {
                    // Each annotation reads the line's glyphs: a line of many is checked as it goes.
                    if index % 64 == 63 { try budget.check() }
                    setter.place(ruby[index], into: &placed)
                    index += 1
                }
            }
            first = end
        }
        return placed
    }

    /// One line's runs, with where each glyph's advance starts and ends along it.
    private struct LineSetter {
        let layout: ParagraphLayout
        let runs: Range<Int>
        let pens: [Double]
        let lineIndex: Int
        let writingMode: WritingMode
        let fonts: FontRegistry
        let units: ContiguousArray<UInt16>

        /// What the base's part on this line gives the reading: each of its grapheme clusters'
        /// extent along the line (by the cluster's index in the base), and the first base run's
        /// baseline, font, size and paint.
        struct BasePart {
            var extents: [Int: (start: Double, end: Double)] = [:]
            var baseline = 0.0
            var run: GlyphRunLayout?
        }

        func place(_ annotation: RubyAnnotation, into placed: inout [GlyphRunLayout]) {
            guard let laid = annotation.laid else { return }
            let starts = Self.clusterStarts(units[annotation.base], from: annotation.base.lowerBound)
            let part = basePart(annotation.base, clusterStarts: starts)
            guard let run = part.run, !part.extents.isEmpty else { return }
            let clusters = part.extents.keys.sorted()
            func clusterRange(_ k: Int) -> Range<Int> { starts[k]..<(k + 1 < starts.count ? starts[k + 1] : annotation.base.upperBound) }
            let across = crossBaseline(annotation, laid: laid, run: run, baseline: part.baseline)
            // The shape stage counted the clusters by the text's analysis; Swift's `Character`s
            // could count otherwise (another Unicode version's rules): then the readings go
            // over the base as one, never one reading per a cluster that is not its own.
            let jukugo = annotation.isJukugo && starts.count == laid.widths.count
            if jukugo && !clusters.contains(where: { laid.widths[$0] > fullWidth(run) + Self.tolerance }) {
                // Mono ruby, cluster by cluster.
                for k in clusters {
                    let extent = part.extents[k]!
                    set([k], of: annotation, laid: laid, from: (extent.start + extent.end - laid.widths[k]) / 2, between: 0,
                        across: across, ranges: [clusterRange(k)], paint: run.paint, into: &placed)
                }
                return
            }
            let readings = jukugo ? clusters : Array(laid.widths.indices)
            // A jukugo reading's runs stand over its own cluster; a group reading's over the base's part on the line.
            let whole = clusterRange(clusters.first!).lowerBound..<clusterRange(clusters.last!).upperBound
            let ranges = jukugo ? clusters.map(clusterRange) : Array(repeating: whole, count: readings.count)
            let width = readings.reduce(0) { $0 + laid.widths[$1] }
            let start = clusters.map { part.extents[$0]!.start }.min()!, end = clusters.map { part.extents[$0]!.end }.max()!
            let slack = end - start - width
            let characters = readings.reduce(0) { $0 + annotation.readings[$1].count }
            if slack > Self.tolerance && clusters.count > 1 && laid.isJapanese && characters > 1 {
                // 1:2:1, the ends at most half the base's em.
                let edge = min(slack / Double(2 * characters), run.size / 2)
                let between = (slack - 2 * edge) / Double(characters - 1)
                set(readings, of: annotation, laid: laid, from: start + edge, between: between, across: across, ranges: ranges,
                    paint: run.paint, into: &placed)
            } else {
                set(readings, of: annotation, laid: laid, from: (start + end - width) / 2, between: 0, across: across,
                    ranges: ranges, paint: run.paint, into: &placed)
            }
        }

        /// Widths within this of each other are equal (the base's spacing is whole font units).
        static let tolerance = 0.01

        /// A full-width character's advance in `run`: its em, which Japanese is set in.
        private func fullWidth(_ run: GlyphRunLayout) -> Double { run.size }

        /// Sets `readings` of `annotation` one after another from `start` along the line, each
        /// character after the first `between` further on; one run per run of each reading, over
        /// `ranges` (one per reading).
        private func set(_ readings: [Int], of annotation: RubyAnnotation, laid: RubyReadings, from start: Double,
                         between: Double, across: Double, ranges: [Range<Int>], paint: Int, into placed: inout [GlyphRunLayout]) {
            var pen = start
            var character = 0
            for (n, k) in readings.enumerated() {
                let reading = laid.layouts[k]
                guard let line = reading.lines.first else { continue }
                // Clusters count from the start of all the readings joined.
                let offset = annotation.readings[..<k].reduce(0) { $0 + $1.utf16.count }
                var lastCluster = -1
                for readingRun in reading.runs where readingRun.lineIndex == 0 {
                    var glyphs: [PositionedGlyph] = []
                    glyphs.reserveCapacity(readingRun.glyphs.count)
                    for glyph in readingRun.glyphs {
                        if glyph.cluster != lastCluster {
                            if lastCluster >= 0 { character += 1 }
                            lastCluster = glyph.cluster
                        }
                        let along = pen + glyph.position.x - line.baselineOrigin.x + Double(character) * between
                        glyphs.append(PositionedGlyph(id: glyph.id, position: Point(x: along, y: across + glyph.position.y - line.baselineOrigin.y),
                                                      advance: glyph.advance, cluster: glyph.cluster + offset))
                    }
                    var run = readingRun
                    run.glyphs = glyphs[...]
                    run.range = ranges[n]
                    run.lineIndex = lineIndex
                    run.paint = paint
                    placed.append(run)
                }
                pen += laid.widths[k]
                if lastCluster >= 0 { character += 1 }
            }
        }

        /// The reading's baseline across the line (in vertical text, its centre line).
        private func crossBaseline(_ annotation: RubyAnnotation, laid: RubyReadings, run: GlyphRunLayout, baseline: Double) -> Double {
            let reach: (ascent: Double, descent: Double)
            let ascentSide: Bool
            if run.orientation == .horizontal {
                let font = fonts.font(id: run.instanceID)
                let scale = font?.scale(for: run.size) ?? 0, frame = font?.characterFrame ?? (ascent: 0, descent: 0)
                reach = (Double(frame.ascent) * scale, Double(frame.descent) * scale)
                ascentSide = !annotation.under
            } else {
                reach = (run.size / 2, run.size / 2)
                // Over is the column's right: the frame's ascent side in right-to-left columns.
                ascentSide = (writingMode == .verticalRightToLeft) != annotation.under
            }
            return ascentSide ? baseline - reach.ascent - laid.descent : baseline + reach.descent + laid.ascent
        }

        /// The base's clusters on this line and where each stands, from the pens of its glyphs.
        private func basePart(_ base: Range<Int>, clusterStarts: [Int]) -> BasePart {
            var part = BasePart()
            for index in runs {
                let run = layout.runs[index]
                guard !run.isInserted, run.range.overlaps(base) else { continue }
                var pen = pens[index - runs.lowerBound]
                for glyph in run.glyphs {
                    defer { pen += glyph.advance }
                    guard base.contains(glyph.cluster) else { continue }
                    // The grapheme cluster holding the glyph's cluster.
                    let k = ShapedParagraph.firstIndex(clusterStarts.count) { clusterStarts[$0] > glyph.cluster } - 1
                    let extent = part.extents[k] ?? (pen, pen + glyph.advance)
                    part.extents[k] = (min(extent.start, pen), max(extent.end, pen + glyph.advance))
                    if part.run == nil {
                        part.run = run
                        part.baseline = run.orientation == .horizontal ? glyph.position.y : layout.lines[lineIndex].baselineOrigin.y
                    }
                }
            }
            return part
        }

        /// The first unit of each grapheme cluster of `units` (Swift's extended grapheme clusters,
        /// as the analysis finds them), as offsets from `from`.
        static func clusterStarts(_ units: ArraySlice<UInt16>, from: Int) -> [Int] {
            var starts: [Int] = []
            var offset = from
            for character in String(decoding: units, as: UTF16.self) {
                starts.append(offset)
                offset += character.utf16.count
            }
            return starts
        }
    }
}

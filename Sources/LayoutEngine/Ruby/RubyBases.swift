/// The shape stage's part of ruby: what the bases of a paragraph's annotations change before
/// lines are broken.
///
/// - No line breaks inside a mono or group ruby's base (the simple rules keep a ruby block
///   whole); a jukugo ruby keeps the opportunities between its clusters.
/// - A reading wider than its base never overhangs the text beside it: the base is spaced to
///   the reading's width, the space between its clusters twice that at its ends (the rules'
///   1:2:1). A base of other than Japanese characters is not spaced inside: the space goes to
///   its ends. A jukugo cluster is spaced by its own reading, so that any line break between
///   clusters leaves each part wide enough for its readings.
///
/// The spacing goes into the shaped glyphs' advances (the spaced cluster's glyphs move by the
/// space before it), so breaking, positioning, hit-testing and intrinsic widths all see it.
enum RubyBases {
    /// Checks each base against the paragraph's grapheme clusters (whole clusters; a jukugo's
    /// readings one per cluster), then takes the opportunities inside mono and group bases out
    /// of `flags`. `offset`: where the paragraph starts in the request's text, for the errors.
    static func check(_ ruby: [RubyAnnotation], flags: inout ContiguousArray<UnitFlags>, offset: Int) throws(LayoutError) {
        for annotation in ruby {
            let base = annotation.base, field = "ruby_annotations[\(annotation.requestIndex)]"
            guard base.upperBound <= flags.count, flags[base.lowerBound].contains(.graphemeStart),
                  base.upperBound == flags.count || flags[base.upperBound].contains(.graphemeStart) else {
                throw LayoutError(.invalidArgument, "the base \(base.lowerBound + offset)..<\(base.upperBound + offset) cuts a "
                                  + "grapheme cluster: it must start and end between whole characters", field: field + ".range")
            }
            if annotation.isJukugo {
                let clusters = clusterStarts(base, flags: flags).count
                guard clusters == annotation.readings.count else {
                    throw LayoutError(.invalidArgument, "jukugo ruby has one reading per grapheme cluster of the base: the base has "
                                      + "\(clusters), the readings are \(annotation.readings.count)", field: field + ".readings")
                }
            } else {
                for unit in base.dropFirst() { flags[unit].remove(.breakBefore) }
            }
        }
    }

    /// The space before and after each spaced cluster, by the cluster's first unit.
    struct Spacing {
        var before: [Int: Double] = [:]
        var after: [Int: Double] = [:]
        var isEmpty: Bool { before.isEmpty && after.isEmpty }
    }

    /// Spaces the bases of `text`'s measured annotations in `runs` (shaped from `items`):
    /// the runs holding a spaced cluster are copied with wider advances; the rest stay shared.
    static func space(_ runs: inout [ShapedRun], items: [Item], text: AttributedText, flags: ContiguousArray<UnitFlags>) {
        let widths = clusterWidths(runs, items: items, text: text, flags: flags)
        var spacing = Spacing()
        for annotation in text.ruby {
            guard let laid = annotation.laid else { continue }
            let clusters = clusterStarts(annotation.base, flags: flags)
            guard !clusters.isEmpty else { continue }
            if annotation.isJukugo {
                for (k, start) in clusters.enumerated() where k < laid.widths.count {
                    let excess = laid.widths[k] - (widths[start] ?? 0)
                    if excess > 0 { spacing.add(excess / 2, before: start, after: start) }
                }
                continue
            }
            let baseWidth = clusters.reduce(0) { $0 + (widths[$1] ?? 0) }
            let excess = (laid.widths.first ?? 0) - baseWidth
            guard excess > 0 else { continue }
            let base = text.units[annotation.base]
            if clusters.count == 1 || RubyReadings.isJapanese(String(decoding: base, as: UTF16.self)) {
                let share = excess / Double(2 * clusters.count)
                for start in clusters { spacing.add(share, before: start, after: start) }
            } else {
                spacing.add(excess / 2, before: clusters[0], after: nil)
                spacing.add(excess / 2, before: nil, after: clusters[clusters.count - 1])
            }
        }
        guard !spacing.isEmpty else { return }
        // Each spaced cluster's item found by bisection: only the runs holding one are copied.
        let spaced = Set(spacing.before.keys).union(spacing.after.keys).sorted()
        for index in runs.indices {
            let item = items[index]
            let first = ShapedParagraph.firstIndex(spaced.count) { spaced[$0] >= item.range.lowerBound }
            guard item.orientation != .combined, first < spaced.count, spaced[first] < item.range.upperBound else { continue }
            runs[index] = Self.spaced(runs[index], scale: item.font.scale(for: text.styles[item.style].size), rtl: item.isRTL, spacing,
                                      within: spaced.first!..<(spaced.last! + 1))
        }
    }

    /// The run with each spaced cluster's glyphs moved by the space before it and its last glyph
    /// advancing by both spaces (in font units). Visual order: in a right-to-left run the space
    /// after a cluster is on its left. Its glyphs are marked safe to break: shaped again at a
    /// line's edge, they would lose the space.
    private static func spaced(_ run: ShapedRun, scale: Double, rtl: Bool, _ spacing: Spacing, within span: Range<Int>) -> ShapedRun {
        var glyphs = Array(run.slice)
        let base = run.range.lowerBound
        var k = 0
        while k < glyphs.count {
            let cluster = glyphs[k].cluster
            var end = k
            while end < glyphs.count && glyphs[end].cluster == cluster { end += 1 }
            let unit = Int(cluster) + base
            guard span.contains(unit) else {
                k = end
                continue
            }
            let before = spacing.before[unit] ?? 0, after = spacing.after[unit] ?? 0
            if before != 0 || after != 0 {
                let left = Int32(saturating: ((rtl ? after : before) / scale).rounded()), right = Int32(saturating: ((rtl ? before : after) / scale).rounded())
                for g in k..<end {
                    glyphs[g].xOffset += left
                    glyphs[g].unsafeToBreak = false
                }
                glyphs[end - 1].advance = Int32(saturating: Double(glyphs[end - 1].advance) + Double(left) + Double(right))
            }
            k = end
        }
        return ShapedRun(range: run.range, glyphs: ShapedGlyphs.make(glyphs))
    }

    /// The first unit of each grapheme cluster of `range`.
    static func clusterStarts(_ range: Range<Int>, flags: ContiguousArray<UnitFlags>) -> [Int] {
        range.filter { $0 == range.lowerBound || ($0 < flags.count && flags[$0].contains(.graphemeStart)) }
    }

    /// Each grapheme cluster's advance in points, by its first unit: the glyphs' advances of the
    /// cluster HarfBuzz gave them, charged to the grapheme cluster holding it.
    private static func clusterWidths(_ runs: [ShapedRun], items: [Item], text: AttributedText,
                                      flags: ContiguousArray<UnitFlags>) -> [Int: Double] {
        var wanted = Set<Int>()
        for annotation in text.ruby { for unit in annotation.base { wanted.insert(unit) } }
        // Most glyphs lie outside every base: a range test before the set's hash.
        let span = (text.ruby.first?.base.lowerBound ?? 0)..<(text.ruby.last?.base.upperBound ?? 0)
        var widths: [Int: Double] = [:]
        for index in runs.indices {
            let item = items[index]
            if item.orientation == .combined {
                // Tate-chu-yoko stands in one em, whatever its glyphs' advances.
                widths[item.range.lowerBound, default: 0] += text.styles[item.style].size
                continue
            }
            let scale = item.font.scale(for: text.styles[item.style].size)
            for glyph in runs[index].slice {
                var unit = Int(glyph.cluster) + runs[index].range.lowerBound
                guard span.contains(unit), wanted.contains(unit) else { continue }
                while unit > 0 && !flags[unit].contains(.graphemeStart) { unit -= 1 }
                widths[unit, default: 0] += Double(glyph.advance) * scale
            }
        }
        return widths
    }

}

extension RubyBases.Spacing {
    mutating func add(_ space: Double, before: Int?, after: Int?) {
        if let before { self.before[before, default: 0] += space }
        if let after { self.after[after, default: 0] += space }
    }
}

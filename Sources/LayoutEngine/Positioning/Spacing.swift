/// Letter spacing and justification: the extra advance each glyph gets.
///
/// Extra space is given per HarfBuzz cluster, counted in the units the cluster covers, so a
/// ligature over two graphemes gets the spacing of two and the total agrees with measuring.
struct Spacing {
    /// The paragraph, for its unit flags and styles: one reference to count (a spacing is made
    /// per line), where holding the two arrays counted two.
    let shaped: ShapedParagraph
    var flags: ContiguousArray<UnitFlags> { _read { yield shaped.analysis.flags } }
    var styles: [TextStyle] { _read { yield shaped.text.styles } }
    let hasLetterSpacing: Bool
    let content: Range<Int>
    /// Justification's extra advance per word separator (or per grapheme gap).
    var extraPerSlot: Double
    /// Justify between graphemes: the line has no word separator (CJK, a single long word).
    var perCharacter: Bool
    /// What each tab of the line adds to its shaped advance to reach its stop, by offset; nil
    /// on the lines without tabs (nearly all), so a spacing copies no table.
    var tabs: [Int: Double]?
    var tabExtras: [Int: Double] {
        get { tabs ?? [:] }
        set { tabs = newValue.isEmpty ? nil : newValue }
    }

    init(_ shaped: ShapedParagraph, content: Range<Int>, extraPerSlot: Double, perCharacter: Bool) {
        self.shaped = shaped
        hasLetterSpacing = shaped.hasLetterSpacing
        self.content = content
        self.extraPerSlot = extraPerSlot
        self.perCharacter = perCharacter
    }

    /// Spreads `width - natural` over the line's word separators, or between its graphemes.
    mutating func stretch(to width: Double, natural: Double) {
        let slack = width - natural
        guard slack > 0 else { return }
        let separators = content.reduce(0) { $0 + (flags[$1].contains(.justifiable) ? 1 : 0) }
        if separators > 0 {
            extraPerSlot = slack / Double(separators)
            return
        }
        let gaps = content.reduce(0) { $0 + (flags[$1].contains(.graphemeStart) ? 1 : 0) } - 1
        if gaps > 0 {
            perCharacter = true
            extraPerSlot = slack / Double(gaps)
        }
    }

    /// False when no glyph of the line gets extra advance: no letter spacing in the text and
    /// no justification (most lines), so widths are the glyphs' advances alone.
    var hasExtras: Bool { hasLetterSpacing || extraPerSlot != 0 || tabs != nil }

    /// The extra advance of each glyph of `piece`, added after the glyph; nil when there is none.
    func extras(for piece: LinePiece) -> [Double]? {
        guard hasExtras, !piece.isToken, !piece.glyphs.isEmpty else { return nil }
        let letterSpacing = styles[piece.style].letterSpacing
        var extras = [Double](repeating: 0, count: piece.glyphs.count)
        let lastGrapheme = lastGraphemeStart()
        // A cluster spans from its value to the next larger cluster value in the piece.
        let starts = Set(piece.glyphs.map { Int($0.cluster) + piece.clusterBase }).sorted()
        var clusterEnd: [Int: Int] = [:]
        for (k, start) in starts.enumerated() { clusterEnd[start] = k + 1 < starts.count ? starts[k + 1] : piece.range.upperBound }
        let glyphs = Array(piece.glyphs)
        for k in glyphs.indices {
            // Give each cluster's extra to its last glyph in visual order.
            if k + 1 < glyphs.count && glyphs[k + 1].cluster == glyphs[k].cluster { continue }
            let start = Int(glyphs[k].cluster) + piece.clusterBase
            var extra = 0.0
            for unit in start..<(clusterEnd[start] ?? start + 1) {
                let f = flags[unit]
                if f.contains(.graphemeStart) { extra += letterSpacing }
                if let tabs, let tab = tabs[unit] { extra += tab }
                guard content.contains(unit) else { continue }
                if perCharacter {
                    if f.contains(.graphemeStart) && unit < lastGrapheme { extra += extraPerSlot }
                } else if f.contains(.justifiable) {
                    extra += extraPerSlot
                }
            }
            extras[k] = extra
        }
        return extras
    }

    /// The extra advance after a box: letter spacing, and justification's share when the line
    /// is stretched between graphemes (a box is one unit; it is never a word separator).
    func extra(after box: InlineBox) -> Double {
        guard hasExtras else { return 0 }
        var extra = styles[box.style].letterSpacing
        if perCharacter && content.contains(box.range.lowerBound) && box.range.lowerBound < lastGraphemeStart() {
            extra += extraPerSlot
        }
        return extra
    }

    func width(of item: LineItem) -> Double {
        switch item {
        case .glyphs(let piece):
            let base = Double(piece.advanceUnits) * piece.font.scale(for: piece.size)
            guard hasExtras else { return base }
            return base + (extras(for: piece)?.reduce(0, +) ?? 0)
        case .box(let box):
            return box.width + extra(after: box)
        }
    }

    /// Width of the items that are not trailing whitespace, and of those that are, in one
    /// pass. Without extras (most lines) each is its natural width, read in place: through
    /// `width(of:)` every item was copied whole, twice, for two numbers.
    func widths(_ pieces: [LineItem]) -> (content: Double, trailing: Double) {
        var content = 0.0
        var trailing = 0.0
        for index in pieces.indices {
            let width = hasExtras ? width(of: pieces[index]) : pieces[index].naturalWidth
            if pieces[index].isTrailing { trailing += width } else { content += width }
        }
        return (content, trailing)
    }

    /// Width of the items that are not trailing whitespace.
    func contentWidth(_ pieces: [LineItem]) -> Double {
        var total = 0.0
        for piece in pieces where !piece.isTrailing { total += width(of: piece) }
        return total
    }

    private func lastGraphemeStart() -> Int {
        var unit = content.upperBound - 1
        while unit > content.lowerBound && !flags[unit].contains(.graphemeStart) { unit -= 1 }
        return unit
    }
}

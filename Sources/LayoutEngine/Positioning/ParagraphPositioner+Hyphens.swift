extension ParagraphPositioner {
    /// Greedy lines of this paragraph may be found by bisection (`LineBreaker.bisects`).
    /// A paragraph whose only hard break is its own separator at its end (each of a document's
    /// paragraphs) has no `mustBreakBefore` before its end, where the walk would stop.
    var bisects: Bool {
        (!analysis.hasHardBreaks || (analysis.hardBreaksEndParagraphs && analysis.paragraphs.count == 1)) && shaped.prefixRises
    }

    /// A breaker for the paragraph, with its hyphen points and tabs. Nearly every paragraph has
    /// neither soft hyphens nor tabs: one pass over its units says so.
    func breaker() -> LineBreaker {
        var breaker = LineBreaker(flags: analysis.flags, prefix: shaped.prefix, bisects: bisects)
        let units = text.units
        if settings.hangsPunctuation { breaker.endHangers = HangingPunctuation.endHangers(units) }
        // The analysis saw any soft hyphen and any tab in the text: nearly every paragraph has
        // neither, and is not looked at again (a document's, whose separator is a control, too).
        let special = (analysis.hasSoftHyphen || analysis.hasTabs) && Self.holdsSoftHyphenOrTab(units.span)
        guard special || settings.hyphenates else { return breaker }
        // Greedy breaking looks a word up only when it overflows a line; balanced and total fit
        // weigh every point, so they take them all at once.
        let lazily = settings.breakStrategy == .greedy
        breaker.hyphens = hyphenPoints(softHyphens: analysis.hasSoftHyphen, dictionary: !lazily)
        if lazily, let hyphenation = settings.hyphenation {
            breaker.wordHyphens = wordHyphens(hyphenation)
        }
        if special, let tabs = tabOffsets() { breaker.tabs = (tabs, settings.paragraphStyle.tabs) }
        return breaker
    }

    private static func holdsSoftHyphenOrTab(_ units: Span<UInt16>) -> Bool {
        for i in units.indices where units[i] == 0x00AD || units[i] == 0x0009 { return true }
        return false
    }

    /// Where the paragraph's lines may end with a hyphen: after each soft hyphen (U+00AD) always,
    /// as CSS `hyphens: manual` does, and with hyphenation at the dictionary's points in its
    /// words; each with the width of the hyphen drawn there. nil when there are none.
    func hyphenPoints(softHyphens hasSoftHyphen: Bool, dictionary: Bool = true) -> HyphenPoints? {
        let units = text.units
        let hyphenation = dictionary ? settings.hyphenation : nil
        guard hasSoftHyphen || hyphenation != nil else { return nil }
        let flags = analysis.flags
        var offsets: [Int] = []
        if hasSoftHyphen && units.count > 1 {
            for i in 1..<units.count where units[i - 1] == 0x00AD && flags[i].contains(.breakBefore)
                && !flags[i].contains(.mustBreakBefore) {
                offsets.append(i)
            }
        }
        if let hyphenation {
            let shaped = self.shaped
            let found = hyphenation.points(in: units.span, flags: flags, dictionaries: context.unicode) {
                shaped.text.styles[shaped.styleIndex(at: $0)].language
            }
            if !found.isEmpty { offsets = Array(Set(offsets + found)).sorted() }
        }
        guard !offsets.isEmpty else { return nil }
        let widths = HyphenWidths(self)
        return HyphenPoints(offsets: offsets, widths: offsets.map(widths.width(before:)),
                            maxConsecutive: settings.hyphenation?.maxConsecutiveLines ?? 0)
    }

    /// The dictionary's points word by word, for greedy breaking.
    func wordHyphens(_ hyphenation: Hyphenation) -> WordHyphens {
        let positioner = self
        let widths = HyphenWidths(self)
        let unicode = context.unicode
        return WordHyphens(points: { range in
            let shaped = positioner.shaped
            let found = hyphenation.points(in: shaped.text.units.span, range: range, flags: shaped.analysis.flags, dictionaries: unicode) {
                shaped.text.styles[shaped.styleIndex(at: $0)].language
            }
            return found.map { ($0, widths.width(before: $0)) }
        }, maxConsecutive: hyphenation.maxConsecutiveLines)
    }

    /// The hyphen a line ending before `offset` inside a word takes, in the style of the letter
    /// before it, placed there.
    func hyphenPieces(at offset: Int) -> [LineItem] {
        hyphenGlyphs(style: shaped.styleIndex(at: max(offset - 1, 0))).map { item in
            guard case .glyphs(var piece) = item else { return item }
            piece.range = offset..<offset
            piece.clusterBase = offset
            piece.isHyphen = true
            return .glyphs(piece)
        }
    }

    /// U+2010 HYPHEN where the style's face has it, else the hyphen-minus every face has.
    func hyphenGlyphs(style: Int) -> [LineItem] {
        let hyphen = shaped.fallback.primary[style].covers(0x2010) ? "\u{2010}" : "-"
        return insertedPieces(hyphen, style: style, baseLevel: shaped.baseLevel)
    }
}

/// The width of the hyphen a line ending before an offset takes, by the style of the letter
/// before it, each style's shaped once.
final class HyphenWidths {
    private let positioner: ParagraphPositioner
    private var byStyle: [Int: Double] = [:]

    init(_ positioner: ParagraphPositioner) { self.positioner = positioner }

    func width(before offset: Int) -> Double {
        let style = positioner.shaped.styleIndex(at: max(offset - 1, 0))
        if let known = byStyle[style] { return known }
        let width = positioner.hyphenGlyphs(style: style).reduce(0.0) { $0 + $1.naturalWidth }
        byStyle[style] = width
        return width
    }
}

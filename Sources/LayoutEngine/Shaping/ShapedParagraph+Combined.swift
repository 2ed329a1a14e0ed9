/// Tate-chu-yoko in the font's own narrow glyphs.
///
/// CSS Writing Modes ("Compression Rules" of `text-combine-upright`): combined text wider than
/// its em must be compressed, with an OpenType font's width variants where it has them for the
/// run's characters: half widths (`hwid`) for two characters, thirds (`twid`) for three,
/// quarters (`qwid`) for four. Where they leave the run wider than the em, or the font has none,
/// placing draws it smaller until it fits (`ParagraphPositioner.placeCombined`), as the rules
/// allow ("any combination" of variants and scaling).
extension ShapedParagraph {
    /// The width-variant feature for a combined run of `characters` characters (a combined
    /// run is ASCII digits or letters, one unit each).
    static func widthVariant(forCombining characters: Int) -> String? {
        switch characters {
        case 2: "hwid"
        case 3: "twid"
        case 4: "qwid"
        default: nil
        }
    }

    /// Reshapes each combined run of `runs` wider than its em with its width variant, kept where
    /// the font's variants make the run narrower.
    @inline(never)  // rare: kept out of the shaped paragraph's init, which every layout runs
    static func narrowCombined(_ items: [Item], units: ContiguousArray<UInt16>, styles: ResolvedStyles, context: LayoutContext,
                               runs: inout [ShapedRun]) {
        for index in items.indices where items[index].orientation == .combined {
            let item = items[index]
            let width = runs[index].slice.totalAdvance
            guard let tag = widthVariant(forCombining: item.range.count), width > item.font.unitsPerEm else { continue }
            let narrow = context.shaper.shape(units, range: item.range, context: 0..<units.count, font: item.font,
                                              rtl: item.isRTL, upright: item.isUpright, script: item.script,
                                              style: styles.shaping(item.style, with: FontFeature(tag: tag, value: 1)))
            if narrow.slice.totalAdvance < width { runs[index] = narrow }
        }
    }
}

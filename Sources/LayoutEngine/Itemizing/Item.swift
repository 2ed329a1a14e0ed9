import CHarfBuzz

/// A run of text with one font, style, script and bidi level: the unit the shaper takes.
struct Item {
    var range: Range<Int>
    /// Unowned: fonts live as long as the registry, which outlives every layout; counting
    /// references on each copy of an item showed up in profiles.
    unowned(unsafe) var font: Font
    /// Index into `AttributedText.styles`.
    var style: Int
    var level: UInt8
    var script: hb_script_t
    /// How the glyphs stand: vertical text marks each item (`VerticalItems`).
    var orientation: GlyphOrientation = .horizontal

    var isRTL: Bool { level & 1 == 1 }
    /// Shaped top to bottom.
    var isUpright: Bool { orientation == .upright }
}

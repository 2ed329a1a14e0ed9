/// A run of text with one font, style, script and bidi level: the unit the shaper takes.
struct Item {
    var range: Range<Int>
    /// Unowned (lifetime rule): valid while the `FontRegistry` that itemized the text lives. A
    /// registry outlives every layout made with it (the request holds it, a client font's
    /// connection holds its own), and counting references on each copy of an item showed up in
    /// profiles.
    @UnownedFont var font: Font
    /// Index into `AttributedText.styles`.
    var style: Int
    var level: UInt8
    var script: Script
    /// How the glyphs stand: vertical text marks each item (`VerticalItems`).
    var orientation: GlyphOrientation = .horizontal

    var isRTL: Bool { level & 1 == 1 }
    /// Shaped top to bottom.
    var isUpright: Bool { orientation == .upright }
}

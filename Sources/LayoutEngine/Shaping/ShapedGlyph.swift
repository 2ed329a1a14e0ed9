/// One glyph as HarfBuzz shaped it, in font units (size-independent).
///
/// Public, with an inlinable initializer, for one reason: the fonts adapter writes one per glyph
/// HarfBuzz shapes, and Swift inlines across modules only public `@inlinable` code (a `package`
/// one stays a call per glyph; docs/design.md, "Shortcuts for speed"). No product exports it for use.
public struct ShapedGlyph {
    public var id: UInt32
    /// UTF-16 offset of the first unit of the glyph's cluster, from the start of the run it
    /// was shaped in: a cached run serves any place in any text without being copied.
    public var cluster: Int32
    /// Along the line; `xOffset` along it and `yOffset` across it (HarfBuzz's y, upward). A
    /// run shaped top to bottom keeps the same meaning: its line's axis is HarfBuzz's −y.
    public var advance: Int32
    public var xOffset: Int32
    public var yOffset: Int32
    /// HarfBuzz's flags for the glyph, its own bit values: unsafe to break always (cutting the
    /// text before this cluster may change the shaping, so a line that starts or ends here must
    /// be shaped again), unsafe to concatenate when the buffer marked it
    /// (`ShapingScratch.producesConcatFlags`). One byte, read from the mask with one AND.
    public var flags: GlyphFlags

    @inlinable
    public init(id: UInt32, cluster: Int32, advance: Int32, xOffset: Int32, yOffset: Int32, flags: GlyphFlags) {
        self.id = id
        self.cluster = cluster
        self.advance = advance
        self.xOffset = xOffset
        self.yOffset = yOffset
        self.flags = flags
    }
}

extension ShapedGlyph {
    init(id: UInt32, cluster: Int32, advance: Int32, xOffset: Int32, yOffset: Int32, unsafeToBreak: Bool) {
        self.init(id: id, cluster: cluster, advance: advance, xOffset: xOffset, yOffset: yOffset,
                  flags: unsafeToBreak ? .unsafeToBreak : [])
    }

    var unsafeToBreak: Bool {
        get { flags.contains(.unsafeToBreak) }
        set { if newValue { flags.insert(.unsafeToBreak) } else { flags.remove(.unsafeToBreak) } }
    }
}

/// The glyphs of one item, in visual order (HarfBuzz reverses right-to-left runs).
package struct ShapedRun {
    package var range: Range<Int>
    /// Clusters count from `range.lowerBound`.
    package var glyphs: ShapedGlyphs
    /// Where the run's glyphs lie in `glyphs`: all of them, or the run's part of a buffer that
    /// items shaped together share (`Shaper.shapeJoined`: a buffer a piece cost six allocations
    /// a vertical caption where two did).
    package let first: Int
    package let count: Int

    init(range: Range<Int>, glyphs: ShapedGlyphs) {
        self.init(range: range, glyphs: glyphs, first: 0, count: glyphs.header)
    }

    package init(range: Range<Int>, glyphs: ShapedGlyphs, first: Int, count: Int) {
        self.range = range
        self.glyphs = glyphs
        self.first = first
        self.count = count
    }
}

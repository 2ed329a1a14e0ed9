/// One glyph as HarfBuzz shaped it, in font units (size-independent).
struct ShapedGlyph {
    var id: UInt32
    /// UTF-16 offset of the first unit of the glyph's cluster, from the start of the run it
    /// was shaped in: a cached run serves any place in any text without being copied.
    var cluster: Int32
    /// Along the line; `xOffset` along it and `yOffset` across it (HarfBuzz's y, upward). A
    /// run shaped top to bottom keeps the same meaning: its line's axis is HarfBuzz's −y.
    var advance: Int32
    var xOffset: Int32
    var yOffset: Int32
    /// HarfBuzz's HB_GLYPH_FLAG_UNSAFE_TO_BREAK: cutting the text before this cluster
    /// may change the shaping, so a line that starts or ends here must be shaped again.
    var unsafeToBreak: Bool
}

/// Shaped glyphs in storage of their own, never changed once filled.
///
/// The pieces of a line point into it (`UnsafeBufferPointer`) while a layout runs, so copying a
/// piece counts no reference: a caption's positioning copied pieces some forty times, with a
/// retain and a release each. Whoever makes pieces keeps the storage alive for as long as they
/// are used (`ShapedParagraph` holds its runs and every run it shaped again; see its lifetime rule).
// @unchecked Sendable: immutable after init (its storage is written in init and only read after).
final class ShapedGlyphs: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<ShapedGlyph>

    var pointer: UnsafeBufferPointer<ShapedGlyph> { UnsafeBufferPointer(buffer) }

    /// Storage for `count` glyphs that `fill` initializes, all of them.
    init(count: Int, fill: (UnsafeMutableBufferPointer<ShapedGlyph>) -> Void) {
        buffer = .allocate(capacity: count)
        fill(buffer)
    }

    convenience init(_ glyphs: some Collection<ShapedGlyph>) {
        self.init(count: glyphs.count) { _ = $0.initialize(from: glyphs) }
    }

    deinit {
        buffer.deallocate()  // ShapedGlyph is trivial: nothing to deinitialize
    }
}

/// The glyphs of one item, in visual order (HarfBuzz reverses right-to-left runs).
struct ShapedRun {
    var range: Range<Int>
    /// Clusters count from `range.lowerBound`.
    var glyphs: ShapedGlyphs
}

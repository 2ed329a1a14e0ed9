/// How a face turns text into glyphs and answers for its characters and its glyphs' ink: the
/// seam between the pipeline and the shaping library, as Skia puts `SkShaper` behind an
/// interface. Loaded faces answer with HarfBuzz's own OpenType functions (`HarfBuzzShaping`);
/// the stage tests give faces whose glyphs all have known advances, as minikin tests its breaker
/// with rectangles, so that a stage is tested without real fonts.
///
/// Every method may be called from any thread at once.
package protocol FaceShaping: AnyObject, Sendable {
    /// The glyphs of `range` of `units`, with the text of `context` around it seen as context
    /// (Arabic joining looks across a run's edges), in visual order: left to right, or top to
    /// bottom for `upright` text. Clusters count from `range`'s start; advances and offsets are
    /// font units on the line's axis (see `ShapedGlyph`). `buffer` is the calling layout's
    /// scratch, used by one thread at a time.
    func shape(_ units: Span<UInt16>, range: Range<Int>, context: Range<Int>, rtl: Bool, upright: Bool,
               script: Script, style: ShapingStyle, buffer: ShapingScratch) -> ShapedGlyphs

    /// Shapes `pieces` of `units` (in text order, apart, never right to left) in one call where
    /// that is exact, and hands each piece it vouches for to `store(index, run)`; the caller
    /// shapes the others alone (see `Shaper+Joined.swift`).
    func shapeJoined(_ units: Span<UInt16>, pieces: Span<Range<Int>>, context: Range<Int>,
                     upright: Bool, script: Script, style: ShapingStyle, buffer: ShapingScratch,
                     store: (Int, ShapedRun) -> Void)

    /// The glyph the face's character map gives `scalar`, or nil when the face lacks it.
    func nominalGlyph(_ scalar: UInt32) -> UInt32?

    /// The glyph's ink box in font units, y up from the baseline: x bearing, y bearing (top),
    /// width, height (negative, downward); zero for a glyph without ink.
    func inkExtents(_ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32)

    /// Hands the glyph's outline to `sink`, contour by contour (nothing for a glyph without one:
    /// a space, a bitmap).
    func drawOutline(of glyph: UInt32, into sink: any OutlineSink)

    /// The face at `coordinates` (one per axis of a variable face, clamped already; empty for a
    /// static one) and `pointSize` (0 for none): its shaping and metrics there, and whether it
    /// draws colour glyphs. nil for a face that has no instances (its axes come from the face).
    func instance(coordinates: [Float], pointSize: Float) -> FaceInstance?

    /// The ideographic em box's top and bottom edges in font units, up from the baseline, where
    /// the font's `BASE` table places it for Han; nil where it does not.
    var ideographicEmBox: (top: Int32, bottom: Int32)? { get }

    /// The library that shapes the face, which makes each style's form of it once
    /// (`ShapingStyle.prepared`); nil for a face whose shaping needs none.
    var library: (any ShapingLibrary)? { get }
}

/// A face at other axis values or another point size (`FaceShaping.instance`).
package struct FaceInstance {
    package var shaping: any FaceShaping
    package var metrics: FaceMetrics
    package var isColorEmoji: Bool

    package init(shaping: any FaceShaping, metrics: FaceMetrics, isColorEmoji: Bool) {
        (self.shaping, self.metrics, self.isColorEmoji) = (shaping, metrics, isColorEmoji)
    }
}

extension FaceShaping {
    /// No outline: nothing drawn.
    package func drawOutline(of glyph: UInt32, into sink: any OutlineSink) {}

    /// Joins nothing: every piece is shaped alone, which is always exact.
    package func shapeJoined(_ units: Span<UInt16>, pieces: Span<Range<Int>>, context: Range<Int>,
                             upright: Bool, script: Script, style: ShapingStyle, buffer: ShapingScratch,
                             store: (Int, ShapedRun) -> Void) {}

    /// No instances: the face is its own only one.
    package func instance(coordinates: [Float], pointSize: Float) -> FaceInstance? { nil }

    /// No `BASE` em box.
    package var ideographicEmBox: (top: Int32, bottom: Int32)? { nil }

    /// No library.
    package var library: (any ShapingLibrary)? { nil }
}

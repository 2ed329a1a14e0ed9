import LayoutEngine

/// A loaded face's shaping: HarfBuzz's own OpenType functions on an immutable HarfBuzz font at
/// units-per-em, which HarfBuzz documents safe to shape with from any thread: the engine's
/// `FaceShaping` for a loaded face, turning HarfBuzz's glyphs into the pipeline's.
// @unchecked Sendable: the one stored pointer is a HarfBuzz font made immutable before it is kept.
package final class HarfBuzzShaping: FaceShaping, @unchecked Sendable {
    /// The HarfBuzz font; destroyed with this value (`Font.hbFont` is the same pointer, valid
    /// while its font lives).
    let font: OpaquePointer
    /// What `FaceFonts.make` made the font at: a twin for settings past those HarfBuzz keeps
    /// (`withShapingFont`) is made alike.
    let coordinates: [Float]
    let pointSize: Float

    /// Takes `font`'s reference, made immutable here; `coordinates` and `pointSize` are those
    /// `FaceFonts.make` made it at.
    init(_ font: OpaquePointer, coordinates: [Float], pointSize: Float) {
        FaceFonts.makeImmutable(font)
        self.font = font
        self.coordinates = coordinates
        self.pointSize = pointSize
    }

    deinit { FaceFonts.destroy(font) }

    package func shape(_ units: Span<UInt16>, range: Range<Int>, context: Range<Int>, rtl: Bool, upright: Bool,
                       script: Script, style: ShapingStyle, buffer scratch: ShapingScratch) -> ShapedGlyphs {
        var shaped: ShapedGlyphs?
        let harfBuzzStyle = HarfBuzzStyle.of(style)
        precondition(context.upperBound <= units.count)
        units.withUnsafeBufferPointer { units in
            withUnsafePointer(to: range) { range in
                withShapingFont(for: harfBuzzStyle) { font in
                    ShapingBuffer.of(scratch).shape(units, pieces: UnsafeBufferPointer(start: range, count: 1), context: context, font: font,
                                                    direction: upright ? .topToBottom : rtl ? .rightToLeft : .leftToRight, script: script.tag,
                                                    language: harfBuzzStyle.language, features: harfBuzzStyle.features) { glyphs in
                        // HarfBuzz counts clusters from the context's start; runs count from their own.
                        shaped = Self.glyphs(glyphs, 0..<glyphs.count, clusterOffset: Int32(context.lowerBound - range.pointee.lowerBound),
                                             upright: upright)
                    }
                }
            }
        }
        return shaped!
    }

    /// `body` given the font to shape `style` with: this one, or, for a setting past those
    /// HarfBuzz keeps plans for (`ShapingSettings`), a twin on a face of its own, destroyed with
    /// the plan HarfBuzz made on it when `body` returns.
    @inline(__always)
    func withShapingFont(for style: HarfBuzzStyle, _ body: (OpaquePointer) -> Void) {
        if style.keepsPlans { return body(font) }
        ShapingSettings.shared.twinShapes.wrappingAdd(1, ordering: .relaxed)
        let twin = FaceFonts.twin(of: font, coordinates: coordinates, pointSize: pointSize)
        defer { FaceFonts.destroy(twin) }
        body(twin)
    }

    @inline(__always)
    package func nominalGlyph(_ scalar: UInt32) -> UInt32? { FaceFonts.nominalGlyph(font, scalar) }

    package func inkExtents(_ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32) { FaceFonts.inkExtents(font, glyph) }

    package func drawOutline(of glyph: UInt32, into sink: any OutlineSink) { FaceFonts.drawOutline(font, of: glyph, into: sink) }

    /// The face at other axis values or another point size: a HarfBuzz font of the same face
    /// (whose blob it references), made immutable.
    package func instance(coordinates: [Float], pointSize: Float) -> FaceInstance? {
        let face = FaceFonts.face(of: font)
        let (made, metrics) = FaceFonts.make(face, coordinates: coordinates, pointSize: pointSize)
        return FaceInstance(shaping: HarfBuzzShaping(made, coordinates: coordinates, pointSize: pointSize), metrics: metrics, isColorEmoji: FontFaces.hasColorGlyphs(face))
    }

    package var ideographicEmBox: (top: Int32, bottom: Int32)? { FaceFonts.ideographicEmBox(font) }

    package var library: (any ShapingLibrary)? { HarfBuzzLibrary() }

    /// HarfBuzz's glyphs `span` of its buffer as a run's, clusters moved by `clusterOffset`.
    @inline(__always)
    static func glyphs(_ glyphs: BufferGlyphs, _ span: Range<Int>, clusterOffset offset: Int32, upright: Bool) -> ShapedGlyphs {
        ShapedGlyphs.make(count: span.count) { out in
            convert(glyphs, span, clusterOffset: offset, upright: upright, into: out.baseAddress!)
        }
    }

    /// Initializes `span.count` glyphs at `out` from HarfBuzz's glyphs `span`, clusters moved by
    /// `clusterOffset`.
    @inline(__always)
    static func convert(_ glyphs: BufferGlyphs, _ span: Range<Int>, clusterOffset offset: Int32, upright: Bool,
                        into out: UnsafeMutablePointer<ShapedGlyph>) {
        let kept = GlyphMask.keptFlags
        let first = span.lowerBound
        // Two loops, the direction tested once, not per glyph.
        // Clusters add and advances negate with wrapping: both clusters are offsets into a text far
        // shorter than Int32's range, and HarfBuzz's advances are font units, far from its ends
        // (checked, each cost a test and a branch a glyph).
        if upright {
            for i in 0..<span.count {
                let k = first + i
                // Top to bottom, HarfBuzz's y grows upward: the line's axis is −y, the cross axis x
                // (its offsets lead from the pen to the glyph's horizontal origin).
                (out + i).initialize(to: ShapedGlyph(
                    id: glyphs.id(k), cluster: Int32(bitPattern: glyphs.cluster(k)) &+ offset,
                    advance: 0 &- glyphs.yAdvance(k), xOffset: 0 &- glyphs.yOffset(k), yOffset: glyphs.xOffset(k),
                    flags: GlyphFlags(rawValue: UInt8(truncatingIfNeeded: glyphs.mask(k) & kept))))
            }
        } else {
            for i in 0..<span.count {
                let k = first + i
                (out + i).initialize(to: ShapedGlyph(
                    id: glyphs.id(k), cluster: Int32(bitPattern: glyphs.cluster(k)) &+ offset,
                    advance: glyphs.xAdvance(k), xOffset: glyphs.xOffset(k), yOffset: glyphs.yOffset(k),
                    flags: GlyphFlags(rawValue: UInt8(truncatingIfNeeded: glyphs.mask(k) & kept))))
            }
        }
    }
}

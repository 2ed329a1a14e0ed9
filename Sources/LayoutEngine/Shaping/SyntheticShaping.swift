/// The shaping of a synthesised bold or oblique (`FontSynthesis`): the face's own, with each
/// advance grown by the emboldening and each outline grown and slanted as FreeType's transforms
/// would (`SyntheticOutline`). Ink boxes are the transformed outline's bounds.
final class SyntheticShaping: FaceShaping, Sendable {
    let face: any FaceShaping
    let synthesis: FontSynthesis
    /// The emboldening in font units (an em / 24), 0 without bold.
    let strength: Float
    /// What an advance grows by: the emboldening, to the font unit.
    let advanceGrowth: Int32

    init(_ face: any FaceShaping, synthesis: FontSynthesis, unitsPerEm: Int32) {
        self.face = face
        self.synthesis = synthesis
        strength = synthesis.contains(.weight) ? Float(Double(unitsPerEm) * FontSynthesis.emboldening) : 0
        advanceGrowth = Int32(saturating: strength.rounded())
    }

    func shape(_ units: Span<UInt16>, range: Range<Int>, context: Range<Int>, rtl: Bool, upright: Bool,
               script: Script, style: ShapingStyle, buffer: ShapingScratch) -> ShapedGlyphs {
        let shaped = face.shape(units, range: range, context: context, rtl: rtl, upright: upright, script: script, style: style,
                                buffer: buffer)
        guard advanceGrowth != 0 else { return shaped }
        // FT_GlyphSlot_Embolden grows the advance of every glyph that has one, on either axis.
        let growth = advanceGrowth
        // The slice reads `shaped` without holding it: kept alive until the copy is made.
        return withExtendedLifetime(shaped) {
            ShapedGlyphs.make(shaped.slice.lazy.map { glyph in
                var grown = glyph
                if grown.advance != 0 { grown.advance &+= growth }
                return grown
            })
        }
    }

    func nominalGlyph(_ scalar: UInt32) -> UInt32? { face.nominalGlyph(scalar) }

    func inkExtents(_ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        let bounds = OutlineBounds()
        drawOutline(of: glyph, into: bounds)
        guard let box = bounds.box else { return (0, 0, 0, 0) }
        let left = box.minX.rounded(.down), right = box.maxX.rounded(.up)
        let top = box.maxY.rounded(.up), bottom = box.minY.rounded(.down)
        return (Int32(saturating: left), Int32(saturating: top), Int32(saturating: right - left), Int32(saturating: bottom - top))
    }

    func drawOutline(of glyph: UInt32, into sink: any OutlineSink) {
        let outline = SyntheticOutline()
        face.drawOutline(of: glyph, into: outline)
        outline.replay(emboldenedBy: strength, shear: synthesis.contains(.style) ? Float(FontSynthesis.obliqueShear) : 0,
                       into: sink)
    }
}

/// The bounds of every point an outline names, control points included (a control box, as the
/// font's own glyph boxes are).
final class OutlineBounds: OutlineSink {
    private(set) var box: (minX: Float, minY: Float, maxX: Float, maxY: Float)?

    private func add(_ x: Float, _ y: Float) {
        guard let old = box else { box = (x, y, x, y); return }
        box = (min(old.minX, x), min(old.minY, y), max(old.maxX, x), max(old.maxY, y))
    }

    func move(to x: Float, _ y: Float) { add(x, y) }
    func line(to x: Float, _ y: Float) { add(x, y) }
    func quad(_ cx: Float, _ cy: Float, to x: Float, _ y: Float) { add(cx, cy); add(x, y) }
    func cubic(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, to x: Float, _ y: Float) {
        add(c1x, c1y); add(c2x, c2y); add(x, y)
    }
    func close() {}
}

extension ParagraphPositioner {
    /// Places a combined run (tate-chu-yoko) of vertical text: its glyphs side by side across
    /// the column, centred on its centre line, in an em of the line's length with the font's
    /// ascender-to-descender box centred in it. Written in the line's frame so that turning
    /// the layout onto the page (`VerticalFrame`) leaves them upright and across: rightward on
    /// the page is up the frame's y, as right-to-left columns turn it (left-to-right lines are
    /// mirrored whole afterwards, `RunOutput.mirrorAcross`). Returns the pen past the em.
    ///
    /// Wider than the em (three or four digits, or two of a font's proportional ones), the run is
    /// drawn smaller until it fits, as CSS Writing Modes asks combined text to be compressed to one
    /// em: a glyph run has one size, so it is scaled whole (its `size` the drawn one).
    func placeCombined(_ piece: LinePiece, pen: Double, baselineY: Double, line: Int, into output: inout RunOutput) -> Double {
        var scale = piece.font.scale(for: piece.size)
        var width = 0.0
        for glyph in piece.glyphs { width += Double(glyph.advance) * scale }
        let fit = width > piece.size ? piece.size / width : 1
        (scale, width) = (scale * fit, width * fit)
        let along = pen + piece.size / 2 + Double(piece.font.ascender - piece.font.descender) / 2 * scale
        let first = output.count
        let base = piece.clusterBase + start
        var x = -width / 2
        for (k, glyph) in piece.glyphs.enumerated() {
            output.initialize(at: first + k, to: PositionedGlyph(
                id: glyph.id, position: Point(x: along - Double(glyph.yOffset) * scale, y: baselineY - (x + Double(glyph.xOffset) * scale)),
                advance: Double(glyph.advance) * scale, cluster: Int(glyph.cluster) + base,
                flags: settings.reportsGlyphFlags ? glyph.flags : []))
            x += Double(glyph.advance) * scale
        }
        output.count += piece.glyphs.count
        let paint = text.paints.count == 1 ? 0 : text.paintRun(at: piece.range.lowerBound).paint
        output.add(font: FontHandle(piece.font), size: piece.size * fit, level: piece.level, range: shifted(piece.range), isToken: piece.isToken, isHyphen: piece.isHyphen,
                   line: line, glyphs: first..<output.count, paint: paint, orientation: .combined)
        return pen + piece.size
    }
}

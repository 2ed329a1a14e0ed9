import CHarfBuzz
import LayoutEngine

/// A face at one set of axis values and one point size, as HarfBuzz shapes and measures it
/// (`hb_font_t`, with HarfBuzz's own OpenType functions, at units-per-em). Made immutable
/// before it is shared, after which HarfBuzz documents it safe to use from any thread.
package enum FaceFonts {
    /// A font of `face` (which it references) at `coordinates` (design values, one per axis;
    /// empty for the face's defaults) and `pointSize` (0: no `trak` tracking), with its
    /// metrics. Not yet immutable: `makeImmutable` before sharing it.
    package static func make(_ face: OpaquePointer, coordinates: [Float], pointSize: Float) -> (font: OpaquePointer, metrics: FaceMetrics) {
        let font = font(of: face, coordinates: coordinates, pointSize: pointSize)
        let upem = Int32(hb_face_get_upem(face))
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        func metric(_ tag: hb_ot_metrics_tag_t) -> Int32 {
            var value: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(font, tag, &value)
            return value
        }
        let metrics = FaceMetrics(unitsPerEm: upem, ascender: extents.ascender, descender: -extents.descender, lineGap: extents.line_gap,
                              underline: (metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET), max(metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE), 1)),
                              strikeout: (metric(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET), max(metric(HB_OT_METRICS_TAG_STRIKEOUT_SIZE), 1)),
                              capHeight: metric(HB_OT_METRICS_TAG_CAP_HEIGHT), xHeight: metric(HB_OT_METRICS_TAG_X_HEIGHT))
        return (font, metrics)
    }

    /// The font `make` makes, without its metrics.
    private static func font(of face: OpaquePointer, coordinates: [Float], pointSize: Float) -> OpaquePointer {
        let font = hb_font_create(face)!
        hb_ot_font_set_funcs(font)
        let upem = Int32(hb_face_get_upem(face))
        hb_font_set_scale(font, upem, upem)
        if pointSize > 0 { hb_font_set_ptem(font, pointSize) }
        if !coordinates.isEmpty {
            // Before any metric is read: `MVAR` moves the line metrics with the axes.
            coordinates.withUnsafeBufferPointer { hb_font_set_var_coords_design(font, $0.baseAddress, UInt32($0.count)) }
        }
        return font
    }

    /// A font as `make` made `font` (at `coordinates` and `pointSize`), on a face of its own over
    /// the same bytes: the plan HarfBuzz makes to shape with it stays on that face, and goes
    /// when the caller destroys the font (`ShapingSettings`).
    package static func twin(of font: OpaquePointer, coordinates: [Float], pointSize: Float) -> OpaquePointer {
        let face = hb_font_get_face(font)!
        let blob = hb_face_reference_blob(face)!
        let own = hb_face_create(blob, hb_face_get_index(face))!
        hb_blob_destroy(blob)
        defer { hb_face_destroy(own) }  // the twin holds its own reference
        return Self.font(of: own, coordinates: coordinates, pointSize: pointSize)
    }

    package static func makeImmutable(_ font: OpaquePointer) { hb_font_make_immutable(font) }

    package static func destroy(_ font: OpaquePointer) { hb_font_destroy(font) }

    /// The face `font` was made of, valid while the font lives.
    package static func face(of font: OpaquePointer) -> OpaquePointer { hb_font_get_face(font)! }

    /// The glyph the face's cmap gives `scalar`, or nil.
    package static func nominalGlyph(_ font: OpaquePointer, _ scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar, &glyph) != 0 ? glyph : nil
    }

    /// The glyph's ink box in font units, y up: x bearing, y bearing (top), width, height
    /// (negative); zero for a glyph without ink.
    package static func inkExtents(_ font: OpaquePointer, _ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &extents) != 0 else { return (0, 0, 0, 0) }
        return (extents.x_bearing, extents.y_bearing, extents.width, extents.height)
    }

    /// Hands the glyph's outline to `sink`, contour by contour.
    package static func drawOutline(_ font: OpaquePointer, of glyph: UInt32, into sink: any OutlineSink) {
        var sink = sink
        // The sink's existential on the stack is the callbacks' data: nothing allocated a glyph.
        // SAFETY: HarfBuzz calls the draw functions only inside `hb_font_get_glyph_shape`, while
        // the pointer to the sink is valid; they read it as the type written here.
        withUnsafeMutablePointer(to: &sink) { hb_font_get_glyph_shape(font, glyph, drawFunctions, $0) }
    }

    /// HarfBuzz draw functions feeding the `OutlineSink` their data points to; made once,
    /// immutable, shared by threads.
    nonisolated(unsafe) private static let drawFunctions: OpaquePointer = {
        let funcs = hb_draw_funcs_create()!
        func sink(_ data: UnsafeMutableRawPointer?) -> any OutlineSink { data!.assumingMemoryBound(to: (any OutlineSink).self).pointee }
        hb_draw_funcs_set_move_to_func(funcs, { _, data, _, x, y, _ in sink(data).move(to: x, y) }, nil, nil)
        hb_draw_funcs_set_line_to_func(funcs, { _, data, _, x, y, _ in sink(data).line(to: x, y) }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(funcs, { _, data, _, cx, cy, x, y, _ in sink(data).quad(cx, cy, to: x, y) }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(funcs, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            sink(data).cubic(c1x, c1y, c2x, c2y, to: x, y)
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(funcs, { _, data, _, _ in sink(data).close() }, nil, nil)
        hb_draw_funcs_make_immutable(funcs)
        return funcs
    }()

    /// The ideographic em box's top and bottom in font units, up from the baseline, where the
    /// font's `BASE` table places it for Han (`ideo`, and `idtp` or one em above); nil where the
    /// table does not.
    package static func ideographicEmBox(_ font: OpaquePointer) -> (top: Int32, bottom: Int32)? {
        let han: hb_tag_t = 0x6861_6E69  // OpenType's script tag 'hani' (ISO 15924's is 'Hani')
        var top: hb_position_t = 0, bottom: hb_position_t = 0
        guard hb_ot_layout_get_baseline(font, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_BOTTOM_OR_LEFT, HB_DIRECTION_LTR, han, 0, &bottom) != 0
        else { return nil }
        hb_ot_layout_get_baseline_with_fallback(font, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_TOP_OR_RIGHT, HB_DIRECTION_LTR, han, 0, &top)
        return top > bottom ? (top, bottom) : nil
    }
}

import CHarfBuzz

/// One face of a font file as HarfBuzz reads it (`hb_face_t`): what loading a font asks of its
/// tables. The face lives only while a font is loaded; the fonts themselves are `FaceFonts`.
package enum FontFaces {
    /// Face `index` of `blob`, which the face references; nil when HarfBuzz cannot open it.
    package static func open(_ blob: OpaquePointer, index: Int) -> OpaquePointer? { hb_face_create(blob, UInt32(index)) }

    package static func close(_ face: OpaquePointer) { hb_face_destroy(face) }

    package static func unitsPerEm(_ face: OpaquePointer) -> Int32 { Int32(hb_face_get_upem(face)) }

    /// True for a face with colour glyphs: PNG bitmaps (`CBDT`, `sbix`) or layers (`COLR`).
    package static func hasColorGlyphs(_ face: OpaquePointer) -> Bool {
        hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0
    }

    /// True for a face with an AAT `trak` table (tracking by point size).
    package static func hasTracking(_ face: OpaquePointer) -> Bool { hb_aat_layout_has_tracking(face) != 0 }

    /// The table tagged `tag`, as a blob to destroy after use (empty when the face has none).
    package static func table(_ face: OpaquePointer, _ tag: UInt32) -> OpaquePointer { hb_face_reference_table(face, tag)! }

    /// Sets the bit of every BMP code point the face's cmap lists in `bits` (one bit per code
    /// point, 1,024 words), and returns how many code points it lists in all.
    package static func collectCoverage(_ face: OpaquePointer, into bits: UnsafeMutablePointer<UInt64>) -> Int {
        let set = hb_set_create()
        defer { hb_set_destroy(set) }
        hb_face_collect_unicodes(face, set)
        var codepoint = hb_codepoint_t.max  // HB_SET_VALUE_INVALID: start before the first
        while hb_set_next(set, &codepoint) != 0 && codepoint < 0x10000 {
            bits[Int(codepoint) >> 6] |= 1 << UInt64(codepoint & 63)
        }
        return Int(hb_set_get_population(set))
    }

    /// An axis of a variable face's `fvar` table.
    package struct Axis {
        package var tag: UInt32
        package var minimum: Float
        package var defaultValue: Float
        package var maximum: Float
    }

    /// A named instance of a variable face: its subfamily name's id and its coordinates.
    package struct Instance {
        package var nameID: UInt32
        package var coordinates: [Float]
    }

    /// The axes and named instances of a variable face (none for a static one).
    package static func variations(_ face: OpaquePointer) -> (axes: [Axis], instances: [Instance]) {
        guard hb_ot_var_has_data(face) != 0 else { return ([], []) }
        var count = hb_ot_var_get_axis_count(face)
        var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        hb_ot_var_get_axis_infos(face, 0, &count, &infos)
        let axes = infos.prefix(Int(count)).map {
            Axis(tag: $0.tag, minimum: $0.min_value, defaultValue: $0.default_value, maximum: $0.max_value)
        }
        var instances: [Instance] = []
        for index in 0..<hb_ot_var_get_named_instance_count(face) {
            var coordinateCount = UInt32(axes.count)
            var coordinates = [Float](repeating: 0, count: axes.count)
            hb_ot_var_named_instance_get_design_coords(face, index, &coordinateCount, &coordinates)
            instances.append(Instance(nameID: hb_ot_var_named_instance_get_subfamily_name_id(face, index),
                                      coordinates: coordinates))
        }
        return (axes, instances)
    }

    /// A `name` table string in any language HarfBuzz picks first (English where there is one).
    package static func name(_ face: OpaquePointer, _ nameID: UInt32) -> String? {
        var length: UInt32 = 128
        var buffer = [CChar](repeating: 0, count: Int(length))
        let total = hb_ot_name_get_utf8(face, nameID, hb_language_from_string("en", -1), &length, &buffer)
        guard total > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The face's weight (1...1000), italic, and width (percent of normal) as HarfBuzz reads them
    /// from `OS/2` and the axes (`hb_style_get_value`).
    package static func style(_ face: OpaquePointer) -> (weight: Float, italic: Bool, width: Float) {
        let font = hb_font_create(face)!
        defer { hb_font_destroy(font) }
        return (hb_style_get_value(font, HB_STYLE_TAG_WEIGHT), hb_style_get_value(font, HB_STYLE_TAG_ITALIC) >= 0.5,
                hb_style_get_value(font, HB_STYLE_TAG_WIDTH))
    }
}

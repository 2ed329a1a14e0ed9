import CHarfBuzz

extension Font {
    /// The ideographic em box's top and bottom edges in font units, up from the baseline (the
    /// bottom is negative), where the font's `BASE` table places it for Han: its `ideo` baseline,
    /// and its `idtp` or, as OpenType defines the em box, one em above `ideo` (HarfBuzz's
    /// fallback). nil for a font whose table does not (most non-CJK fonts have none). Noto Sans
    /// CJK's: 880 and −120 of 1,000.
    var ideographicEmBox: (top: Int32, bottom: Int32)? {
        guard let font = hbFont else { return nil }
        let han: hb_tag_t = 0x6861_6E69  // OpenType's script tag 'hani' (ISO 15924's is 'Hani')
        var top: hb_position_t = 0, bottom: hb_position_t = 0
        guard hb_ot_layout_get_baseline(font, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_BOTTOM_OR_LEFT, HB_DIRECTION_LTR, han, 0, &bottom) != 0
        else { return nil }
        hb_ot_layout_get_baseline_with_fallback(font, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_TOP_OR_RIGHT, HB_DIRECTION_LTR, han, 0, &top)
        return top > bottom ? (top, bottom) : nil
    }

    /// The character frame ruby sits against, in font units above and below the baseline: the
    /// ideographic em box where the font gives one (JLReq's character frame), else its ascent
    /// and descent (CSS's content box).
    var characterFrame: (ascent: Int32, descent: Int32) {
        if let box = ideographicEmBox { return (box.top, -box.bottom) }
        return (ascender, descender)
    }
}

extension Font {
    /// The character frame ruby sits against, in font units above and below the baseline: the
    /// ideographic em box where the font gives one (JLReq's character frame), else its ascent
    /// and descent (CSS's content box).
    var characterFrame: (ascent: Int32, descent: Int32) {
        if let box = ideographicEmBox { return (box.top, -box.bottom) }
        return (ascender, descender)
    }
}

/// Which way lines run and stack, as CSS `writing-mode` names them.
public enum WritingMode: Sendable, Equatable {
    /// Lines left to right (or right to left), stacked top to bottom.
    case horizontal
    /// Lines top to bottom, columns from right to left: Chinese and Japanese books.
    case verticalRightToLeft
    /// Lines top to bottom, columns from left to right: Mongolian.
    case verticalLeftToRight

    public var isVertical: Bool { self != .horizontal }
}

/// How a run's glyphs stand in its line.
public enum GlyphOrientation: Sendable, Equatable {
    /// Horizontal text: glyphs as shaped.
    case horizontal
    /// Vertical text, upright: shaped top to bottom (vertical alternates, vertical advances);
    /// each glyph drawn unrotated at its position.
    case upright
    /// Vertical text, on its side: shaped left to right and drawn turned 90° clockwise about
    /// each glyph's position.
    case sideways
    /// Vertical text, tate-chu-yoko: a few digits or letters set across the line in one em,
    /// drawn unrotated (CSS `text-combine-upright`).
    case combined
}

/// What vertical shaping needs to know: which runs of digits and letters combine.
struct VerticalSetting: Equatable {
    /// Runs of at most this many ASCII digits (or ASCII letters, when `combinesLetters`) set
    /// upright across the line in one em; 0 combines nothing.
    var combineUpTo: Int
    var combinesLetters: Bool
}

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

/// How characters stand in vertical text, as CSS `text-orientation` names it.
public enum TextOrientation: Sendable, Equatable {
    /// Each character as UAX #50's Vertical_Orientation says: ideographs and kana upright, Latin,
    /// digits and Arabic on their side (the default).
    case mixed
    /// Every character upright, shaped top to bottom, Latin and Arabic too; and, as CSS says,
    /// every character taken as strong left-to-right by the bidi algorithm.
    case upright
    /// Every character on its side, as horizontal text turned 90° clockwise, ideographs too.
    case sideways

    /// The orientation every cluster takes; nil for `mixed`, where each cluster has its own.
    var fixed: GlyphOrientation? {
        switch self {
        case .mixed: nil
        case .upright: .upright
        case .sideways: .sideways
        }
    }
}

/// What vertical shaping needs to know: how characters stand, and which runs of digits and
/// letters combine.
struct VerticalSetting: Equatable {
    /// Runs of at most this many ASCII digits (or ASCII letters, when `combinesLetters`) set
    /// upright across the line in one em; 0 combines nothing.
    var combineUpTo: Int
    var combinesLetters: Bool
    var orientation: TextOrientation = .mixed
}

/// Emphasis marks (CSS `text-emphasis`, JIS X 4051's 圏点): a small mark beside each grapheme
/// cluster of the text, over or under it in horizontal text. Drawn at half the text's size,
/// centred on the cluster, just outside the font's ascent (or descent); the line grows to hold
/// them, as it does for ruby.
public struct EmphasisMarks: Hashable, Sendable {
    /// CSS's shapes, each filled or open.
    public enum Shape: String, Hashable, Sendable, CaseIterable {
        case dot, circle, doubleCircle = "double-circle", triangle, sesame
    }

    /// The mark: one character (a shape's, or the client's own).
    public var mark: Unicode.Scalar
    /// Over the text (true) or under it.
    public var over: Bool

    public init(_ shape: Shape, filled: Bool = true, over: Bool = true) {
        self.mark = Self.mark(shape, filled: filled)
        self.over = over
    }

    public init(mark: Unicode.Scalar, over: Bool = true) {
        self.mark = mark
        self.over = over
    }

    /// CSS's characters for each shape: • ◦, ● ○, ◉ ◎, ▲ △, ﹅ ﹆.
    public static func mark(_ shape: Shape, filled: Bool) -> Unicode.Scalar {
        switch (shape, filled) {
        case (.dot, true): "\u{2022}"
        case (.dot, false): "\u{25E6}"
        case (.circle, true): "\u{25CF}"
        case (.circle, false): "\u{25CB}"
        case (.doubleCircle, true): "\u{25C9}"
        case (.doubleCircle, false): "\u{25CE}"
        case (.triangle, true): "\u{25B2}"
        case (.triangle, false): "\u{25B3}"
        case (.sesame, true): "\u{FE45}"
        case (.sesame, false): "\u{FE46}"
        }
    }

    /// The marks' size against the text's (CSS: about half).
    public static let scale = 0.5

    /// Whether a cluster starting with `scalar` takes a mark: not separators (spaces, line and
    /// paragraph separators), controls and format characters, unassigned code points, or
    /// punctuation (CSS Text Decoration 3, "Emphasis Mark Skipping").
    static func marks(_ scalar: Unicode.Scalar) -> Bool {
        // Han, kana, Hangul syllables and ASCII letters and digits, nearly every marked
        // character, are letters without the property look-up (`EmphasisMarkTests` holds
        // the two answers equal over these ranges).
        let v = scalar.value
        if (0x4E00...0x9FFF).contains(v) || (0x3041...0x3096).contains(v) || (0x30A1...0x30FA).contains(v)
            || (0xAC00...0xD7A3).contains(v) || UnitClass.isASCIILetter(v) || (0x30...0x39).contains(v) {
            return true
        }
        return marksByCategory(scalar)
    }

    /// `marks(_:)` by the scalar's general category alone.
    static func marksByCategory(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse, .unassigned,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation:
            false
        default:
            true
        }
    }
}

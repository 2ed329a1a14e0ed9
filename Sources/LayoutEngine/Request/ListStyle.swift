/// What marks each item of a list.
public enum ListMarker: Sendable, Equatable {
    /// The same mark before every item: "•", "–", "◦", any short text.
    case bullet(String)
    /// 1. 2. 3.
    case decimal
    /// a. b. … z. aa. ab.
    case lowerAlpha
    /// A. B. … Z. AA.
    case upperAlpha
    /// i. ii. iii. iv.
    case lowerRoman
    /// I. II. III. IV.
    case upperRoman
}

/// A list, as TextKit's `NSTextList` sets one: every paragraph of the text is an item; its
/// marker hangs in the list's indent before the item's first line, and every line of the item
/// starts at the indent.
public struct ListStyle: Sendable, Equatable {
    public var marker: ListMarker
    /// The first item's number (ordered markers).
    public var start: Int
    /// From where the paragraph's own indents put a line to where the item's text starts, in
    /// points: the room the marker hangs in.
    public var indent: Double
    /// Items of the list before this text's first paragraph: a document lays each paragraph
    /// alone, and its item keeps its number in the whole list.
    var itemsBefore = 0

    /// True when an item's marker depends on its place in the list (every marker but a bullet).
    var isNumbered: Bool {
        if case .bullet = marker { return false }
        return true
    }

    public init(marker: ListMarker = .bullet("\u{2022}"), start: Int = 1, indent: Double = 24) {
        self.marker = marker
        self.start = start
        self.indent = indent
    }

    /// The marker's text for the item at `index` (0 for the first): the bullet, or the item's
    /// number in the marker's numbering followed by a full stop.
    public func label(forItem index: Int) -> String {
        let number = start + index
        switch marker {
        case .bullet(let text): return text
        case .decimal: return "\(number)."
        case .lowerAlpha: return Self.alphabetic(number) + "."
        case .upperAlpha: return Self.alphabetic(number).uppercased() + "."
        case .lowerRoman: return (Self.roman(number) ?? "\(number)") + "."
        case .upperRoman: return (Self.roman(number)?.uppercased() ?? "\(number)") + "."
        }
    }

    /// Bijective base 26, as CSS `lower-alpha` counts: a … z, aa, ab …; numbers below 1 as digits.
    static func alphabetic(_ number: Int) -> String {
        guard number > 0 else { return "\(number)" }
        var n = number
        var letters: [Character] = []
        while n > 0 {
            n -= 1
            letters.append(Character(Unicode.Scalar(UInt8(97 + n % 26))))
            n /= 26
        }
        return String(letters.reversed())
    }

    /// Lowercase roman numerals for 1…3,999; nil outside (then digits, as CSS falls back).
    static func roman(_ number: Int) -> String? {
        guard (1...3_999).contains(number) else { return nil }
        let values = [(1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
                      (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
        var n = number
        var out = ""
        for (value, letters) in values {
            while n >= value {
                out += letters
                n -= value
            }
        }
        return out
    }
}

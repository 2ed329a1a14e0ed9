/// The note editor's rules from the TextKit tutorial (raywenderlich.com, "TextKit Tutorial",
/// `SyntaxHighlightTextStorage`): `*bold*`, `_italic_`, `-strike-`, `~script~`, `1.` list numbers
/// in bold and words in capitals in red; done better than the original:
///
/// - A style covers exactly what its markers enclose. The original restyled from the match to
///   the end of the edited range and reset one character after it, so styles leaked.
/// - Markers open only where no letter or digit comes before them and close only where none
///   comes after (`snake_case_name`, `2*3*4` and `well-known-word` stay plain), and the enclosed
///   text starts and ends with a non-space; markers nest (`*bold _both_ bold*`) and may touch
///   (`*one**two*`).
/// - Capitals need word boundaries (Unicode's, with PCRE2's UCP), not a space on both sides: a
///   word at the start or end of the text or beside punctuation counts, and any script's
///   capitals do.
/// - The markers can be hidden: kept in the text, so offsets stay the client's, with no width
///   and no ink.
public enum BuiltinRules {
    /// The TextKit tutorial's colour for capitals.
    public static let capitalsColor = Color(red: 1, green: 0, blue: 0)
    /// The script face the tutorial used (Zapfino) is Apple's; URW's Z003 is a Zapf Chancery design in Debian.
    public static let scriptFamily = "Z003"

    /// A marker rule's pattern: `marker` (one character) around text that starts and ends with
    /// a non-space and holds no marker or line break.
    static func enclosed(by marker: String) -> String {
        let m = "\\" + marker
        return "(?<![\\p{L}\\p{N}])\(m)(?=[^\(m)\\s])([^\(m)\\n]*?[^\(m)\\s])\(m)(?![\\p{L}\\p{N}])"
    }

    /// The rules, in the order they apply; `scriptFamily` is the script face's family (Z003 where
    /// it is loaded).
    public static func notes(hidesMarkers: Bool, scriptFamily: String = BuiltinRules.scriptFamily) -> [FormattingRule] {
        [FormattingRule(name: "bold", pattern: enclosed(by: "*"), group: 1, patch: StylePatch(weight: 700), hidesMarkers: hidesMarkers),
         FormattingRule(name: "italic", pattern: enclosed(by: "_"), group: 1, patch: StylePatch(italic: true), hidesMarkers: hidesMarkers),
         FormattingRule(name: "strikethrough", pattern: enclosed(by: "-"), group: 1,
                        patch: StylePatch(strikethrough: .set(DecorationLine())), hidesMarkers: hidesMarkers),
         FormattingRule(name: "script", pattern: enclosed(by: "~"), group: 1, patch: StylePatch(family: scriptFamily),
                        hidesMarkers: hidesMarkers),
         FormattingRule(name: "list-number", pattern: "(?m)^[ \\t]*([0-9]+\\.)(?=[ \\t])", group: 1, patch: StylePatch(weight: 700)),
         FormattingRule(name: "capitals", pattern: "\\b\\p{Lu}{2,}\\b", group: 0, patch: StylePatch(color: capitalsColor))]
    }
}

/// How strictly lines break around punctuation and small kana: CSS `line-break`.
public enum LineBreakStrictness: UInt8, Hashable, Sendable, CaseIterable {
    /// UAX #14's default rules, which read small kana and the prolonged sound mark (class CJ) as
    /// non-starters: what ICU does with no keyword, and the same as `strict` here.
    case auto
    /// `normal` and, in Chinese and Japanese, breaks before iteration marks, between
    /// inseparable characters (……), before centred punctuation (・：；！？‼), before wide
    /// suffixes (％ ℃ ‰) and after wide prefixes (￥ ＄ €), as ICU's `lb=loose` reads CSS.
    case loose
    /// Small kana and ー may start a line (CJ as ideographs), and in Chinese and Japanese a
    /// line may break before the hyphens ‐ – 〜 ゠, as ICU's `lb=normal` reads CSS.
    case normal
    /// Small kana and ー never start a line (UAX #14's default).
    case strict
    /// A break is allowed between any two grapheme clusters, whatever the rules and
    /// `word-break` say, and no word is hyphenated (CSS `line-break: anywhere`).
    case anywhere
}

/// Where a line may break inside words: CSS `word-break`.
public enum WordBreakStyle: UInt8, Hashable, Sendable, CaseIterable {
    case normal
    /// Letters and digits of every script break as ideographs do: between any two.
    case breakAll
    /// No break between two letters, digits or ideographs: Korean and CJK text breaks only at
    /// spaces and punctuation.
    case keepAll
    /// In Japanese, breaks only between phrases (bunsetsu: a word with the particles and endings
    /// after it) found from ICU's dictionary words; in other languages as `normal` (CSS Text 4's
    /// `auto-phrase`, which Chromium also gives Japanese alone).
    case autoPhrase
}

/// What decides a unit's line-break opportunities beyond UAX #14's default rules: its style's
/// `line-break` and `word-break`, and whether its language is Chinese or Japanese (the only
/// ones CSS's strictness tailorings apply to; auto-phrase knows Japanese alone).
struct LineBreakTailoring: Hashable {
    enum Language: UInt8 { case other, chinese, japanese }

    var strictness: LineBreakStrictness
    var wordBreak: WordBreakStyle
    var language: Language

    /// UAX #14 as it is: no pass but the default one.
    static let none = LineBreakTailoring(strictness: .auto, wordBreak: .normal, language: .other)

    init(strictness: LineBreakStrictness, wordBreak: WordBreakStyle, language: Language) {
        self.strictness = strictness
        self.wordBreak = wordBreak
        self.language = language
    }

    /// A style's tailoring. The language counts only where some setting reads it.
    init(_ style: TextStyle) {
        strictness = style.lineBreak == .strict ? .auto : style.lineBreak
        wordBreak = style.wordBreak
        let readsLanguage = strictness == .normal || strictness == .loose || wordBreak == .autoPhrase
        language = readsLanguage ? Self.language(of: style.language) : .other
        if wordBreak == .autoPhrase && language != .japanese { wordBreak = .normal }
    }

    static func language(of tag: String) -> Language {
        let primary = tag.prefix { $0 != "-" && $0 != "_" }.lowercased()
        switch primary {
        case "ja": return .japanese
        case "zh", "yue", "cmn", "wuu", "hak", "nan", "gan", "hsn", "cjy": return .chinese
        default: return .other
        }
    }

    /// True when the class table itself is tailored: small kana, or letters, read as ideographs.
    var tailorsClasses: Bool { strictness == .normal || strictness == .loose || wordBreak == .breakAll }
}

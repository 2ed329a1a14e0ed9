import ArgumentParser
import LayoutProtocol

// The layout subcommand's options, in the groups `layoutctl layout --help` shows (Layout keeps
// a forwarding property for each, so the request is built as before).

struct TextStyleOptions: ParsableArguments {
    @Option(help: "Font family.") var font: String = ""
    @Option(help: "A font file sent with the request (repeatable; at most 4): --font names its family. FILE#N,M takes faces N and M of a collection (.ttc).")
    var fontFile: [String] = []
    @Option(parsing: .unconditional, help: "Font size in points (default 17).") var size: Float?
    @Option(parsing: .unconditional, help: "Weight, 1-1000.") var weight: UInt32?
    @Flag(help: "Italic.") var italic = false
    @Option(help: "Variable font axes: TAG=VALUE,... (e.g. wght=650,wdth=80); layoutctl fonts lists a face's axes.")
    var variations: String?
    @Option(help: "A named instance of the family's variable face, e.g. SemiBold.") var namedInstance: String = ""
    @Flag(help: "Keep a variable font's optical size (opsz) at its default, and an AAT font's tracking (trak) off, instead of following the size.")
    var fixedOpticalSize = false
    @Option(parsing: .unconditional, help: "The point size opsz and trak follow instead of --size (HarfBuzz's ptem, as hb-shape --font-ptem).")
    var opticalSize: Float = 0
    @Option(parsing: .unconditional, help: "Extra points after each grapheme.") var letterSpacing: Float = 0
    @Option(help: "A family tried, in order, for what --font cannot draw, before the daemon's fallback (repeatable; at most 16), as CSS font-family's list.")
    var fallbackFamily: [String] = []
    @Flag(help: "Draw with the font alone: a character it lacks shows its .notdef glyph, not a fallback font's.")
    var noFallback = false
    @Option(help: "BCP 47 language tag.") var language: String = ""
    @Option(help: "Shape as this ISO 15924 script (e.g. Qaag for Zawgyi), as hb-shape --script does.") var script: String = ""
    @Option(help: "What may be synthesised where the family lacks the weight or slant asked for, as CSS font-synthesis: weight-and-style (the default), none, weight or style.")
    var fontSynthesis: String?
    @Option(help: "How strictly lines break around punctuation and small kana, as CSS line-break: strict (the default), normal, loose or anywhere.")
    var lineBreak: String?
    @Option(help: "Where lines may break inside words, as CSS word-break: normal (the default), break-all, keep-all or auto-phrase (Japanese phrases).")
    var wordBreak: String?
    @Option(help: "Emphasis marks over each character, as CSS text-emphasis: SHAPE or one character, then /open and /under, e.g. sesame, dot/under, circle/open, ※.")
    var emphasis: String?
}

/// CSS's `text-emphasis` as the option and the span key take it: a shape (dot, circle,
/// double-circle, triangle, sesame) or one character, then `/open` and `/under` in any order.
enum EmphasisNames {
    static func marks(_ text: String, option: String) throws -> Layoutd_V1_EmphasisMarks {
        var marks = Layoutd_V1_EmphasisMarks()
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let shapes: [String: Layoutd_V1_EmphasisShape] = ["dot": .dot, "circle": .circle, "double-circle": .doubleCircle,
                                                         "triangle": .triangle, "sesame": .sesame]
        if parts[0] == "none" && parts.count == 1 {
            marks.none = true
        } else if let shape = shapes[parts[0]] {
            marks.shape = shape
        } else if parts[0].unicodeScalars.count == 1 {
            marks.custom = parts[0]
        } else {
            throw ValidationError("\(option) takes dot, circle, double-circle, triangle, sesame, none or one character, not \"\(parts[0])\"")
        }
        for part in parts.dropFirst() {
            switch part {
            case "open": marks.open = true
            case "under": marks.under = true
            default: throw ValidationError("\(option): after the mark come open and under, not \"\(part)\"")
            }
        }
        return marks
    }
}

/// CSS's names for `line-break` and `word-break`, as the options and span keys take them.
enum BreakingNames {
    static func lineBreak(_ name: String, option: String) throws -> Layoutd_V1_LineBreak {
        let kinds: [String: Layoutd_V1_LineBreak] = ["strict": .strict, "normal": .normal, "loose": .loose, "anywhere": .anywhere]
        guard let kind = kinds[name] else { throw ValidationError("\(option) must be strict, normal, loose or anywhere, not \"\(name)\"") }
        return kind
    }

    static func wordBreak(_ name: String, option: String) throws -> Layoutd_V1_WordBreak {
        let kinds: [String: Layoutd_V1_WordBreak] = ["normal": .normal, "break-all": .breakAll, "keep-all": .keepAll, "auto-phrase": .autoPhrase]
        guard let kind = kinds[name] else {
            throw ValidationError("\(option) must be normal, break-all, keep-all or auto-phrase, not \"\(name)\"")
        }
        return kind
    }
}

struct ParagraphOptions: ParsableArguments {
    @Option(help: "natural, left, right, center or justified.") var align: String = "natural"
    @Option(help: "auto, ltr or rtl.") var direction: String = "auto"
    @Option(parsing: .unconditional, help: "Line height multiple.") var lineHeightMultiple: Float = 0
    @Option(parsing: .unconditional, help: "Maximum number of lines (0: unlimited).") var maxLines: UInt32 = 0
    @Option(help: "Truncation token (default …).") var token: String?
    @Option(help: "Where the last line is cut when text is hidden: tail, head or middle.") var truncate: String = "tail"
    @Option(parsing: .unconditional, help: "Paragraph indents, points: FIRST_LINE,HEAD,TAIL (from the leading edge, the leading edge, the trailing edge).")
    var indent: String?
    @Option(parsing: .unconditional, help: "Space between paragraphs, points: BEFORE,AFTER.") var paragraphSpacing: String?
    @Flag(help: "Break words with a hyphen at line ends, in --language (English when none).") var hyphenate = false
    @Option(parsing: .unconditional, help: "Tab stops, points from the leading edge: LOCATION[:end|:center|:decimal],... (e.g. 100,200:end,260:decimal).")
    var tabs: String?
    @Option(parsing: .unconditional, help: "A tab stop every this many points past the last (default 28).") var tabInterval: Float = 0
    @Flag(help: "Hang opening punctuation before a paragraph and stops, commas and closing marks past line ends.")
    var hangingPunctuation = false
    @Option(help: "Make every paragraph a list item: bullet, decimal, lower-alpha, upper-alpha, lower-roman or upper-roman.")
    var list: String?
    @Option(help: "Shrink the text to fit the box (needs --height or --max-lines): MIN_SCALE or MIN_SCALE:STEP_POINTS, e.g. 0.5 or 0.5:1.")
    var autoSize: String?
    @Option(name: .customLong("break"), help: "How lines are chosen: greedy (the default), balanced (captions, titles) or optimal (paragraphs).")
    var breakStrategy = "greedy"
}

struct VerticalOptions: ParsableArguments {
    @Flag(help: "Vertical text: lines are columns down the page (layout: --height long; typemode: --width long), stacked right to left.")
    var vertical = false
    @Flag(help: "Vertical text with columns left to right (Mongolian).") var verticalLr = false
    @Option(parsing: .unconditional, help: "Vertical text: runs of at most N digits stand upright in one em (tate-chu-yoko, 0-4).")
    var uprightDigits: UInt32 = 0
    @Flag(help: "Vertical text: letters stand upright with the digits.") var uprightLetters = false
    @Option(help: "Vertical text: how characters stand, as CSS text-orientation: mixed (the default, by UAX #50), upright or sideways.")
    var textOrientation: String = "mixed"

    /// These options onto a layout or justify request.
    func apply(to request: inout some VerticalTextFields) throws {
        if vertical || verticalLr { request.writingMode = verticalLr ? .verticalLr : .verticalRl }
        request.textCombineUpright = uprightDigits
        request.combineLetters = uprightLetters
        switch textOrientation {
        case "mixed": request.textOrientation = .mixed
        case "upright": request.textOrientation = .upright
        case "sideways": request.textOrientation = .sideways
        default: throw ValidationError("--text-orientation must be mixed, upright or sideways, not \(textOrientation)")
        }
    }
}

struct OutputOptions: ParsableArguments {
    @Option(name: .shortAndLong, parsing: .unconditional, help: "Write a picture instead: FILE.png, .svg or .pdf, or - for standard output (with --format).") var output: String?
    @Option(help: "The picture's format: png, svg or pdf (default: from -o's extension).") var format: String?
    @Option(parsing: .unconditional, help: "Picture scale, pixels per point.") var scale: Float = 2
    @Flag(help: "Also measure where the glyphs put ink: per line, the whole layout and the first glyph.") var ink = false
    @Flag(help: "Also measure the text's intrinsic widths (min-content, max-content) and each run's ascent, descent and leading.")
    var metrics = false
    @Flag(help: "Also give each glyph HarfBuzz's flags (1 unsafe to break, 2 unsafe to concatenate), printed as hb-shape --show-flags prints them.")
    var glyphFlags = false
    @Option(help: AttachmentSpec.help) var attachment: [String] = []
    @Option(help: "A PNG drawn in the Nth attachment's box with -o (the Nth of these; \"\" for a placeholder).")
    var attachmentImage: [String] = []
    @Option(help: "How the Nth attachment's picture fills its box (the Nth of these): stretch (the default), fit, fill or center.")
    var attachmentMode: [String] = []
}

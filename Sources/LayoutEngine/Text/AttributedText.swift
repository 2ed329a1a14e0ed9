/// A string with styles over UTF-16 ranges: the pipeline's input.
///
/// Spans may overlap; a later span overrides an earlier one where they do (as attributes
/// added later win in NSAttributedString). `runs` is the flattened, gap-free result.
public struct AttributedText: Sendable {
    /// Every part in one shared object: a text is copied from stage to stage (the request, the
    /// shaped text, each shaped paragraph), and seven references counted on each copy and
    /// release cost more than the indirection.
    private let storage: Storage

    private final class Storage: Sendable {
        let string: String
        let units: ContiguousArray<UInt16>
        let styles: [TextStyle]
        let runs: [(range: Range<Int>, style: Int)]
        let paints: [TextPaint]
        let paintRuns: [(range: Range<Int>, paint: Int)]
        let hidden: [Range<Int>]
        /// Some paint has emphasis marks, which grow the lines they are on: kept here, read
        /// for every piece of every line.
        let hasEmphasis: Bool
        /// Ruby annotations, sorted by base, apart (`RubyAnnotation`); empty for nearly every text.
        let ruby: [RubyAnnotation]

        init(string: String, units: ContiguousArray<UInt16>, styles: [TextStyle], runs: [(range: Range<Int>, style: Int)],
             paints: [TextPaint], paintRuns: [(range: Range<Int>, paint: Int)], hidden: [Range<Int>], hasEmphasis: Bool,
             ruby: [RubyAnnotation]) {
            self.string = string
            self.units = units
            self.styles = styles
            self.runs = runs
            self.paints = paints
            self.paintRuns = paintRuns
            self.hidden = hidden
            self.hasEmphasis = hasEmphasis
            self.ruby = ruby
        }
    }

    /// The text as given. Empty where the text was made from its units alone: a paragraph cut
    /// from a text (`init(slicing:_:)`), a plain layout request read from the wire. No stage reads it.
    public var string: String { _read { yield storage.string } }
    public var units: ContiguousArray<UInt16> { _read { yield storage.units } }
    /// `units.count`, read without borrowing the array: through the `_read` above, each level
    /// of a `paragraph.text.units.count` chain was retained and released.
    var unitCount: Int { storage.units.count }
    /// Distinct resolved styles; `runs` refer to them by index.
    public var styles: [TextStyle] { _read { yield storage.styles } }
    /// Non-overlapping, sorted, covering `0..<units.count`.
    public var runs: [(range: Range<Int>, style: Int)] { _read { yield storage.runs } }
    /// Distinct resolved paints; `paintRuns` refer to them by index. Apart from `styles` and
    /// `runs`, which itemizing and shaping read, so paint never splits what is shaped.
    public var paints: [TextPaint] { _read { yield storage.paints } }
    /// Non-overlapping, sorted, covering `0..<units.count`; empty for a text of one paint (most
    /// texts: two arrays a request allocated for nothing).
    public var paintRuns: [(range: Range<Int>, paint: Int)] { _read { yield storage.paintRuns } }

    /// Units kept in the text but drawn as nothing, no width and no ink (the markers a formatting
    /// rule hides): sorted, apart. They are shaped as zero-width spaces.
    public var hidden: [Range<Int>] { _read { yield storage.hidden } }

    /// Some paint of the text has emphasis marks.
    var hasEmphasis: Bool { storage.hasEmphasis }

    /// Ruby over (or beside) ranges of the text, sorted by base; see `RubyAnnotation`.
    public var ruby: [RubyAnnotation] { _read { yield storage.ruby } }

    /// The same text with `ruby` over it (replacing any it had), in the order of their bases,
    /// each numbered by its place in `ruby` (errors name it so).
    public func withRuby(_ ruby: [RubyAnnotation]) -> AttributedText {
        var numbered = ruby
        for index in numbered.indices { numbered[index].requestIndex = index }
        // Already in order (as a client mostly sends them): not sorted again.
        if !numbered.indices.dropFirst().allSatisfy({ numbered[$0 - 1].base.lowerBound <= numbered[$0].base.lowerBound }) {
            numbered.sort { ($0.base.lowerBound, $0.requestIndex) < ($1.base.lowerBound, $1.requestIndex) }
        }
        return replacingRuby(numbered)
    }

    /// The same text with `ruby`, sorted and numbered already, in place of its own.
    func replacingRuby(_ ruby: [RubyAnnotation]) -> AttributedText {
        AttributedText(string: string, units: units, styles: styles, runs: runs, paints: paints, paintRuns: paintRuns,
                       hidden: hidden, hasEmphasis: hasEmphasis, ruby: ruby)
    }

    /// One plain paint over all the text: nothing to validate, split or decorate.
    var isPlain: Bool { paints.count == 1 && paints[0].isPlain }

    /// The paints of a text in the default paint, shared.
    static let defaultPaints = [TextPaint()]

    public struct Span: Sendable {
        public var range: Range<Int>
        public var patch: StylePatch
        public init(range: Range<Int>, patch: StylePatch) {
            self.range = range
            self.patch = patch
        }
    }

    public init(_ string: String, style: TextStyle, paint: TextPaint = TextPaint(), spans: [Span] = []) {
        self.init(string, units: Self.utf16(string), style: style, paint: paint, spans: spans)
    }

    /// The same with the string's UTF-16 units made already (formatting rules match on them first).
    /// `style` is taken, not borrowed: a text of one style keeps it without copying it.
    public init(_ string: String, units: ContiguousArray<UInt16>, style: consuming TextStyle, paint: TextPaint = TextPaint(), spans: [Span] = []) {
        let count = units.count
        if spans.isEmpty {
            self.init(string, units: units, styles: [style], paint: paint)
            return
        }
        let (styles, runs, paints, paintRuns) = Self.resolve(spans, over: count, base: style, paint: paint)
        let hidden = Self.merged(spans.lazy.filter { $0.patch.hidden == true }.map {
            min(max($0.range.lowerBound, 0), count)..<min(max($0.range.upperBound, 0), count)
        })
        self.init(string: string, units: units, styles: styles, runs: runs, paints: paints, paintRuns: paintRuns, hidden: hidden,
                  hasEmphasis: paints.contains { $0.emphasis != nil })
    }

    /// A text of one style and paint, without spans, the style in an array the caller keeps
    /// (`DocumentSettings.styles`): handed to paragraph after paragraph, the same storage each
    /// time, which the caches of the last styles validated and resolved find equal at once.
    init(_ string: String, units: ContiguousArray<UInt16>, styles: [TextStyle], paint: TextPaint) {
        precondition(styles.count == 1, "a text without spans has one style")
        self.init(string: string, units: units, styles: styles, runs: units.isEmpty ? [] : [(0..<units.count, 0)],
                  paints: paint.isPlain ? Self.defaultPaints : [paint], paintRuns: [], hidden: [], hasEmphasis: paint.emphasis != nil)
    }

    /// A text of one style in the default paint, nothing else: `init(_:units:style:)` without a
    /// paint to make and test (a plain request's text; `AttributedTextTests` holds the two equal).
    public init(plainUnits units: ContiguousArray<UInt16>, style: consuming TextStyle) {
        self.init(plainUnits: units, styles: [style])
    }

    /// The same with the one style in an array the caller keeps: handed to request after request
    /// (`PlainStyles`), the same storage each time, which the caches of the last styles
    /// validated and resolved find equal at once.
    public init(plainUnits units: ContiguousArray<UInt16>, styles: [TextStyle]) {
        precondition(styles.count == 1, "a plain text has one style")
        self.init(string: "", units: units, styles: styles, runs: units.isEmpty ? [] : [(0..<units.count, 0)],
                  paints: Self.defaultPaints, paintRuns: [], hidden: [], hasEmphasis: false)
    }

    /// Ranges sorted and joined where they meet or overlap; empty ones dropped.
    static func merged<Ranges: Sequence<Range<Int>>>(_ ranges: Ranges) -> [Range<Int>] {
        var merged: [Range<Int>] = []
        for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// Every part given: a slice of another text (`init(slicing:_:)`).
    private init(string: String, units: ContiguousArray<UInt16>, styles: [TextStyle], runs: [(range: Range<Int>, style: Int)],
                 paints: [TextPaint], paintRuns: [(range: Range<Int>, paint: Int)], hidden: [Range<Int>], hasEmphasis: Bool,
                 ruby: [RubyAnnotation] = []) {
        storage = Storage(string: string, units: units, styles: styles, runs: runs, paints: paints, paintRuns: paintRuns,
                          hidden: hidden, hasEmphasis: hasEmphasis, ruby: ruby)
    }

    /// The string's UTF-16 code units, transcoded straight from its UTF-8 storage.
    /// `ContiguousArray(string.utf16)` is slower: it counts the units first, and for non-ASCII
    /// text that walks the string.
    public static func utf16(_ string: String) -> ContiguousArray<UInt16> {
        var string = string
        // A String's bytes are valid UTF-8, so every sequence is complete; UTF-16 never needs
        // more units than UTF-8 has bytes. SAFETY: so every read stays inside `bytes` and every
        // write inside the room for `bytes.count` units; `written` is what was written, and
        // neither buffer leaves the closures.
        return string.withUTF8 { bytes in
            ContiguousArray<UInt16>(specializedCapacity: bytes.count) { out, written in
                var i = 0
                var o = 0
                while i < bytes.count {
                    let lead = UInt32(bytes[i])
                    if lead < 0x80 {
                        out[o] = UInt16(lead)
                        i += 1
                        o += 1
                    } else if lead < 0xE0 {
                        out[o] = UInt16((lead & 0x1F) << 6 | UInt32(bytes[i + 1]) & 0x3F)
                        i += 2
                        o += 1
                    } else if lead < 0xF0 {
                        out[o] = UInt16((lead & 0x0F) << 12 | (UInt32(bytes[i + 1]) & 0x3F) << 6 | UInt32(bytes[i + 2]) & 0x3F)
                        i += 3
                        o += 1
                    } else {
                        let scalar = (lead & 0x07) << 18 | (UInt32(bytes[i + 1]) & 0x3F) << 12
                            | (UInt32(bytes[i + 2]) & 0x3F) << 6 | UInt32(bytes[i + 3]) & 0x3F
                        out[o] = UInt16(0xD800 + (scalar - 0x10000) >> 10)
                        out[o + 1] = UInt16(0xDC00 + (scalar - 0x10000) & 0x3FF)
                        i += 4
                        o += 2
                    }
                }
                written = o
            }
        }
    }
}

extension AttributedText {
    /// The same text with every style's size, letter spacing and baseline offset times
    /// `factor`: auto-size's candidates (paint, shadows included, stays as it is).
    func scaled(by factor: Double) -> AttributedText {
        let styles = self.styles.map { style in
            var scaled = style
            scaled.size *= factor
            scaled.letterSpacing *= factor
            scaled.baselineOffset *= factor
            scaled.lineHeight = style.lineHeight.map { $0 * factor }
            return scaled
        }
        return AttributedText(string: string, units: units, styles: styles, runs: runs, paints: paints, paintRuns: paintRuns,
                              hidden: hidden, hasEmphasis: hasEmphasis, ruby: ruby)
    }

    /// The part of the text over `range`, its offsets counted from the range's start: one bidi
    /// paragraph, shaped on its own. The style and paint tables are shared, so indices agree.
    /// Its `string` is empty: the stages read units, and making a `String` from UTF-16 was most
    /// of what a paragraph of a many-paragraph text cost.
    init(slicing text: AttributedText, _ range: Range<Int>) {
        let units = ContiguousArray(text.units[range])
        self.init(string: "", units: units, styles: text.styles,
                  runs: Self.slice(text.runs, range), paints: text.paints,
                  paintRuns: text.paintRuns.isEmpty ? [] : Self.slice(text.paintRuns, range),
                  hidden: text.hidden.compactMap { hidden in
                      let low = max(hidden.lowerBound, range.lowerBound), high = min(hidden.upperBound, range.upperBound)
                      return low < high ? (low - range.lowerBound)..<(high - range.lowerBound) : nil
                  },
                  hasEmphasis: text.hasEmphasis,
                  ruby: text.ruby.isEmpty ? [] : text.ruby.compactMap { $0.moved(into: range) })
    }

    /// Runs cut to `range` and moved to start at 0. The first is found by bisection: a text of
    /// many paragraphs and many spans must not cost their product.
    private static func slice(_ runs: [(range: Range<Int>, style: Int)], _ range: Range<Int>) -> [(range: Range<Int>, style: Int)] {
        var sliced: [(range: Range<Int>, style: Int)] = []
        var index = ShapedParagraph.firstIndex(runs.count) { runs[$0].range.upperBound > range.lowerBound }
        while index < runs.count && runs[index].range.lowerBound < range.upperBound {
            let run = runs[index]
            let low = max(run.range.lowerBound, range.lowerBound), high = min(run.range.upperBound, range.upperBound)
            if low < high { sliced.append(((low - range.lowerBound)..<(high - range.lowerBound), run.style)) }
            index += 1
        }
        return sliced
    }

    private static func slice(_ runs: [(range: Range<Int>, paint: Int)], _ range: Range<Int>) -> [(range: Range<Int>, paint: Int)] {
        slice(runs.map { ($0.range, $0.paint) }, range).map { ($0.range, $0.style) }
    }
}

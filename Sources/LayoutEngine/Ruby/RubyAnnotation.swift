/// Ruby (furigana): small text over a range of the text, its base, or beside it in vertical
/// text, placed as the W3C's "Rules for Simple Placement of Japanese Ruby" (the JLReq task
/// force's note, after JIS X 4051) lay it out:
/// - **mono ruby** (one reading over one grapheme cluster) and **group ruby** (one reading over
///   several) keep base and reading together: no line breaks inside the base;
/// - **jukugo ruby** (one reading per grapheme cluster of the base) may break between its
///   clusters, and each line's part is placed on its own.
///
/// The reading is set at half the base's size (`scale`), its frame flush against the base's:
/// over the font's character frame (its ideographic em box, else its ascent) in horizontal
/// text, on the column's right in vertical text (under
/// and left with `under`). A reading wider than its base never overhangs the text around it:
/// the base is spaced instead (see `RubyBases`), and a reading narrower than its base is spaced
/// across it (see `RubyPlacer`).
public struct RubyAnnotation: Sendable {
    /// The base: UTF-16 offsets of the text, whole grapheme clusters, within one paragraph.
    public var base: Range<Int>
    /// One reading over all of the base, or one per grapheme cluster of the base (jukugo).
    public var readings: [String]
    /// Under the base in horizontal text, left of it in vertical text (CSS `ruby-position: under`).
    public var under: Bool
    /// The reading's size against the base's (CSS and the simple rules: half).
    public var scale: Double

    public init(base: Range<Int>, reading: String, under: Bool = false, scale: Double = RubyAnnotation.defaultScale) {
        self.init(base: base, readings: [reading], under: under, scale: scale)
    }

    public init(base: Range<Int>, readings: [String], under: Bool = false, scale: Double = RubyAnnotation.defaultScale) {
        self.base = base
        self.readings = readings
        self.under = under
        self.scale = scale
    }

    public static let defaultScale = 0.5
    /// At most this many annotations a request, and this many UTF-16 units in all their readings.
    public static let maxAnnotations = 4_096
    public static let maxReadingUnits = 65_536

    /// One reading per cluster of the base: breaks may fall between them.
    var isJukugo: Bool { readings.count > 1 }

    /// The readings laid out, once a layout has measured them (`ParagraphLayouter.measuredRuby`).
    var laid: RubyReadings?
    /// Where the request listed it (a text keeps its annotations in the order of their bases):
    /// errors name it so.
    var requestIndex = 0

    /// The annotation in the part of a text cut at `range` (a paragraph), offsets from its start;
    /// nil when its base lies outside (validation keeps a base inside one paragraph).
    func moved(into range: Range<Int>) -> RubyAnnotation? {
        guard base.lowerBound >= range.lowerBound, base.upperBound <= range.upperBound else { return nil }
        var moved = self
        moved.base = (base.lowerBound - range.lowerBound)..<(base.upperBound - range.lowerBound)
        return moved
    }
}

extension AttributedText {
    /// Some range of the text has ruby.
    var hasRuby: Bool { !ruby.isEmpty }
}

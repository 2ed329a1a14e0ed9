import Synchronization

/// One face: its identity, its metrics and its shaping (`FaceShaping`), for a loaded face an
/// immutable HarfBuzz font at units-per-em, which the fonts adapter makes (`LayoutFonts`).
///
/// The HarfBuzz font is made immutable at load time, which makes it safe to shape with
/// from any thread. FreeType faces are never kept here: they are not thread-safe, and
/// shaping does not need them (HarfBuzz's own OpenType functions read the tables).
// SAFETY (`@unchecked Sendable`): all properties are `let`; those not Sendable by type are the shaping (whose
// protocol is Sendable), the file's bytes (immutable once loaded) and the coverage bits, written
// before the font is made and only read after.
public final class Font: @unchecked Sendable {
    public let id: UInt32
    /// Unique in the process, unlike `id` (a client's fonts and instances are numbered per
    /// registry): what caches shared across registries key on.
    let serial: UInt32 = Font.nextSerial.add(1, ordering: .relaxed).oldValue
    private static let nextSerial = Atomic<UInt32>(0)
    public let family: String
    public let styleName: String
    /// CSS weight, 1...1000 (OS/2 usWeightClass).
    public let weight: Int
    public let italic: Bool
    /// OS/2 usWidthClass; 5 is normal. Condensed faces lose ties against normal ones.
    public let widthClass: Int
    public let path: String
    public let faceIndex: Int
    public let unitsPerEm: Int32
    /// Line metrics in font units: ascender above the baseline, descender below (positive).
    public let ascender: Int32
    public let descender: Int32
    public let lineGap: Int32
    /// Number of code points the cmap maps.
    public let coverageCount: Int
    /// The underline's top and thickness in font units, y up (the `post` table's
    /// underlinePosition and underlineThickness; HarfBuzz's fallback where a font lacks them).
    public let underline: (position: Int32, thickness: Int32)
    /// The strikethrough's top and thickness in font units, y up (`OS/2` yStrikeoutPosition
    /// and yStrikeoutSize, or HarfBuzz's fallback).
    public let strikeout: (position: Int32, thickness: Int32)
    /// The height of capital letters and of lowercase x above the baseline, in font units (`OS/2`
    /// sCapHeight and sxHeight, or HarfBuzz's fallback).
    public let capHeight: Int32
    public let xHeight: Int32
    public let isColorEmoji: Bool
    /// The axes of a variable font (its `fvar` table); empty for a static font.
    public let axes: [VariationAxis]
    /// The named instances a variable font lists.
    public let namedInstances: [NamedInstance]
    /// For an instance of a variable font, the face it was made from: the face a reply names
    /// (`wireID`) and whose coverage it shares. Nil for a loaded face.
    public let base: Font?
    /// `base != nil`, stored: positioning asks it of every piece through an unowned reference,
    /// where reading `base` itself counted a reference.
    let isInstance: Bool
    /// An instance's design coordinates, one per axis in `axes` order; empty for a loaded face,
    /// which stands at the axes' defaults.
    public let coordinates: [Float]
    /// What was synthesised to make this font from `base` (`FontSynthesis`); empty for a face
    /// or instance drawn as it is.
    public let synthesis: FontSynthesis
    /// What the face makes itself, so is never synthesised for it (its axes, colour glyphs).
    let makesOwn: FontSynthesis
    /// True for a face with an AAT `trak` table: its tracking depends on the point size, so a
    /// style's size (its optical size) makes an instance of it, as an `opsz` axis does.
    let tracks: Bool
    /// The point size HarfBuzz applies `trak` at (`hb_font_set_ptem`); 0 for none, where the
    /// face's glyphs keep their own advances.
    public let pointSize: Float

    /// How the face shapes text and answers for its characters and ink: HarfBuzz for a loaded
    /// face (the fonts adapter's), fixed advances in the stage tests.
    package let shaping: any FaceShaping
    /// The file's bytes, held by the fonts adapter's owner of them (a read-only mapping, or a
    /// client's bytes): the renderer's FreeType faces read them too, rather than opening the
    /// path again. Nil for a face without a file.
    package let blob: AnyObject?
    /// One bit per BMP code point the cmap maps: fallback asks about every cluster, and a bit
    /// test is far cheaper than a cmap search through HarfBuzz. Raw memory the font owns, so a
    /// test touches no reference count. SAFETY: 1,024 words (`emptyCoverage`), a bit for every
    /// `UInt16`; filled before the font is made, read only after, freed with the last font that
    /// shares it (an instance shares its base's).
    let bmpCoverage: UnsafeMutablePointer<UInt64>

    /// A face's line and decoration metrics, in font units (descender positive, downward).
    package typealias Metrics = FaceMetrics

    /// A face with its metrics and its shaping; `coverage` (one bit per BMP code point, which the
    /// font then owns and frees) is shared with `base` for an instance. SAFETY: `bmpCoverage`
    /// comes from `emptyCoverage`, filled, and no one writes it after.
    package init(id: UInt32, family: String, styleName: String, weight: Int, italic: Bool, widthClass: Int, path: String,
                 faceIndex: Int, metrics: Metrics, isColorEmoji: Bool, axes: [VariationAxis], namedInstances: [NamedInstance],
                 coverageCount: Int, bmpCoverage: UnsafeMutablePointer<UInt64>, instanceOf base: Font?, coordinates: [Float],
                 shaping: any FaceShaping, blob: AnyObject?, synthesis: FontSynthesis = [], tracks: Bool = false,
                 pointSize: Float = 0) {
        self.id = id
        self.tracks = tracks
        self.pointSize = pointSize
        self.synthesis = synthesis
        self.makesOwn = FontSynthesis.madeBy(axes: axes, isColorEmoji: isColorEmoji)
        self.base = base
        self.isInstance = base != nil
        self.wireID = base?.id ?? id
        self.coordinates = coordinates
        self.family = family
        self.styleName = styleName
        self.weight = weight
        self.italic = italic
        self.widthClass = widthClass
        self.path = path
        self.faceIndex = faceIndex
        self.unitsPerEm = metrics.unitsPerEm
        self.ascender = metrics.ascender
        self.descender = metrics.descender
        self.lineGap = metrics.lineGap
        self.underline = metrics.underline
        self.strikeout = metrics.strikeout
        self.capHeight = metrics.capHeight
        self.xHeight = metrics.xHeight
        self.isColorEmoji = isColorEmoji
        self.axes = axes
        self.namedInstances = namedInstances
        self.coverageCount = coverageCount
        self.bmpCoverage = bmpCoverage
        self.shaping = shaping
        self.blob = blob
    }

    /// Unicode's spaces that HarfBuzz draws with a face's own space when its cmap lacks them,
    /// each at the width its kind gives (hb-ot-shape-fallback): no-break, en and em quads and
    /// spaces, the fractions of an em, figure, punctuation, thin, hair, narrow no-break, medium
    /// mathematical and ideographic.
    static let spacesDrawnWithSpace: [UInt16] = [0x00A0] + Array(0x2000...0x200A) + [0x202F, 0x205F, 0x3000]

    /// Marks in `coverage` what HarfBuzz draws with the face though its cmap lacks it: the
    /// spaces above where it maps U+0020, and U+2011 NON-BREAKING HYPHEN where it maps U+2010
    /// (hb-ot-shape-normalize). Fallback judges a cluster as the shaper will draw it, so a
    /// thin space in Devanagari stays in the Devanagari face, as hb-shape draws it.
    /// SAFETY: `coverage` is a face's bits from `emptyCoverage`, before the face is made.
    package static func addShaperFallbacks(to coverage: UnsafeMutablePointer<UInt64>) {
        func set(_ unit: UInt16) { coverage[Int(unit) >> 6] |= 1 << UInt64(unit & 63) }
        if covers(coverage, 0x0020) { spacesDrawnWithSpace.forEach(set) }
        if covers(coverage, 0x2010) { set(0x2011) }
    }

    /// BMP coverage with no bit set, for a face to fill. SAFETY: a bit for each of the 65,536
    /// BMP units, which `covers` reads at `unit >> 6`, always inside.
    package static func emptyCoverage() -> UnsafeMutablePointer<UInt64> {
        let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 0x10000 / 64)
        bits.initialize(repeating: 0, count: 0x10000 / 64)
        return bits
    }

    /// An instance of this face at `coordinates` (one per axis of a variable face, clamped
    /// already; empty for a static one) and `pointSize` (0 for none): shapes, measures and draws
    /// as the face does at those axis values, tracked as its `trak` table says at that size.
    /// A face whose shaping makes no instances (HarfBuzz's makes them; a synthesised face's and
    /// the stage tests' do not) has no axes to set, so it is its own only instance.
    func instance(id: UInt32, coordinates: [Float], pointSize: Float = 0) -> Font {
        guard let made = shaping.instance(coordinates: coordinates, pointSize: pointSize) else { return self }
        // An instance maps the same characters as its face: it shares its coverage.
        return Font(id: id, family: family, styleName: styleName, weight: weight, italic: italic, widthClass: widthClass,
                    path: path, faceIndex: faceIndex, metrics: made.metrics, isColorEmoji: made.isColorEmoji, axes: axes,
                    namedInstances: namedInstances, coverageCount: coverageCount, bmpCoverage: bmpCoverage, instanceOf: self,
                    coordinates: coordinates, shaping: made.shaping, blob: blob, tracks: tracks, pointSize: pointSize)
    }

    /// This face (or instance) made bold or oblique as `synthesis` says, numbered `id`: it maps
    /// the same characters and has the same line metrics; its glyphs advance and draw as
    /// `SyntheticShaping` makes them. A reply names it by the loaded face, as an instance.
    func synthesized(id: UInt32, _ synthesis: FontSynthesis) -> Font {
        let metrics = Metrics(unitsPerEm: unitsPerEm, ascender: ascender, descender: descender, lineGap: lineGap,
                              underline: underline, strikeout: strikeout, capHeight: capHeight, xHeight: xHeight)
        return Font(id: id, family: family, styleName: styleName, weight: weight, italic: italic, widthClass: widthClass,
                    path: path, faceIndex: faceIndex, metrics: metrics, isColorEmoji: isColorEmoji, axes: axes,
                    namedInstances: namedInstances, coverageCount: coverageCount, bmpCoverage: bmpCoverage,
                    instanceOf: base ?? self, coordinates: coordinates,
                    shaping: SyntheticShaping(shaping, synthesis: synthesis, unitsPerEm: unitsPerEm),
                    blob: blob, synthesis: synthesis, tracks: tracks, pointSize: pointSize)
    }

    deinit {
        if base == nil { bmpCoverage.deallocate() }
    }

    /// True for a face with axes to set.
    @inline(__always)
    public var isVariable: Bool { !axes.isEmpty }

    /// The id a reply names the face by: an instance is named by the face it was made from,
    /// with its coordinates beside.
    /// Stored, as `isInstance` is.
    public let wireID: UInt32

    /// An instance's axis values, tagged; empty for a loaded face.
    public var variations: [FontVariation] {
        if coordinates.isEmpty { return [] }
        return zip(axes, coordinates).map { FontVariation(tag: $0.tag, value: $1) }
    }

    /// The glyph the cmap maps `scalar` to, or nil when the face lacks it.
    @inline(__always)
    public func nominalGlyph(_ scalar: UInt32) -> UInt32? { shaping.nominalGlyph(scalar) }

    /// The glyph's ink box in font units, y up from the baseline (HarfBuzz's convention):
    /// x bearing, y bearing (top), width, height (negative, downward).
    public func inkExtents(_ glyph: UInt32) -> (x: Int32, y: Int32, width: Int32, height: Int32) { shaping.inkExtents(glyph) }

    /// True when the cmap maps `scalar`.
    @inline(__always)
    public func covers(_ scalar: UInt32) -> Bool {
        if scalar < 0x10000 { return Self.covers(bmpCoverage, UInt16(scalar)) }
        return nominalGlyph(scalar) != nil
    }

    /// The bit for `unit` in a font's BMP coverage. SAFETY: `coverage` is from `emptyCoverage`.
    @inline(__always)
    package static func covers(_ coverage: UnsafeMutablePointer<UInt64>, _ unit: UInt16) -> Bool {
        (coverage[Int(unit) &>> 6] &>> UInt64(unit & 63)) & 1 != 0
    }

    /// The ascent, descent (positive) and line gap at `size`, in points: what CoreText's
    /// `CTRunGetTypographicBounds` gives a run of this font.
    public func typographicBounds(at size: Double) -> TypographicBounds {
        let scale = scale(for: size)
        return TypographicBounds(ascent: Double(ascender) * scale, descent: Double(descender) * scale, leading: Double(lineGap) * scale)
    }

    /// Points per font unit at `size`.
    @inline(__always)
    public func scale(for size: Double) -> Double { size / Double(unitsPerEm) }
}

/// Fonts are equal when they are the same face or instance: a registry makes each once.
extension Font: Equatable {
    public static func == (a: Font, b: Font) -> Bool { a === b }
}

extension Font {
    /// The ideographic em box's top and bottom edges in font units, up from the baseline (the
    /// bottom is negative), where the font's `BASE` table places it for Han: its `ideo` baseline,
    /// and its `idtp` or, as OpenType defines the em box, one em above `ideo` (HarfBuzz's
    /// fallback). nil for a font whose table does not (most non-CJK fonts have none). Noto Sans
    /// CJK's: 880 and −120 of 1,000.
    var ideographicEmBox: (top: Int32, bottom: Int32)? { shaping.ideographicEmBox }
}

/// A font held without counting a reference, as items, line pieces and decorated segments hold
/// theirs: a reference counted on every copy of an item and a piece showed in profiles.
///
/// SAFETY: the font is valid while the `FontRegistry` that itemized the text lives (the lifetime
/// rule in docs/unsafe.md). A registry outlives every layout made with it: the request holds it,
/// and a client's fonts are held by its connection.
@propertyWrapper
struct UnownedFont {
    private unowned(unsafe) var font: Font

    @inline(__always)
    init(wrappedValue: Font) { font = wrappedValue }

    /// Lent, not returned: a getter hands out an owned reference, retained and released around
    /// every use.
    var wrappedValue: Font {
        @inline(__always) _read { yield font }
        @inline(__always) set { font = newValue }
    }
}

/// A piece's font passed on without counting a reference: a run is added for every piece of
/// every line.
struct FontHandle {
    @UnownedFont var font: Font
    init(_ font: Font) { self.font = font }
}

import CHarfBuzz
import Synchronization

/// One face: its identity, its metrics and its shaping (`FaceShaping`), for a loaded face an
/// immutable HarfBuzz font at units-per-em.
///
/// The HarfBuzz font is made immutable at load time, which makes it safe to shape with
/// from any thread. FreeType faces are never kept here: they are not thread-safe, and
/// shaping does not need them (HarfBuzz's own OpenType functions read the tables).
// @unchecked Sendable: all properties are `let`; those not Sendable by type are the HarfBuzz font
// and blob pointers (immutable at load time, which HarfBuzz documents thread-safe) and the
// coverage bits, written before the font is made and only read after.
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
    /// face, fixed advances in the stage tests.
    let shaping: any FaceShaping
    /// The HarfBuzz font `shaping` shapes with, for the glyph outlines drawing traces; nil for a
    /// face HarfBuzz does not shape. Valid while this font lives.
    package var hbFont: OpaquePointer? { (shaping as? HarfBuzzShaping)?.font }
    /// The file's bytes (a read-only mapping): the renderer's FreeType faces read them too,
    /// rather than opening the path again. Nil for a face without a file.
    package let blob: OpaquePointer?
    /// One bit per BMP code point the cmap maps: fallback asks about every cluster, and a bit
    /// test is far cheaper than a cmap search through HarfBuzz. Raw memory the font owns, so a
    /// test touches no reference count.
    let bmpCoverage: UnsafeMutablePointer<UInt64>

    /// A face's line and decoration metrics, in font units.
    struct Metrics {
        var unitsPerEm: Int32
        /// Above the baseline and below it (positive).
        var ascender: Int32
        var descender: Int32
        var lineGap: Int32
        var underline: (position: Int32, thickness: Int32)
        var strikeout: (position: Int32, thickness: Int32)
        var capHeight: Int32 = 0
        var xHeight: Int32 = 0
    }

    /// A face with its metrics and its shaping; `coverage` (one bit per BMP code point, which the
    /// font then owns and frees) is shared with `base` for an instance.
    init(id: UInt32, family: String, styleName: String, weight: Int, italic: Bool, widthClass: Int, path: String,
         faceIndex: Int, metrics: Metrics, isColorEmoji: Bool, axes: [VariationAxis], namedInstances: [NamedInstance],
         coverageCount: Int, bmpCoverage: UnsafeMutablePointer<UInt64>, instanceOf base: Font?, coordinates: [Float],
         shaping: any FaceShaping, blob: OpaquePointer?, synthesis: FontSynthesis = [], tracks: Bool = false,
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

    /// A face HarfBuzz reads from `hbFace` (of `blob`, whose reference it takes), or an instance of
    /// the face `base` at `coordinates` (a variable face's) and `pointSize` (a tracking face's).
    convenience init(id: UInt32, family: String, styleName: String, weight: Int, italic: Bool, widthClass: Int,
                     path: String, faceIndex: Int, blob: OpaquePointer, hbFace: OpaquePointer,
                     instanceOf base: Font? = nil, coordinates: [Float] = [], pointSize: Float = 0) {
        let font = hb_font_create(hbFace)!
        hb_ot_font_set_funcs(font)
        let upem = Int32(hb_face_get_upem(hbFace))
        hb_font_set_scale(font, upem, upem)
        if pointSize > 0 { hb_font_set_ptem(font, pointSize) }
        if !coordinates.isEmpty {
            // Before any metric is read: `MVAR` moves the line metrics with the axes.
            coordinates.withUnsafeBufferPointer { hb_font_set_var_coords_design(font, $0.baseAddress, UInt32($0.count)) }
        }
        var extents = hb_font_extents_t()
        hb_font_get_h_extents(font, &extents)
        func metric(_ tag: hb_ot_metrics_tag_t) -> Int32 {
            var value: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(font, tag, &value)
            return value
        }
        let metrics = Metrics(unitsPerEm: upem, ascender: extents.ascender, descender: -extents.descender,
                              lineGap: extents.line_gap,
                              underline: (metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET), max(metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE), 1)),
                              strikeout: (metric(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET), max(metric(HB_OT_METRICS_TAG_STRIKEOUT_SIZE), 1)),
                              capHeight: metric(HB_OT_METRICS_TAG_CAP_HEIGHT), xHeight: metric(HB_OT_METRICS_TAG_X_HEIGHT))
        let isColorEmoji = hb_ot_color_has_png(hbFace) != 0 || hb_ot_color_has_layers(hbFace) != 0
        let shaping = HarfBuzzShaping(font)  // makes the font immutable
        if let base {
            // An instance maps the same characters as its face: share its coverage.
            self.init(id: id, family: family, styleName: styleName, weight: weight, italic: italic, widthClass: widthClass,
                      path: path, faceIndex: faceIndex, metrics: metrics, isColorEmoji: isColorEmoji, axes: base.axes,
                      namedInstances: base.namedInstances, coverageCount: base.coverageCount, bmpCoverage: base.bmpCoverage,
                      instanceOf: base, coordinates: coordinates, shaping: shaping, blob: hb_blob_reference(blob),
                      tracks: base.tracks, pointSize: pointSize)
            return
        }
        let (axes, namedInstances) = Self.variationData(hbFace)
        let set = hb_set_create()
        hb_face_collect_unicodes(hbFace, set)
        var coverageCount = Int(hb_set_get_population(set))
        let bits = Self.emptyCoverage()
        var codepoint = hb_codepoint_t.max  // HB_SET_VALUE_INVALID: start before the first
        while hb_set_next(set, &codepoint) != 0 && codepoint < 0x10000 {
            bits[Int(codepoint) >> 6] |= 1 << UInt64(codepoint & 63)
        }
        hb_set_destroy(set)
        if CmapSubtables.mapsBeyondItsSet(hbFace) {
            // HarfBuzz maps more than its set lists: ask it of every BMP code point (a few
            // milliseconds, for these rare fonts only).
            for scalar in 0..<UInt32(0x10000) where !Self.covers(bits, UInt16(scalar)) && shaping.nominalGlyph(scalar) != nil {
                bits[Int(scalar) >> 6] |= 1 << UInt64(scalar & 63)
                coverageCount += 1
            }
        }
        Self.addShaperFallbacks(to: bits)
        self.init(id: id, family: family, styleName: styleName, weight: weight, italic: italic, widthClass: widthClass,
                  path: path, faceIndex: faceIndex, metrics: metrics, isColorEmoji: isColorEmoji, axes: axes,
                  namedInstances: namedInstances, coverageCount: coverageCount, bmpCoverage: bits, instanceOf: nil,
                  coordinates: [], shaping: shaping, blob: hb_blob_reference(blob),
                  tracks: hb_aat_layout_has_tracking(hbFace) != 0)
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
    static func addShaperFallbacks(to coverage: UnsafeMutablePointer<UInt64>) {
        func set(_ unit: UInt16) { coverage[Int(unit) >> 6] |= 1 << UInt64(unit & 63) }
        if covers(coverage, 0x0020) { spacesDrawnWithSpace.forEach(set) }
        if covers(coverage, 0x2010) { set(0x2011) }
    }

    /// BMP coverage with no bit set, for a face to fill.
    static func emptyCoverage() -> UnsafeMutablePointer<UInt64> {
        let bits = UnsafeMutablePointer<UInt64>.allocate(capacity: 0x10000 / 64)
        bits.initialize(repeating: 0, count: 0x10000 / 64)
        return bits
    }

    /// An instance of this face at `coordinates` (one per axis of a variable face, clamped
    /// already; empty for a static one) and `pointSize` (0 for none): shapes, measures and draws
    /// as the face does at those axis values, tracked as its `trak` table says at that size.
    /// A face HarfBuzz does not shape has no axes to set (`axes` come from its `fvar` table), so
    /// it is its own only instance.
    func instance(id: UInt32, coordinates: [Float], pointSize: Float = 0) -> Font {
        guard let hbFont, let blob else { return self }
        let face = hb_font_get_face(hbFont)!
        return Font(id: id, family: family, styleName: styleName, weight: weight, italic: italic, widthClass: widthClass,
                    path: path, faceIndex: faceIndex, blob: blob, hbFace: face, instanceOf: self, coordinates: coordinates,
                    pointSize: pointSize)
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
                    blob: blob.map { hb_blob_reference($0) }, synthesis: synthesis, tracks: tracks, pointSize: pointSize)
    }

    deinit {
        if let blob { hb_blob_destroy(blob) }
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

    /// The axes and named instances of a variable face (`fvar`), read once at load.
    private static func variationData(_ face: OpaquePointer) -> ([VariationAxis], [NamedInstance]) {
        guard hb_ot_var_has_data(face) != 0 else { return ([], []) }
        var count = hb_ot_var_get_axis_count(face)
        var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(count))
        hb_ot_var_get_axis_infos(face, 0, &count, &infos)
        let axes = infos.prefix(Int(count)).map {
            VariationAxis(tag: OpenTypeTag.unpack($0.tag), minimum: $0.min_value, defaultValue: $0.default_value, maximum: $0.max_value)
        }
        var instances: [NamedInstance] = []
        for index in 0..<hb_ot_var_get_named_instance_count(face) {
            var coordinateCount = UInt32(axes.count)
            var coordinates = [Float](repeating: 0, count: axes.count)
            hb_ot_var_named_instance_get_design_coords(face, index, &coordinateCount, &coordinates)
            let nameID = hb_ot_var_named_instance_get_subfamily_name_id(face, index)
            instances.append(NamedInstance(name: nameString(face, nameID) ?? "Instance \(index)", coordinates: coordinates))
        }
        return (axes, instances)
    }

    /// A `name` table string in any language HarfBuzz picks first (English where there is one).
    static func nameString(_ face: OpaquePointer, _ nameID: hb_ot_name_id_t) -> String? {
        var length: UInt32 = 128
        var buffer = [CChar](repeating: 0, count: Int(length))
        let total = hb_ot_name_get_utf8(face, nameID, hb_language_from_string("en", -1), &length, &buffer)
        guard total > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
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

    /// The bit for `unit` in a font's BMP coverage.
    @inline(__always)
    static func covers(_ coverage: UnsafeMutablePointer<UInt64>, _ unit: UInt16) -> Bool {
        coverage[Int(unit) >> 6] & (1 << UInt64(unit & 63)) != 0
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
    var ideographicEmBox: (top: Int32, bottom: Int32)? {
        guard let font = hbFont else { return nil }
        let han: hb_tag_t = 0x6861_6E69  // OpenType's script tag 'hani' (ISO 15924's is 'Hani')
        var top: hb_position_t = 0, bottom: hb_position_t = 0
        guard hb_ot_layout_get_baseline(font, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_BOTTOM_OR_LEFT, HB_DIRECTION_LTR, han, 0, &bottom) != 0
        else { return nil }
        hb_ot_layout_get_baseline_with_fallback(font, HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_TOP_OR_RIGHT, HB_DIRECTION_LTR, han, 0, &top)
        return top > bottom ? (top, bottom) : nil
    }
}

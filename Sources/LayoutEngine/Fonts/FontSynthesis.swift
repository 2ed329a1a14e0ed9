/// Faces made from another where a family has none near the weight or slant a style asks for,
/// as CSS `font-synthesis` allows and as CoreText, Skia and Cairo make them. As a style's
/// setting, what it lets the engine make (both by default); as a font's, what it was made with.
///
/// The two transforms are FreeType's (ftsynth.c), the ones Cairo's `CAIRO_FT_SYNTHESIZE_*` apply
/// when Pango draws a synthetic face, so a client drawing with FreeType sees the same glyphs:
/// - bold grows each outline by an em / 24 (`FT_GlyphSlot_Embolden`: every edge moves out by half
///   of it and the glyph right and up by half, so an upright left edge and a flat bottom stay),
///   and every advance by as much: the text takes more room, as a bold face's does;
/// - oblique shears the outlines by 0x366A / 0x10000 (`FT_GlyphSlot_Oblique`, 12 degrees), after
///   emboldening; advances stay.
public struct FontSynthesis: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// A bold, where 600 or more is asked of a face under 600.
    public static let weight = FontSynthesis(rawValue: 1)
    /// An oblique, where italic is asked of an upright face.
    public static let style = FontSynthesis(rawValue: 2)
    public static let all: FontSynthesis = [.weight, .style]

    /// The horizontal shear of an oblique: x += shear × y, y up.
    public static let obliqueShear = Double(0x366A) / 65536
    /// How much of an em an emboldened outline (and its advance) grows.
    public static let emboldening = 1.0 / 24

    /// What `face` must be made into for text asking `weight` and `italic` under `allowed`: a
    /// bold where 600 or more is asked of a face under 600 (Blink's and Gecko's threshold: a
    /// family whose heaviest face is Bold draws 900 with it, as browsers do), an oblique where
    /// italic is asked of an upright face. Faces that make their own (`Font.makesOwn`) and
    /// colour emoji are never synthesised.
    @inline(__always)
    static func needed(weight: Int, italic: Bool, allowed: FontSynthesis, face: Font) -> FontSynthesis {
        var wanted: FontSynthesis = []
        if weight >= 600 && face.weight < 600 { wanted.insert(.weight) }
        if italic && !face.italic { wanted.insert(.style) }
        return wanted.isEmpty ? [] : wanted.intersection(allowed).subtracting(face.makesOwn)
    }

    /// What a loaded face makes itself and must never have made for it: its weights where it has a
    /// `wght` axis, its slant where it has `ital` or `slnt`, everything for colour emoji (bitmaps
    /// and layers that FreeType's transforms do not reach).
    static func madeBy(axes: [VariationAxis], isColorEmoji: Bool) -> FontSynthesis {
        if isColorEmoji { return .all }
        var own: FontSynthesis = []
        if axes.contains(where: { $0.tag == "wght" }) { own.insert(.weight) }
        if axes.contains(where: { $0.tag == "ital" || $0.tag == "slnt" }) { own.insert(.style) }
        return own
    }
}

extension Font {
    /// The glyph's outline as this font draws it, in font units, y up: HarfBuzz's for a loaded
    /// face or instance, grown and slanted for a synthesised one. What the renderer fills where
    /// it draws outlines rather than through Cairo's fonts.
    package func drawOutline(of glyph: UInt32, into sink: any OutlineSink) { shaping.drawOutline(of: glyph, into: sink) }

    /// A synthesised bold's growth at `size`, in points; 0 for a face drawn as it is.
    public func syntheticBold(at size: Double) -> Double {
        synthesis.contains(.weight) ? size * FontSynthesis.emboldening : 0
    }

    /// A synthesised oblique's shear; 0 for an upright face.
    public var syntheticSlant: Double { synthesis.contains(.style) ? FontSynthesis.obliqueShear : 0 }
}

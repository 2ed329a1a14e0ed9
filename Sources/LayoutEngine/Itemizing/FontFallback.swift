import Foundation

/// Chooses the font for each grapheme cluster as CSS matches a `font-family` list: the first of
/// the requested face and the style's own fallback families that can draw the whole cluster;
/// else, for a cluster with emoji presentation, the colour emoji face; else the face its script
/// prefers, the daemon's fallback families, and any loaded face. A style with fallback off
/// (`TextStyle.fontFallback`) keeps its own face throughout.
///
/// A cluster is tested whole so an emoji ZWJ sequence, a flag or a skin-tone sequence never
/// splits across fonts, and as HarfBuzz draws it: a face "maps" the Unicode spaces and U+2011 it
/// draws with its own space and hyphen (`Font.addShaperFallbacks`).
struct FontFallback {
    let registry: FontRegistry
    /// The face each style asks for, by style index.
    let primary: [Font]
    /// The faces of each style's own fallback families, in order; nil when no style names any
    /// (nearly every request: a nil box costs a copy of the fallback nothing).
    let lists: FallbackLists?
    /// True when some style names fallback families: the itemizer's shortcuts, which know only
    /// the requested face, then give way to `font(for:)` for faces from a list.
    var hasLists: Bool { lists != nil }
    /// True when some style names a script to shape as (`Itemizer` then sets its items').
    let hasScripts: Bool
    let styles: [TextStyle]
    /// Whose share the variable font instances it makes count against (`FontInstances`).
    let user: UInt32?

    init(registry: FontRegistry, styles: [TextStyle], user: UInt32?) throws {
        self.registry = registry
        self.styles = styles
        self.user = user
        self.primary = try styles.map { style in
            let family = registry.family(named: style.family)
            guard let font = registry.cachedMatch(family: family, weight: style.effectiveWeight, italic: style.italic) else {
                throw LayoutError(.notFound, "no loaded font family named \"\(family)\"", field: "family")
            }
            return try registry.instance(of: font, for: style, requested: true, user: user)
        }
        hasScripts = styles.contains { $0.script != nil }
        // Most requests name no list: no array is made for them.
        lists = !styles.contains(where: { !$0.fallbackFamilies.isEmpty }) ? nil : FallbackLists(styles.map { style in
            style.fallbackFamilies.compactMap { name -> Font? in
                guard let font = registry.cachedMatch(family: registry.family(named: name), weight: style.effectiveWeight, italic: style.italic) else {
                    return nil
                }
                return (try? registry.instance(of: font, for: style, requested: false, user: user)) ?? font
            }
        })
    }

    /// The font for a cluster whose scalars are `scalars`.
    /// Generic, so a cluster of one scalar is asked about as `CollectionOfOne`, with no array filled.
    func font(for scalars: some Collection<UInt32>, style: Int, script: Script, emoji: Bool) -> Font {
        let requested = primary[style]
        guard styles[style].fontFallback else { return requested }  // .notdef where it lacks a character
        if Self.draws(requested, scalars) { return requested }
        if let lists {
            for font in lists.faces[style] where Self.draws(font, scalars) { return font }
        }
        if emoji, let emojiFont = registry.emojiFont, Self.draws(emojiFont, scalars) { return emojiFont }
        let styleInfo = styles[style]
        if let family = ScriptFonts.family(for: script, language: styleInfo.language),
           let font = registry.cachedMatch(family: family, weight: styleInfo.effectiveWeight, italic: styleInfo.italic),
           Self.draws(font, scalars) {
            return fallbackInstance(font, style)
        }
        for family in registry.fallbackFamilies {
            if let font = registry.cachedMatch(family: family, weight: styleInfo.effectiveWeight, italic: styleInfo.italic),
               Self.draws(font, scalars) {
                return fallbackInstance(font, style)
            }
        }
        return registry.fonts.first { Self.draws($0, scalars) }.map { fallbackInstance($0, style) } ?? requested
    }

    /// A variable fallback face at the style's weight and size, and a face synthesised bold or
    /// oblique where it lacks the style's weight or slant. With the user past its share of
    /// instances it draws as it is rather than fail the text it rescues. Takes the style's
    /// index, not the style: copying a style for every cluster that falls back cost more than the search.
    @inline(__always)
    private func fallbackInstance(_ font: Font, _ style: Int) -> Font {
        guard font.isVariable || !FontSynthesis.needed(weight: styles[style].effectiveWeight, italic: styles[style].italic,
                                                       allowed: styles[style].synthesis, face: font).isEmpty else { return font }
        return (try? registry.instance(of: font, for: styles[style], requested: false, user: user)) ?? font
    }

    /// True when `font` maps every scalar of the cluster that needs a glyph of its own.
    @inline(__always)
    static func covers(_ font: Font, _ scalars: some Collection<UInt32>) -> Bool {
        for scalar in scalars where !isDefaultIgnorable(scalar) {
            if !font.covers(scalar) { return false }
        }
        return true
    }

    /// True when `font` draws the cluster: it maps every scalar, or the cluster's canonical
    /// composition or decomposition, which HarfBuzz's normalizer draws instead (e + U+0301 as
    /// é, Å as A + U+030A). What the fallback asks of each face it tries, and the itemizer of
    /// the open item's face; `covers` alone stays the inlined test of the loops.
    @inline(__always)
    static func draws(_ font: Font, _ scalars: some Collection<UInt32>) -> Bool {
        covers(font, scalars) || drawsNormalized(font, scalars)
    }

    /// True when `font` maps the cluster's NFC or NFD, asked only where that may be so
    /// (`mayCoverNormalized`): the part of `draws` after `covers` fails.
    @inline(__always)
    static func drawsNormalized(_ font: Font, _ scalars: some Collection<UInt32>) -> Bool {
        mayCoverNormalized(font, scalars) && coversNormalized(font, scalars)
    }

    /// Whether normalizing the cluster could give characters `font` maps: it starts with a
    /// precomposed letter, with a base the face maps followed by a mark to compose, or with a base
    /// and a mark that compose (a face may map only the composed letter: U+0627 U+0655 as
    /// U+0625, which HarfBuzz draws). A cluster of a script the face lacks (an Arabic letter and
    /// its haraka, in a Latin face) stops here.
    @inline(__always)
    static func mayCoverNormalized(_ font: Font, _ scalars: some Collection<UInt32>) -> Bool {
        guard let first = scalars.first else { return false }
        return mayNormalize(first) && hasDecompositionMarks(font, first) || font.covers(first) && scalars.contains(where: mayNormalize)
            || mayCompose(first, scalars.dropFirst().first ?? 0)
    }

    /// Whether `base` then `mark` may have a canonical composition (NFC's pairs, by block): Latin,
    /// Greek and Cyrillic letters with a combining diacritic, Arabic alef, waw, yeh and their kin
    /// with madda or hamza, Devanagari's na, ra and lla with nukta, kana with the (semi-)voiced
    /// mark, and a Hangul leading consonant with a vowel.
    @inline(__always)
    static func mayCompose(_ base: UInt32, _ mark: UInt32) -> Bool {
        switch mark {
        case 0x0300...0x036F:
            return (base >= 0x41 && base <= 0x7A) || (base >= 0x00C0 && base <= 0x024F) || (base >= 0x0370 && base <= 0x04FF)
        case 0x0653...0x0655:
            return base == 0x0627 || base == 0x0648 || base == 0x064A || base == 0x06C1 || base == 0x06D2 || base == 0x06D5
        case 0x093C: return base == 0x0928 || base == 0x0930 || base == 0x0933
        case 0x3099, 0x309A: return base >= 0x3041 && base <= 0x30FE
        case 0x1161...0x1175: return base >= 0x1100 && base <= 0x1112
        default: return false
        }
    }

    /// Whether `font` maps the marks a precomposed `scalar` would decompose into: a face without
    /// them cannot draw its decomposition, and no string is built to find that out (a Hangul
    /// syllable in a Latin face, a kana in a face without the voiced mark).
    private static func hasDecompositionMarks(_ font: Font, _ scalar: UInt32) -> Bool {
        switch scalar {
        case 0xAC00...0xD7A3: return font.covers(0x1100) && font.covers(0x1161)  // Hangul: leading consonant and vowel jamo
        case 0x304C...0x30FE: return font.covers(0x3099) || font.covers(0x309A)  // kana: the (semi-)voiced mark
        case 0x0622...0x0626: return font.covers(0x0653) || font.covers(0x0654) || font.covers(0x0655)  // alef's madda and hamzas
        case 0x0929, 0x0931, 0x0934, 0x0958...0x095F: return font.covers(0x093C)  // Devanagari: nukta
        default:
            // Latin, Greek and Cyrillic: any combining diacritical mark (U+0300...U+036F), two
            // words of the face's coverage bits.
            return font.bmpCoverage[0x300 >> 6] != 0 || font.bmpCoverage[0x340 >> 6] & 0xFFFF_FFFF_FFFF != 0
        }
    }

    /// The cluster's NFC, then its NFD, mapped whole by `font`. Reached through
    /// `drawsNormalized` only, whose gate holds a scalar normalizing can change (a combining
    /// mark, or a letter of a block with canonical decompositions): an emoji or an ideograph that
    /// a face lacks costs no string.
    @inline(never)
    private static func coversNormalized(_ font: Font, _ scalars: some Collection<UInt32>) -> Bool {
        var view = String.UnicodeScalarView()
        for scalar in scalars { if let s = Unicode.Scalar(scalar) { view.append(s) } }
        let text = String(view)
        for form in [text.precomposedStringWithCanonicalMapping, text.decomposedStringWithCanonicalMapping] {
            if form.unicodeScalars.allSatisfy({ isDefaultIgnorable($0.value) || font.covers($0.value) }) { return true }
        }
        return false
    }

    /// Whether normalizing may change a cluster holding `scalar`: a combining mark, or a
    /// precomposed letter (Latin, Greek, Cyrillic, Arabic alef forms, Indic nukta letters, Hangul).
    @inline(__always)
    private static func mayNormalize(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05C7, 0x064B...0x065F, 0x0670, 0x093C, 0x09BC, 0x0A3C, 0x0ABC,
             0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0x3099...0x309A, 0xFE20...0xFE2F:
            return true  // combining marks the normalizer composes
        case 0x00C0...0x024F, 0x0370...0x03FF, 0x0400...0x04FF, 0x0622...0x0626, 0x0929, 0x0931, 0x0934, 0x0958...0x095F,
             0x1E00...0x1FFF, 0x304C...0x30FE, 0xAC00...0xD7A3:
            return true  // precomposed letters the normalizer decomposes
        default:
            return false
        }
    }

    /// Scalars HarfBuzz hides rather than draws (Unicode's Default_Ignorable_Code_Point,
    /// the subset text uses), so a face need not map them.
    @inline(__always)
    static func isDefaultIgnorable(_ s: UInt32) -> Bool {
        s == 0x00AD || s == 0x034F || s == 0x061C || (s >= 0x200B && s <= 0x200F) || (s >= 0x202A && s <= 0x202E)
            || (s >= 0x2060 && s <= 0x206F) || s == 0xFEFF || (s >= 0xFE00 && s <= 0xFE0F)
            || (s >= 0xE0000 && s <= 0xE0FFF) || (s >= 0x180B && s <= 0x180F)
    }
}

/// The family that draws a script best in the default font set; CJK picks a regional face by language.
enum ScriptFonts {
    static func family(for script: Script, language: String) -> String? {
        switch script {
        case Script.arabic: return "Noto Naskh Arabic"
        case Script.devanagari: return "Noto Sans Devanagari"
        case Script.hangul: return "Noto Sans CJK KR"
        case Script.hiragana, Script.katakana: return "Noto Sans CJK JP"
        case Script.han, Script.bopomofo: return cjkFamily(language: language)
        default: return nil
        }
    }

    /// Asked for each Han cluster the requested face cannot draw: the tag is read byte by byte,
    /// case folded in place (lowercasing it and five `hasPrefix` calls cost more, most of
    /// them for no language at all).
    static func cjkFamily(language: String) -> String {
        guard !language.isEmpty else { return "Noto Sans CJK SC" }
        let tag = language.utf8.span
        func starts(with prefix: String) -> Bool {
            var i = 0
            for expected in prefix.utf8 {
                guard i < tag.count else { return false }
                let byte = tag[i]
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != expected { return false }
                i += 1
            }
            return true
        }
        if starts(with: "ja") { return "Noto Sans CJK JP" }
        if starts(with: "ko") { return "Noto Sans CJK KR" }
        if starts(with: "zh-hk") || starts(with: "zh-mo") { return "Noto Sans CJK HK" }
        if starts(with: "zh-hant") || starts(with: "zh-tw") { return "Noto Sans CJK TC" }
        return "Noto Sans CJK SC"
    }
}

/// Each style's own fallback faces, by style index, boxed (see `FontFallback.lists`).
final class FallbackLists {
    let faces: [[Font]]
    init(_ faces: [[Font]]) { self.faces = faces }
}

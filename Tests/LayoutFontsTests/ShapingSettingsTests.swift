import Foundation
@testable import LayoutEngine
@testable import LayoutFonts
import Testing

/// What HarfBuzz keeps of the settings it shapes with is bounded (`ShapingSettings`): settings
/// past the limit shape on a twin face, exactly as a kept setting shapes.
@Suite struct ShapingSettingsTests {
    /// A library whose styles ask `table`, not the process's.
    struct Library: ShapingLibrary {
        let table: ShapingSettings
        func prepare(language: String, features: [FontFeature], user: UInt32?) -> AnyObject {
            HarfBuzzStyle(language: language, features: features, user: user, settings: table)
        }
    }

    static let registry: FontRegistry = {
        let noto = "/usr/share/fonts/truetype/noto/"
        var paths = [noto + "NotoSans-Regular.ttf", noto + "NotoNaskhArabic-Regular.ttf", noto + "NotoSansDevanagari-Regular.ttf",
                     "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"]
        let inter = "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"
        if FileManager.default.fileExists(atPath: inter) { paths.append(inter) }
        return try! FontRegistry.load(paths: paths)
    }()

    /// The glyphs `text` shapes to in `font`, its style prepared by `library`.
    static func shape(_ text: String, font: Font, script: Script, rtl: Bool = false, upright: Bool = false,
                      style: TextStyle, library: Library) -> [Glyph] {
        let units = ContiguousArray(text.utf16)
        let shaped = font.shaping.shape(units.span, range: 0..<units.count, context: 0..<units.count, rtl: rtl, upright: upright,
                                        script: script, style: ShapingStyle(style, library: library), buffer: ShapingScratch())
        let slice = shaped.slice
        return (0..<slice.count).map { Glyph(slice[$0]) }
    }

    /// A shaped glyph's every field, comparable.
    struct Glyph: Equatable {
        let id: UInt32, cluster: Int32, advance: Int32, xOffset: Int32, yOffset: Int32, flags: UInt8
        init(_ glyph: ShapedGlyph) {
            (id, cluster, advance, xOffset, yOffset) = (glyph.id, glyph.cluster, glyph.advance, glyph.xOffset, glyph.yOffset)
            flags = glyph.flags.rawValue
        }
    }

    /// Every case shaped with a setting kept and with one past the limit (a table that keeps
    /// none): the same glyphs, advances, offsets, clusters and flags, in Latin, Arabic,
    /// Devanagari and Han (top to bottom), with features that substitute, position and pick
    /// alternates, a language whose primary subtag is the whole tag, and a variable font's
    /// instance (its axis values and point size carried to the twin).
    @Test func aSettingPastTheLimitShapesAsAKeptOne() throws {
        let kept = Library(table: ShapingSettings(limit: 1_000)), past = Library(table: ShapingSettings(limit: 0))
        func font(_ family: String) throws -> Font { try #require(Self.registry.fonts.first { $0.family == family }, "\(family)") }
        let latin = try font("Noto Sans"), arabic = try font("Noto Naskh Arabic"), devanagari = try font("Noto Sans Devanagari")
        let han = try font("Noto Sans CJK JP")
        var faces: [(Font, String, Script, Bool, Bool)] = [
            (latin, "office affluent AVA 1/2 Tö", .latin, false, false),
            (arabic, "العربية في النص", .arabic, true, false),
            (devanagari, "हिन्दी में लिखा", .devanagari, false, false),
            (han, "縦書きの「文章」。", .han, false, true),
        ]
        if let inter = Self.registry.fonts.first(where: { $0.family == "Inter" }) {
            faces.append((inter.instance(id: 9_999, coordinates: [720], pointSize: 30), "Variable office AVA", .latin, false, false))
        }
        let settings: [(String, [FontFeature])] = [
            ("", [FontFeature(tag: "liga", value: 0)]), ("", [FontFeature(tag: "smcp", value: 1)]),
            ("", [FontFeature(tag: "kern", value: 0)]), ("", [FontFeature(tag: "salt", value: 2), FontFeature(tag: "frac", value: 1)]),
            ("tr", []), ("hi", [FontFeature(tag: "kern", value: 0)]), ("ja", [FontFeature(tag: "vert", value: 0)]),
        ]
        for (face, text, script, rtl, upright) in faces {
            for (language, features) in settings {
                let style = TextStyle(family: face.family, features: features, language: language)
                let keptGlyphs = Self.shape(text, font: face, script: script, rtl: rtl, upright: upright, style: style, library: kept)
                let pastGlyphs = Self.shape(text, font: face, script: script, rtl: rtl, upright: upright, style: style, library: past)
                #expect(!keptGlyphs.isEmpty)
                #expect(keptGlyphs == pastGlyphs, "\(face.family) \(language) \(features)")
            }
        }
        // The twin saw the settings: without the feature, Noto Sans ligates "ffi".
        let ligated = Self.shape("office", font: latin, script: .latin, style: TextStyle(family: "Noto Sans"), library: past)
        let unligated = Self.shape("office", font: latin, script: .latin,
                                   style: TextStyle(family: "Noto Sans", features: [FontFeature(tag: "liga", value: 0)]), library: past)
        #expect(ligated.count < unligated.count)
    }

    /// The table keeps at most its limit of settings, each language and feature list together,
    /// and past it a fair share to each other user; spellings HarfBuzz holds as one are one; a
    /// setting kept stays kept; past the limit the language is its whole tag when a kept setting
    /// has it, else its primary subtag when that is two or three letters, else none; and a style
    /// with neither language nor features never asks the table.
    @Test func theTableKeepsAtMostItsLimit() {
        let table = ShapingSettings(limit: 3)
        let library = Library(table: table)
        func prepared(_ language: String, _ features: [FontFeature] = [], user: UInt32? = 7) -> HarfBuzzStyle {
            library.prepare(language: language, features: features, user: user) as! HarfBuzzStyle
        }
        #expect(prepared("EN_us").keepsPlans)
        #expect(prepared("en-US").keepsPlans && table.keptCount == 1)
        #expect(prepared("en-us", [FontFeature(tag: "smcp", value: 1)]).keepsPlans && table.keptCount == 2)
        #expect(prepared("", [FontFeature(tag: "salt", value: 2)]).keepsPlans && table.keptCount == 3)
        let past = prepared("zh-HK", [FontFeature(tag: "salt", value: 3)])
        #expect(!past.keepsPlans && table.keptCount == 3)
        #expect(past.language?.language == ShapingLanguage("zh")?.language)
        // A language a kept setting has keeps its whole tag past the limit.
        let knownLanguage = prepared("en-US", [FontFeature(tag: "liga", value: 0)])
        #expect(!knownLanguage.keepsPlans && knownLanguage.language?.language == ShapingLanguage("en-us")?.language)
        #expect(prepared("x-private").language == nil && !prepared("x-private").keepsPlans)
        #expect(prepared("sgn-be-fr").language?.language == ShapingLanguage("sgn")?.language)
        #expect(prepared("en-US").keepsPlans, "a kept setting stays kept")
        // Another user has a fair share past the limit (3 over 2 users: 1), and no more.
        #expect(prepared("fr", user: 8).keepsPlans && table.keptCount == 4)
        #expect(!prepared("de", user: 8).keepsPlans && !prepared("de", user: 7).keepsPlans && table.keptCount == 4)
        #expect(prepared("").keepsPlans && table.keptCount == 4)
        #expect(prepared("").language == nil)
        // A kept language is interned once: the same pointer each time.
        #expect(prepared("en-US").language?.language == prepared("EN_us").language?.language)
    }

    /// The canonical spelling and the primary subtag, at their edges.
    @Test func languagesAreSpelledAsHarfBuzzSpellsThem() {
        #expect(ShapingSettings.canonical("") == "")
        #expect(ShapingSettings.canonical("sr_Latn_RS") == "sr-latn-rs")
        #expect(ShapingSettings.canonical("de-1996") == "de-1996")
        #expect(ShapingSettings.primarySubtag("de-1996") == "de")
        #expect(ShapingSettings.primarySubtag("yue") == "yue")
        #expect(ShapingSettings.primarySubtag("a") == nil)
        #expect(ShapingSettings.primarySubtag("abcd-x") == nil)
        #expect(ShapingSettings.primarySubtag("12-ab") == nil)
    }
}

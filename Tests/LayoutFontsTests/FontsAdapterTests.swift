import CHarfBuzz
@testable import LayoutEngine
@testable import LayoutFonts
import Testing

/// The fonts adapter's own promises; the engine's tests hold its results (shaping, metrics,
/// coverage) to hb-shape and FreeType.
@Suite struct FontsAdapterTests {
    /// A registry of loaded faces, whether loaded whole or made of them (as the daemon makes its
    /// own), takes HarfBuzz as its library, so each style's language and features are made
    /// HarfBuzz's once, when the style is resolved, not per run.
    @Test func registriesOfLoadedFacesPrepareEachStyleOnce() throws {
        let loaded = try FontRegistry.load(paths: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"])
        #expect(loaded.shapingLibrary is HarfBuzzLibrary)
        let remade = FontRegistry(fonts: loaded.fonts, defaultFamily: loaded.defaultFamily, fallbackFamilies: [])
        #expect(remade.shapingLibrary is HarfBuzzLibrary)
        let style = ShapingStyle(TextStyle(language: "tr"), library: remade.shapingLibrary)
        let prepared = try #require(style.prepared as? HarfBuzzStyle)
        #expect(prepared.language != nil)
        #expect(ShapingStyle(TextStyle(), library: nil).prepared == nil)
    }

    /// The flag bits the adapter keeps in each glyph are HarfBuzz's.
    @Test func glyphMaskBitsAreHarfBuzzs() {
        #expect(GlyphMask.matchesHarfBuzz)
    }

    /// Shaped glyphs read through the adapter are HarfBuzz's: a kerned pair in DejaVu Sans.
    @Test func aShapedRunReadsBackAsHarfBuzzGaveIt() throws {
        let path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let blob = try #require(hb_blob_create_from_file_or_fail(path))
        defer { FontBlobs.destroy(blob) }
        let face = try #require(FontFaces.open(blob, index: 0))
        defer { FontFaces.close(face) }
        let (font, metrics) = FaceFonts.make(face, coordinates: [], pointSize: 0)
        FaceFonts.makeImmutable(font)
        defer { FaceFonts.destroy(font) }
        #expect(metrics.unitsPerEm == 2048)
        let units = Array("AVA".utf16)
        let buffer = ShapingBuffer()
        var glyphs: [(UInt32, UInt32, Int32)] = []
        var masks: [UInt32] = []
        units.withUnsafeBufferPointer { units in
            withUnsafePointer(to: 0..<3) { piece in
                buffer.shape(units, pieces: UnsafeBufferPointer(start: piece, count: 1), context: 0..<3, font: font,
                             direction: .leftToRight, script: HB_SCRIPT_LATIN.rawValue, language: ShapingLanguage("en"),
                             features: ShapingFeatures([])) { shaped in
                    for i in 0..<shaped.count {
                        glyphs.append((shaped.id(i), shaped.cluster(i), shaped.xAdvance(i)))
                        masks.append(shaped.mask(i) & GlyphMask.keptFlags)
                    }
                }
            }
        }
        #expect(glyphs.map(\.1) == [0, 1, 2])
        #expect(glyphs.map(\.0) == ["A", "V", "A"].map { FaceFonts.nominalGlyph(font, $0.unicodeScalars.first!.value)! })
        // Kerning pulls A and V together: the kerned advances are below the nominal ones.
        let nominal = FaceFonts.inkExtents(font, glyphs[0].0)
        #expect(nominal.width > 0)
        #expect(glyphs[0].2 < 1401, "A's advance \(glyphs[0].2) is not kerned")
        // Kerning makes the cut between A and V unsafe.
        #expect(masks[1] & GlyphMask.unsafeToBreak != 0)
    }

    @Test func fontconfigResolvesAnAliasAndKnowsNoMadeUpFamily() throws {
        let fontconfig = try #require(Fontconfig())
        #expect(!fontconfig.files(ofFamily: "DejaVu Sans").isEmpty)
        guard case .family(let family) = fontconfig.resolve("sans-serif") else {
            Issue.record("sans-serif resolved to \(fontconfig.resolve("sans-serif"))")
            return
        }
        #expect(!fontconfig.files(ofFamily: family).isEmpty)
        #expect(fontconfig.resolve("No Such Family Ever 1234") == .unknown)
    }
}

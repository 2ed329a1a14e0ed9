import Foundation
import Testing
import TestSupport
@testable import LayoutEngine

/// Glyph flags (`ParagraphRequest.reportsGlyphFlags`): each glyph's HarfBuzz flags, held to
/// `hb-shape --unsafe-to-concat --show-flags` on the same font and text; none unless asked, and
/// the same flags whether or not the shaping cache held the text before.
@Suite struct GlyphFlagsTests {
    static let samples: [(family: String, file: String, text: String)] = [
        ("Noto Sans", "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf", "office AVAT Type"),
        ("Noto Naskh Arabic", "/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf", "مرحبا بالعالم"),
        ("Noto Sans Devanagari", "/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf", "हिन्दी क्षेत्र"),
    ]

    static func layout(_ text: String, family: String, flags: Bool, layouter: ParagraphLayouter = Fixtures.layouter) throws -> ParagraphLayout {
        var request = ParagraphRequest(text: AttributedText(text, style: TextStyle(family: family, size: 1000)), width: 1_000_000)
        request.reportsGlyphFlags = flags
        return try layouter.layout(request)
    }

    @Test(arguments: samples.indices)
    func flagsAreHarfBuzzs(_ index: Int) throws {
        let sample = Self.samples[index]
        guard let expected = try HBShape.output(sample.text, ["--unsafe-to-concat", "--show-flags", "--no-glyph-names", "--no-positions",
                                                              "--font-file=\(sample.file)"]) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        // Cached shapes from a layout without flags must not answer for one with them.
        _ = try Self.layout(sample.text, family: sample.family, flags: false)
        let layout = try Self.layout(sample.text, family: sample.family, flags: true)
        #expect(layout.reportsGlyphFlags)
        #expect(layout.lines.count == 1 && layout.runs.count == 1, "one run, as hb-shape shapes it")
        let glyphs = layout.runs.flatMap { Array($0.glyphs) }
        let ours = glyphs.map { "\($0.id)=\($0.cluster)" + ($0.flags.isEmpty ? "" : "#\($0.flags.rawValue)") }
        #expect("[" + ours.joined(separator: "|") + "]" == expected)
        #expect(glyphs.contains { $0.flags.contains(.unsafeToConcat) }, "the sample has glyphs unsafe to concatenate")
    }

    @Test func textOnAPathKeepsTheFlags() throws {
        let straight = try Self.layout("office AVAT", family: "Noto Sans", flags: true)
        var request = ParagraphRequest(text: AttributedText("office AVAT", style: TextStyle(family: "Noto Sans", size: 1000)), width: 1_000_000)
        request.reportsGlyphFlags = true
        request.textPath = TextPath(path: Path([.move(Point(x: 0, y: 2000)), .line(Point(x: 100_000, y: 2000))]))
        let bent = try Fixtures.layouter.layout(request)
        let flags = { (layout: ParagraphLayout) in layout.runs.flatMap { $0.glyphs.map(\.flags.rawValue) } }
        #expect(flags(bent) == flags(straight) && flags(bent).contains { $0 != 0 })
    }

    @Test func noFlagsUnlessAsked() throws {
        let layout = try Self.layout("office مرحبا", family: "Noto Sans", flags: false)
        #expect(!layout.reportsGlyphFlags)
        #expect(layout.runs.allSatisfy { $0.glyphs.allSatisfy { $0.flags.isEmpty } })
        // Asking shapes past the cache, and leaves the context as it was for the next request.
        let flagged = try Self.layout("office مرحبا", family: "Noto Sans", flags: true)
        #expect(flagged.runs.contains { $0.glyphs.contains { !$0.flags.isEmpty } })
        let after = try Self.layout("office مرحبا", family: "Noto Sans", flags: false)
        #expect(after.runs.allSatisfy { $0.glyphs.allSatisfy { $0.flags.isEmpty } })
        #expect(after.runs.map(\.glyphIDs) == flagged.runs.map(\.glyphIDs), "the same glyphs either way")
    }
}

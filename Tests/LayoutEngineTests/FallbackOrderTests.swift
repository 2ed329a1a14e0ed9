import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode

/// Font matching as CSS matches a `font-family` list and as HarfBuzz draws with a face: a
/// style's own fallback families come before the daemon's; the first family that maps a cluster
/// draws it, emoji included; and a face "maps" the Unicode spaces and the no-break hyphen it
/// draws with its own space and hyphen, so text in it stays in it, as hb-shape draws it.
@Suite struct FallbackOrderTests {
    static func layout(_ text: String, family: String, fallbackFamilies: [String] = []) throws -> ParagraphLayout {
        var style = TextStyle(family: family, size: 20)
        style.fallbackFamilies = fallbackFamilies
        return try Fixtures.layouter.layout(ParagraphRequest(text: AttributedText(text, style: style), width: 600))
    }

    static func families(_ layout: ParagraphLayout) -> [String] {
        layout.runs.map { Fixtures.registry.font(id: $0.fontID)!.family }
    }

    /// Noto Sans Devanagari maps none of these, but HarfBuzz draws each with its space or its
    /// U+2010: the whole text is one run of the face, glyph for glyph and advance for advance
    /// what hb-shape draws with it.
    @Test func unicodeSpacesAndTheNoBreakHyphenStayInTheFaceThatDrawsThem() throws {
        let text = "क\u{2009}ख\u{2003}ग\u{2011}घ\u{3000}ङ\u{00A0}च\u{202F}छ\u{2007}ज"
        let layout = try Self.layout(text, family: "Noto Sans Devanagari")
        #expect(Set(Self.families(layout)) == ["Noto Sans Devanagari"], "\(Self.families(layout))")
        let font = try #require(Fixtures.registry.font(id: layout.runs[0].fontID))
        guard let expected = try HBShape.entries(text, ["--no-glyph-names", "--no-clusters", "--no-positions", "--font-file=\(font.path)"]),
              let advances = try HBShape.entries(text, ["--no-glyph-names", "--no-clusters", "--font-file=\(font.path)"]) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        #expect(layout.runs.flatMap(\.glyphIDs) == expected.compactMap { UInt32($0) })
        // "37+500": the glyph and its advance in font units; ours are points at size 20.
        let units = advances.compactMap { $0.split(separator: "+").last.flatMap { Double($0) } }
        let ours = layout.runs.flatMap(\.glyphs).map { $0.advance / font.scale(for: 20) }
        #expect(zip(ours, units).allSatisfy { abs($0 - $1) < 0.01 } && ours.count == units.count, "\(ours) against \(units)")
        // A face without U+2010 still lacks U+2011: it falls back (Noto Sans Myanmar, where fonts-noto-core has it).
        let myanmar = "/usr/share/fonts/truetype/noto/NotoSansMyanmar-Regular.ttf"
        if FileManager.default.fileExists(atPath: myanmar), let face = try FontRegistry.load(paths: [myanmar]).fonts.first {
            #expect(face.covers(0x2003) && face.covers(0x00A0) && !face.covers(0x2010) && !face.covers(0x2011))
        }
    }

    /// DejaVu Sans maps ☕ (emoji presentation): asked for, it draws it, as CSS takes the first
    /// family that covers a cluster; a style of Noto Sans, which lacks it, gets the colour emoji
    /// face before the daemon's later families.
    @Test func theFirstFamilyThatMapsAnEmojiDrawsIt() throws {
        #expect(Self.families(try Self.layout("Tea ☕ now", family: "DejaVu Sans")) == ["DejaVu Sans"])
        #expect(Self.families(try Self.layout("Tea ☕ now", family: "Noto Sans")) == ["Noto Sans", "Noto Color Emoji", "Noto Sans"])
    }

    /// A style's own list is tried in order before the daemon's fallback: ☕ from DejaVu Sans when
    /// it is listed, and Thai from the listed Noto Sans Thai; a family listed after one that maps
    /// the cluster is not used.
    @Test func aStylesOwnFamiliesComeFirstInTheirOrder() throws {
        let listed = try Self.layout("Tea ☕ now", family: "Noto Sans", fallbackFamilies: ["DejaVu Sans"])
        #expect(Self.families(listed) == ["Noto Sans", "DejaVu Sans", "Noto Sans"], "\(Self.families(listed))")
        let both = try Self.layout("ชา ☕", family: "Noto Sans", fallbackFamilies: ["Noto Sans Thai", "DejaVu Sans"])
        #expect(Self.families(both) == ["Noto Sans Thai", "DejaVu Sans"], "\(Self.families(both))")
        // Greek: Noto Sans maps it, so no listed family is asked.
        #expect(Self.families(try Self.layout("λόγος", family: "Noto Sans", fallbackFamilies: ["DejaVu Sans"])) == ["Noto Sans"])
        // DejaVu Sans listed before Noto Sans Thai: DejaVu lacks Thai, so Noto Sans Thai still draws it.
        let order = try Self.layout("ชา", family: "Noto Sans", fallbackFamilies: ["DejaVu Sans", "Noto Sans Thai"])
        #expect(Self.families(order) == ["Noto Sans Thai"])
    }

    /// After a listed face draws a letter, a letter an earlier listed face maps goes back to it:
    /// per cluster, the first family that maps it.
    @Test func eachClusterTakesTheEarliestListedFaceThatMapsIt() throws {
        // Noto Sans Devanagari maps the digits and Latin? It maps neither Latin letters nor ☕;
        // DejaVu maps both. Text in Noto Sans CJK SC (which maps Latin but not Devanagari).
        let layout = try Self.layout("漢क☕a", family: "Noto Sans CJK SC", fallbackFamilies: ["Noto Sans Devanagari", "DejaVu Sans"])
        #expect(Self.families(layout) == ["Noto Sans CJK SC", "Noto Sans Devanagari", "DejaVu Sans", "Noto Sans CJK SC"],
                "\(Self.families(layout))")
    }

    /// The shortcuts the itemizer takes hold the same items as the general path with lists too.
    @Test func theShortcutsAgreeWithTheGeneralPathWithLists() throws {
        for text in ["Tea ☕ now and ชา then", "漢字 and क ☕ a"] + Fixtures.ownCaptions.map(\.text) {
            var style = TextStyle(family: "Noto Sans", size: 20)
            style.fallbackFamilies = ["DejaVu Sans", "Noto Sans Thai"]
            let attributed = AttributedText(text, style: style)
            #expect(try ItemizerShortcutTests.items(attributed, shortcuts: true) == ItemizerShortcutTests.items(attributed, shortcuts: false),
                    "\(text)")
        }
    }
}

/// A face maps a cluster that HarfBuzz's normalizer turns into characters it maps: e + U+0301
/// in a face with é but no combining acute, Å in a face with A and the combining ring but no Å.
/// The faces are DejaVu Sans cut down by fontTools' pyftsubset (scripts/setup.sh installs it),
/// loaded beside Noto Sans, which maps everything here and would take the text otherwise.
@Suite struct NormalizedCoverageTests {
    static func subset(_ unicodes: String, name: String) throws -> String? {
        let tool = "/usr/bin/pyftsubset"
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-\(name)-\(getpid()).ttf").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "--unicodes=\(unicodes)", "--output-file=\(output)"]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? output : nil
    }

    static func check(_ text: String, unicodes: String, name: String, glyphs: Int) throws {
        guard let path = try subset(unicodes, name: name) else {
            Issue.record("pyftsubset is missing: scripts/setup.sh installs fonttools")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registry = try FontRegistry.load(paths: [path, "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"])
        let layout = try ParagraphLayouter(fonts: registry)
            .layout(ParagraphRequest(text: AttributedText(text, style: TextStyle(family: "DejaVu Sans", size: 20)), width: 400))
        #expect(Set(layout.runs.map { registry.font(id: $0.fontID)!.path }) == [path], "one face, the cut DejaVu Sans: \(name)")
        guard let expected = try HBShape.entries(text, ["--no-glyph-names", "--no-positions", "--no-clusters", "--font-file=\(path)"]) else {
            Issue.record("hb-shape is missing: scripts/setup.sh installs libharfbuzz-bin")
            return
        }
        #expect(layout.runs.flatMap(\.glyphIDs) == expected.compactMap { UInt32($0) }, "\(name)")
        #expect(layout.runs.flatMap(\.glyphIDs).count == glyphs, "\(name)")
    }

    @Test func aComposedFormTheFaceMapsKeepsTheClusterInIt() throws {
        // "cafe" + U+0301: HarfBuzz draws é, one glyph for the last cluster.
        try Self.check("cafe\u{301}", unicodes: "U+0020-007E,U+00E9", name: "no-combining-acute", glyphs: 4)
    }

    @Test func aDecomposedFormTheFaceMapsKeepsTheLetterInIt() throws {
        // Å: HarfBuzz draws A and the combining ring, two glyphs.
        try Self.check("\u{C5}s", unicodes: "U+0020-007E,U+030A", name: "no-a-ring", glyphs: 3)
    }
}

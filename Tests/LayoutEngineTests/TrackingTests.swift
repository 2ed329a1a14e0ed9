import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutUnicode
import LayoutFonts

/// An AAT `trak` table's tracking, applied at the style's optical size as CoreText applies it at
/// the point size, and held to `hb-shape --font-ptem` on the same font (HarfBuzz's own test
/// font, TRAK.ttf: 1,000 units a glyph untracked, 1,200 at 2 points or less, 929 at 72).
@Suite struct TrackingTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HarfBuzzInHouse/fonts/TRAK.ttf").path
    static let registry: FontRegistry? = try? Fixtures.registry.adding(
        [ClientFont(family: "Trak", bytes: FontBytes([UInt8](try! Data(contentsOf: URL(fileURLWithPath: path)))))], field: "fonts")

    /// Each glyph's advance in font units (1,000 an em), for "ABC" at `size` with `settings`.
    static func advances(size: Double, _ settings: FontVariationSettings = .automatic) throws -> [Int] {
        let registry = try #require(Self.registry)
        var style = TextStyle(family: "Trak", size: size)
        style.variations = settings
        let layout = try ParagraphLayouter(fonts: registry).layout(ParagraphRequest(text: AttributedText("ABC", style: style), width: 100_000))
        return layout.runs.flatMap(\.advances).map { Int(saturating: ($0 * 1000 / size).rounded()) }
    }

    /// hb-shape's advances for "ABC" with `ptem` (none when nil).
    static func hbShape(ptem: Double?) throws -> [Int]? {
        try HBShape.entries("ABC", ["--no-glyph-names", "--no-clusters", "--font-funcs=ot", "--font-file=\(path)"]
                            + (ptem.map { ["--font-ptem=\($0)"] } ?? []))?.map { Int($0.split(separator: "+")[1])! }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: HBShape.path), "hb-shape (libharfbuzz-bin) is missing"),
          arguments: [1.0, 9, 12, 24, 72, 144, 300])
    func tracksAtTheSizeAsHBShapeDoesAtThatPtem(_ size: Double) throws {
        #expect(try Self.advances(size: size) == (try #require(try Self.hbShape(ptem: size))))
    }

    @Test func theTableSaysWhatTheSizesGet() throws {
        // The test font's own numbers (harfbuzz test/shape/data/in-house/tests/aat-trak.tests).
        // Past the table's last size Debian's HarfBuzz 6.0 extrapolates (843 at 144, where the
        // file, for a newer HarfBuzz, holds 900): the sizes inside the table agree.
        #expect(try Self.advances(size: 2) == [1200, 1200, 1200])
        #expect(try Self.advances(size: 24) == [986, 986, 986])
        #expect(try Self.advances(size: 72) == [929, 929, 929])
    }

    @Test func fixedOpticalSizeTracksNothingAndAnOpticalSizeIsFollowed() throws {
        #expect(try Self.advances(size: 24, FontVariationSettings(opticalSizing: false)) == [1000, 1000, 1000])
        // At 48 points, designed for 24.
        #expect(try Self.advances(size: 48, FontVariationSettings(opticalSize: 24)) == [986, 986, 986])
        #expect(try Self.advances(size: 48, FontVariationSettings(opticalSizing: false, opticalSize: 24)) == [1000, 1000, 1000])
    }

    @Test func aFaceWithoutTrakIsNotMadeAnInstance() throws {
        let registry = try #require(Self.registry)
        let trak = try #require(registry.clientFaces(after: Fixtures.registry).first)
        #expect(trak.tracks)
        let noto = try #require(Fixtures.registry.fonts.first { $0.family == "Noto Sans" && $0.weight == 400 && !$0.italic })
        #expect(!noto.tracks)
        #expect(try Fixtures.registry.instance(of: noto, for: TextStyle(family: "Noto Sans", size: 31), requested: true, user: nil) === noto)
        // One instance per size, made once.
        let a = try registry.instance(of: trak, for: TextStyle(family: "Trak", size: 31), requested: true, user: nil)
        let b = try registry.instance(of: trak, for: TextStyle(family: "Trak", size: 31), requested: true, user: nil)
        #expect(a === b && a !== trak && a.pointSize == 31 && a.wireID == trak.id)
    }

    @Test func anOpticalSizeOutOfRangeIsRefusedByName() {
        for size in [-1.0, 0, .nan, .infinity, 10_001] {
            #expect(throws: LayoutError.self) {
                try StyleRules.checkVariations(FontVariationSettings(opticalSize: size), field: "style")
            }
        }
        #expect(throws: Never.self) { try StyleRules.checkVariations(FontVariationSettings(opticalSize: 24), field: "style") }
    }
}

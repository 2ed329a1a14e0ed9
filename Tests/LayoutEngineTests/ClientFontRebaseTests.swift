import Foundation
import Testing
@testable import LayoutEngine
import LayoutUnicode
import LayoutFonts

/// A connection's registered faces carried over a reload: the same faces (no check or coverage
/// scan again) over the new set where their ids still follow it, made again where they do not;
/// either way they shadow what they shadowed.
@Suite struct ClientFontRebaseTests {
    static let nimbus = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"

    @Test func facesAreKeptOverASetOfTheSameSize() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.nimbus)))
        let first = try FontRegistry.load(paths: DefaultFonts.paths)
        let registered = try first.adding([ClientFont(family: "Noto Sans", bytes: bytes)], field: "fonts")
        let reloaded = try FontRegistry.load(paths: DefaultFonts.paths)
        let rebased = try #require(registered.rebased(onto: reloaded))
        #expect(rebased.clientFonts.count == 1 && rebased.clientFonts[0] === registered.clientFonts[0])
        #expect(rebased.fonts.prefix(reloaded.fonts.count).elementsEqual(reloaded.fonts, by: ===))
        // It still shadows the loaded family, and lays text out with it.
        let layout = try ParagraphLayouter(fonts: rebased).layout(ParagraphRequest(text: AttributedText("shadow",
                                                                style: TextStyle(family: "Noto Sans", size: 20)), width: 300))
        #expect(layout.runs.allSatisfy { $0.fontID == registered.clientFonts[0].id })
        // A set of another size: the ids would not follow it.
        let smaller = try FontRegistry.load(paths: Array(DefaultFonts.paths.prefix(1)))
        #expect(registered.rebased(onto: smaller) == nil || smaller.fonts.count == reloaded.fonts.count)
    }
}

import Foundation
import Testing
import TestSupport
@testable import LayoutEngine
import LayoutRender
import LayoutUnicode
import LayoutFonts

/// The font path under damaged fonts: every mutant of real fonts (CFF, TrueType, variable, a tiny
/// one) is checked as a client's font is, and each that passes is laid out (Latin, Arabic, an
/// emoji falling back) and drawn. Nothing may crash; a refusal must be INVALID_ARGUMENT naming the
/// font. `LAYOUTD_FONT_FUZZ_ITERATIONS` and `LAYOUTD_FONT_FUZZ_SEED` run longer or other passes
/// (scripts/fuzz-fonts.sh); under scripts/asan.sh the pass runs with AddressSanitizer.
@Suite struct FontFuzzTests {
    static let seeds = ["/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
                        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                        "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf",
                        "/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf"]
    static let tiny = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("LayoutWireTests/Vectors/tiny.ttf").path

    static var iterations: Int { ProcessInfo.processInfo.environment["LAYOUTD_FONT_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1_000 }
    static var seed: UInt64 { ProcessInfo.processInfo.environment["LAYOUTD_FONT_FUZZ_SEED"].flatMap(UInt64.init) ?? 0x5EED_F0_17 }

    @Test func damagedFontsAreRefusedOrServedNeverCrash() throws {
        let fonts = (Self.seeds + [Self.tiny]).compactMap { FileManager.default.contents(atPath: $0).map(Array.init) }
        try #require(fonts.count == Self.seeds.count + 1, "a seed font is missing: scripts/setup.sh installs them")
        let base = Fixtures.registry
        var mutator = FontMutator(random: SeededGenerator(seed: Self.seed))
        var served = 0, refused = 0, drawn = 0
        for iteration in 0..<Self.iterations {
            let original = fonts[iteration % fonts.count]
            let mutant = mutator.mutate(original)
            let registry: FontRegistry
            do {
                registry = try base.adding([ClientFont(family: "Mutant", bytes: mutant)], field: "fonts")
            } catch {
                #expect(error.code == .invalidArgument && error.field.hasPrefix("fonts[0]"), "\(iteration): \(error)")
                refused += 1
                continue
            }
            served += 1
            let layouter = ParagraphLayouter(fonts: registry, cache: nil)
            let style = TextStyle(family: "Mutant", size: 18, variations: FontVariationSettings(axes: [FontVariation(tag: "wght", value: 700)]))
            for text in ["Hamburgefonstiv fi ffl 0123", "مرحبا بالعالم", "A😀A"] {
                guard let layout = try? layouter.layout(ParagraphRequest(text: AttributedText(text, style: style), width: 200)) else { continue }
                let scene = RenderScene(size: Size(width: 220, height: min(layout.size.height, 400) + 20), canvas: Color(red: 1, green: 1, blue: 1),
                                        origin: Point(x: 10, y: 10), backgrounds: [], runs: layout.runs, textColor: Color(red: 0, green: 0, blue: 0))
                if (try? Renderer(fonts: registry).render(scene, format: .png, scale: 1)) != nil { drawn += 1 }
            }
        }
        print("font fuzz: \(Self.iterations) mutants, \(served) served, \(refused) refused, \(drawn) pictures")
        // Both outcomes occur: the mutations are neither all fatal nor all harmless.
        #expect(served > Self.iterations / 20 && refused > Self.iterations / 20, "served \(served), refused \(refused)")
    }
}

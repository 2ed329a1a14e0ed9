import Testing
@testable import LayoutEngine
import LayoutFonts

/// Fonts found through fontconfig, as Debian's fonts-noto-core and fonts-dejavu-core install them.
@Suite struct SystemFontsTests {
    let fontconfig: SystemFonts

    init() throws { fontconfig = try SystemFonts() }

    @Test func aFamilyIsFoundWithEveryFaceFile() throws {
        let family = try fontconfig.family("DejaVu Sans")
        #expect(family.name == "DejaVu Sans")
        #expect(family.files.contains("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"))
        #expect(family.files.contains("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"))
        #expect(family.files == family.files.sorted() && Set(family.files).count == family.files.count)
    }

    @Test func fontconfigMatchesNamesWithoutCaseAndGivesTheFontsSpelling() throws {
        #expect(try fontconfig.family("dejavu sans mono").name == "DejaVu Sans Mono")
    }

    @Test func anAliasResolvesToTheFamilyItMeans() throws {
        let sans = try fontconfig.family("sans-serif")
        let mono = try fontconfig.family("monospace")
        // Which family depends on the fonts installed; it is a real one, with files, and not the alias.
        #expect(!sans.files.isEmpty && sans.name != "sans-serif")
        #expect(!mono.files.isEmpty && mono.name != "monospace" && mono.name != sans.name)
        #expect(try fontconfig.family("emoji").name == "Noto Color Emoji")
    }

    @Test func aFamilyFontconfigWouldOnlySubstituteIsAnError() {
        #expect(throws: LayoutError.self) { try fontconfig.family("No Such Family 7") }
        do {
            _ = try fontconfig.family("No Such Family 7")
        } catch {
            #expect(error.message.contains("No Such Family 7") && error.field == "font-family")
        }
    }
}

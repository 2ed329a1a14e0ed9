import Testing
import TestSupport
@testable import LayoutEngine
import LayoutFonts

/// `hasFamily` answers the default family's name from a flag found the general way at load
/// (most requests name it): every name gives what the sets and the lowercased keys give.
@Suite struct FontRegistryFamilyTests {
    static func generalAnswer(_ registry: FontRegistry, _ family: String) -> Bool {
        registry.fonts.contains { $0.family == family || FontRegistry.key($0.family) == FontRegistry.key(family) }
    }

    @Test func theDefaultFamilyIsAnsweredAsAnyOther() throws {
        let loaded = try FontRegistry.load(paths: DefaultFonts.installedPaths)
        let names = Set(loaded.fonts.map(\.family)) + ["", "noto sans", "NOTO SANS", "No Such Family", "Noto Sans ", loaded.defaultFamily]
        for defaultFamily in ["Noto Sans", "DejaVu Sans", "No Such Family", ""] {
            let registry = FontRegistry(fonts: loaded.fonts, defaultFamily: defaultFamily, fallbackFamilies: [])
            for name in names {
                #expect(registry.hasFamily(name) == Self.generalAnswer(registry, name), "default \(defaultFamily), asked \(name)")
            }
        }
        // No fonts: the default family kept as it was named is not loaded.
        let empty = FontRegistry(fonts: [], defaultFamily: "Noto Sans", fallbackFamilies: [])
        #expect(!empty.hasFamily("Noto Sans") && !empty.hasFamily(""))
    }
}

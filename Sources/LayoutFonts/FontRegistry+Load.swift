import LayoutEngine

extension FontRegistry {
    /// The largest font file the registry reads.
    public static var maxFileBytes: Int { FontFile.maxBytes }

    /// Loads the given files, their faces shaped by HarfBuzz; files that cannot be read are
    /// reported, not skipped silently.
    public static func load(paths: [String], defaultFamily: String = "Noto Sans",
                            fallbackFamilies: [String] = DefaultFonts.fallbackFamilies) throws -> FontRegistry {
        var fonts: [Font] = []
        var problems: [String] = []
        for path in paths {
            fonts += try FontFile.load(path: path, firstID: UInt32(fonts.count), problems: &problems)
        }
        guard !fonts.isEmpty else {
            throw LayoutError(.notFound, "no font could be loaded" + (problems.isEmpty ? "" : ": " + problems.joined(separator: "; ")),
                              field: "fonts")
        }
        return FontRegistry(fonts: fonts, defaultFamily: defaultFamily, fallbackFamilies: fallbackFamilies, problems: problems)
    }
}

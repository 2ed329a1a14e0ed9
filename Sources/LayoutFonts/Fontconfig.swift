import CFontconfig

/// The system's font configuration, as fontconfig reads it: which files hold a family, and
/// what an alias ("sans-serif") or an unknown name resolves to.
package final class Fontconfig {
    private let config: OpaquePointer

    /// nil when fontconfig cannot load its configuration.
    package init?() {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        self.config = config
    }

    deinit { FcConfigDestroy(config) }

    /// How fontconfig resolves a family name it may not list itself.
    package enum Resolution: Equatable {
        /// The name is neither a family nor an alias: after substitution it still comes first.
        case unknown
        /// Fontconfig matched no font, or its match names no family.
        case noMatch, unnamedMatch
        /// The family of the font that best matches the name.
        case family(String)
    }

    /// What `name` resolves to through the configuration's substitutions (an alias is replaced
    /// by what it means) and fontconfig's best match.
    package func resolve(_ name: String) -> Resolution {
        let pattern = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        _ = name.withCString { FcPatternAddString(pattern, FC_FAMILY, $0.withMemoryRebound(to: FcChar8.self, capacity: 1) { $0 }) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        // A name fontconfig does not know stays first, with only the default families after it.
        guard let first = Self.string(pattern, FC_FAMILY, 0), first != name else { return .unknown }
        var result = FcResultMatch
        guard let match = FcFontMatch(config, pattern, &result) else { return .noMatch }
        defer { FcPatternDestroy(match) }
        guard let family = Self.string(match, FC_FAMILY, 0) else { return .unnamedMatch }
        return .family(family)
    }

    /// The family names fontconfig lists for fonts of `family` (matched without case and
    /// spaces), as the fonts spell them.
    package func familyNames(_ family: String) -> [String] { listFonts(family: family, element: FC_FAMILY) }

    /// The files of `family`'s fonts, sorted, each once.
    package func files(ofFamily family: String) -> [String] {
        Array(Set(listFonts(family: family, element: FC_FILE))).sorted()
    }

    /// One property of every font of `family` that fontconfig lists.
    private func listFonts(family: String, element: UnsafePointer<CChar>) -> [String] {
        let pattern = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, $0.withMemoryRebound(to: FcChar8.self, capacity: 1) { $0 }) }
        guard let objects = FcObjectSetCreate() else { return [] }
        defer { FcObjectSetDestroy(objects) }
        FcObjectSetAdd(objects, element)
        guard let list = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(list) }
        // SAFETY: the font set and its patterns live until the deferred destroy; each string is
        // copied out before it.
        let count = Int(list.pointee.nfont)
        return (0..<count).compactMap { index in
            list.pointee.fonts[index].flatMap { Self.string($0, element, 0) }
        }
    }

    private static func string(_ pattern: OpaquePointer?, _ element: UnsafePointer<CChar>, _ index: Int32) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, element, index, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}

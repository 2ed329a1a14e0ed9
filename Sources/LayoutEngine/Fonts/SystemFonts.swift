import CFontconfig

/// Fonts found the way Pango and every Linux desktop find them: fontconfig's font directories and
/// its `conf.d` aliases (`sans-serif`, `serif`, `monospace`, `emoji`).
///
/// Only at start-up and reload: the daemon then holds the files itself, and layout never asks
/// fontconfig anything (its substitution would differ from the engine's per-cluster fallback).
/// One instance reads fontconfig's configuration and font cache once for every name asked of it;
/// use it on one thread (fontconfig's configuration objects are not shared here).
public final class SystemFonts {
    /// A family fontconfig resolved a name to, and the files of all its faces, sorted.
    public struct Family: Sendable, Equatable {
        public var name: String
        public var files: [String]
    }

    /// The family `name` means: itself when fontconfig knows a family of that name, else the
    /// family a `conf.d` alias puts in its place (`sans-serif` → `Noto Sans` on Debian). A name
    /// fontconfig would only replace by its last-resort default (a family that is not installed,
    /// or a metric alias such as `Arial` without its metric-compatible font) is an error: silently
    /// drawing an operator's "Foo Sans" in Noto Sans is what a configuration check is for.
    private let config: OpaquePointer

    public init() throws(LayoutError) {
        guard let config = FcInitLoadConfigAndFonts() else {
            throw LayoutError(.notFound, "fontconfig could not load its configuration", field: "font-family")
        }
        self.config = config
    }

    deinit { FcConfigDestroy(config) }

    public func family(_ name: String) throws(LayoutError) -> Family {
        let direct = files(ofFamily: name)
        if !direct.isEmpty { return Family(name: canonicalName(name) ?? name, files: direct) }

        let pattern = FcPatternCreate()
        defer { FcPatternDestroy(pattern) }
        _ = name.withCString { FcPatternAddString(pattern, FC_FAMILY, $0.withMemoryRebound(to: FcChar8.self, capacity: 1) { $0 }) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        // An alias is replaced by what it means; a name fontconfig does not know stays first,
        // with only the default families appended after it.
        guard let first = Self.string(pattern, FC_FAMILY, 0), first != name else {
            throw LayoutError(.notFound, "fontconfig knows no family or alias \"\(name)\"", field: "font-family")
        }
        var result = FcResultMatch
        guard let match = FcFontMatch(config, pattern, &result) else {
            throw LayoutError(.notFound, "fontconfig matched no font for \"\(name)\"", field: "font-family")
        }
        defer { FcPatternDestroy(match) }
        guard let family = Self.string(match, FC_FAMILY, 0) else {
            throw LayoutError(.notFound, "fontconfig's match for \"\(name)\" names no family", field: "font-family")
        }
        let found = files(ofFamily: family)
        guard !found.isEmpty else {
            throw LayoutError(.notFound, "fontconfig resolved \"\(name)\" to \"\(family)\" but lists no file of it", field: "font-family")
        }
        return Family(name: family, files: found)
    }

    /// The family as the fonts spell it (fontconfig matches names without case and spaces).
    private func canonicalName(_ name: String) -> String? {
        listFonts(family: name, element: FC_FAMILY).first
    }

    private func files(ofFamily family: String) -> [String] {
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

import LayoutEngine

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

    private let fontconfig: Fontconfig

    public init() throws(LayoutError) {
        guard let fontconfig = Fontconfig() else {
            throw LayoutError(.notFound, "fontconfig could not load its configuration", field: "font-family")
        }
        self.fontconfig = fontconfig
    }

    /// The family `name` means: itself when fontconfig knows a family of that name, else the
    /// family a `conf.d` alias puts in its place (`sans-serif` → `Noto Sans` on Debian). A name
    /// fontconfig would only replace by its last-resort default (a family that is not installed,
    /// or a metric alias such as `Arial` without its metric-compatible font) is an error: silently
    /// drawing an operator's "Foo Sans" in Noto Sans is what a configuration check is for.
    public func family(_ name: String) throws(LayoutError) -> Family {
        let direct = fontconfig.files(ofFamily: name)
        // The family as the fonts spell it (fontconfig matches names without case and spaces).
        if !direct.isEmpty { return Family(name: fontconfig.familyNames(name).first ?? name, files: direct) }
        let family: String
        switch fontconfig.resolve(name) {
        case .unknown: throw LayoutError(.notFound, "fontconfig knows no family or alias \"\(name)\"", field: "font-family")
        case .noMatch: throw LayoutError(.notFound, "fontconfig matched no font for \"\(name)\"", field: "font-family")
        case .unnamedMatch: throw LayoutError(.notFound, "fontconfig's match for \"\(name)\" names no family", field: "font-family")
        case .family(let resolved): family = resolved
        }
        let found = fontconfig.files(ofFamily: family)
        guard !found.isEmpty else {
            throw LayoutError(.notFound, "fontconfig resolved \"\(name)\" to \"\(family)\" but lists no file of it", field: "font-family")
        }
        return Family(name: family, files: found)
    }
}

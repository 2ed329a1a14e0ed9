import ArgumentParser
import Foundation
import LayoutEngine
import LayoutServer
import Logging
import LayoutFonts

/// The fonts and tag styles a daemon serves with, as start-up and every reload load them.
struct DaemonFonts {
    let registry: FontRegistry
    let tagStyles: TagStyleTable

    /// The default set (unless `no-default-fonts`), every `font` path, and the files fontconfig
    /// finds for every `font-family`; then the default family and the fallback order, each
    /// of which must name a family that was loaded (or a fontconfig alias of one).
    static func load(_ settings: DaemonSettings, logger: Logger) throws -> DaemonFonts {
        // fontconfig reads its configuration and cache once per load, and only when it is asked.
        var fontconfig: SystemFonts?
        let systemFonts = { () throws(LayoutError) -> SystemFonts in
            if let fontconfig { return fontconfig }
            let made = try SystemFonts()
            fontconfig = made
            return made
        }
        var paths = settings.noDefaultFonts ? [] : DefaultFonts.installedPaths
        paths += try settings.fonts.flatMap { try fontFiles($0, logger: logger) }
        for name in settings.fontFamilies {
            let family: SystemFonts.Family
            do { family = try systemFonts().family(name) } catch { throw ConfigProblem("font-family \"\(name)\": \(error.message)") }
            logger.info("fontconfig family", metadata: ["name": "\(name)", "family": "\(family.name)", "files": "\(family.files.count)"])
            paths += family.files
        }
        var seen = Set<String>()
        paths = paths.filter { seen.insert(URL(fileURLWithPath: $0).resolvingSymlinksInPath().path).inserted }
        let loaded = try FontRegistry.load(paths: paths, defaultFamily: settings.defaultFamily ?? "Noto Sans")
        for problem in loaded.problems { logger.warning("font skipped", metadata: ["why": "\(problem)"]) }

        let defaultFamily: String
        if let chosen = settings.defaultFamily {
            defaultFamily = try loadedFamily(chosen, in: loaded, key: "default-family", fontconfig: systemFonts)
        } else {
            defaultFamily = loaded.defaultFamily
            if !loaded.hasFamily("Noto Sans") {
                logger.notice("Noto Sans is not loaded; the default family is the first loaded", metadata: ["family": "\(defaultFamily)"])
            }
        }
        let fallback = try settings.fallback.map { names in try names.map { try loadedFamily($0, in: loaded, key: "fallback", fontconfig: systemFonts) } }
            ?? DefaultFonts.fallbackFamilies
        let registry = FontRegistry(fonts: loaded.fonts, defaultFamily: defaultFamily, fallbackFamilies: fallback,
                                    instanceShare: FairShare("variable font instances", capacity: settings.maxServerFontInstances))
        return DaemonFonts(registry: registry, tagStyles: try tagStyles(settings.tagStyles, logger: logger))
    }

    /// `name` as a loaded family: itself, or the family a fontconfig alias resolves to.
    static func loadedFamily(_ name: String, in registry: FontRegistry, key: String,
                             fontconfig: () throws(LayoutError) -> SystemFonts) throws -> String {
        if registry.hasFamily(name) { return name }
        if let resolved = try? fontconfig().family(name), registry.hasFamily(resolved.name) { return resolved.name }
        let families = Array(Set(registry.fonts.map(\.family))).sorted()
        throw ConfigProblem("\(key) \"\(name)\" is not a loaded family (load it with font or font-family); "
            + "the loaded families are: \(families.joined(separator: ", "))")
    }

    static func tagStyles(_ path: String?, logger: Logger) throws -> TagStyleTable {
        guard let path else { return .standard }
        do {
            let table = try TagStyleTable(json: RegularFile.read(path, maxBytes: maxTagStyleBytes))
            logger.info("tag styles loaded", metadata: ["file": "\(path)"])
            return table
        } catch {
            throw ConfigProblem("tag-styles \(path): \(error)")
        }
    }

    /// The largest tag-style table read (the shipped one is 4 KB).
    static let maxTagStyleBytes = 1 << 20
    /// The most font files one directory tree may hold: a font path that is really "/" fails
    /// by name instead of walking the disk.
    static let maxFontFilesInDirectory = 10_000

    /// A font file, or the font files (.ttf, .otf, .ttc) in a directory tree, sorted. In a tree,
    /// what is not a regular file (a FIFO, a device) is skipped with a warning: opening one for
    /// reading could wait for ever; so is a file past `FontRegistry.maxFileBytes`. A file named directly
    /// is checked when it is read, and stops the start or the reload by name.
    static func fontFiles(_ path: String, logger: Logger) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigProblem("font path does not exist: \(path)")
        }
        guard isDirectory.boolValue else { return [path] }
        var files: [String] = []
        for case let name as String in FileManager.default.enumerator(atPath: path) ?? NSEnumerator()
        where ["ttf", "otf", "ttc"].contains((name as NSString).pathExtension.lowercased()) {
            let file = path + "/" + name
            var info = stat()
            guard stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                logger.warning("font skipped", metadata: ["why": "\(file) is not a regular file"])
                continue
            }
            // One oversize file (a sparse 8 GB .ttf) is skipped like the others, not the set's end.
            guard info.st_size <= FontRegistry.maxFileBytes else {
                logger.warning("font skipped", metadata: ["why": "\(file) is \(info.st_size) bytes; at most \(FontRegistry.maxFileBytes) are read"])
                continue
            }
            files.append(file)
            guard files.count <= maxFontFilesInDirectory else {
                throw ConfigProblem("font path \(path) holds over \(maxFontFilesInDirectory) font files; name a smaller directory")
            }
        }
        return files.sorted()
    }
}

/// A configuration the daemon cannot start with: said on stderr without the usage text, and
/// exit status 78 (EX_CONFIG), which the unit's RestartPreventExitStatus= keeps from looping.
struct ConfigProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

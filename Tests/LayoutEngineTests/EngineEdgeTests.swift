import Foundation
import Testing

/// The engine's own sources import no C library: Cairo sits in LayoutRender, PCRE2 in
/// LayoutRules, the Unicode libraries (FriBidi, ICU's dictionary, libthai, libhyphen) in
/// LayoutUnicode, and the font libraries (FreeType, HarfBuzz, fontconfig) in LayoutFonts, each an
/// adapter that holds its library's calls (docs/architecture.md). Every adapter sits above the
/// engine and implements its protocols: the engine depends on nothing, so it builds and links
/// without any C library.
@Suite struct EngineEdgeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let edgeOnly: [String: String] = ["CCairo": "LayoutRender", "CPCRE2": "LayoutRules", "CFriBidi": "LayoutUnicode",
                                             "CThai": "LayoutUnicode", "CHyphen": "LayoutUnicode", "CWordDictionary": "LayoutUnicode",
                                             "CFreeType": "LayoutFonts", "CHarfBuzz": "LayoutFonts", "CFontconfig": "LayoutFonts"]

    /// Every module a target's Swift files import, with the files that import it.
    static func imports(ofTarget target: String) throws -> [String: [String]] {
        let root = repository.appendingPathComponent("Sources/\(target)")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var found: [String: [String]] = [:]
        for file in files {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count, words[..<at].allSatisfy({ $0.hasPrefix("@") })
                else { continue }
                found[String(words[at + 1]), default: []].append(file.lastPathComponent)
            }
        }
        return found
    }

    @Test func theEngineImportsNoEdgeLibrary() throws {
        let imports = try Self.imports(ofTarget: "LayoutEngine")
        // Files known to import these: the scan found the engine's imports.
        #expect(imports["Glibc"]?.contains("RegularFile.swift") == true && imports["Synchronization"]?.contains("WorkBudget.swift") == true,
                "the scan missed imports: \(imports)")
        for (module, adapter) in Self.edgeOnly {
            #expect(imports[module] == nil, "\(module) belongs in \(adapter); imported by \(imports[module] ?? [])")
        }
        for adapter in Self.above { #expect(imports[adapter] == nil, "\(adapter) sits above the engine; imported by \(imports[adapter] ?? [])") }
        let cModules = imports.filter { $0.key.hasPrefix("C") && $0.key.dropFirst().first?.isUppercase == true }
        #expect(cModules.isEmpty, "C modules in the engine (they belong in an adapter): \(cModules)")
    }

    @Test func eachAdapterHoldsItsLibrary() throws {
        for (module, adapter) in Self.edgeOnly {
            #expect(try Self.imports(ofTarget: adapter)[module] != nil, "\(adapter) does not import \(module)")
        }
    }

    /// The adapters that implement the engine's protocols, so depend on it.
    static let above = ["LayoutUnicode", "LayoutFonts", "LayoutRender", "LayoutRules"]

    /// The Unicode and fonts adapters hold their libraries, the system's and the engine's (whose
    /// `UnicodeServices`, `FaceShaping` and `ShapingLibrary` they implement), nothing else.
    @Test(arguments: ["LayoutUnicode", "LayoutFonts"])
    func anAdapterImportsOnlyItsLibraries(_ adapter: String) throws {
        let imports = Set(try Self.imports(ofTarget: adapter).keys)
        let adapterModules = Set(Self.edgeOnly.filter { $0.value == adapter }.keys)
        #expect(imports.isSuperset(of: adapterModules), "\(imports)")
        let engine: Set<String> = Self.above.contains(adapter) ? ["LayoutEngine"] : []
        #expect(imports.subtracting(adapterModules).isSubset(of: engine.union(["Glibc", "Synchronization"])), "\(imports)")
    }

    /// The manifest agrees: the engine target depends on nothing, no C library and no adapter.
    @Test func theManifestKeepsThemOut() throws {
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: ".target(name: \"LayoutEngine\""))
        let declaration = manifest[start.lowerBound...].prefix { $0 != ")" }
        #expect(declaration.hasSuffix("\"LayoutEngine\""), "the engine's target declares dependencies: \(declaration)")
        for module in Self.edgeOnly.keys { #expect(!declaration.contains("\"\(module)\""), "\(declaration)") }
        for adapter in Self.above { #expect(!declaration.contains("\"\(adapter)\""), "\(declaration)") }
    }
}

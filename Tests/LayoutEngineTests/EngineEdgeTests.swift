import Foundation
import Testing

/// The engine lays text out without drawing it or running regular expressions: Cairo sits in
/// LayoutRender, PCRE2 in LayoutRules, and the Unicode libraries (FriBidi, ICU's dictionary,
/// libthai, libhyphen) in LayoutUnicode, at its edge. The C modules the engine still imports are
/// listed here, so a new one fails until it is chosen on purpose (docs/architecture.md).
@Suite struct EngineEdgeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let engineCModules: Set = ["CFreeType", "CHarfBuzz", "CFontconfig"]
    static let edgeOnly: [String: String] = ["CCairo": "LayoutRender", "CPCRE2": "LayoutRules", "CFriBidi": "LayoutUnicode",
                                             "CThai": "LayoutUnicode", "CHyphen": "LayoutUnicode", "CWordDictionary": "LayoutUnicode"]

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
        #expect(imports.count > 3, "the scan found no imports: \(imports)")
        for (module, adapter) in Self.edgeOnly {
            #expect(imports[module] == nil, "\(module) belongs in \(adapter); imported by \(imports[module] ?? [])")
        }
        let cModules = Set(imports.keys.filter { $0.hasPrefix("C") && $0.dropFirst().first?.isUppercase == true })
        #expect(cModules.isSubset(of: Self.engineCModules), "new C modules in the engine: \(cModules.subtracting(Self.engineCModules))")
    }

    @Test func eachAdapterHoldsItsLibrary() throws {
        for (module, adapter) in Self.edgeOnly {
            #expect(try Self.imports(ofTarget: adapter)[module] != nil, "\(adapter) does not import \(module)")
        }
    }

    /// The Unicode adapter is a leaf: its libraries and the system's, nothing of the engine's.
    @Test func theUnicodeAdapterImportsOnlyItsLibraries() throws {
        let imports = Set(try Self.imports(ofTarget: "LayoutUnicode").keys)
        let adapterModules = Set(Self.edgeOnly.filter { $0.value == "LayoutUnicode" }.keys)
        #expect(imports.isSuperset(of: adapterModules), "\(imports)")
        #expect(imports.subtracting(adapterModules).isSubset(of: ["Glibc", "Synchronization"]), "\(imports)")
    }

    /// The manifest agrees: the engine target depends on neither library.
    @Test func theManifestKeepsThemOut() throws {
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(manifest.range(of: ".target(name: \"LayoutEngine\""))
        let declaration = manifest[start.lowerBound...].prefix { $0 != ")" }
        #expect(declaration.contains("CHarfBuzz"), "the scan did not find the engine's dependencies: \(declaration)")
        for module in Self.edgeOnly.keys { #expect(!declaration.contains("\"\(module)\""), "\(declaration)") }
    }

    /// Inside the engine, the C libraries are reached from a few files of fonts and shaping
    /// (listed here); every other stage works on the pipeline's own values (`Script`, not
    /// `hb_script_t`). A stage that starts importing one fails here: the next step of the split
    /// puts these files behind protocols in adapter targets (docs/architecture.md).
    static let filesReachingC: Set = [
        "Fonts/ClientFonts.swift", "Fonts/Font.swift", "Fonts/FontFile.swift", "Fonts/RegularFile.swift",
        "Fonts/SystemFonts.swift", "Itemizing/Itemizer.swift",
        "Shaping/HarfBuzzShaping.swift", "Shaping/Shaper+Joined.swift", "Shaping/Shaper.swift",
    ]

    @Test func onlyTheListedFilesReachC() throws {
        let root = Self.repository.appendingPathComponent("Sources/LayoutEngine")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        var reaching: Set<String> = []
        for file in files where try String(contentsOf: file, encoding: .utf8).split(separator: "\n").contains(where: { $0.hasPrefix("import C") }) {
            reaching.insert(file.path.replacingOccurrences(of: root.path + "/", with: ""))
        }
        #expect(reaching.subtracting(Self.filesReachingC).isEmpty, "new files importing C: \(reaching.subtracting(Self.filesReachingC).sorted())")
        #expect(Self.filesReachingC.subtracting(reaching).isEmpty,
                "listed but no longer importing C (take them off the list): \(Self.filesReachingC.subtracting(reaching).sorted())")
    }
}

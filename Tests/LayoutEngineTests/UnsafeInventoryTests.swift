import Foundation
import Testing

/// `docs/unsafe.md` lists every file that uses an unsafe construct, with its reason and the
/// tests that guard it: a file that starts using one fails here until it is listed, and a
/// guard the page names must be a test that exists.
@Suite struct UnsafeInventoryTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let constructs = ["UnsafePointer", "UnsafeMutablePointer", "UnsafeRawPointer", "UnsafeMutableRawPointer",
                             "UnsafeBufferPointer", "UnsafeMutableBufferPointer", "UnsafeRawBufferPointer",
                             "UnsafeMutableRawBufferPointer", "withUnsafeTemporaryAllocation", "unsafeBitCast",
                             "unowned(unsafe)", "Unmanaged", "@unchecked Sendable", "nonisolated(unsafe)",
                             "@exclusivity(unchecked)"]

    static func swiftFiles(under root: String) -> [URL] {
        let url = repository.appendingPathComponent(root)
        return (FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? [])
            .filter { $0.pathExtension == "swift" }
    }

    @Test func everyFileWithUnsafeCodeIsListed() throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/unsafe.md"), encoding: .utf8)
        var unlisted: [String] = []
        var listed = 0
        for root in ["Sources", "clients/swift/Sources"] {
            for file in Self.swiftFiles(under: root) {
                let text = try String(contentsOf: file, encoding: .utf8)
                guard Self.constructs.contains(where: text.contains) else { continue }
                // Named from its target: `LayoutEngine/Fonts/Font.swift`; generated files as a group.
                let name = file.path.replacingOccurrences(of: Self.repository.appendingPathComponent(root).path + "/", with: "")
                let entry = name.contains("/Generated/") ? "LayoutProtocol/Generated/*.pb.swift" : name
                if page.contains("`\(entry)`") { listed += 1 } else { unlisted.append(name) }
            }
        }
        #expect(unlisted.isEmpty, "docs/unsafe.md does not list \(unlisted)")
        #expect(listed > 40)
    }

    @Test func everyGuardNamedIsATest() throws {
        let page = try String(contentsOf: Self.repository.appendingPathComponent("docs/unsafe.md"), encoding: .utf8)
        let names = Set(try NSRegularExpression(pattern: "`([A-Za-z]+Tests)`")
            .matches(in: page, range: NSRange(page.startIndex..., in: page))
            .compactMap { Range($0.range(at: 1), in: page).map { String(page[$0]) } })
        let tests = Self.swiftFiles(under: "Tests").map { ($0.lastPathComponent, (try? String(contentsOf: $0, encoding: .utf8)) ?? "") }
        #expect(names.count > 30)
        for name in names.sorted() {
            #expect(tests.contains { $0.0 == "\(name).swift" || $0.1.contains("struct \(name)") }, "docs/unsafe.md names \(name), which is no test")
        }
    }

    /// The engine's core keeps what unsafe code it has (pointers kept for speed, fonts held
    /// unowned, types shared across threads by a rule the compiler cannot check) in one file per
    /// stage, each construct under a `SAFETY:` comment saying why it is sound. Everything else in
    /// the core reads its buffers through `Span` and `MutableSpan`, whose accesses are checked.
    @Test func theCoreKeepsItsUnsafeCodeInOneFilePerStageUnderSafetyComments() throws {
        let root = Self.repository.appendingPathComponent("Sources/LayoutEngine").path + "/"
        var filesByStage: [String: [String]] = [:]
        var uncommented: [String] = []
        // Symbolic links (the geometry's copy of a file the protocol target owns) count too.
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }
        for name in files {
            let lines = try String(contentsOfFile: root + name, encoding: .utf8).components(separatedBy: "\n")
            let marked = lines.indices.filter { index in Self.coreConstructs.contains { lines[index].contains($0) } }
            guard !marked.isEmpty else { continue }
            let stage = name.contains("/") ? String(name.prefix { $0 != "/" }) : "(top level)"
            filesByStage[stage, default: []].append(name)
            for index in marked where !lines[max(0, index - Self.safetyReach)...index].contains(where: { $0.contains("SAFETY") }) {
                uncommented.append("\(name):\(index + 1)")
            }
        }
        let crowded = filesByStage.filter { $0.value.count > 1 }
        #expect(crowded.isEmpty, "stages with unsafe code in more than one file: \(crowded)")
        #expect(uncommented.isEmpty, "unsafe constructs with no SAFETY comment in the \(Self.safetyReach) lines above: \(uncommented.sorted())")
        #expect(filesByStage.count >= 5, "the scan found \(filesByStage.count) stages with unsafe code")
    }

    /// In the core, also what reaches memory through a closure's buffer without naming a pointer
    /// type, and unchecked span accesses.
    static let coreConstructs = constructs + ["withUnsafe", "withUTF8", "baseAddress", "initializeElement", "specializedCapacity",
                                              "unsafeDowncast", "[unchecked:", "assumingMemoryBound", "bindMemory",
                                              ".advanced(by:", ".initialize(to:", ".pointee"]

    /// How far above an unsafe construct its `SAFETY:` comment may stand (a declaration's doc
    /// comment covers the lines of its signature and first statements).
    static let safetyReach = 14
}

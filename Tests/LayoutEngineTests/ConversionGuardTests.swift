import Foundation
import Testing
import TestSupport

/// Floating point to integer never traps: `init(saturating:)` clamps, and a bare `Int(double)`
/// does not compile in any target.
@Suite struct ConversionGuardTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// The one real copy, in the client's package (which must build alone); every other target links it.
    static let guardFile = repository.appendingPathComponent("clients/swift/Sources/LayoutProtocol/SaturatingConversion.swift")

    @Test func saturatingClampsEveryExtreme() {
        #expect(Int(saturating: Double.nan) == 0)
        #expect(Int(saturating: Double.infinity) == Int.max)
        #expect(Int(saturating: -Double.infinity) == Int.min)
        #expect(Int(saturating: 1e30) == Int.max)
        #expect(Int(saturating: 2e19) == Int.max)
        #expect(Int(saturating: -2e19) == Int.min)
        #expect(Int(saturating: 9.223372036854775807e18) == Int.max)  // rounds to 2^63, one past max
        #expect(Int(saturating: -0.0) == 0)
        #expect(Int(saturating: 2.9) == 2)
        #expect(Int(saturating: -2.9) == -2)
        #expect(Int32(saturating: Float(3e38)) == Int32.max)
        #expect(Int32(saturating: 32_767.5) == 32_767)
        #expect(UInt32(saturating: -1.0) == 0)
        #expect(UInt8(saturating: 300.0) == 255)
        #expect(UInt64(saturating: Float.greatestFiniteMagnitude) == UInt64.max)
    }

    /// Every Swift target (its own folder under Sources, Tests or Benchmarks) links the guard.
    @Test func everyTargetLinksTheGuard() throws {
        let fileManager = FileManager.default
        var folders: [URL] = []
        for parent in ["Sources", "Tests", "Benchmarks", "Fuzz", "clients/swift/Sources"] {
            let url = Self.repository.appendingPathComponent(parent)
            for name in try fileManager.contentsOfDirectory(atPath: url.path) {
                let folder = url.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue,
                      name != "results" else { continue }
                // System-library targets hold a module map and no Swift; C targets an include folder.
                if fileManager.fileExists(atPath: folder.appendingPathComponent("module.modulemap").path)
                    || fileManager.fileExists(atPath: folder.appendingPathComponent("include").path) { continue }
                folders.append(folder)
            }
        }
        #expect(folders.count >= 10)
        for folder in folders {
            // LayoutEngine keeps it under Geometry/.
            let link = folder.lastPathComponent == "LayoutEngine" ? folder.appendingPathComponent("Geometry/SaturatingConversion.swift")
                : folder.appendingPathComponent("SaturatingConversion.swift")
            let resolved = link.resolvingSymlinksInPath().standardizedFileURL.path
            #expect(resolved == Self.guardFile.resolvingSymlinksInPath().standardizedFileURL.path,
                    "\(folder.lastPathComponent) does not link SaturatingConversion.swift")
        }
    }

    /// The shadows still win overload resolution: with them a bare conversion is an error, and
    /// the saturating one compiles.
    @Test func aBareConversionDoesNotCompile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("guard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func typecheck(_ source: String) throws -> (status: Int32, output: String) {
            let main = directory.appendingPathComponent("main.swift")
            try source.write(to: main, atomically: true, encoding: .utf8)
            let result = try runToCompletion("/usr/bin/env", ["swiftc", "-typecheck", "-Werror", "DeprecatedDeclaration",
                                                              Self.guardFile.path, main.path])
            return (result.status, result.out + result.err)
        }
        let bare = try typecheck("let width = Double(CommandLine.arguments.count) * 1e30\nprint(Int32(width), Int(Float(width)))\n")
        #expect(bare.status != 0)
        #expect(bare.output.contains("use Int32(saturating:)"), "\(bare.output)")
        #expect(bare.output.contains("use Int(saturating:)"), "\(bare.output)")
        let saturating = try typecheck("let width = Double(CommandLine.arguments.count) * 1e30\nprint(Int32(saturating: width), Int(7))\n")
        #expect(saturating.status == 0, "\(saturating.output)")
    }
}

import Foundation
import Testing
import TestSupport

/// The committed Swift in clients/swift/Sources/LayoutProtocol/Generated must be what protoc makes of proto/ today.
@Suite struct GeneratedCodeTests {
    @Test func generatedCodeIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try runToCompletion("/bin/bash", [root.appendingPathComponent("scripts/generate-proto.sh").path, "--check"],
                                         within: 900)
        #expect(result.status == 0, "\(result.out)\(result.err)")
    }
}

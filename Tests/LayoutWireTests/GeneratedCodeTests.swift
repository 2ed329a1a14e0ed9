import Foundation
import Testing
import TestSupport

/// The committed Swift in Sources/LayoutWire/Generated must be what protoc makes of proto/ today.
@Suite struct GeneratedCodeTests {
    @Test func generatedCodeIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("scripts/generate-proto.sh").path, "--check"]
        let output = CapturedOutput()  // a file, not a pipe (see CapturedOutput)
        process.standardOutput = output.handle
        process.standardError = output.handle
        // A spawn can fail with EBADF when another test closes a descriptor meanwhile
        // (Foundation lists the open ones to close in the child): try again.
        var attempts = 0
        while true {
            do { try process.run(); break } catch where attempts < 4 { attempts += 1; usleep(10_000) }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output.text)")
    }
}

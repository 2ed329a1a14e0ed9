import Foundation
import LayoutWire
import Testing
import TestSupport

/// What an operator meets first: the binaries' versions, agreeing with the daemon's hello.
@Suite struct CommandLineTests {
    @Test func bothBinariesPrintTheirVersion() throws {
        for binary in ["layoutd", "layoutctl"] {
            let result = try run(Daemon.binary(binary), ["--version"])
            #expect(result.status == 0 && result.out == LayoutdVersion.current + "\n", "\(binary): \(result.out)\(result.err)")
        }
        let daemon = try Daemon()
        guard case .helloReply(let hello) = try daemon.client().request(.hello(.init())) else { Issue.record("no hello"); return }
        #expect(hello.serverVersion == LayoutdVersion.current)
    }
}

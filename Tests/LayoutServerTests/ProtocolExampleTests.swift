import Foundation
import Testing

/// docs/protocol.md's example session is what a daemon with its defaults sends today: the
/// script that prints it talks to a real daemon, and the page must hold its output verbatim.
@Suite struct ProtocolExampleTests {
    @Test func theDocumentedSessionIsWhatTheDaemonSends() throws {
        let daemon = try Daemon()
        let script = repositoryRoot.appendingPathComponent("scripts/protocol-example.py").path
        let printed = try run("/usr/bin/python3", [script, daemon.socketPath])
        #expect(printed.status == 0, "\(printed.err)")
        let page = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        #expect(printed.out.count > 1_000)
        #expect(page.contains(printed.out), "docs/protocol.md's example session is stale; the daemon now sends:\n\(printed.out)")
    }
}

import Foundation
import LayoutdClient
@testable import LayoutServer
import LayoutWire
import Testing
import TestSupport

/// What the daemon logs: a failed request at warning with its code and field, each request at
/// debug, disconnects at info; journal lines under systemd, readable lines elsewhere.
@Suite struct LoggingTests {
    static func waitFor(_ text: String, in daemon: Daemon) {
        let deadline = Date().addingTimeInterval(10)
        while !daemon.stderr.text.contains(text) && Date() < deadline { usleep(20_000) }
    }

    @Test func failedRequestsAreWarningsAndEachRequestIsADebugLine() throws {
        let daemon = try Daemon(arguments: ["--log-level", "debug"])
        do {  // the client goes at the end of this scope: its connection closes
            let client = try daemon.client()
            _ = try client.call(.layout(layoutRequest("logged")))
            var bad = layoutRequest("x")
            bad.width = -1
            _ = try client.call(.layout(bad))
            _ = try client.call(.tags(.with { $0.photoWidth = 10; $0.photoHeight = 10; $0.tags = [.with { $0.at = .with { $0.x = 2 } }] }))
        }
        Self.waitFor("tags.tags[0]", in: daemon)
        let lines = daemon.stderr.text.split(separator: "\n")
        #expect(lines.contains { $0.contains(" debug request ") && $0.contains("request=layout") }, "\(lines)")
        #expect(lines.contains { $0.contains(" warning request failed ") && $0.contains("code=INVALID_ARGUMENT")
            && $0.contains("field=layout.width") }, "\(lines)")
        #expect(lines.contains { $0.contains(" warning request failed ") && $0.contains("field=tags.tags[0].labels") }, "\(lines)")
        // Elsewhere than the journal a line starts with its time.
        #expect(lines.allSatisfy { $0.first?.isNumber == true }, "\(lines.first ?? "")")
        Self.waitFor("connection closed", in: daemon)
        #expect(daemon.stderr.text.contains(" info connection closed "))
    }

    @Test func journalLinesCarryTheirPriorityAndNoTime() {
        let journal = DaemonLogHandler.line(.warning, "request failed", ["code": "NOT_FOUND", "message": "no \"Comic\" font"], journal: true)
        #expect(journal == "<4>request failed code=NOT_FOUND message=\"no \\\"Comic\\\" font\"\n", "\(journal)")
        #expect(DaemonLogHandler.line(.debug, "request", [:], journal: true) == "<7>request\n")
        let plain = DaemonLogHandler.line(.info, "listening", ["socket": "/tmp/x"], journal: false, at: Date(timeIntervalSince1970: 0))
        #expect(plain == "1970-01-01T00:00:00Z info listening socket=/tmp/x\n")
    }

    @Test func anUnknownLogLevelIsRefused() throws {
        let result = try run(Daemon.binary("layoutd"), ["--log-level", "loud", "--socket", Daemon.temporarySocketPath()])
        #expect(result.status == 64 && result.err.contains("--log-level must be one of"), "\(result.err)")
    }
}

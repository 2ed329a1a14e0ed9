import Foundation
import Testing

/// scripts/manpage.py writes the man pages from the parsers themselves (--experimental-dump-help):
/// one per command, each with its options, the tool's pages with exit statuses, environment,
/// files and the README's examples; groff renders every one without a warning.
@Suite struct ManPageTests {
    @Test func everyCommandHasAPage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-man-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = repositoryRoot.appendingPathComponent("scripts/manpage.py").path
        let client = try run("/usr/bin/python3", [script, Daemon.binary("layoutctl"), "1", folder.path])
        let daemon = try run("/usr/bin/python3", [script, Daemon.binary("layoutd"), "8", folder.path])
        #expect(client.status == 0 && daemon.status == 0, "\(client.err)\(daemon.err)")
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        for expected in ["layoutctl.1", "layoutctl-layout.1", "layoutctl-batch.1", "layoutctl-typemode.1", "layoutctl-hit.1", "layoutctl-edit.1",
                         "layoutctl-tags.1", "layoutctl-tags-place.1", "layoutctl-tags-hit.1", "layoutctl-tags-toggle.1",
                         "layoutctl-tags-reset.1", "layoutctl-fonts.1", "layoutctl-ping.1", "layoutctl-stats.1", "layoutd.8"] {
            #expect(pages.contains(expected), "no page \(expected)")
        }
        for page in pages {
            let rendered = try run("/usr/bin/man", ["--warnings", "-l", folder.path + "/" + page],
                                   environment: ProcessInfo.processInfo.environment.merging(["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"]) { $1 })
            #expect(rendered.status == 0 && rendered.err.isEmpty, "\(page): \(rendered.err)")
            let text = rendered.out.replacing(/.\u{8}/, with: "")  // man's overstrike for bold, off a terminal
            #expect(text.contains("NAME") && text.contains("SYNOPSIS") && text.contains("SEE ALSO"), "\(page)")
        }
        let tool = try String(contentsOfFile: folder.path + "/layoutctl.1", encoding: .utf8)
        for section in [".SH EXIT STATUS", ".SH ENVIRONMENT", ".SH EXAMPLES", ".SH SUBCOMMANDS", "LAYOUTD_SOCKET", "\\fB65\\fR"] {
            #expect(tool.contains(section), "layoutctl.1 lacks \(section)")
        }
        let layout = try String(contentsOfFile: folder.path + "/layoutctl-layout.1", encoding: .utf8)
        #expect(layout.contains("\\-\\-rotate") && layout.contains("\\-\\-format") && layout.contains(".SH EXAMPLES"))
        // The old page turned wrapped help lines into sections ("layoutctl and"): none now.
        #expect(!tool.contains(".SH layoutctl") && !layout.contains(".SH layoutctl"))
        let server = try String(contentsOfFile: folder.path + "/layoutd.8", encoding: .utf8)
        #expect(server.contains(".SH FILES") && server.contains("/etc/layoutd/layoutd.conf") && server.contains("\\-\\-check\\-config"))
    }
}

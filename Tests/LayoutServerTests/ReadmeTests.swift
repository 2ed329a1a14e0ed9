import Foundation
import Testing

/// The README's commands, run as written against a real daemon: every line of the "Using it"
/// block (but building and starting the daemon, which the test does itself), from a folder where
/// the pictures they write may land, with the repository's docs/ beside them for the assets.
/// The other blocks are run elsewhere: the install and service blocks by scripts/test-package.sh,
/// the Python, C and Swift examples by ClientBindingTests and AsyncLayoutClientTests.
@Suite(.serialized) struct ReadmeTests {
    static func usingItCommands() throws -> [String] {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## Using it"), "no Using it section")
        let block = try #require(ClientBindingTests.block("sh", in: String(readme[section.upperBound...])))
        return block.split(separator: "\n").map(String.init).filter { line in
            !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty
                && !line.hasPrefix("scripts/build-release.sh") && !line.hasPrefix(".build/release/layoutd ")
        }
    }

    @Test func everyCommandOfUsingItRuns() throws {
        let commands = try Self.usingItCommands()
        #expect(commands.count >= 25, "\(commands.count) commands")
        // The commands as a reader runs them, on a release daemon; this one is a debug build, where
        // the tag picture's blurred shadows over a 2,160 × 2,700 photo take about the default
        // 5-second budget on an idle machine: a budget this test does not test is widened.
        let daemon = try Daemon(arguments: ["--request-budget-ms", "60000"])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-readme-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/docs", withDestinationPath: repositoryRoot.path + "/docs")
        let layoutctl = Daemon.binary("layoutctl")
        var outputs: [String: String] = [:]
        for command in commands {
            let line = command.replacingOccurrences(of: ".build/release/layoutctl", with: layoutctl)
                .components(separatedBy: "     #").first!  // a trailing comment
            let ran = try run("/bin/bash", ["-c", "cd '\(folder.path)' && " + line],
                              environment: ProcessInfo.processInfo.environment.merging(["LAYOUTD_SOCKET": daemon.socketPath]) { $1 })
            #expect(ran.status == 0, "\(command)\n\(ran.err)")
            outputs[command] = ran.out
        }
        // The pictures the commands name were written.
        for picture in ["story.png", "paragraph.svg", "columns.png", "tate.png", "ruby.png", "note.png", "tags.png", "hide.svg", "pipe.png"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: folder.path + "/" + picture)[.size] as? Int) ?? 0
            #expect(size > 100, "\(picture) was not written")
        }
        // The flow examples show what they are about: text on both sides of the circle, three columns filled.
        let around = try #require(outputs.first { $0.key.contains("--exclude") }?.value)
        let fragments = around.split(separator: "\n").filter { $0.contains(" x ") && !$0.contains("size") }
        #expect(fragments.contains { ($0.split(separator: " ").dropFirst(2).first.flatMap { Double($0.dropLast()) } ?? 0) > 150 },
                "no line stands right of the circle:\n\(around)")
        let columns = try run(layoutctl, ["layout", "--width", "460", "--height", "120", "--columns", "3", "--socket", daemon.socketPath,
                                          Self.quoted(try #require(commands.first { $0.contains("--columns 3") }))])
        #expect(columns.out.contains("container 2: text ["), "the third column holds nothing:\n\(columns.out)")
    }

    /// The text argument of a README command: its last double-quoted string.
    static func quoted(_ command: String) -> String {
        let parts = command.split(separator: "\"", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[parts.count - 2]) : ""
    }
}

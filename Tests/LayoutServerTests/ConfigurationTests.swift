import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// The real `layoutd` with a configuration file: keys set what the options set, the command line
/// wins, fontconfig families and aliases load, and every mistake stops the daemon at start-up
/// with exit status 78 and the file, line or key named.
@Suite struct ConfigurationTests {
    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-\(UUID().uuidString).conf")
        try Data(text.utf8).write(to: url)
        return url
    }

    static func fonts(_ daemon: Daemon) throws -> Layoutd_V1_FontsReply {
        guard case .fontsReply(let reply) = try daemon.client().request(.fonts(.init())) else { throw HarnessError("no fonts reply") }
        return reply
    }

    @Test func theFileSetsFamiliesThroughFontconfigAndTheCommandLineWins() throws {
        let config = try Self.file("""
            # fonts as a desktop names them
            font-family = monospace
            default-family = monospace
            fallback = emoji, DejaVu Sans
            max-text = 100
            """)
        defer { try? FileManager.default.removeItem(at: config) }
        let daemon = try Daemon(arguments: ["--config", config.path])
        let reply = try Self.fonts(daemon)
        #expect(reply.defaultFamily == "DejaVu Sans Mono")
        #expect(reply.fallbackFamilies == ["Noto Color Emoji", "DejaVu Sans"])
        // max-text from the file is in force: a longer text is refused by name.
        let refused = try daemon.client().call(.layout(layoutRequest(String(repeating: "a", count: 101)))).errorReply
        #expect(refused?.code == .resourceExhausted || refused?.code == .invalidArgument, "\(String(describing: refused))")

        let overridden = try Daemon(arguments: ["--config", config.path, "--default-family", "Noto Serif", "--max-text", "1000"])
        #expect(try Self.fonts(overridden).defaultFamily == "Noto Serif")
        #expect(try overridden.client().call(.layout(layoutRequest(String(repeating: "a", count: 101)))).layoutReply != nil)
    }

    @Test func mistakesStopTheDaemonAtStartUpByName() throws {
        let cases: [(file: String, arguments: [String], message: String)] = [
            ("threads = 2\nmax-frame = 4096\n", [], ":2: unknown key \"max-frame\" (did you mean max-frame-bytes?)"),
            ("request-budget-ms = soon\n", [], ":1: request-budget-ms: \"soon\" is not a whole number"),
            ("default-family = Foo Sans\n", [], "default-family \"Foo Sans\" is not a loaded family"),
            ("", ["--default-family", "Foo Sans"], "default-family \"Foo Sans\" is not a loaded family"),
            ("fallback = Noto Sans, Comic Neue\n", [], "fallback \"Comic Neue\" is not a loaded family"),
            ("font-family = No Such Family 7\n", [], "font-family \"No Such Family 7\": fontconfig knows no family or alias"),
            ("max-frame-bytes = 10\n", [], "max-frame-bytes must be in 1024..."),
            ("font = /nonexistent/fonts\n", [], "font path does not exist: /nonexistent/fonts"),
            ("metrics-listen = 0.0.0.0:9464\n", [], "metrics-listen:"),
        ]
        for (text, arguments, message) in cases {
            let config = try Self.file(text)
            defer { try? FileManager.default.removeItem(at: config) }
            let result = try run(Daemon.binary("layoutd"), ["--config", config.path, "--socket", Daemon.temporarySocketPath()] + arguments,
                                 within: 60)
            #expect(result.status == 78, "\(text): status \(result.status), \(result.err)")
            #expect(result.err.contains(message), "\(text): \(result.err)")
            #expect(!result.err.contains("Usage:"), "a configuration error is not a usage error: \(result.err)")
        }
        let missing = try run(Daemon.binary("layoutd"), ["--config", "/nonexistent/layoutd.conf", "--socket", Daemon.temporarySocketPath()])
        #expect(missing.status == 78 && missing.err.contains("cannot read the configuration file /nonexistent/layoutd.conf"))
    }

    @Test func checkConfigLoadsEverythingAndExits() throws {
        let config = try Self.file("font-family = sans-serif\nfallback = Noto Sans, emoji\n")
        defer { try? FileManager.default.removeItem(at: config) }
        let good = try run(Daemon.binary("layoutd"), ["--config", config.path, "--check-config"], within: 60)
        #expect(good.status == 0 && good.out.hasPrefix("configuration ok: "), "\(good.out)\(good.err)")
        #expect(good.out.contains("fallback Noto Sans, Noto Color Emoji"), "\(good.out)")
        let bad = try run(Daemon.binary("layoutd"), ["--config", config.path, "--check-config", "--default-family", "Foo"], within: 60)
        #expect(bad.status == 78, "\(bad.err)")
    }

    /// The daemon's heap is mimalloc's (docs/design.md, "The allocator"): linked before the C
    /// library, its malloc serves the whole process, which the start-up log says by asking it
    /// whether a block malloc gave is its own.
    @Test func theHeapIsMimallocs() throws {
        let result = try run(Daemon.binary("layoutd"), ["--config", "/dev/null", "--check-config", "--log-level", "info"], within: 60)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("allocator=\"mimalloc 2."), "\(result.err)")
    }

    /// A reload reads the file again: a changed default family is served next; a file broken
    /// meanwhile fails the reload by name and the old set stays.
    @Test func aReloadRereadsTheFile() throws {
        let config = try Self.file("default-family = DejaVu Sans\n")
        defer { try? FileManager.default.removeItem(at: config) }
        let daemon = try Daemon(arguments: ["--config", config.path])
        #expect(try Self.fonts(daemon).defaultFamily == "DejaVu Sans")
        try Data("default-family = Noto Serif\n".utf8).write(to: config)
        let reloaded = try daemon.client().call(.reload(.init()))
        guard case .reloadReply = reloaded.body else { Issue.record("the reload was refused: \(reloaded)"); return }
        #expect(try Self.fonts(daemon).defaultFamily == "Noto Serif")
        try Data("default-family = Noto Serif\nthreads = many\n".utf8).write(to: config)
        let refused = try daemon.client().call(.reload(.init())).errorReply
        #expect(refused?.code == .failedPrecondition && refused?.message.contains("threads: \"many\"") == true, "\(String(describing: refused))")
        #expect(try Self.fonts(daemon).defaultFamily == "Noto Serif")
    }
}

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

/// layoutctl's exit statuses tell apart a usage error, a refused request, no daemon and a timeout.
@Suite struct ExitStatusTests {
    @Test func eachKindOfFailureHasItsStatus() throws {
        let ctl = Daemon.binary("layoutctl")
        let usage = try run(ctl, ["layout", "--width", "wide", "x"])
        #expect(usage.status == 64, "usage: \(usage.err)")
        // A size or weight of 0 would be sent as the wire's "default", and laid out at 17 points or 400 unasked.
        let zeroSize = try run(ctl, ["layout", "--width", "100", "--size", "0", "x"])
        #expect(zeroSize.status == 64 && zeroSize.err.contains("--size must be greater than 0"), "zero size: \(zeroSize.err)")
        let zeroWeight = try run(ctl, ["layout", "--width", "100", "--weight", "0", "x"])
        #expect(zeroWeight.status == 64 && zeroWeight.err.contains("--weight must be 1 to 1000"), "zero weight: \(zeroWeight.err)")
        let zeroLabelSize = try run(ctl, ["tags", "--at", "0.5,0.5", "--label", "x", "--size", "0"])
        #expect(zeroLabelSize.status == 64 && zeroLabelSize.err.contains("--size must be greater than 0"), "tags: \(zeroLabelSize.err)")
        // In a span or an edit's style, 0 is "as around it": the same words, naming the span's key or the edit's.
        let zeroSpanSize = try run(ctl, ["layout", "--width", "100", "--span", "0:1:size=0", "xy"])
        #expect(zeroSpanSize.status == 64 && zeroSpanSize.err.contains("--span size must be greater than 0"), "span: \(zeroSpanSize.err)")
        let zeroSpanWeight = try run(ctl, ["layout", "--width", "100", "--span", "0:1:weight=0", "xy"])
        #expect(zeroSpanWeight.status == 64 && zeroSpanWeight.err.contains("--span weight must be 1 to 1000"), "span: \(zeroSpanWeight.err)")
        let daemon = try Daemon()
        let zeroEditSize = try run("/bin/sh", ["-c", "printf 'style 0 1 size=0\\n' | \"$0\" \"$@\"", ctl, "edit", "--socket", daemon.socketPath,
                                               "--width", "100", "xy"])
        #expect(zeroEditSize.status == 64 && zeroEditSize.err.contains("style size must be greater than 0"), "edit: \(zeroEditSize.err)")
        let rejected = try run(ctl, ["layout", "--socket", daemon.socketPath, "--width=-5", "x"])
        #expect(rejected.status == 65 && rejected.err.contains("layout.width"), "rejected: \(rejected.err)")
        let unreachable = try run(ctl, ["ping", "--socket", "/tmp/no-such-layoutd-\(getpid()).sock"])
        #expect(unreachable.status == 69, "unreachable: \(unreachable.err)")

        // A socket that accepts connections and never answers: the client gives up at --timeout.
        let path = Daemon.temporarySocketPath()
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 8) == 0)
        let silent = try run(ctl, ["ping", "--socket", path, "--timeout", "0.5"])
        #expect(silent.status == 75 && silent.err.contains("timed out"), "timeout: \(silent.status) \(silent.err)")
    }
}

/// Text reaches layoutctl the same way in every subcommand: argument, file or standard input.
@Suite struct TextInputTests {
    @Test func argumentFileAndStandardInputAgree() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(UUID().uuidString).txt")
        try Data("first line\nsecond line".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for command in ["layout", "typemode"] {
            let base = [command, "--socket", daemon.socketPath, "--width", "300"]
            let argument = try run(ctl, base + ["first line\\nsecond line"])
            let fromFile = try run(ctl, base + ["--text-file", file.path])
            let piped = try run("/bin/sh", ["-c", "printf 'first line\\nsecond line' | \"$0\" \"$@\"", ctl] + base)
            let dash = try run("/bin/sh", ["-c", "printf 'first line\\nsecond line' | \"$0\" \"$@\" -", ctl] + base)
            #expect(argument.status == 0, "\(command): \(argument.err)")
            let rows = argument.out.split(separator: "\n")
            #expect(rows.contains { $0.contains("first line") && !$0.contains("second") } && rows.contains { $0.contains("second line") },
                    "\(command): \\n is a line break: \(argument.out)")
            for other in [fromFile, piped, dash] {
                #expect(other.status == 0 && other.out == argument.out, "\(command): \(other.out)\(other.err)")
            }
        }
        let dashed = try run(ctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--", "-5 degrees"])
        #expect(dashed.status == 0 && dashed.out.contains("-5 degrees"), "\(dashed.out)\(dashed.err)")
        let both = try run(ctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--text-file", file.path, "x"])
        #expect(both.status == 64, "\(both.err)")
        let unreadable = try run(ctl, ["layout", "--socket", daemon.socketPath, "--width", "300", "--text-file", "/no/such/file"])
        #expect(unreadable.status == 74, "\(unreadable.err)")
    }
}

/// --socket, --timeout and --json work before or after the subcommand; failures as JSON.
@Suite struct GlobalOptionTests {
    @Test func globalOptionsGoAnywhereAndFailuresComeAsJSON() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let after = try run(ctl, ["layout", "--width", "200", "--socket", daemon.socketPath, "--json", "--timeout", "5", "hello"])
        let before = try run(ctl, ["--socket", daemon.socketPath, "--json", "--timeout=5", "layout", "--width", "200", "hello"])
        #expect(after.status == 0 && before.status == 0 && before.out == after.out, "\(before.err)\(after.err)")
        #expect((try? Layoutd_V1_LayoutReply(jsonString: before.out)) != nil)
        // Stable: fields at their defaults are printed too (docs/cli.md).
        for field in ["\"hardBreak\":false", "\"truncated\":false", "\"leading\":0", "\"backgrounds\":[]", "\"direction\":\"DIRECTION_LTR\""] {
            #expect(before.out.contains(field), "\(field) missing from \(before.out)")
        }
        let nested = try run(ctl, ["--socket", daemon.socketPath, "tags", "toggle", "--label-count", "1", "--style", "0"])
        #expect(nested.status == 0 && nested.out.hasPrefix("style 1 of 4"), "\(nested.out)\(nested.err)")
        // A text after -- stays text, and the global options still apply.
        let dashed = try run(ctl, ["--socket", daemon.socketPath, "layout", "--width", "200", "--", "--json"])
        #expect(dashed.status == 0 && dashed.out.contains("--json"), "\(dashed.out)\(dashed.err)")

        let rejected = try run(ctl, ["--json", "--socket", daemon.socketPath, "layout", "--width=-1", "x"])
        #expect(rejected.status == 65)
        let failure = try JSONSerialization.jsonObject(with: Data(rejected.err.utf8)) as? [String: Any]
        let error = failure?["error"] as? [String: String]
        #expect(error?["code"] == "INVALID_ARGUMENT" && error?["field"] == "layout.width" && failure?["exit_status"] as? Int == 65,
                "\(rejected.err)")
        let unreachable = try run(ctl, ["--json", "ping", "--socket", "/tmp/no-such-layoutd-\(getpid()).sock"])
        let unreachableError = (try JSONSerialization.jsonObject(with: Data(unreachable.err.utf8)) as? [String: Any])?["error"] as? [String: String]
        #expect(unreachable.status == 69 && unreachableError?["code"] == "UNREACHABLE", "\(unreachable.err)")
    }
}

/// layoutctl's paint and Dynamic Type options reach the daemon and come back as table rows and pictures.
@Suite struct PaintCommandLineTests {
    @Test func decorationsShowInTheTableAndThePicture() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let base = ["layout", "--socket", daemon.socketPath, "--width", "300", "--size", "24"]
        let table = try run(ctl, base + ["--underline", "double,skip-ink", "--strike", "--span", "0:5:color=#ff0000,background=#ffee00",
                                         "--shadow", "2,2,3,#00000080", "Jumpy gypsy text"])
        #expect(table.status == 0, "\(table.err)")
        for row in ["underline", "strikethrough", "background", "double", "#ff0000", "#ffee00"] {
            #expect(table.out.contains(row), "\(row) missing from:\n\(table.out)")
        }
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("decorated-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: picture) }
        let drawn = try run(ctl, base + ["--underline", "dotted", "-o", picture.path, "Jumpy gypsy text"])
        #expect(drawn.status == 0 && FileManager.default.fileExists(atPath: picture.path), "\(drawn.err)")
        let refused = try run(ctl, base + ["--span", "0:1:shadow=1/1/500", "x"])
        #expect(refused.status == 65 && refused.err.contains("layout.spans[0].style.shadow.blur_radius"), "\(refused.err)")
        let usage = try run(ctl, base + ["--underline", "wavy", "x"])
        #expect(usage.status == 64)
    }

    @Test func rulesShowTheirMatches() throws {
        let daemon = try Daemon()
        let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400",
                                                           "--rules", "builtin", "--hide-markers", "--rule", "#(\\w+)=>group=1,name=tag,color=#1da1f2",
                                                           "1. Buy *milk* #groceries NOW"])
        #expect(result.status == 0, "\(result.err)")
        for row in ["bold", "[8,12)", "[7,8) [12,13)", "list-number", "capitals", "tag", "groceries"] {
            #expect(result.out.contains(row), "\(row) missing from:\n\(result.out)")
        }
        let refused = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "400",
                                                            "--rule", "ab(c=>weight=700", "x"])
        #expect(refused.status == 65 && refused.err.contains("layout.rules[0].pattern") && refused.err.contains("offset 4"), "\(refused.err)")
    }

    @Test func typemodeTakesSpansRulesAndDecorations() throws {
        let daemon = try Daemon()
        let result = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--width", "300",
                                                           "--rules", "builtin", "--hide-markers", "--underline", "single",
                                                           "--span", "0:2:color=#ff0000", "so\\n*HAPPY* NOW"])
        #expect(result.status == 0, "\(result.err)")
        for row in ["bold", "capitals", "underline"] { #expect(result.out.contains(row), "\(row) missing from:\n\(result.out)") }
        let refused = try run(Daemon.binary("layoutctl"), ["typemode", "--socket", daemon.socketPath, "--width", "300",
                                                            "--span", "0:2:size=40", "so"])
        #expect(refused.status == 65 && refused.err.contains("justify.spans[0].style.size"), "\(refused.err)")
    }

    @Test func aTextStyleAndCategorySizeTheText() throws {
        let daemon = try Daemon()
        let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300",
                                                           "--text-style", "body", "--category", "AX5", "Big"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("53.0"), "body at AX5 is 53 points:\n\(result.out)")
    }
}

/// layoutctl's flow and vertical options: fragments and containers in the table, pictures, and
/// bad shapes refused as usage errors or by the daemon by name.
@Suite struct FlowCommandLineTests {
    @Test func exclusionsColumnsAndVerticalTextFromTheCommandLine() throws {
        let daemon = try Daemon()
        let ctl = Daemon.binary("layoutctl")
        let text = "Text flows around a picture as a river flows around a stone: it parts, runs past on both sides and joins again below."
        let base = ["layout", "--socket", daemon.socketPath, "--width", "300", "--size", "16"]
        let around = try run(ctl, base + ["--exclude", "ellipse:150,60,50,40:both", "--exclude-margin", "6", text])
        #expect(around.status == 0, "\(around.err)")
        #expect(around.out.contains("fragment") && around.out.contains("container 0: text [0,"), "\(around.out)")
        let columns = try run(ctl, base + ["--height", "60", "--columns", "3", text + " " + text + " " + text])
        #expect(columns.status == 0 && columns.out.contains("container 2:") && columns.out.contains("overflow ["), "\(columns.out)\(columns.err)")
        let picture = FileManager.default.temporaryDirectory.appendingPathComponent("flow-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: picture) }
        let drawn = try run(ctl, base + ["--height", "200", "--container", "circle:100,100,100", "--valign", "center", "--vertical",
                                         "--upright-digits", "2", "--font", "Noto Sans CJK JP", "-o", picture.path, "縦書き、12月。"])
        #expect(drawn.status == 0 && FileManager.default.fileExists(atPath: picture.path), "\(drawn.err)")
        let usage = try run(ctl, base + ["--exclude", "hexagon:1,2,3", "x"])
        #expect(usage.status == 64, "\(usage.err)")
        let refused = try run(ctl, base + ["--exclude", "rect:0,0,-5,10", "x"])
        #expect(refused.status == 65 && refused.err.contains("layout.exclusions[0].shape.rect"), "\(refused.err)")
    }
}

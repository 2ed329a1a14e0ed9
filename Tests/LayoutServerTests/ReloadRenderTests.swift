import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Reloads while pictures are drawn and after them. Each reload retires a renderer whose Cairo
/// font faces may still sit in Cairo's caches; the daemon once freed their FreeType library at
/// once and died of SIGSEGV inside libfreetype a cycle or two later (issue 17).
@Suite struct ReloadRenderTests {
    static let texts = ["so\nHAPPY\nto see you", "Neon lights tonight", "Привет, мир", "مرحبا بالعالم",
                        "你好，世界 🎉", "नमस्ते दुनिया", "a", "The quick brown fox jumps over the lazy dog"]
    static let presets = ["modern", "neon", "typewriter", "strong", "classic"]

    static func render(_ k: Int) -> Layoutd_V1_RenderRequest {
        var justify = Layoutd_V1_JustifyRequest()
        justify.text = texts[k % texts.count]
        justify.preset = presets[k % presets.count]
        justify.width = Float(120 + (k * 37) % 300)
        var render = Layoutd_V1_RenderRequest()
        render.justify = justify
        render.format = [.png, .svg, .pdf][k % 3]
        render.scale = [0.5, 1, 2, 3][k % 4]
        return render
    }

    @Test func reloadingWhileAndAfterRenderingKeepsTheDaemonUp() throws {
        let daemon = try Daemon(arguments: ["--threads", "2"])
        do {
            try Self.cycles(daemon)
        } catch {
            usleep(200_000)
            Issue.record("\(error); the daemon's log:\n\(daemon.stderr.text)")
        }
    }

    static func cycles(_ daemon: Daemon) throws {
        let client = try daemon.client()
        let reloader = try daemon.client()
        var id: UInt64 = 1
        for cycle in 0..<8 {
            // Renders in flight while the set is swapped: pipelined, then a reload, then the answers.
            var sent: [UInt64] = []
            for k in 0..<40 {
                id += 1
                try client.send(.with { $0.requestID = id; $0.render = Self.render(cycle * 40 + k) })
                sent.append(id)
            }
            if cycle % 2 == 0 {
                let reply = try reloader.call(.reload(.init()))
                #expect(reply.errorReply == nil, "reload \(cycle): \(reply)")
            } else {
                kill(daemon.process.processIdentifier, SIGHUP)
            }
            for expected in sent {
                let answer = try client.receive(id: expected)
                guard case .renderReply(let picture) = answer.body, !picture.image.isEmpty else {
                    Issue.record("cycle \(cycle), request \(expected): \(answer)\n\(daemon.stderr.text)")
                    return
                }
            }
            #expect(daemon.process.isRunning, "cycle \(cycle): \(daemon.stderr.text)")
        }
        // After the last reload, on the new set.
        id += 1
        let last = try client.call(.render(Self.render(3)))
        guard case .renderReply = last.body else { Issue.record("\(last)\n\(daemon.stderr.text)"); return }
        #expect(daemon.stop() == 0, "\(daemon.stderr.text)")
    }
}

/// A fatal signal leaves a line in the log naming the signal and the request type, and the
/// daemon still dies of that signal (so systemd reports and restarts as before).
@Suite struct CrashReportTests {
    /// The ids of a process's threads named `name` (NIO names its pool's threads TP-#N).
    static func threads(of pid: Int32, named prefix: String) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            return comm.hasPrefix(prefix) ? Int32(task) : nil
        }
    }

    @Test func aCrashOnAWorkerNamesTheSignalAndTheRequest() throws {
        // Pixels allowed for a picture of 41 million: it draws until the budget runs out.
        let daemon = try Daemon(arguments: ["--threads", "1", "--max-picture-pixels", "100000000"])
        let pid = daemon.process.processIdentifier
        let client = try daemon.client()
        // A neon story of 6,000 words draws until the budget (5 s) runs out: the worker is busy.
        var render = Layoutd_V1_RenderRequest()
        render.justify.text = String(repeating: "word ", count: 6_000)
        render.justify.preset = "neon"
        render.justify.width = 1_000
        try client.send(.with { $0.requestID = 5; $0.render = render })
        usleep(500_000)
        let workers = Self.threads(of: pid, named: "TP-#")
        #expect(workers.count == 1, "one pool thread: \(workers)")
        // tgkill(2): the signal goes to the worker itself, as a fault on it would.
        let sent = try run("/usr/bin/python3", ["-c", "import ctypes, sys; libc = ctypes.CDLL(None); "
            + "sys.exit(libc.syscall(234, \(pid), \(workers.first ?? 0), 11))"])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(daemon.process.wait(within: 10))
        #expect(daemon.process.wasSignalled && daemon.process.terminationStatus == SIGSEGV)
        #expect(daemon.stderr.text.contains("layoutd: fatal SIGSEGV while serving a render request; exiting"), "\(daemon.stderr.text)")
    }
}

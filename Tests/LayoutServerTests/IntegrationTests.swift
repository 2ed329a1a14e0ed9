import Foundation
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

@Suite(.serialized) struct IntegrationTests {
    @Test func layoutctlPrintsOneRowPerLine() throws {
        let daemon = try Daemon()
        let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "300",
                                                          "--font", "Noto Sans", "--size", "24",
                                                          "The quick brown fox jumps over the lazy dog, twice over."])
        #expect(result.status == 0, "\(result.err)")
        let rows = result.out.split(separator: "\n")
        #expect(rows.first?.hasPrefix("line  range") == true)
        #expect(rows.count == 1 + 3 + 1)  // header, three lines, summary
        #expect(rows[1].hasPrefix("   0  [0,") && rows[1].contains("24.0"))
        #expect(rows[3].hasPrefix("   2  ") && rows[3].hasSuffix("over."))
        #expect(rows.last?.hasPrefix("size ") == true)
        #expect(daemon.stop() == 0)
    }

    @Test func layoutctlTruncatesAtTheHeadTheMiddleOrTheTail() throws {
        let daemon = try Daemon()
        let text = "The beginning of a long caption that cannot fit on one narrow line, and its end"
        var rows: [String: String] = [:]
        for mode in ["tail", "head", "middle"] {
            let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "200",
                                                              "--max-lines", "1", "--truncate", mode, text])
            #expect(result.status == 0, "\(result.err)")
            rows[mode] = String(result.out.split(separator: "\n")[1])
        }
        #expect(rows["tail"]!.contains("The beginning") && rows["tail"]!.hasSuffix("…"), "\(rows["tail"]!)")
        #expect(rows["head"]!.hasSuffix("its end") && rows["head"]!.contains("…"), "\(rows["head"]!)")
        #expect(rows["middle"]!.contains("The beg") && rows["middle"]!.hasSuffix("end") && rows["middle"]!.contains("…"),
                "\(rows["middle"]!)")
        let bad = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "200", "--truncate", "start", text])
        #expect(bad.status != 0 && bad.err.contains("--truncate must be"))
    }

    @Test func layoutctlFindsTheDaemonThroughTheEnvironment() throws {
        let daemon = try Daemon()
        var environment = ProcessInfo.processInfo.environment
        environment["LAYOUTD_SOCKET"] = daemon.socketPath
        let ping = try run(Daemon.binary("layoutctl"), ["ping"], environment: environment)
        #expect(ping.status == 0)
        #expect(ping.out.contains("layoutd \(LayoutdVersion.current)"))
        let fonts = try run(Daemon.binary("layoutctl"), ["fonts"], environment: environment)
        #expect(fonts.out.contains("Noto Color Emoji"))
        #expect(fonts.out.contains("Noto Naskh Arabic"))
        let json = try run(Daemon.binary("layoutctl"), ["layout", "--json", "--width", "100", "hi"], environment: environment)
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any]
        #expect((object?["lines"] as? [Any])?.count == 1)
    }

    @Test func layoutctlReportsADaemonErrorOnOneLine() throws {
        let daemon = try Daemon()
        let result = try run(Daemon.binary("layoutctl"), ["layout", "--socket", daemon.socketPath, "--width", "100",
                                                          "--font", "Comic Sans", "x"])
        #expect(result.status == 65, "a rejected request")
        #expect(result.err == "layoutctl: layoutd: NOT_FOUND layout.default_style.family: no loaded font family named \"Comic Sans\"\n")
        let missing = try run(Daemon.binary("layoutctl"), ["ping", "--socket", "/tmp/no-such-layoutd.sock"])
        #expect(missing.status == 69, "no daemon")
        #expect(missing.err.contains("cannot connect to layoutd at /tmp/no-such-layoutd.sock"))
    }

    @Test func pipelinedRepliesMatchTheirRequests() throws {
        let daemon = try Daemon()
        let client = try daemon.client()
        let texts = (0..<64).map { "Request number \($0) " + String(repeating: "word ", count: $0 % 7 + 1) }
        for (index, text) in texts.enumerated() {
            var envelope = Layoutd_V1_Envelope()
            envelope.requestID = UInt64(1000 + index)
            envelope.body = .layout(layoutRequest(text, width: 120))
            try client.send(envelope)
        }
        var seen = Set<UInt64>()
        for _ in texts {
            let reply = try client.receive()
            let index = Int(reply.requestID) - 1000
            let layout = try #require(reply.layoutReply)
            #expect(layout.visibleRange.length == UInt32(texts[index].utf16.count))
            seen.insert(reply.requestID)
        }
        #expect(seen.count == texts.count)
    }

    @Test func manyClientsAtOnce() async throws {
        let daemon = try Daemon()
        let socketPath = daemon.socketPath  // the tasks take the path, not the (non-Sendable) harness
        try await withThrowingTaskGroup(of: Int.self) { group in
            for clientIndex in 0..<8 {
                group.addTask {
                    let client = try LayoutClient(socketPath: socketPath, timeout: 60)
                    var served = 0
                    for round in 0..<25 {
                        let body = try client.request(.layout(layoutRequest("client \(clientIndex) round \(round) السلام 你好 👋🏽")))
                        if case .layoutReply = body { served += 1 }
                    }
                    return served
                }
            }
            var total = 0
            for try await served in group { total += served }
            #expect(total == 200)
        }
        let stats = try daemon.client().request(.stats(.init()))
        guard case .statsReply(let reply) = stats else { Issue.record("no stats"); return }
        #expect(reply.requestsServed >= 200)
        #expect(reply.connectionsTotal >= 9)
        #expect(reply.latencyP50Us > 0)
        #expect(reply.fontsLoaded > 20)
    }

    @Test func cancelAndDeadline() throws {
        // The heavy request must outlast the waits below, not the server's budget: a sanitizer's
        // build on a busy machine lays it out in more than the default 5 s.
        let daemon = try Daemon(arguments: ["--threads", "1", "--request-budget-ms", "120000"])
        let client = try daemon.client()
        // A cancel for an id that does not exist yet is dropped: it must not cancel a later
        // request that happens to use the id (it once did).
        var cancel = Layoutd_V1_Envelope()
        cancel.requestID = 1
        cancel.body = .cancel(.with { $0.requestID = 7 })
        try client.send(cancel)
        var request = Layoutd_V1_Envelope()
        request.requestID = 7
        request.body = .layout(layoutRequest("not cancelled"))
        try client.send(request)
        #expect(try client.receive(id: 7).layoutReply != nil)
        // With the one worker busy on a long text, a 1 ms deadline passes while the request waits,
        // and a request cancelled while it waits is answered CANCELLED.
        var heavy = Layoutd_V1_Envelope()
        heavy.requestID = 8
        heavy.body = .layout(layoutRequest(String(repeating: "long text without end ", count: 8000)))
        try client.send(heavy)
        // A small layout is answered on the event loop: first, while the worker is busy.
        var small = Layoutd_V1_Envelope()
        small.requestID = 11
        small.body = .layout(layoutRequest("a caption, answered at once"))
        try client.send(small)
        let first = try client.receive()
        #expect(first.requestID == 11 && first.layoutReply != nil, "\(first)")
        var hurried = Layoutd_V1_Envelope()
        hurried.requestID = 9
        hurried.deadlineMs = 1
        hurried.body = .layout(layoutRequest(String(repeating: "in a hurry ", count: 400)))
        try client.send(hurried)
        var queued = Layoutd_V1_Envelope()
        queued.requestID = 10
        // Over the size the event loop answers itself (1 KiB): it waits for the worker.
        queued.body = .layout(layoutRequest(String(repeating: "cancel me while I wait ", count: 60)))
        try client.send(queued)
        cancel.body = .cancel(.with { $0.requestID = 10 })
        try client.send(cancel)
        #expect(try client.receive(id: 9).errorReply?.code == .deadlineExceeded)
        #expect(try client.receive(id: 10).errorReply?.code == .cancelled)
        let heavyReply = try client.receive(id: 8)
        #expect(heavyReply.layoutReply != nil, "\(heavyReply)")
    }

    @Test func shutdownAnswersWhatIsInFlightFirst() throws {
        let daemon = try Daemon(arguments: ["--threads", "1", "--request-budget-ms", "120000"])
        let client = try daemon.client()
        var heavy = Layoutd_V1_Envelope()
        heavy.requestID = 42
        heavy.body = .layout(layoutRequest(String(repeating: "shutdown waits for me ", count: 8000)))
        try client.send(heavy)
        // Wait until the daemon has taken the request (stats are answered without queueing).
        let observer = try daemon.client()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            guard case .statsReply(let stats) = try observer.request(.stats(.init())) else { break }
            if stats.requestsInFlight > 0 { break }
            usleep(2_000)
        }
        daemon.process.terminate()
        let reply = try client.receive(id: 42)
        #expect(reply.layoutReply != nil, "\(reply.errorReply?.description ?? "")")
        #expect(daemon.process.wait(within: 60), "the process exits")
        #expect(daemon.process.terminationStatus == 0)
        #expect(access(daemon.socketPath, F_OK) != 0, "the socket file is removed on exit")
    }

    @Test func staleSocketIsReplacedAndALiveOneIsNot() throws {
        let path = Daemon.temporarySocketPath()
        // A stale socket: bound, then its owner went away without removing it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        #expect(access(path, F_OK) == 0)
        let daemon = try Daemon(socketPath: path)
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o660)
        let second = try run(Daemon.binary("layoutd"), ["--socket", path])
        #expect(second.status != 0)
        #expect(second.err.contains("another daemon is already serving at \(path)"))
        guard case .helloReply = try daemon.client().request(.hello(.init())) else { Issue.record("no hello reply"); return }
    }

    @Test func sigintAlsoExitsCleanly() throws {
        let daemon = try Daemon()
        kill(daemon.process.processIdentifier, SIGINT)
        #expect(daemon.process.wait(within: 60), "the process exits")
        #expect(daemon.process.terminationStatus == 0)
        #expect(access(daemon.socketPath, F_OK) != 0)
    }

    @Test func fontDirectoriesReplaceTheDefaultSet() throws {
        let daemon = try Daemon(arguments: ["--no-default-fonts", "--font", "/usr/share/fonts/truetype/dejavu",
                                            "--default-family", "DejaVu Sans"])
        guard case .fontsReply(let fonts) = try daemon.client().request(.fonts(.init())) else { Issue.record("no fonts"); return }
        #expect(!fonts.faces.isEmpty && fonts.faces.allSatisfy { $0.family.hasPrefix("DejaVu") })
        #expect(fonts.defaultFamily == "DejaVu Sans")
        guard case .layoutReply(let layout) = try daemon.client().request(.layout(layoutRequest("plain text", family: ""))) else {
            Issue.record("no layout"); return
        }
        #expect(layout.lines.count == 1)
        let missing = try run(Daemon.binary("layoutd"), ["--socket", Daemon.temporarySocketPath(), "--font", "/no/such/fonts"])
        #expect(missing.status != 0 && missing.err.contains("/no/such/fonts"))
    }
}

import Foundation
import LayoutServer
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Socket activation and readiness, proved with systemd-socket-activate (no systemd as PID 1
/// needed), and the unit files checked by systemd-analyze.
@Suite(.serialized) struct SystemdTests {

    @Test func servesAnActivatedSocketAndSignalsReady() throws {
        let socketPath = Daemon.temporarySocketPath()
        let notifyPath = socketPath + ".notify"
        let notify = try DatagramListener(path: notifyPath)
        // systemd-socket-activate clears the environment: NOTIFY_SOCKET is passed with -E.
        let process = try ChildProcess("/usr/bin/systemd-socket-activate",
                                       ["-l", socketPath, "-E", "NOTIFY_SOCKET=\(notifyPath)",
                                        Daemon.binary("layoutd"), "--socket", "/nonexistent/ignored.sock"])
        defer { stopForSure(process); unlink(socketPath) }
        // The daemon starts on the first connection; it must answer that very connection.
        // (Connecting before systemd-socket-activate has bound the path would just fail.)
        // systemd-socket-activate binds, then listens: in between (longer on a loaded machine) a
        // connect is refused, so it is tried again until the deadline.
        let deadline = Date().addingTimeInterval(10)
        var connected: LayoutClient?
        while connected == nil && Date() < deadline {
            connected = try? LayoutClient(socketPath: socketPath, timeout: 30)
            if connected == nil { usleep(10_000) }
        }
        let client = try connected ?? LayoutClient(socketPath: socketPath, timeout: 30)
        guard case .helloReply(let hello) = try client.request(.hello(.init())) else {
            Issue.record("no hello reply over the activated socket"); return
        }
        #expect(hello.protocolVersion == Framing.protocolVersion)
        let message = try notify.receive(timeout: 10)
        #expect(message.contains("READY=1"))
        guard case .layoutReply(let layout) = try client.request(.layout(layoutRequest("activated"))) else {
            Issue.record("no layout reply"); return
        }
        #expect(layout.lines.count == 1)
        process.terminate()
        #expect(process.wait(within: 60), "the process exits")
        #expect(process.terminationStatus == 0)
    }

    @Test func theWatchdogIsPingedUnderSocketActivation() throws {
        let socketPath = Daemon.temporarySocketPath()
        let notifyPath = socketPath + ".notify"
        let notify = try DatagramListener(path: notifyPath)
        let process = try ChildProcess("/usr/bin/systemd-socket-activate",
                                       ["-l", socketPath, "-E", "NOTIFY_SOCKET=\(notifyPath)", "-E", "WATCHDOG_USEC=400000",
                                        Daemon.binary("layoutd"), "--socket", "/nonexistent/ignored.sock"])
        defer { stopForSure(process); unlink(socketPath) }
        let deadline = Date().addingTimeInterval(10)
        var connected: LayoutClient?
        while connected == nil && Date() < deadline {
            connected = try? LayoutClient(socketPath: socketPath, timeout: 30)
            if connected == nil { usleep(10_000) }
        }
        let client = try connected ?? LayoutClient(socketPath: socketPath, timeout: 30)
        guard case .helloReply = try client.request(.hello(.init())) else { Issue.record("no hello reply"); return }
        var messages: [String] = []
        let started = Date()
        while messages.filter({ $0.contains("WATCHDOG=1") }).count < 4 && Date().timeIntervalSince(started) < 10 {
            messages.append(try notify.receive(timeout: 10))
        }
        #expect(messages.first?.contains("READY=1") == true, "\(messages)")
        // Every 0.2 s (half of WatchdogSec): four pings in well under the ten seconds allowed.
        #expect(messages.filter { $0.contains("WATCHDOG=1") }.count >= 4, "\(messages)")
        process.terminate()
        #expect(process.wait(within: 60), "the process exits")
    }

    @Test func theServiceIsHardened() throws {
        // systemd-analyze security rates a unit file offline; 0 is locked down, 10 wide open.
        let result = try run("/usr/bin/systemd-analyze", ["security", "--offline=yes", "--no-pager",
                                                          repositoryRoot.appendingPathComponent("systemd/layoutd.service").path])
        let line = result.out.split(separator: "\n").first { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(score != nil && score! <= 1.0, "\(line)\n\(result.err)")
        let unit = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/layoutd.service"), encoding: .utf8)
        #expect(unit.contains("RestrictAddressFamilies=AF_UNIX") && unit.contains("WatchdogSec=") && unit.contains("ExecReload="))
        #expect(!unit.contains("\nPrivateUsers=yes"), "PrivateUsers folds every client into uid 65534 for the per-user cap")
    }

    /// The README's metrics recipe, the drop-in systemd/drop-ins/metrics.conf: beside the
    /// unit it verifies cleanly, turns the private network off (its loopback was the unit's own,
    /// out of the host's reach), allows IP sockets, and lets traffic reach loopback alone.
    @Test func theMetricsDropInVerifiesAndOpensOnlyTheLoopback() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-dropin-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("layoutd.service.d"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (source, name) in [("layoutd.service", "layoutd.service"), ("layoutd.socket", "layoutd.socket"),
                               ("drop-ins/metrics.conf", "layoutd.service.d/metrics.conf")] {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/\(source)"), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/layoutd", with: Daemon.binary("layoutd"))
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let unit = directory.appendingPathComponent("layoutd.service").path
        let verified = try run("/usr/bin/systemd-analyze", ["verify", "--man=no", directory.appendingPathComponent("layoutd.socket").path, unit])
        let problems = verified.err.split(separator: "\n").filter { !Self.isEnvironmentNoise($0) }
        #expect(verified.status == 0 && problems.isEmpty, "systemd-analyze: \(problems.joined(separator: "\n"))")
        let security = try run("/usr/bin/systemd-analyze", ["security", "--offline=yes", "--no-pager", unit],
                               environment: ProcessInfo.processInfo.environment.merging(["SYSTEMD_UNIT_PATH": directory.path + ":"]) { $1 })
        let rows = security.out.split(separator: "\n")
        #expect(rows.contains { $0.contains("PrivateNetwork=") && $0.contains("access to the host's network") },
                "the drop-in was not applied: \(security.out)")
        #expect(rows.contains { $0.contains("IPAddressDeny=") && $0.contains("only localhost entries") }, "\(security.out)")
        #expect(rows.contains { $0.contains("✓ RestrictAddressFamilies=~AF_PACKET") }, "\(security.out)")
        let line = rows.first { $0.contains("Overall exposure level") } ?? ""
        let score = line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) }
        #expect(score != nil && score! <= 1.5, "\(line)")
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("systemd/drop-ins/metrics.conf"), "the README does not point at the drop-in")
    }

    /// In a user namespace that maps only some uids (as PrivateUsers=yes makes one), other
    /// clients all read as uid 65534 and share one per-user cap: shown here with unshare, and
    /// the daemon says so at start-up.
    @Test(.enabled(if: getuid() == 0, "needs root to run clients as other users"))
    func aUserNamespaceFoldsUsersAndTheDaemonSaysSo() throws {
        let socketPath = Daemon.temporarySocketPath()
        let stderr = CapturedOutput()
        let process = try ChildProcess("/usr/bin/unshare", ["--user", "--map-root-user", Daemon.binary("layoutd"), "--socket", socketPath,
                                                           "--config", "/dev/null", "--max-connections-per-user", "1"], errors: stderr.handle)
        defer { stopForSure(process); unlink(socketPath) }
        try Daemon.waitUntilServing(socketPath, process: process)
        #expect(stderr.text.contains("per-user limits cannot tell users apart"), "\(stderr.text)")
        chmod(socketPath, 0o666)
        // Two different users: the second is refused as if it were the first.
        let hold = "import socket, sys, time\ns = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(1)\n"
            + "try:\n print(s.recv(200))\nexcept socket.timeout:\n print('held'); sys.stdout.flush(); time.sleep(3)\n"
        let first = try ChildProcess("/usr/bin/setpriv", ["--reuid=1001", "--regid=1001", "--clear-groups", "/usr/bin/python3", "-c", hold, socketPath])
        defer { stopForSure(first) }
        usleep(1_500_000)
        let second = try run("/usr/bin/setpriv", ["--reuid=1002", "--regid=1002", "--clear-groups", "/usr/bin/python3", "-c", hold, socketPath], within: 20)
        #expect(second.out.contains("user 65534 has 1 connections open"), "\(second.out)\(second.err)")
        #expect(UserNamespace.partialMapping(uidMap: "         0          0 4294967295\n") == nil)
        #expect(UserNamespace.partialMapping(uidMap: "0 0 1\n") != nil)
    }

    @Test func unitFilesVerifyCleanly() throws {
        // systemd-analyze exits 0 on unknown keys, so any stderr output counts as a failure.
        // ExecStart is pointed at the built binary: verify also checks that it exists.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-units-\(getpid())")
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["layoutd.service", "layoutd.socket"] {
            let text = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
                .replacingOccurrences(of: "/usr/local/bin/layoutd", with: Daemon.binary("layoutd"))
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let result = try run("/usr/bin/systemd-analyze", ["verify", "--man=no",
                                                          directory.appendingPathComponent("layoutd.socket").path,
                                                          directory.appendingPathComponent("layoutd.service").path])
        let problems = result.err.split(separator: "\n").filter { !Self.isEnvironmentNoise($0) }
        #expect(result.status == 0)
        #expect(problems.isEmpty, "systemd-analyze: \(problems.joined(separator: "\n"))")
    }

    /// Lines systemd-analyze prints about the machine it runs on (a container without systemd
    /// as PID 1, a missing user), not about our units.
    static func isEnvironmentNoise(_ line: Substring) -> Bool {
        line.contains("Failed to resolve user") || line.contains("Failed to resolve group")
            || line.contains("System has not been booted with systemd")
    }
}

/// A Unix datagram socket standing in for systemd's notification socket.
final class DatagramListener {
    let fd: Int32
    let path: String

    init(path: String) throws {
        self.path = path
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw HarnessError("cannot bind \(path)") }
    }

    func receive(timeout: Int) throws -> String {
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 0 else { throw HarnessError("no notification within \(timeout) s") }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(fd)
        unlink(path)
    }
}

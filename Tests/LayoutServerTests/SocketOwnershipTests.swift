import Foundation
import LayoutdClient
import Testing
import TestSupport

/// The user's socket is the user's: without XDG_RUNTIME_DIR the default lives in a 0700
/// directory of the user's own, and clients talk only to a daemon they can trust. The other
/// user here is `nobody`, through setpriv (the tests run as root).
@Suite(.serialized) struct SocketOwnershipTests {
    static let otherUID: UInt32 = 65_534
    static let directory = "/tmp/layoutd-65534"

    /// `layoutd` as `nobody`, with no XDG_RUNTIME_DIR, so it takes the default path.
    static func daemonAsNobody(_ arguments: [String] = [], errors: FileHandle) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "XDG_RUNTIME_DIR")
        return try ChildProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", Daemon.binary("layoutd"),
                                                     "--log-level", "warning"] + arguments,
                                environment: environment, errors: errors)
    }

    @Test func theDefaultSocketIsInAPrivateDirectoryAndForeignDaemonsAreRefused() throws {
        try? FileManager.default.removeItem(atPath: Self.directory)
        let stderr = CapturedOutput()
        let process = try Self.daemonAsNobody(errors: stderr.handle)
        defer {
            stopForSure(process)
            try? FileManager.default.removeItem(atPath: Self.directory)
        }
        let socket = Self.directory + "/layoutd.sock"
        let deadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: socket) && Date() < deadline && process.isRunning { usleep(20_000) }
        var info = stat()
        #expect(lstat(Self.directory, &info) == 0)
        #expect(info.st_uid == Self.otherUID)
        #expect(info.st_mode & 0o777 == 0o700)
        // Root's client reaches nobody's daemon and refuses it before sending anything.
        #expect(throws: ClientError.self) { try LayoutClient(socketPath: socket, timeout: 5) }
        let ping = try run(Daemon.binary("layoutctl"), ["ping", "--socket", socket])
        #expect(ping.status == 69)
        #expect(ping.err.contains("refusing the daemon") && ping.err.contains("uid 65534"), "\(ping.err)")
        // The C and Python clients refuse it too.
        let python = try run("/usr/bin/python3", [repositoryRoot.appendingPathComponent("clients/python/layoutd_client.py").path,
                                                  "layout", socket, "240", "secret text"])
        #expect(python.status != 0 && python.err.contains("refusing the daemon"), "\(python.err)")
        let build = try makeCClient()
        #expect(build.status == 0, "\(build.err)")
        let c = try run(repositoryRoot.appendingPathComponent("clients/c/layoutd-client").path, ["layout", socket, "240", "secret text"])
        #expect(c.status == 1 && c.err.contains("refusing the daemon"), "\(c.err)")
        // Told to trust any peer (as the harness can be), the same connection works.
        let trusting = try LayoutClient(socketPath: socket, timeout: 5, trustingAnyPeer: true)
        guard case .helloReply = try trusting.request(.hello(.init())) else { Issue.record("no hello"); return }
    }

    @Test func aDirectoryAnotherUserOwnsIsRefused() throws {
        try? FileManager.default.removeItem(atPath: Self.directory)
        #expect(mkdir(Self.directory, 0o777) == 0)
        chmod(Self.directory, 0o777)
        defer { try? FileManager.default.removeItem(atPath: Self.directory) }
        let stderr = CapturedOutput()
        let process = try Self.daemonAsNobody(errors: stderr.handle)
        #expect(process.wait(within: 60), "the process exits")
        #expect(process.terminationStatus != 0)
        #expect(stderr.text.contains("belongs to uid 0"), "\(stderr.text)")
    }
}

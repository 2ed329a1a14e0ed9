import Foundation
import LayoutEngine
import LayoutdClient
import LayoutWire
import Testing
import TestSupport

/// Runs the real `layoutd` binary on a temporary socket, as a user or systemd would.
final class Daemon {
    static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static func binary(_ name: String) -> String { buildDirectory.appendingPathComponent(name).path }

    let socketPath: String
    let process: ChildProcess
    /// A file, not a pipe: nobody reads a running daemon's log, and a full pipe would stop it.
    let stderr = CapturedOutput()

    /// Starts `layoutd` with `arguments` and waits until it accepts connections.
    /// `launcher` runs it (`prlimit --nofile=…`, say): its first word the program, the rest its arguments.
    init(arguments: [String] = [], socketPath: String? = nil, launcher: [String] = []) throws {
        self.socketPath = socketPath ?? Self.temporarySocketPath()
        // Not the test runner's stdout: a daemon left running must not hold its pipe open.
        // A machine with the package installed has /etc/layoutd/layoutd.conf; tests read only their own.
        let config = arguments.contains("--config") ? [] : ["--config", "/dev/null"]
        let command = launcher + [Self.binary("layoutd"), "--socket", self.socketPath, "--log-level", "warning"] + config + arguments
        process = try ChildProcess(command[0], Array(command.dropFirst()), errors: stderr.handle)
        try Self.waitUntilServing(self.socketPath, process: process)
    }

    static func temporarySocketPath() -> String {
        "/tmp/layoutd-test-\(getpid())-\(UUID().uuidString.prefix(8)).sock"
    }

    static func waitUntilServing(_ path: String, process: ChildProcess?, seconds: Double = 30) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let client = try? LayoutClient(socketPath: path, timeout: 5), (try? client.request(.hello(.init()))) != nil { return }
            if let process, !process.isRunning { throw HarnessError("layoutd exited with status \(process.terminationStatus ?? -1)") }
            usleep(20_000)
        }
        throw HarnessError("layoutd did not start serving at \(path)")
    }

    func client(timeout: TimeInterval = 60) throws -> LayoutClient { try LayoutClient(socketPath: socketPath, timeout: timeout) }

    /// Sends SIGTERM and returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            if !process.wait(within: 30) { return -1 }
        }
        return process.terminationStatus ?? -1
    }

    deinit {
        stopForSure(process)
        unlink(socketPath)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a command to completion (killed after `seconds`) and returns its status, stdout and stderr.
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
         within seconds: Double = 300) throws -> (status: Int32, out: String, err: String) {
    let done = try runToCompletion(executable, arguments, environment: environment, within: seconds)
    return (done.status, done.out, done.err)
}

/// `make` in the C client's directory, one at a time in this process: two suites build it, and
/// two makes at once in one directory linked against each other's half-written objects (a flaky
/// "undefined reference" in CI).
func makeCClient(_ arguments: [String] = []) throws -> (status: Int32, out: String, err: String) {
    try cClientBuilds.withLock { _ in
        // The tests hold the library to -Werror; a build elsewhere does not (clients/c/Makefile).
        try run("/usr/bin/make", ["-s", "-C", repositoryRoot.appendingPathComponent("clients/c").path, "WERROR=-Werror"] + arguments)
    }
}

private let cClientBuilds = Locked<Void>(())

/// The repository's root, for the scripts, clients and files the tests read by path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Runs `scripts/hostile/NAME` with Debian's Python, which has python3-protobuf.
func runHostileScript(_ name: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    try run("/usr/bin/python3", [repositoryRoot.appendingPathComponent("scripts/hostile/" + name).path] + arguments)
}

/// A layout request with the common fields set.
func layoutRequest(_ text: String, width: Float = 300, size: Float = 24, family: String = "Noto Sans") -> Layoutd_V1_LayoutRequest {
    var request = Layoutd_V1_LayoutRequest()
    request.text = text
    request.width = width
    request.defaultStyle.family = family
    request.defaultStyle.size = size
    return request
}

extension Layoutd_V1_Envelope {
    var errorReply: Layoutd_V1_Error? {
        if case .error(let error) = body { return error }
        return nil
    }
    var layoutReply: Layoutd_V1_LayoutReply? {
        if case .layoutReply(let reply) = body { return reply }
        return nil
    }
}

/// SIGTERM, then SIGKILL if the process has not gone within five seconds.
func stopForSure(_ process: ChildProcess) {
    guard process.isRunning else { return }
    process.terminate()
    process.wait(within: 5)
}

/// The error the daemon answers `body` with, or nil when it answers it.
func refusal(_ client: LayoutClient, _ body: Layoutd_V1_Envelope.OneOf_Body) throws -> Layoutd_V1_Error? {
    do { _ = try client.request(body); return nil } catch ClientError.server(let error) { return error }
}

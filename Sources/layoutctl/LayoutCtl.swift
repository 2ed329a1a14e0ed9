import ArgumentParser
import Foundation
import LayoutClient
import LayoutWire

/// The command-line client: one subcommand per capability. It loads no font itself.
@main
struct LayoutCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layoutctl",
        abstract: "Talk to layoutd: lay text out, list fonts, check the daemon.",
        version: LayoutdVersion.current,
        subcommands: [Layout.self, TypeMode.self, Tags.self, Fonts.self, Ping.self, Stats.self, Reload.self])
}

/// How every subcommand finds the daemon.
struct Connection: ParsableArguments {
    @Option(help: "The daemon's socket (default: $LAYOUTD_SOCKET, else the service's /run/layoutd/layoutd.sock when it exists, else the user default).")
    var socket: String?
    @Option(help: "Seconds to wait for the daemon's answer.")
    var timeout: Double = 60

    func client() throws -> LayoutClient {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout takes seconds in (0, 86400]") }
        return try LayoutClient(socketPath: SocketPaths.resolve(explicit: socket), timeout: timeout)
    }
}

/// layoutctl's exit statuses (sysexits.h), documented in docs/cli.md: a script can tell a
/// mistake in its own command from a request the daemon refused, a daemon it cannot reach and
/// one that did not answer in time.
enum ExitStatus {
    /// A usage error: argument-parser's own status for a bad option or value.
    static let usage: Int32 = 64
    /// The daemon refused the request (its structured error is printed).
    static let rejected: Int32 = 65
    /// No daemon to talk to: no socket, refused, closed, or not one this user trusts.
    static let unavailable: Int32 = 69
    /// A file could not be read or written.
    static let ioError: Int32 = 74
    /// The daemon did not answer within --timeout.
    static let timedOut: Int32 = 75
    /// The daemon answered something that is not the protocol.
    static let protocolError: Int32 = 76

    static func of(_ error: ClientError) -> Int32 {
        switch error {
        case .server: rejected
        case .connect, .closed, .untrustedPeer: unavailable
        case .timedOut: timedOut
        case .io: ioError
        case .protocolViolation: protocolError
        }
    }
}

/// Runs `body`, turning any failure into one line on stderr and its exit status.
func reportingFailures<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as ClientError {
        FileHandle.standardError.write(Data("layoutctl: \(error)\n".utf8))
        throw ExitCode(ExitStatus.of(error))
    }
}

extension String {
    /// Left-justified in `width` columns, for tables.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

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
    @Option(help: "The daemon's socket (default: $LAYOUTD_SOCKET, else the user default).")
    var socket: String?

    func client() throws -> LayoutClient {
        try LayoutClient(socketPath: SocketPaths.resolve(explicit: socket))
    }
}

/// Runs `body`, turning any failure into one line on stderr and exit status 1.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ClientError {
        FileHandle.standardError.write(Data("layoutctl: \(error)\n".utf8))
        throw ExitCode(1)
    }
}

extension String {
    /// Left-justified in `width` columns, for tables.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

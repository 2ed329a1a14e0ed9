import ArgumentParser
import Foundation
import LayoutdClient
import LayoutProtocol

/// The command-line client: one subcommand per capability. It loads no font itself.
@main
struct LayoutCtl: ParsableCommand {
    static func main() {
        let names = Set(configuration.subcommands.map { $0._commandName } + ["help"])
        main(GlobalOptions.reordered(Array(CommandLine.arguments.dropFirst()), subcommands: names))
    }

    static let configuration = CommandConfiguration(
        commandName: "layoutctl",
        abstract: "Talk to layoutd: lay text out, list fonts, check the daemon.",
        version: LayoutdVersion.current,
        subcommands: [Layout.self, Batch.self, Hit.self, Edit.self, TypeMode.self, Tags.self, Fonts.self, Ping.self, Stats.self, Reload.self])
}

/// How every subcommand finds the daemon.
struct Connection: ParsableArguments {
    @Option(help: "The daemon's socket (default: $LAYOUTD_SOCKET, else the service's /run/layoutd/layoutd.sock when it exists, else the user default).")
    var socket: String?
    @Option(parsing: .unconditional, help: "Seconds to wait for the daemon's answer.")
    var timeout: Double = 60
    @Flag(help: "Print the whole reply as JSON, and a failure as a JSON object on stderr.")
    var json = false

    func client() throws -> LayoutClient {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else { throw ValidationError("--timeout takes seconds in (0, 86400]") }
        let client = try LayoutClient(socketPath: SocketPaths.resolve(explicit: socket), timeout: timeout)
        // The daemon's version and features, so a request it does not serve is refused by name.
        try client.greet(clientName: "layoutctl")
        return client
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
        case .connect, .closed, .untrustedPeer, .connectionLost, .documentGone: unavailable
        case .timedOut: timedOut
        case .io: ioError
        case .protocolViolation, .unsupported: protocolError
        }
    }
}

extension Connection {
    /// Runs `body`, turning any failure into one line on stderr (a JSON object under --json)
    /// and its exit status.
    func reportingFailures<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ClientError {
            let line = json ? Self.json(error) : "layoutctl: \(error)"
            FileHandle.standardError.write(Data((line + "\n").utf8))
            throw ExitCode(ExitStatus.of(error))
        }
    }

    /// `{"error": {"code": …, "field": …, "message": …}, "exit_status": N}`: the daemon's code
    /// for a refused request, else what went wrong on this side.
    static func json(_ error: ClientError) -> String {
        var body: [String: String]
        switch error {
        case .server(let wire): body = ["code": wire.code.protoName, "field": wire.field, "message": wire.message]
        case .connect, .closed, .untrustedPeer, .connectionLost: body = ["code": "UNREACHABLE", "field": "", "message": "\(error)"]
        case .documentGone: body = ["code": "DOCUMENT_GONE", "field": "document", "message": "\(error)"]
        case .timedOut: body = ["code": "TIMEOUT", "field": "", "message": "\(error)"]
        case .io: body = ["code": "IO", "field": "", "message": "\(error)"]
        case .protocolViolation: body = ["code": "PROTOCOL", "field": "", "message": "\(error)"]
        case .unsupported: body = ["code": "UNSUPPORTED", "field": "", "message": "\(error)"]
        }
        struct Failure: Encodable { var error: [String: String]; var exit_status: Int32 }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Failure(error: body, exit_status: ExitStatus.of(error)))) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// Global options (`--socket`, `--timeout`, `--json`) given before the subcommand move after
/// it, where each subcommand's option group reads them (and before a `--`, after which
/// everything is text).
enum GlobalOptions {
    static let withValue: Set<String> = ["--socket", "--timeout"]
    static let flags: Set<String> = ["--json"]

    static func reordered(_ arguments: [String], subcommands: Set<String>) -> [String] {
        var moved: [String] = [], rest: [String] = []
        var index = 0
        var seenSubcommand = false
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            if !seenSubcommand, withValue.contains(name) {
                moved.append(argument)
                if !argument.contains("="), index + 1 < arguments.count { moved.append(arguments[index + 1]); index += 1 }
            } else if !seenSubcommand, flags.contains(argument) {
                moved.append(argument)
            } else {
                if subcommands.contains(argument) { seenSubcommand = true }
                rest.append(argument)
            }
            index += 1
        }
        guard !moved.isEmpty else { return arguments }
        if let dashes = rest.firstIndex(of: "--") { rest.insert(contentsOf: moved, at: dashes) } else { rest += moved }
        return rest
    }
}

extension String {
    /// Left-justified in `width` columns, for tables.
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}

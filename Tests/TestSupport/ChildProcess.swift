import Foundation

/// A child process the tests start: a daemon, a script, a compiler.
///
/// Not Foundation's `Process`: on Linux it learns that a child exited when a socket the child
/// inherited closes, and it closes the runner's other descriptors in the child from a list made
/// before the spawn. Two tests spawning at once can each leave their monitor socket in the
/// other's child, and then `waitUntilExit` never returns while that other child lives; a CI run
/// hung until its clock ran out. Here the child closes every descriptor but 0–2 itself
/// (`posix_spawn_file_actions_addclosefrom_np`), and exit is learned by `waitpid` on its pid.
// @unchecked Sendable: the pid and path are `let`; the exit status is read and written under `lock`.
public final class ChildProcess: @unchecked Sendable {
    public let processIdentifier: pid_t
    public let executable: String
    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Starts `executable`; stdout and stderr go to `output` and `errors` (nil: /dev/null),
    /// stdin is /dev/null. The child gets its own process group and default signal handling.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                output: FileHandle? = nil, errors: FileHandle? = nil) throws {
        self.executable = executable
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, devNull, 0)
        posix_spawn_file_actions_adddup2(&actions, output?.fileDescriptor ?? devNull, 1)
        posix_spawn_file_actions_adddup2(&actions, errors?.fileDescriptor ?? devNull, 2)
        guard Self.closeFrom(&actions, 3) == 0 else { throw ChildProcessError("closefrom: \(String(cString: strerror(errno)))") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGCHLD, SIGHUP, SIGINT, SIGTERM, SIGQUIT] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + variables).forEach { free($0) } }
        var pid = pid_t()
        let failed = posix_spawn(&pid, executable, &actions, &attributes, argv, variables)
        guard failed == 0 else { throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(failed)))") }
        processIdentifier = pid
    }

    deinit {
        if isRunning {
            killGroup()
            wait(within: 5)
        }
    }

    /// SIGKILL to the child's whole process group: a script's own children (a Python pool's
    /// workers) go with it.
    private func killGroup() {
        kill(-processIdentifier, SIGKILL)
        kill(processIdentifier, SIGKILL)
    }

    /// glibc 2.34's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not
    /// declare; looked up once.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let closeFrom: CloseFrom = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc ≥ 2.34 is needed for posix_spawn_file_actions_addclosefrom_np")
        }
        return unsafeBitCast(symbol, to: CloseFrom.self)
    }()

    /// Reaps the child if it has exited; true while it runs.
    public var isRunning: Bool {
        lock.withLock {
            if waitStatus != nil { return false }
            var status: Int32 = 0
            var reaped: pid_t
            repeat { reaped = waitpid(processIdentifier, &status, WNOHANG) } while reaped == -1 && errno == EINTR
            if reaped == processIdentifier { waitStatus = status }
            return waitStatus == nil && reaped == 0
        }
    }

    public func signal(_ number: Int32) {
        if isRunning { kill(processIdentifier, number) }
    }

    public func terminate() { signal(SIGTERM) }

    /// Waits for the child to exit; past `seconds` it is killed and the answer is false.
    ///
    /// No test waits for a child without a deadline: a daemon that fails to stop, or a script
    /// that stalls, must fail its own test, not hold the whole run until CI's clock runs out.
    @discardableResult
    public func wait(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            if Date() >= deadline {
                FileHandle.standardError.write(Data("test harness: \(executable) (pid \(processIdentifier)) still running after \(seconds) s; killed\n".utf8))
                killGroup()
                while isRunning { usleep(2_000) }
                return false
            }
            usleep(2_000)
        }
        return true
    }

    /// The exit code, or the number of the signal that ended it; nil while it runs.
    public var terminationStatus: Int32? {
        guard !isRunning, let status = lock.withLock({ waitStatus }) else { return nil }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : signal
    }

    /// True when the child ended by a signal rather than by exiting.
    public var wasSignalled: Bool {
        guard let status = lock.withLock({ waitStatus }) else { return false }
        return status & 0x7F != 0
    }
}

public struct ChildProcessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The outcome of a command run to completion (or killed at its deadline).
public struct Completed {
    public var status: Int32
    public var out: String
    public var err: String
    /// False when the command was killed at its deadline.
    public var finished: Bool
}

/// Runs a command to completion within `seconds`; its output goes to files (see CapturedOutput).
public func runToCompletion(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                            within seconds: Double = 300) throws -> Completed {
    let out = CapturedOutput()
    let err = CapturedOutput()
    let child = try ChildProcess(executable, arguments, environment: environment, output: out.handle, errors: err.handle)
    let finished = child.wait(within: seconds)
    return Completed(status: finished ? child.terminationStatus ?? -1 : -1, out: out.text,
                     err: err.text + (finished ? "" : "\nkilled after \(seconds) s"), finished: finished)
}

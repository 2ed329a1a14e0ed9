import CFatalSignal

/// A fatal signal leaves one line on standard error, naming the signal and the request the
/// crashing thread was serving, before the process dies of it as it would have (without it,
/// under systemd a crash said only "status=11/SEGV"). The handler is C (`CFatalSignal`), as a signal
/// handler may call only async-signal-safe functions.
public enum CrashReport {
    /// Installs the handlers; `journal` prefixes the line with the journal's "<2>" (critical).
    public static func install(journal: Bool) {
        layoutd_fatal_signal_install(journal ? 1 : 0)
    }

    /// Runs `body` with this thread marked as serving a request of `kind`.
    @inline(__always)
    static func serving<T>(_ kind: StaticString, _ body: () throws -> T) rethrows -> T {
        // A Swift string literal held as a StaticString is stored NUL-terminated and lives as
        // long as the program, as the handler needs.
        layoutd_fatal_signal_serving(UnsafeRawPointer(kind.utf8Start).assumingMemoryBound(to: CChar.self))
        defer { layoutd_fatal_signal_serving(nil) }
        return try body()
    }
}

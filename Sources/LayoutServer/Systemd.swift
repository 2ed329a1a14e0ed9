import Foundation

/// The two pieces of systemd's protocol a daemon needs, without linking libsystemd:
/// socket activation (sd_listen_fds) and readiness notification (sd_notify).
public enum Systemd {
    /// The first socket systemd passed (fd 3), when LISTEN_PID names this process.
    /// The variables are removed so child processes do not inherit them (as sd_listen_fds(1) does).
    public static func activatedSocket() -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
              let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1 else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }

    /// Sends `state` ("READY=1", "STOPPING=1") to $NOTIFY_SOCKET; a no-op outside systemd.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !path.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let sent = state.withCString { message in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, message, strlen(message), 0, $0, length)
                }
            }
        }
        return sent >= 0
    }
}

extension Systemd {
    /// The watchdog interval systemd asks for (WatchdogSec=, passed as WATCHDOG_USEC), when it
    /// is meant for this process (WATCHDOG_PID unset or ours), as sd_watchdog_enabled(3) reads it.
    public static func watchdogInterval() -> TimeInterval? {
        let environment = ProcessInfo.processInfo.environment
        guard let micros = environment["WATCHDOG_USEC"].flatMap(UInt64.init), micros > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap(Int32.init), pid != getpid() { return nil }
        return TimeInterval(micros) / 1_000_000
    }
}

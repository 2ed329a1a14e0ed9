import Foundation

/// Prepares a socket path for binding: a stale socket file is removed, a live daemon's
/// socket is never taken, and anything that is not a socket is left alone.
enum UnixSocketPath {
    static func prepare(_ path: String) throws {
        guard path.utf8.count < 108 else {
            throw ConfigurationError("socket path is longer than a Unix socket address allows (107 bytes): \(path)")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // nothing there
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw ConfigurationError("\(path) exists and is not a socket; refusing to replace it")
        }
        if isLive(path) {
            throw ConfigurationError("another daemon is already serving at \(path)")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ConfigurationError("cannot remove stale socket \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// True when something accepts connections at `path`.
    static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return result == 0
    }
}

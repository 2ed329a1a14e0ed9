import Foundation
import LayoutWire

/// Prepares a socket path for binding: a stale socket file is removed, a live daemon's
/// socket is never taken, and anything that is not a socket is left alone.
enum UnixSocketPath {
    static func prepare(_ path: String) throws {
        guard path.utf8.count < 108 else {
            throw ConfigurationError("socket path is longer than a Unix socket address allows (107 bytes): \(path)")
        }
        if (path as NSString).deletingLastPathComponent == SocketPaths.privateDirectory {
            try ensurePrivateDirectory(SocketPaths.privateDirectory)
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

    /// Creates `directory` with mode 0700, or checks that the one there is a real directory (not
    /// a link) that this user owns and no one else may enter; refuses otherwise, saying why.
    static func ensurePrivateDirectory(_ directory: String, uid: uid_t = getuid()) throws {
        if mkdir(directory, 0o700) == 0 { return }
        guard errno == EEXIST else {
            throw ConfigurationError("cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(directory, &info) == 0 else {
            throw ConfigurationError("cannot inspect \(directory): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ConfigurationError("\(directory) is not a directory (a link or a file put there by someone); refusing to use it")
        }
        guard info.st_uid == uid else {
            throw ConfigurationError("\(directory) belongs to uid \(info.st_uid), not to you (uid \(uid)); refusing a socket "
                                     + "another user controls (remove it, or set --socket or XDG_RUNTIME_DIR)")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ConfigurationError("\(directory) is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))); "
                                     + "it must be 0700 (chmod 700 \(directory))")
        }
    }
}

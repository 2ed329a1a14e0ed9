import Foundation

/// Where clients and the daemon look for the socket when none is named.
public enum SocketPaths {
    /// The path the service unit uses.
    public static let servicePath = "/run/layoutd/layoutd.sock"

    /// `$XDG_RUNTIME_DIR/layoutd.sock` for a user session, else `layoutd.sock` in the user's
    /// own directory `/tmp/layoutd-<uid>` (mode 0700: in /tmp itself, another user could take
    /// the name first and be the daemon the user's clients talk to).
    public static var userDefault: String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/layoutd.sock"
        }
        return privateDirectory + "/layoutd.sock"
    }

    /// The directory that holds the default socket when there is no `XDG_RUNTIME_DIR`.
    public static var privateDirectory: String { "/tmp/layoutd-\(getuid())" }

    /// A client's choice: the explicit path, else $LAYOUTD_SOCKET, else the system service's
    /// socket when there is one, else the user default.
    public static func resolve(explicit: String?) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let variable = ProcessInfo.processInfo.environment["LAYOUTD_SOCKET"], !variable.isEmpty { return variable }
        var info = stat()
        if stat(servicePath, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return servicePath }
        return userDefault
    }
}

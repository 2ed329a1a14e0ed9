import Foundation

/// Where clients and the daemon look for the socket when none is named.
public enum SocketPaths {
    /// The path the service unit uses.
    public static let servicePath = "/run/layoutd/layoutd.sock"

    /// `$XDG_RUNTIME_DIR/layoutd.sock` for a user session, else `/tmp/layoutd-<uid>.sock`.
    public static var userDefault: String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/layoutd.sock"
        }
        return "/tmp/layoutd-\(getuid()).sock"
    }

    /// A client's choice: the explicit path, else $LAYOUTD_SOCKET, else the user default.
    public static func resolve(explicit: String?) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let variable = ProcessInfo.processInfo.environment["LAYOUTD_SOCKET"], !variable.isEmpty { return variable }
        return userDefault
    }
}

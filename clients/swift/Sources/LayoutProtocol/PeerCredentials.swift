import Foundation

/// Who is at the other end of a Unix socket, as the kernel says (SO_PEERCRED): the daemon
/// counts connections per user with it, and `layoutctl` checks whose daemon it reached.
public struct PeerCredentials: Sendable, Equatable {
    // Laid out as Linux's `struct ucred`, which Swift's Glibc module does not export.
    public var pid: Int32 = 0
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0

    public init(pid: Int32 = 0, uid: UInt32 = 0, gid: UInt32 = 0) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    /// The peer of the connected Unix socket `fd`, or nil when the kernel will not say.
    public static func of(fd: Int32) -> PeerCredentials? {
        #if os(Linux)
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
              length == socklen_t(MemoryLayout<PeerCredentials>.size) else { return nil }
        return credentials
        #else
        // Apple's systems: the uid and gid from getpeereid, the pid from LOCAL_PEERPID.
        var uid = uid_t(0), gid = gid_t(0), pid = pid_t(0)
        guard getpeereid(fd, &uid, &gid) == 0 else { return nil }
        var length = socklen_t(MemoryLayout<pid_t>.size)
        _ = getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pid, &length)
        return PeerCredentials(pid: pid, uid: uid, gid: gid)
        #endif
    }

    /// The uid of the system user the service runs as (`layoutd`), if that user exists.
    public static var serviceUserID: UInt32? {
        guard let entry = getpwnam("layoutd") else { return nil }
        return entry.pointee.pw_uid
    }

    /// Whether a client running as `clientUID` may trust a daemon running as `uid`: its own,
    /// root's, or the system service's. Anything else could be another user's daemon waiting at
    /// a path the client was pointed to, reading the text it sends.
    public func isTrusted(byClient clientUID: UInt32, serviceUID: UInt32? = PeerCredentials.serviceUserID) -> Bool {
        uid == clientUID || uid == 0 || (serviceUID.map { uid == $0 } ?? false)
    }
}

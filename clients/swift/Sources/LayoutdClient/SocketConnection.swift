import Foundation
import LayoutProtocol

/// Opening a connection to the daemon, shared by the blocking and the async client.
enum SocketConnection {
    /// A connected stream socket to `socketPath`. Unless `trustingAnyPeer`, the daemon must run
    /// as this user, as root, or as the service's `layoutd` user (checked with SO_PEERCRED): a
    /// socket in a shared place can be another user's daemon, which would read the text sent.
    /// With a `timeout`, sends and receives on it give up after that many seconds.
    static func open(_ socketPath: String, timeout: TimeInterval?, trustingAnyPeer: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Platform.streamSocketType, 0)
        guard descriptor >= 0 else { throw ClientError.connect(path: socketPath, reason: String(cString: strerror(errno))) }
        Platform.ignoreBrokenPipes(descriptor)
        do {
            try connectSocket(descriptor, to: socketPath)
            if !trustingAnyPeer { try checkPeer(descriptor, socketPath) }
        } catch {
            Platform.close(descriptor)
            throw error
        }
        if let timeout {
            var limit = Platform.timeLimit(seconds: timeout)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }
        return descriptor
    }

    private static func connectSocket(_ descriptor: Int32, to socketPath: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard socketPath.utf8.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ClientError.connect(path: socketPath, reason: "path too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: socketPath.utf8) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Platform.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw ClientError.connect(path: socketPath, reason: String(cString: strerror(errno))) }
    }

    private static func checkPeer(_ descriptor: Int32, _ socketPath: String) throws {
        guard let peer = PeerCredentials.of(fd: descriptor) else {
            throw ClientError.untrustedPeer(path: socketPath, reason: "the kernel did not say who serves it")
        }
        guard peer.isTrusted(byClient: getuid()) else {
            throw ClientError.untrustedPeer(path: socketPath, reason: "it is served by uid \(peer.uid) (pid \(peer.pid)), "
                                            + "not by you (uid \(getuid())), root or the layoutd service")
        }
    }

    /// Writes all of `bytes`, retrying after signals.
    static func write(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Platform.send(descriptor, $0) }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
                throw ClientError.io("send failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }
}

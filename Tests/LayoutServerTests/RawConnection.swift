import Foundation
import LayoutWire

/// A bare Unix-socket connection for tests that misbehave on purpose: it writes without
/// reading, trickles bytes, or sits idle. Every call is bounded by `timeout`.
final class RawConnection {
    let fd: Int32

    init(path: String, timeout: TimeInterval = 0.2) throws {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw HarnessError("connect: \(reason)")
        }
        fd = descriptor
        setTimeout(timeout)
    }

    deinit { close(fd) }

    func setTimeout(_ timeout: TimeInterval) {
        var limit = timeval(tv_sec: Int(saturating: timeout), tv_usec: Int(saturating: (timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes `bytes` again and again until the kernel will take no more within the timeout,
    /// or `limit` bytes went; returns how many went.
    func flood(_ bytes: [UInt8], limit: Int) -> Int {
        var sent = 0
        while sent < limit {
            let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { break }
            sent += written
        }
        return sent
    }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Shuts the writing side, as `nc -N` does after its input: the daemon sees the end of the
    /// input, and this side still reads.
    func shutWritingSide() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// Reads until the server closes the connection (true) or `seconds` pass (false); what
    /// arrives meanwhile is returned in `received`.
    func waitForClose(seconds: Double, received: inout [UInt8]) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return true }
            if count > 0 { received += buffer[0..<count] } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return true }
        }
        return false
    }
}

extension RawConnection {
    /// Reads until `count` whole replies have come, each recv bounded by the timeout.
    func replies(_ count: Int) throws -> [Layoutd_V1_Envelope] {
        var bytes: [UInt8] = [], replies: [Layoutd_V1_Envelope] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while replies.count < count {
            let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                throw HarnessError("\(replies.count) of \(count) replies came, then \(got == 0 ? "the server closed" : "nothing in time")")
            }
            bytes += buffer[0..<got]
            replies += try takeReplies(from: &bytes)
        }
        return replies
    }
}

/// The whole reply frames at the start of `bytes`, decoded and taken off; a frame still
/// arriving stays.
func takeReplies(from bytes: inout [UInt8]) throws -> [Layoutd_V1_Envelope] {
    let header = Framing.headerBytes
    var replies: [Layoutd_V1_Envelope] = []
    var offset = 0
    while offset + header <= bytes.count {
        let end = offset + header + Framing.bodyLength(header: bytes[offset..<offset + header])
        guard end <= bytes.count else { break }
        replies.append(try Layoutd_V1_Envelope(serializedBytes: Array(bytes[offset + header..<end])))
        offset = end
    }
    bytes.removeFirst(offset)
    return replies
}

/// The resident memory of process `pid`, in bytes, from /proc.
func residentBytes(_ pid: Int32) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
}

/// Open descriptors of process `pid`.
func openDescriptors(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
}

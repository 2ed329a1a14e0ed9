#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The C library's socket calls, on Linux (Glibc) and on Apple's systems (Darwin), under names
/// no Swift method shadows.
enum Platform {
    static var streamSocketType: Int32 {
        #if os(Linux)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Linux says per call not to raise SIGPIPE on a closed connection; Darwin says it per socket
    /// (`ignoreBrokenPipes`).
    static var sendFlags: Int32 {
        #if os(Linux)
        Int32(MSG_NOSIGNAL)
        #else
        0
        #endif
    }

    static func ignoreBrokenPipes(_ descriptor: Int32) {
        #if !os(Linux)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        #if canImport(Glibc)
        Glibc.connect(descriptor, address, length)
        #else
        Darwin.connect(descriptor, address, length)
        #endif
    }

    static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.send(descriptor, bytes.baseAddress, bytes.count, sendFlags)
        #else
        Darwin.send(descriptor, bytes.baseAddress, bytes.count, sendFlags)
        #endif
    }

    @discardableResult
    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
    }

    /// `seconds` as the `timeval` of SO_RCVTIMEO and SO_SNDTIMEO (its fields' types differ).
    static func timeLimit(seconds: TimeInterval) -> timeval {
        var value = timeval()
        value.tv_sec = numericCast(Int(saturating: seconds.rounded(.down)))
        value.tv_usec = numericCast(Int(saturating: (seconds - seconds.rounded(.down)) * 1e6))
        return value
    }
}

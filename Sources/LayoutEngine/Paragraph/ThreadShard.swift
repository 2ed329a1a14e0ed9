import Foundation

/// Which of a structure's shards the calling thread uses. A structure every thread touches on
/// every request (the context pool, the server's counters) is split in a few shards, each with
/// its own lock, so that threads meet on a lock only when their shards collide, and a thread
/// mostly finds what it left there (a context's scratch still in its core's cache).
public enum ThreadShard {
    /// A shard of `count`, a power of two, for the calling thread: its id scrambled (Fibonacci
    /// hashing), so threads whose ids differ in their high bits alone spread too.
    @inline(__always)
    public static func index(of count: Int) -> Int {
        #if canImport(Glibc)
        let id = UInt64(pthread_self())
        #else
        let id = UInt64(0)
        #endif
        return Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 58) & (count - 1)
    }
}

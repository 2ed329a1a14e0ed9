import Foundation
import Synchronization

/// Which of a structure's shards the calling thread uses. A structure every thread touches on
/// every request (the context pool, the server's counters) is split in a few shards, each with
/// its own lock, so that threads meet on a lock only when their shards collide, and a thread
/// mostly finds what it left there (a context's scratch still in its core's cache).
public enum ThreadShard {
    /// A shard of `count`, a power of two, for the calling thread: its id scrambled (Fibonacci
    /// hashing), so threads whose ids differ in their high bits alone spread too.
    @inlinable @inline(__always)
    public static func index(of count: Int) -> Int {
        #if canImport(Glibc)
        let id = UInt64(pthread_self())
        #else
        let id = UInt64(0)
        #endif
        return Int(truncatingIfNeeded: (id &* 0x9E37_79B9_7F4A_7C15) >> 58) & (count - 1)
    }
}

/// A value split in shards, each behind a lock of its own and on a cache line of its own (two
/// shards on one line would be written by two cores as if they were one). Its calls are
/// inlinable: the server's counters take one per request from another module, where an
/// unspecialized generic call cost more than the lock.
public final class Shards<Value: Sendable>: Sendable {
    @usableFromInline
    final class Shard: Sendable {
        @usableFromInline let value: Locked<Value>
        private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        init(_ value: sending Value) { self.value = Locked(value) }
    }

    @usableFromInline let shards: [Shard]

    /// `count` shards (a power of two), each made by `make`.
    public init(count: Int, _ make: () -> Value) {
        precondition(count > 0 && count & (count - 1) == 0, "a shard count is a power of two")
        shards = (0..<count).map { _ in Shard(make()) }
    }

    public var count: Int { shards.count }

    /// `body` with shard `index` (masked to the shards there are), under its lock.
    @inlinable
    public func withShard<R: Sendable>(_ index: Int, _ body: (inout sending Value) -> sending R) -> R {
        shards[index & (shards.count - 1)].value.withLock(body)
    }

    /// `body` with the calling thread's shard (`ThreadShard`), under its lock.
    @inlinable
    public func withThreadShard<R: Sendable>(_ body: (inout sending Value) -> sending R) -> R {
        withShard(ThreadShard.index(of: shards.count), body)
    }

    /// `body`'s answer for every shard in turn, each under its lock.
    public func map<R: Sendable>(_ body: (inout sending Value) -> sending R) -> [R] {
        shards.map { $0.value.withLock(body) }
    }
}

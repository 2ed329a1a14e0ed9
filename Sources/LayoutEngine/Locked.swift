import Synchronization

#if LAYOUTD_THREAD_SANITIZER
import Foundation

/// A value behind a lock, in the ThreadSanitizer build (`scripts/tsan.sh`, which defines
/// `LAYOUTD_THREAD_SANITIZER`). Synchronization's `Mutex` waits on a futex inside the standard
/// library, where the sanitizer sees no lock, so every value behind one would be reported as
/// racing; a pthread mutex (NSLock's) it sees. The same calls as `Mutex`, so the code checked is
/// the code shipped but for the lock itself.
// SAFETY: `value` is reached only inside `withLock`, under `lock`: what `Mutex` guarantees.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: consuming sending Value) {
        self.value = value
    }

    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#else
/// A value behind a lock: Synchronization's `Mutex`, named once so that the ThreadSanitizer build
/// can put a lock the sanitizer sees in its place (above).
public typealias Locked<Value: ~Copyable> = Mutex<Value>
#endif

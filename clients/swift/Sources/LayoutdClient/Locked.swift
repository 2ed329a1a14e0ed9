import Synchronization

#if LAYOUTD_THREAD_SANITIZER
import Foundation

/// The async client's lock in the ThreadSanitizer build, as the daemon's (`LayoutEngine.Locked`,
/// whose comment says why): this package depends on swift-protobuf alone, so it keeps its own.
// SAFETY: `value` is reached only inside `withLock`, under `lock`: what `Mutex` guarantees.
final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: consuming sending Value) {
        self.value = value
    }

    func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
#else
/// A value behind a lock: Synchronization's `Mutex`, but in the ThreadSanitizer build (above).
typealias Locked<Value: ~Copyable> = Mutex<Value>
#endif

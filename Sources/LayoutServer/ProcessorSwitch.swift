import Foundation
import LayoutEngine
import Synchronization

/// The processor new requests go to, swapped whole by a reload. A request takes the current
/// one when its frame is complete and keeps it to the end, so requests in flight finish on the
/// fonts and configuration they started with.
///
/// A reload reads files, and reading can hang (a FIFO, a stalled mount): it runs on a thread of
/// its own, never a worker, and has a deadline. Past it the reload fails by name and the old set
/// keeps serving; while the stuck thread has not returned, a new reload is refused at once
/// rather than queued behind it, so stuck threads cannot pile up.
public final class ProcessorSwitch: Sendable {
    /// Makes what a reload swaps in: a layouter on freshly loaded fonts, and the tag styles.
    /// It throws when they do not load, and the daemon carries on as it was.
    public typealias Loader = @Sendable () throws -> (layouter: ParagraphLayouter, tagStyles: TagStyleTable)
    public typealias Completion = @Sendable (Result<RequestProcessor, ReloadError>) -> Void

    private let state: Locked<RequestProcessor>
    /// How many times the processor was swapped. Connections keep the processor they read and
    /// read this atomic per request, which nobody writes between reloads (every core keeps its
    /// cache line), taking the lock only after a swap: one lock every request on every core
    /// would be met by all of them (docs/performance.md, "Scaling").
    private let swaps = Atomic<UInt64>(0)
    private let loader: Loader?
    private let timeoutSeconds: Double

    /// The reload under way, if any: who waits for it, and whether its deadline passed.
    private struct Running {
        var generation: UInt64
        var started: Date
        var waiters: [Completion]
        var timedOut = false
    }
    private let running = Locked<(Running?, generation: UInt64)>((nil, 0))

    init(_ processor: RequestProcessor, loader: Loader?, timeoutSeconds: Double) {
        state = Locked(processor)
        self.loader = loader
        self.timeoutSeconds = timeoutSeconds
    }

    public var current: RequestProcessor { state.withLock { $0 } }

    /// Changes after every swap, once the new processor is current.
    public var generation: UInt64 { swaps.load(ordering: .acquiring) }

    /// Starts a reload on its own thread, or joins the one under way; `done` runs once, on
    /// another thread, with the new processor or why the old one stays.
    public func reload(_ done: @escaping Completion) {
        guard let loader else { return done(.failure(ReloadError("this daemon was started without a way to reload"))) }
        enum Step { case joined, refused(ReloadError), start(UInt64) }
        let step: Step = running.withLock { slot in
            if var reload = slot.0 {
                guard !reload.timedOut else {
                    let seconds = Int(saturating: Date().timeIntervalSince(reload.started))
                    return .refused(ReloadError("the reload started \(seconds) s ago is still stuck reading its files; "
                                                + "the old set stays (restart the daemon if it does not return)", timedOut: true))
                }
                reload.waiters.append(done)
                slot.0 = reload
                return .joined
            }
            slot.generation += 1
            slot.0 = Running(generation: slot.generation, started: Date(), waiters: [done])
            return .start(slot.generation)
        }
        switch step {
        case .joined: return
        case .refused(let error): return done(.failure(error))
        case .start(let generation):
            let thread = Thread { [self] in
                let loaded = CrashReport.serving("reload") { Result { try loader() } }
                self.finish(generation, loaded)
            }
            thread.name = "layoutd-reload"
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + timeoutSeconds) { [self] in self.expire(generation) }
        }
    }

    /// Reloads and waits for the outcome (at most the deadline and a little more).
    public func reload() -> Result<RequestProcessor, ReloadError> {
        let outcome = Locked<Result<RequestProcessor, ReloadError>?>(nil)
        let signal = DispatchSemaphore(value: 0)
        reload { result in
            outcome.withLock { $0 = result }
            signal.signal()
        }
        signal.wait()
        return outcome.withLock { $0! }
    }

    private func finish(_ generation: UInt64, _ loaded: Result<(layouter: ParagraphLayouter, tagStyles: TagStyleTable), Error>) {
        let reload: Running? = running.withLock { slot in
            guard let reload = slot.0, reload.generation == generation else { return nil }
            slot.0 = nil
            return reload
        }
        guard let reload else { return }
        if reload.timedOut {
            // Its waiters were told it failed; what it loaded so late is not swapped in.
            current.logger.warning("a reload that ran past its deadline returned; its result is dropped",
                                   metadata: ["seconds": "\(Int(saturating: Date().timeIntervalSince(reload.started)))"])
            return
        }
        let result: Result<RequestProcessor, ReloadError>
        switch loaded {
        case .success(let (layouter, tagStyles)):
            let old = current
            var configuration = old.configuration
            configuration.tagStyles = tagStyles
            let fresh = RequestProcessor(layouter: layouter, configuration: configuration, stats: old.stats, logger: old.logger)
            state.withLock { $0 = fresh }
            swaps.wrappingAdd(1, ordering: .releasing)
            result = .success(fresh)
        case .failure(let error):
            result = .failure(ReloadError("\(error)"))
        }
        for waiter in reload.waiters { waiter(result) }
    }

    private func expire(_ generation: UInt64) {
        let waiters: [Completion] = running.withLock { slot in
            guard var reload = slot.0, reload.generation == generation, !reload.timedOut else { return [] }
            let waiters = reload.waiters
            reload.timedOut = true
            reload.waiters = []
            slot.0 = reload
            return waiters
        }
        let error = ReloadError("the reload did not finish within \(timeoutSeconds) s (reload-timeout; a file that does not "
                                + "answer?); the old set stays", timedOut: true)
        for waiter in waiters { waiter(.failure(error)) }
    }
}

/// Why a reload left the old set serving.
public struct ReloadError: Error, CustomStringConvertible {
    public var description: String
    /// It ran past its deadline, or one that did still holds its thread.
    public var timedOut: Bool
    public init(_ description: String, timedOut: Bool = false) {
        self.description = description
        self.timedOut = timedOut
    }
}

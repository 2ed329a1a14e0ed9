import Synchronization

/// How long one request may hold a worker, and whether its client still wants the answer.
///
/// The stages ask `check()` between pieces of work (each item shaped, every few hundred lines
/// placed, each background, each run drawn): past the deadline it throws `deadlineExceeded`,
/// after `cancel()` it throws `cancelled`, so a request that turns out costly or unwanted gives
/// its worker back. One HarfBuzz call is not interrupted; clusters are capped so none is long.
public final class WorkBudget: Sendable {
    /// Uptime in nanoseconds past which work stops; `.max` for none.
    public let deadline: UInt64
    /// The uid the work is for, when the kernel named the peer: what the request makes that
    /// outlives it (variable font instances) counts against that user's share.
    public let user: UInt32?
    /// The budget this one is part of (a batch's, for each of its items): cancelling it
    /// cancels this one too.
    public let parent: WorkBudget?
    private let cancelledFlag = Atomic<Bool>(false)

    public init(deadline: UInt64 = .max, user: UInt32? = nil, parent: WorkBudget? = nil) {
        self.deadline = deadline
        self.user = user
        self.parent = parent
    }

    /// A budget that ends `milliseconds` from now.
    public convenience init(milliseconds: Int, user: UInt32? = nil) {
        self.init(deadline: Uptime.nanoseconds &+ UInt64(max(0, milliseconds)) &* 1_000_000, user: user)
    }

    /// No deadline, never cancelled: in-process callers that own their thread.
    public static let unlimited = WorkBudget()

    public func cancel() { cancelledFlag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { cancelledFlag.load(ordering: .relaxed) || parent?.isCancelled == true }

    /// Throws when the work should stop.
    @inline(__always)
    public func check() throws(LayoutError) {
        if isCancelled { throw LayoutError(.cancelled, "the request was cancelled", field: "") }
        if deadline != .max && Uptime.nanoseconds > deadline {
            throw LayoutError(.deadlineExceeded, "the request ran past its time budget", field: "")
        }
    }
}

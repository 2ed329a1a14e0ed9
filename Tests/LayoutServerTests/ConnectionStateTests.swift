import LayoutEngine
import Testing
@testable import LayoutServer

/// The connection's rules as a value: events in, actions out, time given by the test.
@Suite struct ConnectionStateTests {
    static let second: UInt64 = 1_000_000_000
    static let limits = ConnectionState.Limits(maxInFlight: 2, maxInFlightBytes: 1_000, frameTimeoutSeconds: 1,
                                               idleTimeoutSeconds: 5)

    func fresh(now: UInt64 = 0) -> ConnectionState {
        var state = ConnectionState(limits: Self.limits, now: now)
        state.admit(uid: 1000)
        return state
    }

    @Test func readsWaitWhileOverALimitAndAreOwedOnce() {
        var state = fresh()
        let r1 = state.readRequested()
        #expect(r1)
        state.begin(bytes: 10)
        state.begin(bytes: 10)
        #expect(state.isOverLimits && !state.mayTakeFrame)
        let r2 = state.readRequested()
        #expect(!r2)
        let r3 = state.takeOwedRead()
        #expect(state.readOwed && !r3, "owed, but still over the limit")
        let r4 = state.end(bytes: 10)
        #expect(r4 == .resume)
        let r5 = state.takeOwedRead()
        #expect(r5)
        let r6 = state.takeOwedRead()
        #expect(!r6, "paid once")
    }

    @Test func bytesInFlightAreALimitToo() {
        var state = fresh()
        state.begin(bytes: 1_000)
        #expect(state.isOverLimits && state.inFlight == 1)
        let r7 = state.end(bytes: 1_000)
        #expect(r7 == .resume)
        #expect(!state.isOverLimits)
    }

    @Test func aClientThatReadsNoRepliesIsClosedAfterTheIdleTimeout() {
        var state = fresh()
        state.begin(bytes: 10)  // busy: the ordinary idle rule does not apply
        state.writabilityChanged(false, now: 1 * Self.second)
        let r8 = state.readRequested()
        #expect(state.isOverLimits && !r8)
        let r9 = state.tick(now: 5 * Self.second)
        #expect(r9 == .none)
        let r10 = state.tick(now: 6 * Self.second + 1)
        #expect(r10 == .close)
        state.writabilityChanged(true, now: 6 * Self.second + 2)
        let r11 = state.tick(now: 7 * Self.second)
        #expect(state.unwritableSince == nil && r11 == .none)
    }

    @Test func theFrameClockRunsOnlyWhileTheDaemonWaitsForTheRest() {
        var state = fresh()
        state.framesTaken(holdsPartialFrame: true, now: 10 * Self.second)
        state.framesTaken(holdsPartialFrame: true, now: 10 * Self.second + 500_000_000)
        #expect(state.partialFrameSince == 10 * Self.second, "more bytes of the same frame do not restart it")
        let r12 = state.tick(now: 11 * Self.second)
        #expect(r12 == .none)
        let r13 = state.tick(now: 11 * Self.second + 1)
        #expect(r13 == .closeAfter(.frameTimedOut(seconds: 1)))
        // Over its limits the daemon is the one waiting: the clock stops.
        state.begin(bytes: 10)
        state.begin(bytes: 10)
        state.framesTaken(holdsPartialFrame: true, now: 12 * Self.second)
        let r14 = state.tick(now: 20 * Self.second)
        #expect(state.partialFrameSince == nil && r14 == .none)
        // A frame completed stops it too.
        _ = state.end(bytes: 10)
        state.framesTaken(holdsPartialFrame: true, now: 21 * Self.second)
        state.frameCompleted()
        #expect(state.partialFrameSince == nil)
    }

    @Test func idlenessCountsFromTheLastActivityAndNeverWithWorkInFlight() {
        var state = fresh()
        state.bytesArrived(now: 4 * Self.second)
        let r15 = state.tick(now: 9 * Self.second)
        #expect(r15 == .none)
        let r16 = state.tick(now: 9 * Self.second + 1)
        #expect(r16 == .close)
        state.begin(bytes: 1)
        let r17 = state.tick(now: 100 * Self.second)
        #expect(r17 == .none)
        _ = state.end(bytes: 1)
        state.replyWritten(now: 100 * Self.second)
        let r18 = state.tick(now: 104 * Self.second)
        #expect(r18 == .none)
    }

    @Test func theLastWordWaitsForEveryRequestAlreadyTaken() {
        var state = fresh()
        state.begin(bytes: 10)
        state.begin(bytes: 20)
        let r19 = state.close(after: .framingError("too large"))
        #expect(r19 == nil, "two requests still in flight")
        let r20 = state.close(after: .frameTimedOut(seconds: 1))
        #expect(r20 == nil, "already closing: the first reason stands")
        #expect(!state.mayTakeFrame)
        let r21 = state.end(bytes: 10)
        #expect(r21 == .none)
        let r22 = state.takeOwedRead()
        #expect(!r22)
        let r23 = state.end(bytes: 20)
        #expect(r23 == .sayFarewell(.framingError("too large")))
        var idle = fresh()
        let r24 = idle.close(after: .framingError("bad"))
        #expect(r24 == .framingError("bad"), "nothing in flight: at once")
    }

    @Test func aCancelReachesOnlyRequestsAlreadyHere() {
        var state = fresh()
        let first = WorkBudget(), second = WorkBudget(), other = WorkBudget()
        state.accepted(7, budget: first)
        state.accepted(7, budget: second)
        state.accepted(8, budget: other)
        #expect(state.budgets(cancelledBy: 7).count == 2)
        state.answered(7, budget: first)
        #expect(state.budgets(cancelledBy: 7).map { $0 === second } == [true])
        state.answered(7, budget: second)
        #expect(state.budgets(cancelledBy: 7).isEmpty && state.budgets(cancelledBy: 9).isEmpty)
        #expect(state.allPendingBudgets.count == 1 && state.allPendingBudgets[0] === other)
    }
}

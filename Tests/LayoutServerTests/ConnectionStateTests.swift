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
        let readsAtOnce = state.readRequested()
        #expect(readsAtOnce)
        state.begin(bytes: 10)
        state.begin(bytes: 10)
        #expect(state.isOverLimits && !state.mayTakeFrame)
        let readsOverTheLimit = state.readRequested()
        #expect(!readsOverTheLimit)
        let paidWhileOver = state.takeOwedRead()
        #expect(state.readOwed && !paidWhileOver, "owed, but still over the limit")
        let afterOneEnds = state.end(bytes: 10)
        #expect(afterOneEnds == .resume)
        let paidOnceUnder = state.takeOwedRead()
        #expect(paidOnceUnder)
        let paidTwice = state.takeOwedRead()
        #expect(!paidTwice, "paid once")
    }

    @Test func bytesInFlightAreALimitToo() {
        var state = fresh()
        state.begin(bytes: 1_000)
        #expect(state.isOverLimits && state.inFlight == 1)
        let afterTheBigOneEnds = state.end(bytes: 1_000)
        #expect(afterTheBigOneEnds == .resume)
        #expect(!state.isOverLimits)
    }

    @Test func aClientThatReadsNoRepliesIsClosedAfterTheIdleTimeout() {
        var state = fresh()
        state.begin(bytes: 10)  // busy: the ordinary idle rule does not apply
        state.writabilityChanged(false, now: 1 * Self.second)
        let readsWhileUnwritable = state.readRequested()
        #expect(state.isOverLimits && !readsWhileUnwritable)
        let atFourSeconds = state.tick(now: 5 * Self.second)
        #expect(atFourSeconds == .none)
        let pastTheIdleTimeout = state.tick(now: 6 * Self.second + 1)
        #expect(pastTheIdleTimeout == .close)
        state.writabilityChanged(true, now: 6 * Self.second + 2)
        let onceWritable = state.tick(now: 7 * Self.second)
        #expect(state.unwritableSince == nil && onceWritable == .none)
    }

    @Test func theFrameClockRunsOnlyWhileTheDaemonWaitsForTheRest() {
        var state = fresh()
        state.framesTaken(holdsPartialFrame: true, now: 10 * Self.second)
        state.framesTaken(holdsPartialFrame: true, now: 10 * Self.second + 500_000_000)
        #expect(state.partialFrameSince == 10 * Self.second, "more bytes of the same frame do not restart it")
        let atTheTimeout = state.tick(now: 11 * Self.second)
        #expect(atTheTimeout == .none)
        let pastTheTimeout = state.tick(now: 11 * Self.second + 1)
        #expect(pastTheTimeout == .closeAfter(.frameTimedOut(seconds: 1)))
        // Over its limits the daemon is the one waiting: the clock stops.
        state.begin(bytes: 10)
        state.begin(bytes: 10)
        state.framesTaken(holdsPartialFrame: true, now: 12 * Self.second)
        let whileOverLimits = state.tick(now: 20 * Self.second)
        #expect(state.partialFrameSince == nil && whileOverLimits == .none)
        // A frame completed stops it too.
        _ = state.end(bytes: 10)
        state.framesTaken(holdsPartialFrame: true, now: 21 * Self.second)
        state.frameCompleted()
        #expect(state.partialFrameSince == nil)
    }

    @Test func idlenessCountsFromTheLastActivityAndNeverWithWorkInFlight() {
        var state = fresh()
        state.bytesArrived(now: 4 * Self.second)
        let atTheIdleTimeout = state.tick(now: 9 * Self.second)
        #expect(atTheIdleTimeout == .none)
        let pastTheIdleTimeout = state.tick(now: 9 * Self.second + 1)
        #expect(pastTheIdleTimeout == .close)
        state.begin(bytes: 1)
        let busyLongAfter = state.tick(now: 100 * Self.second)
        #expect(busyLongAfter == .none)
        _ = state.end(bytes: 1)
        state.replyWritten(now: 100 * Self.second)
        let idleSinceTheReply = state.tick(now: 104 * Self.second)
        #expect(idleSinceTheReply == .none)
    }

    @Test func theLastWordWaitsForEveryRequestAlreadyTaken() {
        var state = fresh()
        state.begin(bytes: 10)
        state.begin(bytes: 20)
        let firstReason = state.close(after: .framingError("too large"))
        #expect(firstReason == nil, "two requests still in flight")
        let secondReason = state.close(after: .frameTimedOut(seconds: 1))
        #expect(secondReason == nil, "already closing: the first reason stands")
        #expect(!state.mayTakeFrame)
        let afterTheFirst = state.end(bytes: 10)
        #expect(afterTheFirst == .none)
        let readWhileClosing = state.takeOwedRead()
        #expect(!readWhileClosing)
        let afterTheLast = state.end(bytes: 20)
        #expect(afterTheLast == .sayFarewell(.framingError("too large")))
        var idle = fresh()
        let atOnce = idle.close(after: .framingError("bad"))
        #expect(atOnce == .framingError("bad"), "nothing in flight: at once")
    }

    @Test func aCancelReachesOnlyRequestsAlreadyHere() {
        var state = fresh()
        let first = WorkBudget(), other = WorkBudget()
        #expect(!state.isInFlight(7))
        state.accepted(7, budget: first)
        state.accepted(8, budget: other)
        #expect(state.isInFlight(7) && state.budget(cancelledBy: 7) === first)
        state.answered(7, budget: first)
        #expect(!state.isInFlight(7) && state.budget(cancelledBy: 7) == nil && state.budget(cancelledBy: 9) == nil)
        // An id used again after its reply is a new request; the old one's answer cannot clear it.
        let again = WorkBudget()
        state.accepted(7, budget: again)
        state.answered(7, budget: first)
        #expect(state.budget(cancelledBy: 7) === again)
        #expect(state.allPendingBudgets.count == 2)
    }

    @Test func aConnectionWhoseInputEndedClosesOnceEverythingSentIsAnswered() {
        var state = fresh()
        let beforeTheEnd = state.inputEndAction(holdsWholeFrame: false, holdsPartialFrame: false)
        #expect(beforeTheEnd == .wait, "the input has not ended")
        state.begin(bytes: 10)
        state.inputClosed()
        let withARequestInFlight = state.inputEndAction(holdsWholeFrame: false, holdsPartialFrame: false)
        #expect(withARequestInFlight == .wait)
        let afterItEnds = state.end(bytes: 10)
        #expect(afterItEnds == .resume, "the frames waiting are taken first")
        let withAFrameWaiting = state.inputEndAction(holdsWholeFrame: true, holdsPartialFrame: true)
        #expect(withAFrameWaiting == .wait)
        let done = state.inputEndAction(holdsWholeFrame: false, holdsPartialFrame: false)
        #expect(done == .closeOnceWritten)
        #expect(state.closing && !state.mayTakeFrame)
        let again = state.inputEndAction(holdsWholeFrame: false, holdsPartialFrame: false)
        #expect(again == .wait, "decided once")
    }

    @Test func aFrameLeftUnfinishedWhenTheInputEndsIsNamedAndItsClockStops() {
        var state = fresh()
        state.framesTaken(holdsPartialFrame: true, now: 1 * Self.second)
        #expect(state.partialFrameSince == 1 * Self.second)
        state.inputClosed()
        #expect(state.partialFrameSince == nil, "the rest can never come: no frame timeout")
        state.framesTaken(holdsPartialFrame: true, now: 2 * Self.second)
        #expect(state.partialFrameSince == nil)
        let action = state.inputEndAction(holdsWholeFrame: false, holdsPartialFrame: true)
        #expect(action == .sayFarewell(.inputEndedMidFrame))
        // A connection already closing for another reason keeps that reason.
        var closing = fresh()
        closing.begin(bytes: 10)
        _ = closing.close(after: .framingError("too large"))
        closing.inputClosed()
        let afterTheLast = closing.end(bytes: 10)
        #expect(afterTheLast == .sayFarewell(.framingError("too large")))
        let thenTheInput = closing.inputEndAction(holdsWholeFrame: false, holdsPartialFrame: true)
        #expect(thenTheInput == .wait)
    }
}

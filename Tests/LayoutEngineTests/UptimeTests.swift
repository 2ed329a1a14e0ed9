import Dispatch
import Testing
@testable import LayoutEngine

/// `Uptime` reads the clock Dispatch's uptime reads: a deadline made from either is checked
/// against the other (a budget's, made by the daemon, against a timer Dispatch runs).
@Suite struct UptimeTests {
    @Test func readsTheClockDispatchReads() {
        for _ in 0..<100 {
            let before = DispatchTime.now().uptimeNanoseconds
            let uptime = Uptime.nanoseconds
            let after = DispatchTime.now().uptimeNanoseconds
            #expect(before <= uptime && uptime <= after, "\(before) \(uptime) \(after)")
        }
    }

    @Test func neverGoesBack() {
        var last = Uptime.nanoseconds
        for _ in 0..<10_000 {
            let now = Uptime.nanoseconds
            #expect(now >= last)
            last = now
        }
    }

    @Test func aBudgetPastItsDeadlineStopsTheWork() throws {
        let spent = WorkBudget(deadline: Uptime.nanoseconds &- 1)
        #expect(throws: LayoutError.self) { try spent.check() }
        let open = WorkBudget(milliseconds: 60_000)
        try open.check()
        #expect(open.deadline > Uptime.nanoseconds)
    }
}

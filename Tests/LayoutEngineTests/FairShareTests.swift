import Foundation
import Testing
@testable import LayoutEngine
import TestSupport

/// Fair shares of what the server holds between requests: one user alone may take it all, and
/// then every other user is still served up to its share, by name where refused (through the
/// daemon: `SharesServerTests`).
@Suite struct FairShareTests {
    @Test func aUserAloneTakesAllAndTheNextGetsItsShare() {
        let share = FairShare("documents", capacity: 8)
        for _ in 0..<8 { #expect(share.reserve(1, for: 0) == nil) }
        let refused = share.reserve(1, for: 0)
        #expect(refused?.contains("user 0 would hold 9, past its share of 8 (1 user holds some)") == true, "\(refused ?? "")")
        // Another user: served up to half of the capacity, past it.
        for _ in 0..<4 { #expect(share.reserve(1, for: 1000) == nil) }
        #expect(share.reserve(1, for: 1000)?.contains("past its share of 4") == true)
        // A third: a third of it.
        for _ in 0..<2 { #expect(share.reserve(1, for: 2000) == nil) }
        #expect(share.reserve(1, for: 2000) != nil)
        #expect(share.total == 14 && share.total <= share.ceiling)
        // Given back, the first user's documents make room under the capacity for anyone.
        share.release(8, for: 0)
        #expect(share.held(by: 0) == 0 && share.total == 6)
        #expect(share.reserve(2, for: 2000) == nil)
    }

    /// Users taking turns to fill the server never take it past its ceiling, and each user
    /// holding less than its share is served while the total is under the ceiling.
    @Test func theCeilingHolds() {
        let share = FairShare("units", capacity: 1_000)
        var users: [UInt32] = []
        for user in UInt32(1)...50 {
            users.append(user)
            while share.reserve(10, for: user) == nil {}
            #expect(share.total <= share.ceiling)
        }
        #expect(share.total <= 2_000)
        // An unnamed peer is one more user.
        #expect(share.reserve(1, for: nil) == nil || share.total + 1 > share.ceiling)
    }
}

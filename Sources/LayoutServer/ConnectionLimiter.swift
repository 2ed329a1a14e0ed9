import LayoutEngine

/// Counts open connections, in all and per user, and says when one more is too many.
final class ConnectionLimiter: Sendable {
    private struct State {
        var total = 0
        var perUser: [UInt32: Int] = [:]
    }
    private let state = Locked(State())
    let maxTotal: Int
    let maxPerUser: Int

    init(maxTotal: Int, maxPerUser: Int) {
        self.maxTotal = maxTotal
        self.maxPerUser = maxPerUser
    }

    /// Takes a place for a connection from `uid` (nil when the kernel did not say: counted in
    /// the total only), or returns why there is none.
    func admit(uid: UInt32?) -> String? {
        state.withLock { state in
            guard state.total < maxTotal else { return "the server has \(maxTotal) connections open, its limit" }
            if let uid {
                let mine = state.perUser[uid, default: 0]
                guard mine < maxPerUser else { return "user \(uid) has \(maxPerUser) connections open, the limit per user" }
                state.perUser[uid] = mine + 1
            }
            state.total += 1
            return nil
        }
    }

    func release(uid: UInt32?) {
        state.withLock { state in
            state.total -= 1
            if let uid, let mine = state.perUser[uid] {
                if mine <= 1 { state.perUser.removeValue(forKey: uid) } else { state.perUser[uid] = mine - 1 }
            }
        }
    }
}

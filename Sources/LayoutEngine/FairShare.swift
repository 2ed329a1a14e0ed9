
/// One thing the server holds for its users between requests (open documents, their units,
/// client fonts, their bytes, unfinished frames), shared fairly among the users holding some.
///
/// Anyone may take while the total stays within `capacity`: one user alone can use all of it.
/// Past it, a user holding less than its fair share (the capacity over the users holding some,
/// itself counted) is still served, up to `ceiling`; the others are refused by name. So a
/// user that took everything while alone cannot lock out the next one, and the total never
/// passes the ceiling. The shares a user holds within its share add up to at most the capacity
/// whatever the number of users, so the ceiling (twice the capacity) is reached only when users
/// who are each past their share together hold more than the capacity: as many users taking
/// turns to fill the server, each after the others had (`FairShareTests`).
///
/// A user is a uid; connections whose peer the kernel did not name share one bucket.
public final class FairShare: Sendable {
    /// What it counts, in refusals: "documents", "UTF-16 units of documents", "client font bytes".
    public let what: String
    public let capacity: Int
    public var ceiling: Int { capacity > Int.max / 2 ? Int.max : capacity * 2 }

    private struct State {
        var total = 0
        var byUser: [UInt32?: Int] = [:]

        /// Takes `amount` for `user`, whose place was looked up already (nil: the user holds none).
        mutating func take(_ amount: Int, for user: UInt32?, at place: Dictionary<UInt32?, Int>.Index?) {
            total += amount
            if let place { byUser.values[place] += amount } else { byUser[user] = amount }
        }
    }
    private let state = Locked(State())

    public init(_ what: String, capacity: Int) {
        self.what = what
        self.capacity = capacity
    }

    /// Takes `amount` more for `user`, or says why not.
    public func reserve(_ amount: Int, for user: UInt32?) -> String? {
        guard amount > 0 else { return nil }
        return state.withLock { state in
            // One lookup: the user's place, read, and written when the amount is taken (a
            // keystroke that grows a document takes here).
            let place = state.byUser.index(forKey: user)
            let mine = place.map { state.byUser.values[$0] } ?? 0
            if state.total + amount <= capacity {
                state.take(amount, for: user, at: place)
                return nil
            }
            let users = state.byUser.count + (mine == 0 ? 1 : 0)
            let share = capacity / users
            if mine + amount <= share && state.total + amount <= ceiling {
                state.take(amount, for: user, at: place)
                return nil
            }
            let who = user.map { "user \($0)" } ?? "an unnamed user"
            if mine + amount > share {
                return "the server holds \(state.total) \(what) of its \(capacity) and \(who) would hold \(mine + amount), "
                    + "past its share of \(share) (\(users == 1 ? "1 user holds" : "\(users) users hold") some)"
            }
            return "the server holds \(state.total) \(what), its ceiling of \(ceiling) with shares counted"
        }
    }

    /// Counts `amount` more for `user` without asking: what was admitted elsewhere.
    public func add(_ amount: Int, for user: UInt32?) {
        guard amount > 0 else { return }
        state.withLock { state in state.take(amount, for: user, at: state.byUser.index(forKey: user)) }
    }

    public func release(_ amount: Int, for user: UInt32?) {
        guard amount > 0 else { return }
        state.withLock { state in
            state.total -= amount
            // One lookup: the user's place, read and written (or removed) there.
            guard let index = state.byUser.index(forKey: user) else { return }
            let left = state.byUser.values[index] - amount
            if left <= 0 { state.byUser.remove(at: index) } else { state.byUser.values[index] = left }
        }
    }

    /// What the server holds, and what `user` does.
    public var total: Int { state.withLock { $0.total } }
    public func held(by user: UInt32?) -> Int { state.withLock { $0.byUser[user, default: 0] } }
}

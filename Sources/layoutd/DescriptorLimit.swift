import Foundation
import LayoutServer
import Logging

/// The process's descriptor limit against the connection cap: each connection is a descriptor,
/// and when they run out every client is locked out, so the cap must fit under the limit.
enum DescriptorLimit {
    /// Descriptors kept for everything but connections: the listening socket, fonts being read,
    /// pipes and files a render or a log opens.
    static let reserve = 64

    /// Descriptors each of NIO's event loops holds: epoll, an eventfd and a timerfd.
    static let perEventLoop = 3

    /// Raises the soft limit to the hard one, then returns the largest connection cap at most
    /// `connections` that fits under it beside `threads` event loops (logging when it had to lower
    /// the cap). A limit that leaves room for no connection at all is a configuration problem.
    static func fit(connections: Int, threads: Int, metrics: Bool = false, logger: Logger) throws -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        // The metrics listener's connections have their own cap, inside the same limit.
        let available = Int(clamping: limit.rlim_cur) - reserve - perEventLoop * threads - (metrics ? MetricsListener.maxConnections + 1 : 0)
        guard available >= 1 else {
            throw ConfigProblem("threads \(threads) need \(reserve + perEventLoop * threads) descriptors and the limit "
                + "(LimitNOFILE) is \(limit.rlim_cur); lower threads or raise the limit")
        }
        guard connections > available else { return connections }
        let fitted = available
        logger.warning("connection cap lowered to fit the descriptor limit",
                       metadata: ["asked": "\(connections)", "cap": "\(fitted)", "nofile": "\(limit.rlim_cur)"])
        return fitted
    }
}

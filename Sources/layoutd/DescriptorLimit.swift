import Foundation
import Logging

/// The process's descriptor limit against the connection cap: each connection is a descriptor,
/// and when they run out every client is locked out, so the cap must fit under the limit.
enum DescriptorLimit {
    /// Descriptors kept for everything but connections: the listening socket, fonts being read,
    /// pipes and files a render or a log opens.
    static let reserve = 64

    /// Raises the soft limit to the hard one, then returns the largest connection cap at most
    /// `connections` that fits under it (logging when it had to lower the cap).
    static func fit(connections: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return connections }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur) - reserve
        guard connections > available else { return connections }
        let fitted = max(1, available)
        logger.warning("connection cap lowered to fit the descriptor limit",
                       metadata: ["asked": "\(connections)", "cap": "\(fitted)", "nofile": "\(limit.rlim_cur)"])
        return fitted
    }
}

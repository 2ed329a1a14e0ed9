import Foundation
import NIOCore

/// The processors the daemon may run on, which its default thread count follows: the fewest of
/// the machine's, its cgroup's (a CPU quota or a cpuset, as systemd's `CPUQuota=` and
/// `AllowedCPUs=` set them: NIO's `System.coreCount`) and its affinity mask's (`taskset`,
/// systemd's `CPUAffinity=`). More event loops and workers than that only take turns on the same
/// processors: two lanes of a batch on one processor cost more CPU an item than one
/// (`kernel-cost.md`, session 64), and a quota of two processors on a machine of 64 would have
/// started 64 of each.
public enum UsableCores {
    public static var count: Int {
        let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let allowed = status.flatMap(allowedProcessors(status:)) ?? Int.max
        return max(1, min(ProcessInfo.processInfo.activeProcessorCount, System.coreCount, allowed))
    }

    /// The processors the `Cpus_allowed:` line of a `/proc/PID/status` names (a mask in hex,
    /// groups of 32 bits separated by commas): its bits set; nil without the line or with a mask
    /// that is not hex, or names none.
    static func allowedProcessors(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") }) else { return nil }
        let mask = line.dropFirst("Cpus_allowed:".count).filter { !$0.isWhitespace && $0 != "," }
        var count = 0
        for digit in mask {
            guard let value = digit.hexDigitValue else { return nil }
            count += value.nonzeroBitCount
        }
        return count > 0 ? count : nil
    }
}

import Foundation

/// Whether the daemon sees every user as they are. In a user namespace that maps only some uids
/// (systemd's `PrivateUsers=yes` maps root and the service's own user), every other peer's
/// SO_PEERCRED uid reads as the overflow uid 65534, so the per-user connection cap would count all
/// ordinary users as one user (as `unshare --user` shows): the shipped unit does not
/// set it, and a daemon started so says it at start-up.
public enum UserNamespace {
    /// Why per-user limits cannot tell users apart here, or nil when every uid is mapped.
    public static func partialMapping(uidMap: String? = try? String(contentsOfFile: "/proc/self/uid_map", encoding: .utf8)) -> String? {
        guard let uidMap else { return nil }
        let ranges = uidMap.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        // The initial namespace maps every uid to itself: "0 0 4294967295".
        if ranges.count == 1, ranges[0].count == 3, ranges[0][0] == "0", ranges[0][1] == "0", ranges[0][2] == "4294967295" { return nil }
        let mapped = ranges.compactMap { $0.count == 3 ? UInt64($0[2]) : nil }.reduce(0, +)
        return "this daemon runs in a user namespace that maps \(mapped) uid(s): every other client reads as uid 65534, "
            + "and max-connections-per-user counts them all as one user (do not set PrivateUsers=yes)"
    }
}

import Glibc

/// The system's uptime in nanoseconds (`CLOCK_MONOTONIC`): what budgets' deadlines, connections'
/// timeouts and requests' timings are read in. It is the clock Dispatch's
/// `DispatchTime.now().uptimeNanoseconds` reads on Linux, read directly: a request reads it
/// several times (its arrival, its budget's checks, its timing), and through Dispatch each
/// reading went through two libraries' wrappers around the one call.
public enum Uptime {
    @inline(__always)
    public static var nanoseconds: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }
}

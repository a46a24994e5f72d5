import Glibc

/// The board's wall clock (`CLOCK_REALTIME`): what the core compares with the
/// server's time and what timestamps show. It jumps when the clock is set (NTP
/// at boot on a board without a battery); durations and timers read
/// `MonotonicClock`.
public enum WallClock {
    /// Milliseconds since the Unix epoch, now.
    public static func nowEpochMs() -> Int64 {
        var now = Glibc.timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}

import Glibc

/// The monotonic clock the shells read for timers and durations (it never jumps;
/// the board's wall clock is `WallClock`).
public enum MonotonicClock {
    /// Milliseconds on the monotonic clock (arbitrary origin, never jumps).
    public static func nowMs() -> Int64 {
        var now = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Microseconds on the monotonic clock, for latency measurements.
    public static func nowUs() -> Int64 {
        var now = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// A `timespec` deadline `milliseconds` from now on the monotonic clock.
    public static func timespec(afterMs milliseconds: Int) -> Glibc.timespec {
        var now = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let clampedMs = max(0, milliseconds)
        let nanoseconds = Int(now.tv_nsec) + (clampedMs % 1000) * 1_000_000
        return Glibc.timespec(
            tv_sec: now.tv_sec + clampedMs / 1000 + nanoseconds / 1_000_000_000,
            tv_nsec: nanoseconds % 1_000_000_000
        )
    }
}

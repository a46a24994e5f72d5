import Glibc

/// The two clocks a `LogSink` reads: wall time for timestamps, monotonic time for
/// rate limiting. Injected so tests control both.
public struct LogClock: Sendable {
    /// Milliseconds since 1970-01-01 UTC.
    public let wallClockEpochMs: @Sendable () -> Int64
    /// Milliseconds of a clock that never goes backwards.
    public let monotonicMs: @Sendable () -> Int64

    public init(
        wallClockEpochMs: @escaping @Sendable () -> Int64,
        monotonicMs: @escaping @Sendable () -> Int64
    ) {
        self.wallClockEpochMs = wallClockEpochMs
        self.monotonicMs = monotonicMs
    }

    /// `CLOCK_REALTIME` and `CLOCK_MONOTONIC`.
    public static let system = LogClock(
        wallClockEpochMs: { milliseconds(of: CLOCK_REALTIME) },
        monotonicMs: { milliseconds(of: CLOCK_MONOTONIC) }
    )

    private static func milliseconds(of clock: clockid_t) -> Int64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}

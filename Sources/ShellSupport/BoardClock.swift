/// The one clock interface of the shells: the board's wall clock and its
/// monotonic clock, as functions, so whoever reads time (the log's timestamps
/// and rate limits today) can be handed a test's or a simulation's clock.
/// `system` reads `WallClock` and `MonotonicClock`, the places that ask the kernel.
public struct BoardClock: Sendable {
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
    public static let system = BoardClock(
        wallClockEpochMs: { WallClock.nowEpochMs() },
        monotonicMs: { MonotonicClock.nowMs() }
    )
}

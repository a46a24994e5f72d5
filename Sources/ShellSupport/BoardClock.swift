/// The one clock interface of the shells: the board's wall clock and its
/// monotonic clock, as functions, so whoever reads time (the runtime's wakes,
/// the event loop's deadlines, the log's timestamps and rate limits) can be
/// handed a test's or a simulation's clock. `system` reads `WallClock` and
/// `MonotonicClock`, the places that ask the kernel.
public struct BoardClock: Sendable {
    /// Milliseconds since 1970-01-01 UTC.
    public let wallClockEpochMs: @Sendable () -> Int64
    /// Milliseconds of a clock that never goes backwards.
    public let monotonicMs: @Sendable () -> Int64
    /// Microseconds of the same monotonic clock (latencies).
    public let monotonicUs: @Sendable () -> Int64

    /// `monotonicUs` nil: the monotonic milliseconds, times 1000.
    public init(
        wallClockEpochMs: @escaping @Sendable () -> Int64,
        monotonicMs: @escaping @Sendable () -> Int64,
        monotonicUs: (@Sendable () -> Int64)? = nil
    ) {
        self.wallClockEpochMs = wallClockEpochMs
        self.monotonicMs = monotonicMs
        self.monotonicUs = monotonicUs ?? { monotonicMs().multipliedReportingOverflow(by: 1000).partialValue }
    }

    /// Both clocks, each read once (a wake's `now`).
    public func now() -> BoardTime {
        let monotonicUs = monotonicUs()
        return BoardTime(monotonicUs: monotonicUs, wallClockEpochMs: wallClockEpochMs())
    }

    /// `CLOCK_REALTIME` and `CLOCK_MONOTONIC`.
    public static let system = BoardClock(
        wallClockEpochMs: { WallClock.nowEpochMs() },
        monotonicMs: { MonotonicClock.nowMs() },
        monotonicUs: { MonotonicClock.nowUs() }
    )
}

/// The board's clocks as read at one moment: what one wake of the runtime
/// decides everything on.
public struct BoardTime: Sendable, Equatable {
    /// The monotonic clock, microseconds (arbitrary origin, never jumps).
    public var monotonicUs: Int64
    /// The wall clock, milliseconds since the Unix epoch (it may jump).
    public var wallClockEpochMs: Int64

    public init(monotonicUs: Int64, wallClockEpochMs: Int64) {
        self.monotonicUs = monotonicUs
        self.wallClockEpochMs = wallClockEpochMs
    }

    /// The monotonic clock, milliseconds (as `MonotonicClock.nowMs` rounds).
    public var monotonicMs: Int64 { monotonicUs / 1000 }
}

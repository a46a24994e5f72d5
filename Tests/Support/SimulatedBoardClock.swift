import ShellSupport

/// The board's clocks under a simulation or a test: they stand still until
/// moved. `clock` is the `BoardClock` to hand to what reads time (the runtime,
/// the event loop, the log), so one reading mechanism serves both worlds.
public final class SimulatedBoardClock: Sendable {
    private let time: ConditionLock<BoardTime>

    /// Starts at monotonic `monotonicMs` and wall clock `wallClockEpochMs` (2027-01-15 by default).
    public init(monotonicMs: Int64 = 1_000, wallClockEpochMs: Int64 = 1_800_000_000_000) {
        time = ConditionLock(BoardTime(monotonicUs: monotonicMs * 1000, wallClockEpochMs: wallClockEpochMs))
    }

    /// Both clocks now.
    public var now: BoardTime { time.withLock { $0 } }

    /// Monotonic milliseconds now.
    public var monotonicMs: Int64 { now.monotonicMs }

    /// Moves both clocks forward by `milliseconds` (negative: not moved).
    public func advance(byMs milliseconds: Int64) {
        time.withLock { time in
            time.monotonicUs += max(0, milliseconds) * 1000
            time.wallClockEpochMs += max(0, milliseconds)
        }
    }

    /// Moves both clocks to monotonic `atMs` (never back).
    public func advance(toMonotonicMs atMs: Int64) {
        advance(byMs: atMs - monotonicMs)
    }

    /// The wall clock alone steps (NTP), by `milliseconds`, either way.
    public func stepWallClock(byMs milliseconds: Int64) {
        time.withLock { $0.wallClockEpochMs += milliseconds }
    }

    /// The `BoardClock` that reads this one.
    public var clock: BoardClock {
        BoardClock(wallClockEpochMs: { [time] in time.withLock { $0.wallClockEpochMs } },
                   monotonicMs: { [time] in time.withLock { $0.monotonicMs } },
                   monotonicUs: { [time] in time.withLock { $0.monotonicUs } })
    }
}

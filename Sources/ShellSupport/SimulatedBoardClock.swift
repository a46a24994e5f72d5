/// The one manual clock: the board's clocks under a simulation or a test, and
/// the Aivi simulator's clock in its manual mode (`--manual-clock`: its wall
/// clock, `AiviSim.SimClock`). They stand still until moved. `clock` is the
/// `BoardClock` to hand to what reads time (the runtime, the event loop, the
/// log), so one reading mechanism serves both worlds. Moves saturate: a hostile
/// or huge advance never traps.
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
        let forwardMs = max(0, milliseconds)
        time.withLock { time in
            let (wallMs, wallOverflowed) = time.wallClockEpochMs.addingReportingOverflow(forwardMs)
            time.wallClockEpochMs = wallOverflowed ? Int64.max : wallMs
            let (forwardUs, usOverflowed) = forwardMs.multipliedReportingOverflow(by: 1000)
            let (monotonicUs, monotonicOverflowed) = time.monotonicUs.addingReportingOverflow(forwardUs)
            time.monotonicUs = usOverflowed || monotonicOverflowed ? Int64.max : monotonicUs
        }
    }

    /// Moves both clocks to monotonic `atMs` (never back).
    public func advance(toMonotonicMs atMs: Int64) {
        let (forwardMs, overflowed) = atMs.subtractingReportingOverflow(monotonicMs)
        advance(byMs: overflowed ? Int64.max : forwardMs)
    }

    /// The `BoardClock` that reads this one.
    public var clock: BoardClock {
        BoardClock(wallClockEpochMs: { [time] in time.withLock { $0.wallClockEpochMs } },
                   monotonicMs: { [time] in time.withLock { $0.monotonicMs } },
                   monotonicUs: { [time] in time.withLock { $0.monotonicUs } })
    }
}

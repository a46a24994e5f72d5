import ShellSupport

/// Where the simulator reads the time: the system clock, or a manual clock that
/// tests advance so the 15 s / 5 s / 2 s rules run instantly.
public protocol SimClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    var nowMs: Int64 { get }
}

/// The machine's real-time clock.
public struct SystemClock: SimClock {
    public init() {}

    public var nowMs: Int64 { WallClock.nowEpochMs() }
}

/// The simulator's manual clock (`--manual-clock`, tests): the wall clock of
/// the one manual clock, `SimulatedBoardClock`, which stands still until told
/// to move (`advance(byMs:)`, `/_sim/clock/advance`).
extension SimulatedBoardClock: SimClock {
    /// 2026-11-29T21:00:00.000Z, the contract's example time: where a manual service clock starts.
    public static let serviceStartMs: Int64 = SimTimeFormat.epochMs(year: 2026, month: 11, day: 29, hour: 21)

    /// A manual clock for the simulated service, its wall clock at `startMs`.
    public static func service(startMs: Int64 = serviceStartMs) -> SimulatedBoardClock {
        SimulatedBoardClock(wallClockEpochMs: startMs)
    }

    public var nowMs: Int64 { now.wallClockEpochMs }
}

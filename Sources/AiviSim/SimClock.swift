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

/// A clock that stands still until told to move.
public final class ManualClock: SimClock {
    /// 2026-11-29T21:00:00.000Z, the contract's example time.
    public static let defaultStartMs: Int64 = SimTimeFormat.epochMs(year: 2026, month: 11, day: 29, hour: 21)

    private let currentMs: ConditionLock<Int64>

    public init(startMs: Int64 = ManualClock.defaultStartMs) {
        currentMs = ConditionLock(startMs)
    }

    public var nowMs: Int64 { currentMs.withLock { $0 } }

    /// Moves the clock forward by `milliseconds` (negative values are ignored).
    public func advance(byMs milliseconds: Int64) {
        currentMs.withLock { current in
            let (sum, overflowed) = current.addingReportingOverflow(max(0, milliseconds))
            current = overflowed ? Int64.max : sum
        }
    }
}

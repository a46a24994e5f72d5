import BridgeCore

/// The daemon's counters at one moment. Fixed series: one per drop reason,
/// publish status class and reconnect kind, and two fixed-bucket histograms,
/// so memory does not grow with traffic.
public struct MetricsCounters: Sendable, Equatable {
    /// Press-to-command latency buckets: 1 ms to 10 s, microseconds.
    public static let latencyBoundsUs: [Int64] = [
        1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000,
        1_000_000, 2_500_000, 5_000_000, 10_000_000,
    ]
    /// Press age buckets (server clock, when the command went out): 100 ms to 60 s.
    public static let pressAgeBoundsUs: [Int64] = [
        100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000, 15_000_000, 30_000_000, 60_000_000,
    ]

    public internal(set) var pressesReceived: UInt64 = 0
    public internal(set) var pressesCarriedOut: UInt64 = 0
    public internal(set) var pressesDropped: [PressDropReason: UInt64] = [:]
    public internal(set) var publishes: [PublishStatusClass: UInt64] = [:]
    public internal(set) var reconnects: [ReconnectKind: UInt64] = [:]
    public internal(set) var pressToCommandLatency = LatencyHistogram(upperBoundsUs: latencyBoundsUs)
    public internal(set) var pressAge = LatencyHistogram(upperBoundsUs: pressAgeBoundsUs)

    public init() {}

    /// Counts one fact of the core.
    mutating func record(_ observation: BridgeObservation) {
        switch observation {
        case .pressReceived:
            pressesReceived &+= 1
        case .pressCarriedOut(_, _, let ageMs):
            pressesCarriedOut &+= 1
            let (ageUs, overflow) = ageMs.multipliedReportingOverflow(by: 1_000)
            pressAge.record(microseconds: overflow ? Int64.max : ageUs)
        case .pressDropped(_, let reason):
            pressesDropped[reason, default: 0] &+= 1
        case .patchFinished(_, let status):
            publishes[PublishStatusClass.of(status), default: 0] &+= 1
        }
    }

    mutating func recordReconnect(_ kind: ReconnectKind) {
        reconnects[kind, default: 0] &+= 1
    }

    mutating func recordPressToCommandLatency(microseconds: Int64) {
        pressToCommandLatency.record(microseconds: microseconds)
    }
}

import BridgeCore
import ShellSupport

/// The daemon's counters, safe to feed from any thread: the runtime's
/// `observe` closure, the shells' reconnects and the press latency measured by
/// the runtime. `/metrics` reads them as Prometheus text (its one reader).
/// Not part of `BridgeSnapshot`: reconnects and latencies are measured by the
/// shell, outside the core, and counters outlive a reload of the core's config.
public final class DaemonMetrics: Sendable {
    /// Every metric name starts with this.
    public static let prefix = "switchboard_bridge_"

    private let counters = ConditionLock(MetricsCounters())

    public init() {}

    /// Counts one fact of the core (press received, carried out, dropped; PATCH finished).
    public func record(_ observation: BridgeObservation) {
        counters.withLock { $0.record(observation) }
    }

    /// Counts a connection that came back after being lost.
    public func recordReconnect(_ kind: ReconnectKind) {
        counters.withLock { $0.recordReconnect(kind) }
    }

    /// Counts the time from a press arriving on the event stream to its command
    /// going out, in microseconds of the board's monotonic clock.
    public func recordPressToCommandLatency(microseconds: Int64) {
        counters.withLock { $0.recordPressToCommandLatency(microseconds: microseconds) }
    }

    /// A copy of the counters now.
    public var current: MetricsCounters {
        counters.withLock { $0 }
    }

    /// All counters in the Prometheus text exposition format.
    public func prometheusText() -> String {
        MetricsExposition.text(for: current)
    }
}

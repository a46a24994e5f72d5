import BridgeCore
import ShellSupport

/// The daemon's counters, safe to feed from any thread: the runtime's facts
/// and the press latencies it measured (a batch's at once), the shells' reconnects. `/metrics` reads them as Prometheus text (its one reader).
/// Not part of `BridgeSnapshot`: reconnects and latencies are measured by the
/// shell, outside the core, and counters outlive a reload of the core's config.
public final class DaemonMetrics: Sendable {
    /// Every metric name starts with this.
    public static let prefix = "switchboard_bridge_"

    private let counters = ConditionLock(MetricsCounters())

    public init() {}

    /// Facts of one batch of the runtime, counted together (`record(_:)`).
    public struct Batch: Sendable {
        /// The core's facts (press received, carried out, dropped; PATCH finished), in order.
        public var observations: [BridgeObservation] = []
        /// Each press's time from arriving on the event stream to its command going
        /// out, in microseconds of the board's monotonic clock.
        public var pressToCommandLatenciesUs: [Int64] = []

        public init() {}

        var isEmpty: Bool { observations.isEmpty && pressToCommandLatenciesUs.isEmpty }

        /// Empties it for the next batch, keeping the storage unless a flood grew it
        /// past `maxRecycledCount` (one flood must not hold its memory for ever).
        mutating func removeAll() {
            observations.removeAll(keepingCapacity: observations.capacity <= Self.maxRecycledCount)
            pressToCommandLatenciesUs.removeAll(keepingCapacity: pressToCommandLatenciesUs.capacity <= Self.maxRecycledCount)
        }

        /// The facts of an ordinary batch, kept allocated between batches.
        static let maxRecycledCount = 256
    }

    /// Counts a batch's facts, with one turn of the lock.
    public func record(_ batch: Batch) {
        counters.withLock { counters in
            // Read in place: a `for` over the array copies each fact (retaining its strings).
            batch.observations.withUnsafeBufferPointer { observations in
                for index in observations.indices { counters.record(observations[index]) }
            }
            for latencyUs in batch.pressToCommandLatenciesUs { counters.recordPressToCommandLatency(microseconds: latencyUs) }
        }
    }

    /// Counts a connection that came back after being lost.
    public func recordReconnect(_ kind: ReconnectKind) {
        counters.withLock { $0.recordReconnect(kind) }
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

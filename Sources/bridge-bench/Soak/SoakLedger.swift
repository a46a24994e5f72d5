import AiviSim

/// Everything the soak did and when (bench clock, µs), for the verdict at the end.
struct SoakLedger: Sendable {
    struct Press: Sendable {
        var eventId: String
        var action: Int
        /// Toggles: the state the phone asked for.
        var requestedOn: Bool?
        var madeUs: Int64
        /// Injected older than its lifetime: must never be carried out.
        var isExpired: Bool
    }

    /// One run of the bridge process, from spawn to kill or stop.
    struct Lifetime: Sendable {
        var pid: Int32
        var startUs: Int64
        var endUs: Int64?
        var logPath: String
    }

    /// A time the broker was down.
    struct Outage: Sendable {
        var startUs: Int64
        var endUs: Int64?
    }

    /// One quiet checkpoint: did every widget come to show the truth, and the
    /// bridge's resources once it did.
    struct Checkpoint: Sendable {
        var round: Int
        var lifetime: Int
        var isTruthShown: Bool
        var settleMs: Int64
        var staleDetail: String
        var fds: Int
        var threads: Int
        var anonKB: Int64
        /// What the open fds were (`FDCensus`).
        var fdCensus: String
    }

    var presses: [Press] = []
    var refusedPresses: [String: Int] = [:]
    var lifetimes: [Lifetime] = []
    var brokerOutages: [Outage] = []
    var streamFaultsUs: [Int64] = []
    var checkpoints: [Checkpoint] = []
    /// Faults injected, by kind.
    var faults: [String: Int] = [:]
    var deviceChanges = 0
    var offlineEpisodes = 0

    mutating func count(_ fault: String) { faults[fault, default: 0] += 1 }

    /// The lifetime whose process was running at `atUs`.
    func lifetime(atUs: Int64) -> Int? {
        lifetimes.lastIndex { $0.startUs <= atUs && ($0.endUs ?? .max) >= atUs }
    }
}

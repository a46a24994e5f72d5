/// How long and how hard the soak runs.
struct SoakSettings: Sendable {
    var seed: UInt64
    var minutes: Int
    var isQuick: Bool
    /// One bridge process for the whole run: no bridge restarts (`--one-process`).
    var isOneProcess = false

    var intensity: SoakIntensity {
        var intensity: SoakIntensity = isQuick ? .quick : .full
        if isOneProcess {
            intensity.bridgeRestartChance = 0
            intensity.forcedBridgeKillRound = nil
        }
        return intensity
    }

    /// Rounds of traffic, each followed by a quiet checkpoint (about 5 s when all is well).
    var rounds: Int {
        isQuick ? 3 : max(1, minutes * 60_000 / (intensity.trafficMs + 5_000))
    }

    var sampleIntervalMs: Int { isQuick ? 500 : 2_000 }
    /// How long a checkpoint waits for every widget to show the truth: above a
    /// timed-out PATCH (15 s) plus the longest retry wait (4 s cap, 3 s Retry-After).
    var settleTimeoutMs: Int { 60_000 }
    /// Resource samples this soon after a (re)start are warm-up, left out of the slopes.
    var warmUpMs: Int64 { isQuick ? 5_000 : 30_000 }

    /// What a busy home's board sees in a day, to say how many days a run holds.
    static let pressesPerDay = 50
    static let deviceMessagesPerDay = 5_000
}

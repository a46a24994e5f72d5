import BridgeCore

/// The core's timers as deadlines on the monotonic clock.
struct TimerTable {
    private(set) var deadlinesMs: [BridgeTimer: Int64] = [:]

    mutating func start(_ timer: BridgeTimer, afterMs delayMs: Int64, nowMs: Int64) {
        deadlinesMs[timer] = nowMs.addingSaturating(max(0, delayMs))
    }

    mutating func cancel(_ timer: BridgeTimer) {
        deadlinesMs[timer] = nil
    }

    /// Milliseconds until the next deadline, or nil when no timer runs.
    func msUntilNext(nowMs: Int64) -> Int64? {
        deadlinesMs.values.min().map { max(0, $0.subtractingSaturating(nowMs)) }
    }

    /// Removes and returns the timers due at `nowMs`, earliest first. Asked after
    /// every batch: when none is due (the usual case) it only looks at the deadlines.
    mutating func takeDue(nowMs: Int64) -> [BridgeTimer] {
        guard deadlinesMs.values.contains(where: { $0 <= nowMs }) else { return [] }
        let due = deadlinesMs.filter { $0.value <= nowMs }.sorted { $0.value < $1.value }.map(\.key)
        for timer in due { deadlinesMs[timer] = nil }
        return due
    }
}

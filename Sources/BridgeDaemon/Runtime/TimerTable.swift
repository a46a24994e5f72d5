import BridgeCore

/// The core's timers as deadlines on the monotonic clock.
///
/// A quiet timer (`BridgeTimer.isQuiet`) is started silent: it does not shorten
/// the loop's wait until the core asks for it (`wake`), so an idle bridge is not
/// woken at the end of every publish interval. It is still due at its deadline
/// and fires at the loop's first wake after it (`takeDueQuiet`, before the
/// wake's inputs, as if it had woken the loop itself).
struct TimerTable {
    struct Deadline: Equatable {
        var atMs: Int64
        /// Whether the loop wakes for it (false: a quiet timer nothing waits for yet).
        var wakes: Bool
    }

    private(set) var deadlinesMs: [BridgeTimer: Deadline] = [:]

    mutating func start(_ timer: BridgeTimer, afterMs delayMs: Int64, nowMs: Int64) {
        deadlinesMs[timer] = Deadline(atMs: nowMs.addingSaturating(max(0, delayMs)), wakes: !timer.isQuiet)
    }

    mutating func cancel(_ timer: BridgeTimer) {
        deadlinesMs[timer] = nil
    }

    /// The loop wakes for `timer` from now on (nothing when it does not run).
    mutating func wake(_ timer: BridgeTimer) {
        deadlinesMs[timer]?.wakes = true
    }

    /// Milliseconds until the next deadline the loop wakes for, or nil when none.
    func msUntilNext(nowMs: Int64) -> Int64? {
        var earliestMs: Int64?
        for deadline in deadlinesMs.values where deadline.wakes {
            earliestMs = min(earliestMs ?? deadline.atMs, deadline.atMs)
        }
        return earliestMs.map { max(0, $0.subtractingSaturating(nowMs)) }
    }

    /// Removes and returns the timers due at `nowMs`, earliest first. Asked after
    /// every batch: when none is due (the usual case) it only looks at the deadlines.
    mutating func takeDue(nowMs: Int64) -> [BridgeTimer] {
        take { $0.atMs <= nowMs }
    }

    /// Removes and returns the quiet timers due at `nowMs` that nothing woke the
    /// loop for, earliest first: asked at each wake, before its inputs.
    mutating func takeDueQuiet(nowMs: Int64) -> [BridgeTimer] {
        take { !$0.wakes && $0.atMs <= nowMs }
    }

    /// The due timers gathered in one pass into an array (no filtered copy of the table).
    private mutating func take(where isDue: (Deadline) -> Bool) -> [BridgeTimer] {
        guard deadlinesMs.values.contains(where: isDue) else { return [] }
        var due: [(timer: BridgeTimer, atMs: Int64)] = []
        for (timer, deadline) in deadlinesMs where isDue(deadline) { due.append((timer, deadline.atMs)) }
        if due.count > 1 { due.sort { $0.atMs < $1.atMs } }
        for entry in due { deadlinesMs[entry.timer] = nil }
        return due.map(\.timer)
    }
}

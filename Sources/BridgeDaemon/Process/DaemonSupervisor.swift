import BridgeCore
import ShellSupport

/// Tells systemd how the daemon is doing: READY=1 as soon as the loop runs (a
/// broker down at boot is something to wait for, not a failed start that
/// systemd would kill and restart), readable STATUS= lines ("waiting for the
/// broker" until MQTT connects), WATCHDOG=1 from the loop that does the work,
/// RELOADING=1 and STOPPING=1.
public final class DaemonSupervisor: Sendable {
    struct State {
        var isReadySent = false
        /// What the last STATUS= line said, by what it was made of.
        var lastStatusFacts: StatusFacts?
        var lastWatchdogMs: Int64 = 0
        var lastPressWallMs: Int64?
        var isReloading = false
    }

    /// What a STATUS= line says: a new line is made only when one of these changed.
    struct StatusFacts: Equatable {
        var isMQTTConnected: Bool
        var isEventStreamConnected: Bool
        var tokenRefusedPhrase: String?
        var actionCount: Int
        var lastPressSecondsAgo: Int64?

        init(_ summary: BatchSummary, lastPressSecondsAgo: Int64?) {
            isMQTTConnected = summary.isMQTTConnected
            isEventStreamConnected = summary.isEventStreamConnected
            tokenRefusedPhrase = summary.tokenRefusedPhrase
            actionCount = summary.actionCount
            self.lastPressSecondsAgo = lastPressSecondsAgo
        }
    }

    let notifier: SystemdNotifier
    let log: LogSink
    private let state = ConditionLock(State())

    init(notifier: SystemdNotifier, log: LogSink) {
        self.notifier = notifier
        self.log = log
    }

    /// How often the loop must wake to pet the watchdog (-1: never).
    var idleWakeMs: Int {
        notifier.watchdogPetIntervalUs.map { Int($0 / 1000) } ?? -1
    }

    /// After each batch of work: READY=1, STATUS= when its line changed, WATCHDOG=1
    /// when due; `pressCarriedOut`: the batch carried a press out (the line's "last
    /// press"). Nothing at all when systemd is not listening.
    func afterBatch(_ summary: BatchSummary, pressCarriedOut: Bool) {
        guard notifier.isActive else { return }
        let nowMs = MonotonicClock.nowMs()
        let (sendReady, text, sendWatchdog) = state.withLock { state in
            if pressCarriedOut { state.lastPressWallMs = nowMs }
            let ready = !state.isReadySent || state.isReloading
            if ready { state.isReadySent = true; state.isReloading = false }
            let facts = StatusFacts(summary, lastPressSecondsAgo: state.lastPressWallMs.map { (nowMs - $0) / 1000 })
            let text = facts == state.lastStatusFacts ? nil : Self.statusText(facts)
            state.lastStatusFacts = facts
            let petMs = idleWakeMs
            let watchdog = petMs >= 0 && nowMs - state.lastWatchdogMs >= Int64(petMs)
            if watchdog { state.lastWatchdogMs = nowMs }
            return (ready, text, watchdog)
        }
        if let text { attempt { () throws(SystemdNotifyError) in try notifier.status(text) } }
        if sendReady { attempt { () throws(SystemdNotifyError) in try notifier.ready() } }
        if sendWatchdog { attempt { () throws(SystemdNotifyError) in try notifier.watchdog() } }
    }

    func reloading() {
        state.withLock { $0.isReloading = true }
        attempt { () throws(SystemdNotifyError) in try notifier.reloading(monotonicUs: UInt64(MonotonicClock.nowUs())) }
    }

    func stopping() {
        attempt { () throws(SystemdNotifyError) in try notifier.stopping() }
    }

    /// "mqtt connected, stream connected, 20 actions, last press 3 s ago".
    static func statusText(_ facts: StatusFacts) -> String {
        var parts = [
            facts.isMQTTConnected ? "mqtt connected" : "waiting for the broker (mqtt disconnected)",
            facts.isEventStreamConnected ? "stream connected" : facts.tokenRefusedPhrase ?? "stream disconnected",
            "\(facts.actionCount) actions",
        ]
        if let secondsAgo = facts.lastPressSecondsAgo { parts.append("last press \(secondsAgo) s ago") }
        return parts.joined(separator: ", ")
    }

    private func attempt(_ body: () throws(SystemdNotifyError) -> Void) {
        guard notifier.isActive else { return }
        do { try body() } catch { log.debug("sd_notify: \(error)") }
    }
}

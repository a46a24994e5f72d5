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
        var lastStatusText = ""
        var lastWatchdogMs: Int64 = 0
        var lastPressWallMs: Int64?
        var isReloading = false
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

    func observe(_ observation: BridgeObservation) {
        if case .pressCarriedOut = observation {
            state.withLock { $0.lastPressWallMs = MonotonicClock.nowMs() }
        }
    }

    func afterBatch(_ snapshot: BridgeSnapshot) {
        let nowMs = MonotonicClock.nowMs()
        let text = statusText(snapshot, nowMs: nowMs)
        let (sendReady, sendStatus, sendWatchdog) = state.withLock { state in
            let ready = !state.isReadySent || state.isReloading
            if ready { state.isReadySent = true; state.isReloading = false }
            let status = text != state.lastStatusText
            state.lastStatusText = text
            let petMs = idleWakeMs
            let watchdog = petMs >= 0 && nowMs - state.lastWatchdogMs >= Int64(petMs)
            if watchdog { state.lastWatchdogMs = nowMs }
            return (ready, status, watchdog)
        }
        if sendStatus { attempt { () throws(SystemdNotifyError) in try notifier.status(text) } }
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

    func statusText(_ snapshot: BridgeSnapshot, nowMs: Int64) -> String {
        let actions = snapshot.config.widgets.reduce(0) { $0 + $1.actions.count }
        var parts = [
            snapshot.isMQTTConnected ? "mqtt connected" : "waiting for the broker (mqtt disconnected)",
            snapshot.isEventStreamConnected ? "stream connected"
                : snapshot.facts.connections.tokenRefusedPhrase ?? "stream disconnected",
            "\(actions) actions",
        ]
        if let last = state.withLock({ $0.lastPressWallMs }) {
            parts.append("last press \((nowMs - last) / 1000) s ago")
        }
        return parts.joined(separator: ", ")
    }

    private func attempt(_ body: () throws(SystemdNotifyError) -> Void) {
        guard notifier.isActive else { return }
        do { try body() } catch { log.debug("sd_notify: \(error)") }
    }
}

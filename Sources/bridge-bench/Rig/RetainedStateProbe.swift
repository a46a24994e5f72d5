import MQTTShell
import ShellSupport

/// Confirms the broker holds a retained state for every toggle: subscribes to
/// `bench/+/state` with a fresh client and counts the toggles it hears from: a
/// state published with the retain flag before the subscription arrives marked
/// retained, one still on its way arrives live; either way the broker has stored it.
enum RetainedStateProbe {
    /// How many toggles have a retained state, after waiting up to `timeoutMs` for all of them.
    static func retainedCount(toggleCount: Int, brokerPort: Int, timeoutMs: Int) -> Int {
        let seen = ConditionLock(Set<String>())
        let client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "bridge-bench-probe")) { event in
            guard case .message(let message) = event else { return }
            seen.withLock { _ = $0.insert(message.topic) }
        }
        defer { client.stop() }
        do {
            try client.setSubscriptions(["bench/+/state"])
            try client.start()
        } catch {
            return 0
        }
        return seen.wait(timeoutMs: timeoutMs, until: { $0.count >= toggleCount }) { $0.count }
    }
}

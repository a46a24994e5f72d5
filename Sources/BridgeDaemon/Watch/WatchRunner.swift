import BridgeCore
import Glibc
import MQTTShell
import ShellSupport

/// The I/O of `watch`: the MQTT shell's events into a bounded inbox, each one
/// through the pure `WatchSession`, out through `WatchOutput`; stops at the
/// deadline or on SIGINT/SIGTERM.
final class WatchRunner: Sendable {
    /// Events waiting for the main thread, at most; more are counted and dropped.
    static let inboxCapacity = 1_024

    struct Inbox {
        var events: [MQTTEvent] = []
        var dropped = 0
        var isStopRequested = false
    }

    private let settings: MQTTShell.MQTTSettings
    private let output: WatchOutput
    private let inbox = ConditionLock(Inbox())
    private let sessionBox: ConditionLock<WatchSession>

    init(settings: MQTTShell.MQTTSettings, session: WatchSession, output: WatchOutput) {
        self.settings = settings
        self.output = output
        sessionBox = ConditionLock(session)
    }

    /// The daemon's settings, as a distinct client that announces nothing: no
    /// status topic, and a client id that does not kick a running bridge off.
    static func settings(_ daemon: MQTTShell.MQTTSettings) -> MQTTShell.MQTTSettings {
        var settings = daemon
        settings.clientId = String("\(daemon.clientId)-watch-\(getpid())".prefix(64))
        settings.status = nil
        return settings
    }

    func run(seconds: Int?) -> Int32 {
        SignalWatcher.blockHandledSignals()
        let session = sessionBox.withLock { $0 }
        output.start(topics: session.subscribedTopics.count)
        let client = MQTTClient(settings: settings) { [inbox] event in
            inbox.withLock { inbox in
                if inbox.events.count < Self.inboxCapacity { inbox.events.append(event) } else { inbox.dropped += 1 }
            }
        }
        do {
            try SignalWatcher.start { [inbox] _ in inbox.withLock { $0.isStopRequested = true } }
            try client.setSubscriptions(session.subscribedTopics)
            try client.start()
        } catch {
            output.problem("\(error)")
            return 1
        }
        let wasConnected = loop(client: client, deadlineUs: seconds.map { MonotonicClock.nowUs() + Int64($0) * 1_000_000 })
        client.stop()
        output.summary(sessionBox.withLock { $0.records })
        if !wasConnected { output.problem("never connected to the broker \(output.broker)") }
        return wasConnected ? 0 : 1
    }

    /// Handles events until the deadline or a stop signal; returns whether the
    /// broker was ever reached.
    private func loop(client: MQTTClient, deadlineUs: Int64?) -> Bool {
        let startUs = MonotonicClock.nowUs()
        var wasConnected = false
        while true {
            let nowUs = MonotonicClock.nowUs()
            if let deadlineUs, nowUs >= deadlineUs { return wasConnected }
            let waitMs = deadlineUs.map { Int(min(1_000, max(1, ($0 - nowUs) / 1_000))) } ?? 1_000
            let (events, dropped, isStopping) = inbox.wait(timeoutMs: waitMs, until: { !$0.events.isEmpty || $0.isStopRequested }) { inbox in
                defer { inbox.events = []; inbox.dropped = 0 }
                return (inbox.events, inbox.dropped, inbox.isStopRequested)
            }
            if dropped > 0 { output.problem("\(dropped) message(s) arrived faster than they could be shown and were skipped") }
            for event in events {
                wasConnected = handle(event, client: client, elapsedMs: (MonotonicClock.nowUs() - startUs) / 1_000, wasConnected: wasConnected)
            }
            if isStopping { return wasConnected }
        }
    }

    private func handle(_ event: MQTTEvent, client: MQTTClient, elapsedMs: Int64, wasConnected: Bool) -> Bool {
        switch event {
        case .connected:
            if !wasConnected { askForStates(client) }
            return true
        case .message(let message):
            let events = sessionBox.withLock { $0.message(topic: message.topic, payload: message.payload, elapsedMs: elapsedMs) }
            for event in events { output.event(event) }
        case .payloadTooLarge(let topic, let byteCount):
            output.problem("a \(byteCount)-byte message on \(topic) was too large to read and was skipped")
        case .disconnected(let reason):
            output.problem("disconnected from the broker: \(reason)")
        case .dropped:
            break
        case .fatal(let reason):
            output.problem("the broker refused the connection: \(reason)")
        }
        return wasConnected
    }

    private func askForStates(_ client: MQTTClient) {
        for query in sessionBox.withLock({ $0.stateQueries }) {
            output.query(query)
            do {
                try client.publish(topic: query.topic, payload: query.payload, qos: .atLeastOnce, retain: false)
            } catch {
                output.problem("state query to \(query.topic) not sent: \(error)")
            }
        }
    }
}

import BridgeCore
import Glibc
import MQTTShell
import ShellSupport

/// The I/O of `watch`: the MQTT shell's events through the one bounded inbox
/// (`MQTTListener`), each one through the pure `WatchSession`, out through
/// `WatchOutput`; stops at the deadline or on SIGINT/SIGTERM.
final class WatchRunner {
    /// Messages waiting for the main thread, at most; more are counted and dropped.
    static let inboxCapacity = 1_024
    /// And at most this many topic and payload bytes (the daemon's bound).
    static let inboxByteCapacity = BridgeCore.MQTTSettings.inboxMQTTByteBudget

    private let settings: MQTTShell.MQTTSettings
    private let output: WatchOutput
    private var session: WatchSession
    private let login: BrokerLoginRefusal

    init(settings: MQTTShell.MQTTSettings, session: WatchSession, output: WatchOutput, login: BrokerLoginRefusal) {
        self.settings = settings
        self.output = output
        self.session = session
        self.login = login
    }

    /// The daemon's settings, as a distinct client that announces nothing: no
    /// status topic, and a client id that does not kick a running bridge off.
    static func settings(_ daemon: MQTTShell.MQTTSettings) -> MQTTShell.MQTTSettings {
        var settings = daemon
        settings.clientId = String("\(daemon.clientId)-watch-\(getpid())".prefix(64))
        settings.status = nil
        return settings
    }

    /// The client and its inbox, bounded as the daemon's.
    static func listener(_ settings: MQTTShell.MQTTSettings) -> MQTTListener {
        MQTTListener(settings: settings, maxQueuedMessages: inboxCapacity, maxQueuedBytes: inboxByteCapacity)
    }

    func run(seconds: Int?) -> Int32 {
        SignalSource.blockHandledSignals()
        output.start(topics: session.subscribedTopics.count)
        let listener = Self.listener(settings)
        do {
            let signals = try SignalSource { _ in listener.requestStop() }
            try listener.start(subscribingTo: session.subscribedTopics, alongside: [signals])
        } catch {
            output.problem("\(error)")
            return 1
        }
        let startUs = MonotonicClock.nowUs()
        let deadlineMs = seconds.map { MonotonicClock.nowMs() + Int64($0) * 1_000 }
        var wasConnected = false
        listener.run(deadlineMs: { deadlineMs }) { event in
            let elapsedMs = (MonotonicClock.nowUs() - startUs) / 1_000
            return handle(event, client: listener.client, elapsedMs: elapsedMs, wasConnected: &wasConnected)
        }
        listener.stop()
        if wasConnected { lookForNearMisses() }
        output.summary(session.records)
        if !wasConnected { output.problem("never connected to the broker \(output.broker)") }
        return wasConnected ? 0 : 1
    }

    /// Shows one event; false on a stop signal.
    private func handle(_ event: MQTTListener.Event, client: MQTTClient, elapsedMs: Int64, wasConnected: inout Bool) -> Bool {
        switch event {
        case .mqtt(.connected):
            if !wasConnected { askForStates(client) }
            wasConnected = true
        case .message(let topic, let payload):
            for event in session.message(topic: topic, payload: payload, elapsedMs: elapsedMs) { output.event(event) }
        case .dropped(let count):
            output.problem("\(count) message(s) arrived faster than they could be shown and were skipped")
        case .mqtt(.payloadTooLarge(let topic, let byteCount)):
            output.problem("a \(byteCount)-byte message on \(topic) was too large to read and was skipped")
        case .mqtt(.disconnected(let reason)):
            output.problem("disconnected from the broker: \(reason)")
        case .mqtt(.fatal(let reason)):
            output.problem("cannot connect to the broker: \(reason)")
        case .mqtt(.refused(let refusal)):
            output.problem(login.text(broker: output.broker, refusal: refusal, withRetry: true))
        case .mqtt(.dropped), .mqtt(.message):
            break
        case .stopRequested:
            return false
        }
        return true
    }

    /// Actions never heard from: a look at every topic of the broker (`#`, as the daemon
    /// does) for near misses, with a client of its own (an overlapping subscription would
    /// bring each message twice over MQTT 5) taking messages as large as `discover`'s, so
    /// zigbee2mqtt's device list arrives whole; listens 2 s once connected.
    private func lookForNearMisses() {
        let topics = session.silentStateTopics
        guard !topics.isEmpty else { return }
        let lookMs = WatchSession.nearMissLookMs
        output.note("\(topics.count) topic(s) never heard from: looking \(lookMs / 1_000) s at the broker's other topics for near misses")
        session.startNearMissLook()
        var look = settings
        look.clientId = String("\(settings.clientId)-look".prefix(64))
        look.maxPayloadBytes = DiscoverySession.maxPayloadBytes
        let listener = MQTTListener(settings: look, maxQueuedMessages: DiscoveryListener.maxQueuedMessages,
                                    maxQueuedBytes: DiscoveryListener.maxQueuedBytes)
        do { try listener.start(subscribingTo: [WatchSession.nearMissFilter]) } catch {
            output.problem("no look for near misses: \(error)")
            return
        }
        let connectDeadlineMs = MonotonicClock.nowMs() + Int64(DiscoveryListener.connectTimeoutMs)
        var lookDeadlineMs: Int64?
        listener.run(deadlineMs: { lookDeadlineMs ?? connectDeadlineMs }) { event in
            switch event {
            case .mqtt(.connected): if lookDeadlineMs == nil { lookDeadlineMs = MonotonicClock.nowMs() + lookMs }
            case .message(let topic, let payload): session.nearMissMessage(topic: topic, payload: payload)
            case .stopRequested: return false
            default: break
            }
            return true
        }
        listener.stop()
        session.endNearMissLook()
    }

    private func askForStates(_ client: MQTTClient) {
        for query in session.stateQueries {
            output.query(query)
            do {
                try client.publish(topic: query.topic, payload: query.payload, qos: .atLeastOnce, retain: false)
            } catch {
                output.problem("state query to \(query.topic) not sent: \(error)")
            }
        }
    }
}

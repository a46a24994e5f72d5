import BridgeCore
import MQTTShell
import ShellSupport

/// The I/O of `discover`: connects with the MQTT shell, subscribes to the
/// announcement topics, publishes the harmless requests the session asks for,
/// and feeds every message to the session until the time is up.
public enum DiscoveryListener {
    /// At most this many messages wait between the network thread and the session.
    static let maxQueuedMessages = 4_096
    /// And at most this many payload bytes (a flood of big messages waits in TCP, not here).
    static let maxQueuedBytes = 2 * DiscoverySession.maxPayloadBytes
    /// How long to wait for the broker before giving up.
    public static let connectTimeoutMs = 10_000

    /// Why listening failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    struct Inbox {
        var messages: [MQTTMessage] = []
        var queuedBytes = 0
        var dropped = 0
        var isConnected = false
        var lastProblem: String?
        /// Refused credentials, TLS, DNS: retrying will not help within a discovery.
        var fatalReason: String?
    }

    /// Listens for `seconds` and returns the session with everything heard.
    public static func listen(settings: MQTTShell.MQTTSettings, session start: DiscoverySession, seconds: Int) throws(Failure) -> (session: DiscoverySession, droppedMessages: Int) {
        let inbox = ConditionLock(Inbox())
        let client = MQTTClient(settings: settings) { event in
            inbox.withLock { inbox in
                switch event {
                case .connected: inbox.isConnected = true
                case .disconnected(let reason): inbox.lastProblem = reason
                case .dropped: break
                case .fatal(let reason): inbox.fatalReason = reason
                case .message(let message):
                    guard inbox.messages.count < maxQueuedMessages, inbox.queuedBytes + message.payload.count <= maxQueuedBytes else {
                        inbox.dropped += 1
                        return
                    }
                    inbox.messages.append(message)
                    inbox.queuedBytes += message.payload.count
                case .payloadTooLarge:
                    inbox.dropped += 1
                }
            }
        }
        var session = start
        do {
            try client.setSubscriptions(session.subscriptions)
            try client.start()
        } catch {
            throw Failure(description: "cannot start the MQTT client: \(error)")
        }
        defer { client.stop() }
        let isConnected = inbox.wait(timeoutMs: connectTimeoutMs, until: { $0.isConnected || $0.fatalReason != nil }) { $0.isConnected }
        guard isConnected else {
            let reason = inbox.withLock { $0.fatalReason ?? $0.lastProblem } ?? "no answer within \(connectTimeoutMs / 1000) s"
            throw Failure(description: "cannot connect to the broker at \(settings.host):\(settings.port): \(reason)")
        }
        publish(session.initialRequests, client)
        let deadlineMs = MonotonicClock.nowMs() + Int64(seconds) * 1_000
        while true {
            let remainingMs = deadlineMs - MonotonicClock.nowMs()
            let batch = inbox.wait(timeoutMs: Int(max(0, min(remainingMs, 200))), until: { !$0.messages.isEmpty }) { inbox in
                defer { inbox.messages.removeAll(keepingCapacity: true); inbox.queuedBytes = 0 }
                return inbox.messages
            }
            for message in batch {
                publish(session.receive(DiscoveryMessage(topic: message.topic, payload: message.payload)), client)
            }
            if remainingMs <= 0 { break }
        }
        return (session, inbox.withLock { $0.dropped })
    }

    private static func publish(_ requests: [DiscoveryRequest], _ client: MQTTClient) {
        for request in requests {
            try? client.publish(topic: request.topic, payload: Array(request.payload.utf8), qos: .atLeastOnce, retain: false)
        }
    }
}

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
    /// What is still read at the deadline: `discover` translates on the thread that
    /// reads, so a slow translation (a loaded board, a 4 MiB device list) leaves what
    /// the broker already sent on the socket. Read on until it has brought nothing for
    /// 300 ms, at most the bytes a session keeps and at most 5 s (a default window).
    static let deadlineDrain = MQTTListener.DeadlineDrain(quietMs: 300, maxBytes: DiscoverySession.maxTotalBytes, maxMs: 5_000)
    /// How long to wait for the broker before giving up, at most (and never longer than
    /// the `--seconds` asked for).
    public static let connectTimeoutMs = 10_000

    /// Why listening failed.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What listening has found out so far.
    struct Progress {
        var session: DiscoverySession
        var dropped = 0
        var lastProblem: String?
        /// Refused credentials, TLS, DNS: retrying will not help within a discovery.
        var fatalReason: String?
        /// Set once connected: when listening ends (monotonic).
        var listenDeadlineMs: Int64?
        /// The broker refused the login: the whole sentence, naming the broker.
        var refusal: String?
    }

    /// The client and its inbox, bounded for announcements (two of the largest at once).
    static func listener(_ settings: MQTTShell.MQTTSettings) -> MQTTListener {
        MQTTListener(settings: settings, maxQueuedMessages: maxQueuedMessages, maxQueuedBytes: maxQueuedBytes)
    }

    /// Listens for `seconds` and returns the session with everything heard.
    public static func listen(
        settings: MQTTShell.MQTTSettings, login: BrokerLoginRefusal, session start: DiscoverySession, seconds: Int
    ) throws(Failure) -> (session: DiscoverySession, droppedMessages: Int) {
        let broker = "\(settings.host):\(settings.port)"
        let listener = listener(settings)
        do {
            try listener.start(subscribingTo: start.subscriptions)
        } catch {
            throw Failure(description: "cannot start the MQTT client: \(error)")
        }
        defer { listener.stop() }
        var progress = Progress(session: start)
        // Within the seconds asked for (issue 41: `--seconds 2` to a closed port took 10 s to say so).
        let connectWaitMs = min(connectTimeoutMs, seconds * 1_000)
        let connectDeadlineMs = MonotonicClock.nowMs() + Int64(connectWaitMs)
        listener.run(deadlineMs: { progress.listenDeadlineMs ?? connectDeadlineMs }, drain: deadlineDrain) { event in
            if case .mqtt(.refused(let refusal)) = event {
                progress.refusal = login.text(broker: broker, refusal: refusal)
                return progress.listenDeadlineMs != nil
            }
            return handle(event, &progress, listener.client, seconds: seconds)
        }
        guard progress.listenDeadlineMs != nil else {
            if let refusal = progress.refusal { throw Failure(description: refusal) }
            let reason = progress.fatalReason ?? progress.lastProblem ?? "no answer within \(connectWaitMs / 1000) s"
            throw Failure(description: "cannot connect to the broker at \(settings.host):\(settings.port): \(reason)")
        }
        return (progress.session, progress.dropped)
    }

    /// Takes one event; false when listening is over (refused before connecting).
    static func handle(_ event: MQTTListener.Event, _ progress: inout Progress, _ client: MQTTClient, seconds: Int) -> Bool {
        switch event {
        case .mqtt(.connected):
            if progress.listenDeadlineMs == nil {
                progress.listenDeadlineMs = MonotonicClock.nowMs() + Int64(seconds) * 1_000
                publish(progress.session.initialRequests, client)
            }
        case .mqtt(.disconnected(let reason)): progress.lastProblem = reason
        case .mqtt(.fatal(let reason)):
            progress.fatalReason = reason
            return progress.listenDeadlineMs != nil
        case .mqtt(.payloadTooLarge): progress.dropped += 1
        case .dropped(let count): progress.dropped += count
        case .message(let topic, let payload):
            publish(progress.session.receive(DiscoveryMessage(topic: topic, payload: payload)), client)
        case .mqtt(.dropped), .mqtt(.message), .mqtt(.refused), .stopRequested: break
        }
        return true
    }

    private static func publish(_ requests: [DiscoveryRequest], _ client: MQTTClient) {
        for request in requests {
            try? client.publish(topic: request.topic, payload: Array(request.payload.utf8), qos: .atLeastOnce, retain: false)
        }
    }
}

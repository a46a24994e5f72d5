import ShellSupport

/// Hands what the shells report to the runtime: the shells are built before the
/// runtime (the runtime's ports call them), so the relay owns the runtime's inbox
/// from the start and the runtime takes it over (`BridgeRuntime(…, relay:)`).
/// No lock of its own (the inbox has its one, which the loop's own thread, where
/// the shells run, does not take); what comes before the runtime runs waits in
/// the inbox, within its bounds.
public final class RuntimeRelay: Sendable {
    let inbox = RuntimeInbox()
    /// Woken when something is queued (a no-op on the loop's own thread).
    private let loop: EventLoop?

    public init(loop: EventLoop?) {
        self.loop = loop
    }

    /// Queues an input from any thread; false when the inbox is full.
    @discardableResult
    public func submit(_ input: RuntimeInput) -> Bool {
        if isOnLoopThread { return inbox.push(input, fromTakingThread: true) }
        defer { loop?.wake() }
        return inbox.push(input)
    }

    /// Queues an MQTT message from any thread (coalesced per topic when the inbox is full).
    public func submitMQTTMessage(topic: String, payload: [UInt8]) {
        if isOnLoopThread {
            inbox.pushMQTT(topic: topic, payload: payload, fromTakingThread: true)
            return
        }
        inbox.pushMQTT(topic: topic, payload: payload)
        loop?.wake()
    }

    /// On the loop's thread, which is the runtime's, the one that takes from the inbox.
    private var isOnLoopThread: Bool { loop?.isOnLoopThread ?? false }
}

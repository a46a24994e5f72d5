import BridgeCore
import CMosquitto
import Glibc
import ShellSupport

/// An MQTT client over libmosquitto, driven by an `EventLoop` through libmosquitto's
/// external-loop API (`mosquitto_socket`, `mosquitto_loop_read`/`write`/`misc`,
/// `mosquitto_want_write`): the caller's loop (`start(on:)`, the daemon's one loop)
/// or a loop on a thread of its own (`start()`).
///
/// - Events go to `handler`, which is called **on the loop's thread**: it must be
///   cheap and must not block (copy the event into the owner's bounded queue and
///   return). The shell keeps no queue of its own, so a slow owner slows the reading
///   of the socket (TCP back-pressure) instead of growing memory. Never call `stop()`
///   from the handler.
/// - Reconnects forever with capped exponential backoff and jitter, also when the broker is down
///   at start; every connect re-subscribes and publishes the online status.
/// - Fatal errors (TLS, DNS, protocol) are reported as `.fatal`, a refused CONNECT (credentials) as `.refused`,
///   and the client is recreated after `fatalRetryDelayMs` (doubling, capped, jittered).
///
/// Driving libmosquitto's loop calls itself (never `mosquitto_loop_start`) is what
/// lets it see why each attempt failed, notice fatal errors and recreate the client,
/// and stop promptly while waiting to reconnect. libmosquitto's connect resolves the
/// broker's name with a blocking `getaddrinfo`: to a literal address it runs on the
/// loop (no lookup), to a name on a short-lived helper thread (the loop leaves the
/// handle alone meanwhile and goes on with everything else).
public final class MQTTClient: Sendable {
    let settings: MQTTSettings
    let handler: @Sendable (MQTTEvent) -> Void
    let state: ConditionLock<MQTTClientState>
    /// The libmosquitto handle; held while calling into it from the caller's threads and
    /// while the loop driving the client (the caller's, or its own thread's) recreates
    /// or destroys it. Callbacks never take it.
    let handle = ConditionLock<OpaquePointer?>(nil)
    private let thread = ConditionLock<ShellThread?>(nil)
    /// The helper connecting to a broker's name, while it runs.
    let resolver = ConditionLock<ShellThread?>(nil)
    /// The loop that drives the client, once started.
    let loop = ConditionLock<EventLoop?>(nil)

    /// The settings the next attempt uses: `settings`, speaking 3.1.1 once fallen back.
    var currentSettings: MQTTSettings {
        guard state.withLock({ $0.hasFallenBackToV311 }) else { return settings }
        var fallen = settings
        fallen.protocolVersion = .v311
        return fallen
    }

    /// A client that reports to `handler`; nothing happens until `start()`.
    public init(settings: MQTTSettings, handler: @escaping @Sendable (MQTTEvent) -> Void) {
        self.settings = settings
        self.handler = handler
        state = ConditionLock(MQTTClientState(jitter: SplitMix64(seed: settings.jitterSeed)))
    }

    /// Creates the libmosquitto client and starts connecting on a loop of its own,
    /// on a thread of its own. Throws for bad settings (e.g. an unreadable CA file);
    /// an unreachable broker is not an error (it is retried and reported as `.disconnected`).
    /// `companions` are driven on that loop too (`watch`'s signals).
    public func start(alongside companions: [LoopSource] = []) throws {
        let ownLoop: EventLoop
        do { ownLoop = try EventLoop() } catch { throw MQTTError(operation: "start", message: "\(error)") }
        try attach(to: ownLoop, isThreaded: true)
        companions.forEach(ownLoop.add)
        let loopThread = try ShellThread { [self] in
            while !isFinished { ownLoop.turn(timeoutMs: -1) }
        }
        thread.withLock { $0 = loopThread }
    }

    /// Creates the libmosquitto client on the caller's loop, which must turn on the
    /// calling thread (every call but `isConnected` and `dropConnectionAbruptly` then
    /// comes from that thread); connecting starts at its next turn. Publishes write
    /// at once, with no hand-off.
    public func start(on callersLoop: EventLoop) throws {
        try attach(to: callersLoop, isThreaded: false)
    }

    private func attach(to eventLoop: EventLoop, isThreaded: Bool) throws {
        let isFirstStart = state.withLock { state in
            defer { state.isStarted = true }
            return !state.isStarted
        }
        guard isFirstStart else { throw MQTTError(operation: "start", message: "already started") }
        let newHandle = try MosquittoHandle.make(settings: settings, client: self, isThreaded: isThreaded)
        handle.withLock { $0 = newHandle }
        state.withLock { $0.isThreaded = isThreaded }
        loop.withLock { $0 = eventLoop }
        eventLoop.add(self)
    }

    /// Whether the client has stopped for good.
    var isFinished: Bool { state.withLock { $0.phase == .stopped } }

    /// Publishes the offline status (retained) if connected, waits briefly for the
    /// broker to acknowledge it, disconnects cleanly. On its own loop: waits for the
    /// loop's thread; on the caller's: turns that loop until done (call it on the
    /// loop's thread, once the loop's other work is over).
    public func stop() {
        let wasStopping = state.withLock { state in
            defer { state.isStopping = true }
            return state.isStopping
        }
        guard !wasStopping else { return }
        let isAcknowledgementAwaited = publishOfflineStatus()
        state.withLock { state in
            state.stopDeadlineMs = MonotonicClock.nowMs() + Int64(isAcknowledgementAwaited ? settings.stopTimeoutMs : 0)
        }
        let currentLoop = loop.withLock { $0 }
        let loopThread = thread.withLock { current in
            defer { current = nil }
            return current
        }
        if let loopThread {
            currentLoop?.wake()
            loopThread.join()
        } else if let currentLoop {
            while !isFinished { currentLoop.turn(timeoutMs: -1) }
            currentLoop.remove(self)
        }
        handle.withLock { current in
            if let current { mosquitto_destroy(current) }
            current = nil
        }
    }
    /// Publishes one message. Throws `MQTTError` when not connected (nothing is queued
    /// for later: a late command is worse than none) or when libmosquitto refuses it.
    ///
    /// Which thread may call it: on a loop of its own (`start()`: watch, discover,
    /// tests), any thread: the call holds `handle`'s lock against the caller's other
    /// threads and relies on libmosquitto's own mutexes (threaded mode, its packet
    /// queue and message lists locked) against the loop's thread, which writes the
    /// queued packet once woken. On the caller's loop (`start(on:)`: the daemon), only
    /// that loop's thread: libmosquitto is told no other thread shares the handle and
    /// writes the packet at once, in the caller's thread (checked: a precondition).
    ///
    /// The state is read under one lock (connected, threaded), and the loop is woken
    /// only on a loop of the client's own: on the caller's loop the packet is written
    /// already (and a wake from the loop's thread does nothing).
    public func publish(topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool) throws {
        let isThreaded = try handle.withLock { current -> Bool in
            let (isConnected, isThreaded) = state.withLock { ($0.isConnected, $0.isThreaded) }
            guard let current, isConnected else { throw MQTTError.notConnected("publish") }
            precondition(isThreaded || isOnCallersLoopThread,
                         "MQTTClient.publish off the loop's thread of a client started on the caller's loop")
            let messageId = try Self.publish(on: current, topic: topic, payload: payload, qos: qos, retain: retain)
            awaitAnswer(to: messageId, qos: qos, on: current)
            return isThreaded
        }
        if isThreaded { wakeLoopToWrite() }
    }

    /// Whether this thread may drive libmosquitto (see `publish`): any thread on a
    /// loop of the client's own, only the loop's thread on the caller's loop.
    var isCallingThreadAllowed: Bool {
        state.withLock { $0.isThreaded } || isOnCallersLoopThread
    }

    /// Whether this thread turns the loop the client was started on (connected
    /// implies the loop has turned, so its thread is known).
    private var isOnCallersLoopThread: Bool {
        loop.withLock { $0 }?.isOnLoopThread ?? true
    }

    /// From another thread than the loop's: the packet waits in libmosquitto's queue
    /// until the loop writes it.
    func wakeLoopToWrite() {
        loop.withLock { $0 }?.wake()
    }

    /// Turns Linux's delayed ACK off (TCP_QUICKACK, not sticky) and sends the ACK
    /// of what was just read at once. After a QoS 1 command the broker answers
    /// PUBACK; if we delay the TCP ACK of it, a broker with Nagle's algorithm on
    /// (mosquitto's default) holds the device's answer behind it for ~40 ms. Linux
    /// delays ACKs ("pingpong" mode) only after this side sent data soon after
    /// receiving some, and sends a delayed ACK at the latest when the data is read,
    /// if it ever leaves that mode: so the loop does it after every read of the
    /// socket (`serviceLink`), which covers what libmosquitto writes unseen too
    /// (PUBACKs of QoS 1 messages, PINGREQs). A publish needs none of its own: the
    /// read of its PUBACK is where the ACK goes (one before and one after each QoS 1
    /// publish were two setsockopt calls a press that changed nothing).
    static func acknowledgeNextSegmentAtOnce(_ handle: OpaquePointer) {
        let descriptor = mosquitto_socket(handle)
        guard descriptor >= 0 else { return }
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), 12 /* TCP_QUICKACK */, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Replaces the set of subscribed topics (filters). Kept for every reconnect and
    /// applied at once when connected. Topics are told apart by their UTF-8 bytes,
    /// as the broker does (`café` NFC and NFD are two subscriptions), never by
    /// Swift's `String ==`, which would merge them.
    public func setSubscriptions<Topics: Sequence>(_ topics: Topics) throws where Topics.Element == String {
        let wanted = Dictionary(topics.map { (Array($0.utf8), $0) }, uniquingKeysWith: { first, _ in first })
        try handle.withLock { current in
            let (added, removed, isConnected) = state.withLock { state in
                defer { state.subscriptions = wanted }
                let added = wanted.filter { state.subscriptions[$0.key] == nil }.map(\.value)
                let removed = state.subscriptions.filter { wanted[$0.key] == nil }.map(\.value)
                return (added, removed, state.isConnected)
            }
            guard let current, isConnected else { return }
            precondition(isCallingThreadAllowed, "MQTTClient.setSubscriptions off the loop's thread of a client started on the caller's loop")
            for topic in removed {
                try MQTTError.check(mosquitto_unsubscribe(current, nil, topic), "unsubscribe")
            }
            for topic in added {
                try MQTTError.check(mosquitto_subscribe(current, nil, topic, settings.subscribedQoS.rawValue), "subscribe")
            }
        }
        wakeLoopToWrite()
    }

    /// Whether the client is connected right now.
    public var isConnected: Bool {
        state.withLock { $0.isConnected }
    }

    /// Closes the TCP connection without an MQTT DISCONNECT, as a crash or a cable
    /// pull would: the broker then publishes the will. For fault-injection tests.
    public func dropConnectionAbruptly() {
        handle.withLock { current in
            guard let current else { return }
            let socket = mosquitto_socket(current)
            if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Publishes the offline status; true when there is an acknowledgement to wait for.
    private func publishOfflineStatus() -> Bool {
        guard let status = settings.status else { return false }
        return handle.withLock { current -> Bool in
            guard let current, state.withLock({ $0.isConnected }) else { return false }
            let messageId = try? Self.publish(
                on: current, topic: status.topic, payload: status.offlinePayload, qos: .atLeastOnce, retain: true
            )
            state.withLock { $0.offlineMessageId = messageId }
            return messageId != nil
        }
    }

    static func publish(on handle: OpaquePointer, topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool) throws -> Int32 {
        var messageId: Int32 = 0
        let rc = payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &messageId, topic, Int32(bytes.count), bytes.baseAddress, qos.rawValue, retain)
        }
        try MQTTError.check(rc, "publish")
        return messageId
    }
}

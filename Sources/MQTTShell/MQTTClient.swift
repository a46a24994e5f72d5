import BridgeCore
import CMosquitto
import Glibc
import ShellSupport

/// An MQTT client over libmosquitto, driven by an `EventLoop` through libmosquitto's
/// external-loop API (`mosquitto_socket`, `mosquitto_loop_read`/`write`/`misc`,
/// `mosquitto_want_write`): the caller's loop (`start(on:)`, the daemon's one loop,
/// `watch`'s and `discover`'s), or the loop of a `LoopThread` (`start()`: tests,
/// `bridge-bench`'s and `demo`'s devices).
///
/// **One mode: loop thread only.** The client's state, its libmosquitto handle (not
/// in libmosquitto's threaded mode) and its callbacks are touched by the loop's
/// thread alone, so they need no lock. Started with `start()`, every call from
/// another thread is handed to the `LoopThread` and waited for (`onLoopThread`);
/// started on the caller's loop, every call comes from that loop's thread (checked
/// in debug builds). The one thing shared with another thread is the resolving
/// helper's hand-off (`ResolverHandOff`).
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
public final class MQTTClient: @unchecked Sendable {
    let settings: MQTTSettings
    let handler: @Sendable (MQTTEvent) -> Void
    /// Loop thread only.
    var state: MQTTClientState
    /// The libmosquitto handle. Loop thread only (while `.resolving`, the helper's:
    /// the loop leaves it alone then).
    var handle: OpaquePointer?
    /// The helper connecting to a broker's name, while it runs. Loop thread only.
    var resolver: ShellThread?
    /// What the resolving helper hands the loop (the loop's thread and the helper's).
    let resolverHandOff = ConditionLock(ResolverHandOff())
    /// The loop that drives the client, once started (set by `start`, before the loop turns).
    private(set) var loop: EventLoop?
    /// `start()`'s thread turning `loop`, nil on the caller's loop (set by `start()`,
    /// before the client is shared).
    private var ownThread: LoopThread?

    /// The settings the next attempt uses: `settings`, speaking 3.1.1 once fallen back.
    var currentSettings: MQTTSettings {
        guard state.hasFallenBackToV311 else { return settings }
        var fallen = settings
        fallen.protocolVersion = .v311
        return fallen
    }

    /// A client that reports to `handler`; nothing happens until `start()`.
    public init(settings: MQTTSettings, handler: @escaping @Sendable (MQTTEvent) -> Void) {
        self.settings = settings
        self.handler = handler
        state = MQTTClientState(reconnects: MQTTReconnectSchedule(settings: settings))
    }

    /// Creates the libmosquitto client and starts connecting on the loop of a
    /// `LoopThread` of its own (for a program with no loop of its own: tests, bench's
    /// and demo's devices); `stop()` ends that thread. Throws for bad settings (e.g. an
    /// unreadable CA file); an unreachable broker is not an error (it is retried and
    /// reported as `.disconnected`).
    public func start() throws {
        guard ownThread == nil, loop == nil else { throw MQTTError(operation: "start", message: "already started") }
        let thread: LoopThread
        do { thread = try LoopThread() } catch { throw MQTTError(operation: "start", message: "\(error)") }
        ownThread = thread
        do {
            try thread.perform { [self] in try attach(to: thread.loop) }
        } catch {
            thread.stop()
            throw error
        }
    }

    /// Creates the libmosquitto client on the caller's loop, which must turn on the
    /// calling thread (every later call then comes from that thread); connecting
    /// starts at its next turn. Publishes write at once, with no hand-off.
    public func start(on callersLoop: EventLoop) throws {
        try attach(to: callersLoop)
    }

    private func attach(to eventLoop: EventLoop) throws {
        guard !state.isStarted else { throw MQTTError(operation: "start", message: "already started") }
        state.isStarted = true
        handle = try MosquittoHandle.make(settings: settings, client: self)
        loop = eventLoop
        eventLoop.add(self)
    }

    /// Runs `body` on the loop's thread: at once on the caller's loop (the daemon's
    /// only way; a debug build checks the thread of a connected client's calls), else handed to the client's own
    /// `LoopThread` and waited for.
    func onLoopThread<Value>(_ body: @escaping () throws -> Value) throws -> Value {
        guard let ownThread else {
            return try body()
        }
        return try ownThread.perform(body)
    }

    /// `onLoopThread` for work that cannot throw. Public: a caller on another thread
    /// that holds a lock of its own while it calls the client must do so in here, since
    /// the client's callbacks run on the loop thread, and one that takes the same lock
    /// would otherwise wait for the caller while the caller waits for the loop
    /// (bridge-bench's soak did, once the client had one mode).
    public func onLoopThread<Value>(_ body: @escaping () -> Value) -> Value {
        guard let ownThread else {
            return body()
        }
        return ownThread.perform(body)
    }

    /// Checks (debug builds) that a connected client is called on its loop's thread
    /// (connected: the loop has turned, so its thread is known).
    private func assertOnLoopThread() {
        assert(loop?.isOnLoopThread ?? true, "MQTTClient called off the thread of the loop it was started on")
    }

    /// Whether the client has stopped for good.
    var isFinished: Bool { state.phase == .stopped }

    /// Publishes the offline status (retained) if connected, waits briefly for the
    /// broker to acknowledge it, disconnects cleanly: turns the loop until done (on
    /// the caller's loop, call it on the loop's thread once the loop's other work is
    /// over), then ends the client's own thread if it has one.
    public func stop() {
        onLoopThread { [self] in stopOnLoop() }
        ownThread?.stop()
    }

    private func stopOnLoop() {
        guard !state.isStopping else { return }
        state.isStopping = true
        let isAcknowledgementAwaited = publishOfflineStatus()
        state.stopDeadlineMs = settings.clock.monotonicMs() + Int64(isAcknowledgementAwaited ? settings.stopTimeoutMs : 0)
        if let loop {
            while !isFinished { loop.turn(timeoutMs: -1) }
            loop.remove(self)
        }
        if let current = handle { mosquitto_destroy(current) }
        handle = nil
    }

    /// Publishes one message. Throws `MQTTError` when not connected (nothing is queued
    /// for later: a late command is worse than none) or when libmosquitto refuses it.
    /// On the loop's thread the packet is written at once.
    public func publish(topic: String, payload: [UInt8], qos: MQTTQoS, retain: Bool) throws {
        try onLoopThread { [self] in
            guard let current = handle, state.isConnected else { throw MQTTError.notConnected("publish") }
            assertOnLoopThread()
            let messageId = try Self.publish(on: current, topic: topic, payload: payload, qos: qos, retain: retain)
            awaitAnswer(to: messageId, qos: qos, on: current)
        }
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
        try onLoopThread { [self] in
            let added = wanted.filter { state.subscriptions[$0.key] == nil }.map(\.value)
            let removed = state.subscriptions.filter { wanted[$0.key] == nil }.map(\.value)
            state.subscriptions = wanted
            guard let current = handle, state.isConnected else { return }
            assertOnLoopThread()
            for topic in removed {
                try MQTTError.check(mosquitto_unsubscribe(current, nil, topic), "unsubscribe")
            }
            for topic in added {
                try MQTTError.check(mosquitto_subscribe(current, nil, topic, settings.subscribedQoS.rawValue), "subscribe")
            }
        }
    }

    /// Whether the client is connected right now.
    public var isConnected: Bool {
        onLoopThread { [self] in state.isConnected }
    }

    /// Passes of the loop that read the broker's socket so far: a caller turning the
    /// loop sees whether a turn brought bytes, a whole message or a part of one
    /// (`discover` reads on past its deadline while the broker is still sending).
    public var socketReadPasses: Int {
        onLoopThread { [self] in state.socketReadPasses }
    }

    /// Closes the TCP connection without an MQTT DISCONNECT, as a crash or a cable
    /// pull would: the broker then publishes the will. For fault-injection tests.
    public func dropConnectionAbruptly() {
        onLoopThread { [self] in
            guard let current = handle else { return }
            let socket = mosquitto_socket(current)
            if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    /// Publishes the offline status; true when there is an acknowledgement to wait for.
    private func publishOfflineStatus() -> Bool {
        guard let status = settings.status, let current = handle, state.isConnected else { return false }
        let messageId = try? Self.publish(
            on: current, topic: status.topic, payload: status.offlinePayload, qos: .atLeastOnce, retain: true
        )
        state.offlineMessageId = messageId
        return messageId != nil
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

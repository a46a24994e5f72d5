import BridgeCore
import ShellSupport

/// What one `MQTTClient` knows of its connection: loop thread only (no lock).
struct MQTTClientState {
    var isStarted = false
    var isStopping = false
    var isConnected = false
    /// Topics to be subscribed on every connect.
    /// The subscribed filters, keyed by their UTF-8 bytes.
    var subscriptions: [[UInt8]: String] = [:]
    /// The waits before connecting again (failed attempts, short connections, fatal errors).
    var reconnects: MQTTReconnectSchedule
    /// Set by the message callback when the broker broke the protocol (a QoS above
    /// the subscribed one): the connection is shut and the handle recreated.
    var protocolViolation: String?
    /// Set by the connect callback when the broker refused the connection.
    var connectRefusal: MQTTRefusal?
    /// What the broker's MQTT 5 DISCONNECT said, for the next `.disconnected`.
    var brokerCloseReason: String?
    /// The broker refused MQTT 5: why, until the supervisor switches to 3.1.1.
    var protocolFallbackReason: String?
    /// Whether this client speaks 3.1.1 after falling back from 5 (for good).
    var hasFallenBackToV311 = false
    /// Whether an MQTT 5 connection was ever accepted (then closes never mean "no v5").
    var hasConnectedWithV5 = false
    /// Consecutive MQTT 5 attempts the broker closed before answering the CONNECT.
    var closedBeforeConnackCount = 0
    /// The reason last reported as `disconnected`, to report each change once.
    var lastReportedReason: String?
    /// Message id of the offline status published by `stop()`, and whether it was acked.
    var offlineMessageId: Int32?
    var isOfflineAcknowledged = false
    /// Where the connection's life stands (loop thread).
    var phase = MQTTLinkPhase.idle
    /// When `stop()` gives up waiting for the offline status's acknowledgement.
    var stopDeadlineMs: Int64?
    /// `mosquitto_disconnect` was called during the stop.
    var isDisconnectRequested = false
    /// Passes over the socket that read it, each then setting TCP_QUICKACK
    /// (`MQTTClient.socketReadPasses`).
    var socketReadPasses = 0
    /// What the loop was last told to watch of a live socket (loop thread): handed
    /// out again while the socket and the wish to write are the same, so a turn makes
    /// no array of its own.
    var linkInterests: [LoopInterest] = []
    /// Readable passes in a row whose reads ended without the socket saying EAGAIN
    /// (loop thread): from `MQTTClient.readsBeforeDraining` on, a pass reads until it does.
    var undrainedReads = 0
    /// Packets the broker must answer (a QoS 1 or 2 PUBLISH, a probe), by message
    /// id, with when each went out (monotonic ms); at most
    /// `MQTTClient.maxAwaitedAnswers`. One unanswered for `MQTTClient.silentBrokerMs`
    /// means the broker stalled (`MQTTClient+Silence`).
    var awaitedAnswers: [Int32: Int64] = [:]
    /// When the last probe went out (monotonic ms).
    var lastProbeMs: Int64 = 0
}

/// What the helper thread connecting to a broker's name (`getaddrinfo` blocks) and
/// the loop's thread share, under `MQTTClient.resolverHandOff`: the one lock of an
/// `MQTTClient`, taken per connection attempt, never per message.
struct ResolverHandOff {
    /// What the helper's connection attempt returned, once it is done.
    var returnCode: Int32?
    /// A stop left the helper in its lookup: it destroys the handle itself when its connect returns.
    var isAbandoned = false
    /// What libmosquitto's log said of a failing TLS handshake, for the next reason
    /// (its log callback runs on the helper's thread during the helper's connect).
    var tlsFailure: MQTTTLSFailure?
}

/// One client handle's life, as the loop sees it.
enum MQTTLinkPhase: Equatable {
    /// Started; the first connection attempt is due.
    case idle
    /// A helper thread resolves the broker's name and starts the attempt; the loop
    /// leaves the handle alone until it is done.
    case resolving
    /// An attempt began at `attemptStartedMs` (connected once the CONNACK came).
    case linked(attemptStartedMs: Int64)
    /// Backing off after a failed attempt or a lost connection.
    case waitingToReconnect(untilMs: Int64)
    /// Waiting after a fatal error; the handle is recreated then.
    case waitingAfterFatal(untilMs: Int64)
    /// Stopped for good.
    case stopped
}

import ShellSupport

/// How the MQTT shell connects. The password is never logged or put in error text.
public struct MQTTSettings: Sendable {
    /// MQTT protocol version.
    public enum ProtocolVersion: Sendable {
        case v311
        case v5
    }

    /// The retained status topic: `offlinePayload` is the will (and is published on a
    /// clean stop), `onlinePayload` is published on every connect.
    public struct Status: Sendable {
        public var topic: String
        public var onlinePayload: [UInt8]
        public var offlinePayload: [UInt8]

        public init(topic: String, onlinePayload: String = "online", offlinePayload: String = "offline") {
            self.topic = topic
            self.onlinePayload = Array(onlinePayload.utf8)
            self.offlinePayload = Array(offlinePayload.utf8)
        }
    }

    /// TLS to the broker. Whenever it is set the connection is TLS, never plain.
    public struct TLS: Sendable, Equatable {
        /// The system's trust store (Debian's hashed certificate directory).
        public static let systemCADirectory = "/etc/ssl/certs"
        /// A CA bundle to verify the broker against; nil uses `caDirectory`.
        public var caFile: String?
        /// A hashed CA directory, used when there is no `caFile`.
        public var caDirectory: String
        /// Skips verifying the certificate and the host name (explicit opt-out only).
        public var insecure: Bool

        public init(caFile: String? = nil, caDirectory: String = TLS.systemCADirectory, insecure: Bool = false) {
            self.caFile = caFile
            self.caDirectory = caDirectory
            self.insecure = insecure
        }
    }

    public var host: String
    public var port: Int
    public var clientId: String
    public var username: String?
    public var password: String?
    /// TLS settings; nil for plain TCP.
    public var tls: TLS?
    public var protocolVersion: ProtocolVersion
    /// With `.v5`: when the broker refuses MQTT 5 (CONNACK "unsupported protocol
    /// version", or it closes the connection before any CONNACK, several times in a row
    /// before MQTT 5 ever worked), speak 3.1.1 from then on (reported once as
    /// `.disconnected`). For a protocol left to its default; an explicit one is obeyed.
    public var fallsBackToV311: Bool
    public var keepAliveSeconds: Int
    public var status: Status?
    /// QoS asked for every subscription, at most QoS 1 (`subscribedQoS`).
    public var subscriptionQoS: MQTTQoS
    /// The QoS actually subscribed with: never 2. libmosquitto keeps every incoming
    /// QoS 2 message until the broker's PUBREL, without limit over MQTT 3.1.1, so
    /// the shell never asks for QoS 2 and treats a QoS 2 PUBLISH (above any QoS it
    /// subscribed with) as a protocol violation that ends the connection.
    public var subscribedQoS: MQTTQoS { subscriptionQoS == .exactlyOnce ? .atLeastOnce : subscriptionQoS }
    /// First reconnect delay's ceiling; doubles per failed attempt up to
    /// `reconnectDelayMaxMs`, the upper half jittered (the one `Backoff`).
    public var reconnectDelayMinMs: Int
    public var reconnectDelayMaxMs: Int
    /// Delay before a client is recreated after a fatal error (doubles up to
    /// `maxFatalRetryDelayMs`, jittered).
    public var fatalRetryDelayMs: Int
    /// Seeds the jitter of both delays (a simulation passes its own, to replay it).
    public var jitterSeed = UInt64.random(in: 0...UInt64.max)
    /// The monotonic clock the client reads a connection's age, its silences and its
    /// reconnect waits on: it must be the clock of the loop that drives the client
    /// (`system`, or a test's simulated one).
    public var clock = BoardClock.system
    /// The longest wait before recreating a client.
    public static let maxFatalRetryDelayMs = 300_000
    /// How long one connection attempt (TCP, TLS, CONNECT → CONNACK) may take before
    /// it is abandoned, reported as `.disconnected` and retried with backoff.
    public var connectTimeoutMs: Int
    /// How long `stop()` waits for the broker to acknowledge the offline status.
    public var stopTimeoutMs: Int
    /// Bound on unacknowledged QoS>0 messages in flight (libmosquitto queues the rest).
    public var maxInflightMessages: Int
    /// Larger payloads are dropped unread (reported as `.payloadTooLarge`). With
    /// MQTT 5 the CONNECT also carries a Maximum Packet Size of this plus
    /// `packetOverheadBytes`, so the broker never sends more.
    public var maxPayloadBytes: Int
    /// Room for the topic, properties and headers in the Maximum Packet Size.
    public static let packetOverheadBytes = 4_096

    public init(
        host: String,
        port: Int = 1883,
        clientId: String,
        username: String? = nil,
        password: String? = nil,
        tls: TLS? = nil,
        protocolVersion: ProtocolVersion = .v311,
        fallsBackToV311: Bool = false,
        keepAliveSeconds: Int = 30,
        status: Status? = nil,
        subscriptionQoS: MQTTQoS = .atLeastOnce,
        reconnectDelayMinMs: Int = 500,
        reconnectDelayMaxMs: Int = 30_000,
        fatalRetryDelayMs: Int = 10_000,
        connectTimeoutMs: Int = 10_000,
        stopTimeoutMs: Int = 2_000,
        maxInflightMessages: Int = 20,
        maxPayloadBytes: Int = 64 * 1024
    ) {
        self.host = host
        self.port = port
        self.clientId = clientId
        self.username = username
        self.password = password
        self.tls = tls
        self.protocolVersion = protocolVersion
        self.fallsBackToV311 = fallsBackToV311
        self.keepAliveSeconds = keepAliveSeconds
        self.status = status
        self.subscriptionQoS = subscriptionQoS
        self.reconnectDelayMinMs = reconnectDelayMinMs
        self.reconnectDelayMaxMs = reconnectDelayMaxMs
        self.fatalRetryDelayMs = fatalRetryDelayMs
        self.connectTimeoutMs = connectTimeoutMs
        self.stopTimeoutMs = stopTimeoutMs
        self.maxInflightMessages = maxInflightMessages
        self.maxPayloadBytes = maxPayloadBytes
    }
}

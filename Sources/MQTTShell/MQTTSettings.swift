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
    public var keepAliveSeconds: Int
    public var status: Status?
    /// QoS used for every subscription.
    public var subscriptionQoS: MQTTQoS
    /// First reconnect delay; doubles per failed attempt up to `reconnectDelayMaxMs`.
    public var reconnectDelayMinMs: Int
    public var reconnectDelayMaxMs: Int
    /// Delay before a client is recreated after a fatal error (doubles up to the max).
    public var fatalRetryDelayMs: Int
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
        keepAliveSeconds: Int = 30,
        status: Status? = nil,
        subscriptionQoS: MQTTQoS = .atLeastOnce,
        reconnectDelayMinMs: Int = 500,
        reconnectDelayMaxMs: Int = 30_000,
        fatalRetryDelayMs: Int = 10_000,
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
        self.keepAliveSeconds = keepAliveSeconds
        self.status = status
        self.subscriptionQoS = subscriptionQoS
        self.reconnectDelayMinMs = reconnectDelayMinMs
        self.reconnectDelayMaxMs = reconnectDelayMaxMs
        self.fatalRetryDelayMs = fatalRetryDelayMs
        self.stopTimeoutMs = stopTimeoutMs
        self.maxInflightMessages = maxInflightMessages
        self.maxPayloadBytes = maxPayloadBytes
    }
}

/// The whole configuration of one bridge, as decoded and validated from the
/// homeowner's config file. Defaults live here, in one place.
public struct BridgeConfig: Sendable, Equatable {
    public var aivi: AiviSettings
    public var mqtt: MQTTSettings
    /// Where the bridge keeps what must survive a restart (dedupe memory).
    public var stateDirectory: String
    /// The read-only status endpoint (Webhook Widget protocol); nil when off.
    public var status: StatusSettings?
    public var timing: TimingSettings
    public var widgets: [WidgetConfig]
    /// Where the file named the settings that point at files or choose a
    /// source ("aivi.token_file", "mqtt.password_file", "state_dir", ...), so
    /// `check` can name the line of a file it cannot read.
    public var settingLocations: [String: SourceLocation] = [:]

    public init(
        aivi: AiviSettings = AiviSettings(),
        mqtt: MQTTSettings = MQTTSettings(),
        stateDirectory: String = "/var/lib/switchboard-bridge",
        status: StatusSettings? = nil,
        timing: TimingSettings = TimingSettings(),
        widgets: [WidgetConfig] = []
    ) {
        self.aivi = aivi
        self.mqtt = mqtt
        self.stateDirectory = stateDirectory
        self.status = status
        self.timing = timing
        self.widgets = widgets
    }

    /// Every action of every widget, with its widget's slug.
    public var allActions: [(slug: String, action: ActionConfig)] {
        widgets.flatMap { widget in widget.actions.map { (widget.slug, $0) } }
    }
}

/// How to reach the Aivi service.
public struct AiviSettings: Sendable, Equatable {
    /// Base URL of the API [assumed default per the contract].
    public var apiBaseURL: String = "https://api.getaivi.app"
    /// A file holding the API token (first line, trimmed).
    public var tokenFile: String?
    /// An environment variable holding the API token, instead of a file.
    public var tokenEnv: String?
    /// Path of the event stream on the API [assumed].
    public var eventsPath: String = "/events"
    /// An extra CA bundle for TLS; nil means the system store.
    public var caFile: String?

    public init() {}
}

/// How to reach the MQTT broker.
public struct MQTTSettings: Sendable, Equatable {
    /// How long the MQTT client lets the broker leave a packet unanswered before
    /// it drops the connection (`MQTTClient+Silence`): a broker that stalls for
    /// less passes on, late by up to this, what it was sent meanwhile (so the
    /// core holds a pulsed door this much longer than its travel time).
    public static let silentBrokerMs: Int64 = 3_000

    public var host: String = "127.0.0.1"
    public var port: Int = 1883
    public var clientId: String = "switchboard-bridge"
    public var username: String?
    public var passwordFile: String?
    /// TLS to the broker; nil for plain TCP.
    public var tls: MQTTTLSSettings?
    /// Retained `online`/`offline` of the bridge itself.
    public var statusTopic: String = "switchboard-bridge/status"
    /// nil (not in the file): MQTT 5, falling back to 3.1.1 when the broker refuses it.
    public var protocolVersion: MQTTProtocolVersion?
    public var keepaliveSeconds: Int = 30
    /// The base topic of zigbee2mqtt, used by the `zigbee2mqtt:` preset.
    public var zigbee2mqttBaseTopic: String = "zigbee2mqtt"
    /// Larger MQTT payloads are dropped unread (and, with MQTT 5, never sent by
    /// the broker): real device payloads are a few KiB at most.
    public var maxPayloadBytes: Int = MQTTSettings.defaultMaxPayloadBytes
    public static let defaultMaxPayloadBytes = 64 * 1024
    public static let maxPayloadBytesRange: ClosedRange<Int64> = 1_024...Int64(payloadBytesCeiling)
    /// The largest `max_payload_bytes`: what the daemon's inbox admits in one message.
    public static let payloadBytesCeiling = 8 * 1_024 * 1_024
    /// The daemon inbox's bound on queued MQTT topics and payloads, in bytes: one
    /// payload at the ceiling with the longest topic MQTT allows (65,535 bytes)
    /// always fits an empty inbox, so `max_payload_bytes` never admits a message
    /// the inbox would drop.
    public static let inboxMQTTByteBudget = payloadBytesCeiling + 65_535

    public init() {}
}

/// TLS settings of the MQTT connection. Any TLS setting means TLS: without a
/// `caFile` the system's trust store; the broker's certificate and host name
/// are verified unless `insecure` (explicit, and warned about loudly).
public struct MQTTTLSSettings: Sendable, Equatable {
    public var caFile: String?
    /// Skips verifying the broker's certificate and host name.
    public var insecure: Bool

    public init(caFile: String? = nil, insecure: Bool = false) {
        self.caFile = caFile
        self.insecure = insecure
    }

    /// Why `insecure` is dangerous, for `check` and the start-up log.
    public static let insecureWarning = "'insecure: true' in 'mqtt.tls': the broker's certificate and host name are NOT verified; "
        + "anyone on the network path can pose as the broker and read the MQTT password and commands"
}

/// The MQTT protocol version to speak.
public enum MQTTProtocolVersion: String, Sendable, Equatable {
    case v311 = "3.1.1"
    case v5 = "5"
}

/// Where the status endpoint listens.
public struct StatusSettings: Sendable, Equatable {
    /// `host:port`, e.g. `127.0.0.1:8787`.
    public var listen: String = "127.0.0.1:8787"
    /// Path of the Webhook Widget view.
    public var path: String = "/widget"
    /// `refresh` of the envelope, seconds (clamped to 300...86400 when served).
    public var refreshSeconds: Int = 300

    public init() {}
}

/// The bridge's timing decisions. Every number has a unit in its name.
public struct TimingSettings: Sendable, Equatable {
    /// How long a toggle press waits for the device's confirming state before
    /// the true state is published anyway. Always under the phone's 15 s.
    public var confirmTimeoutMs: Int64 = 5_000
    /// After MQTT (re)connects, how long to wait for retained states before the
    /// first publish when not every toggle is known yet.
    public var settleWindowMs: Int64 = 1_500
    /// First retry delay of a failed PATCH; doubles up to `publishRetryCapMs`.
    public var publishRetryInitialMs: Int64 = 500
    public var publishRetryCapMs: Int64 = 30_000
    /// Retry delay after a permanent 4xx answer (bad token, unknown widget).
    public var permanentErrorRetryMs: Int64 = 300_000
    /// How long after its expiry an event id is still remembered (at least
    /// `DedupeMemory.minMarginMs`, on top of the server clock's uncertainty).
    public var dedupeMarginMs: Int64 = 60_000
    /// Hard cap on remembered ids of repeat-safe actions; ids of actions not
    /// safe to repeat are never evicted (`DedupeMemory`).
    public var dedupeCapacity: Int = 4_096
    /// An event stream silent this long is dead (the service comments every 15 s).
    public var streamDeadAfterMs: Int64 = 45_000
    /// A button with an active topic answers its press when it turns active,
    /// or after this long (well under the phone's 5 s wait); 0 answers at once.
    public var buttonAnswerWindowMs: Int64 = 1_500
    /// On SIGTERM, how long a PATCH in flight may take before the bridge exits.
    public var stopGraceMs: Int64 = 3_000
    /// Politeness: PATCHes that only carry state changes start at least this
    /// long after the widget's previous PATCH (the latest content, one trailing
    /// PATCH per interval; the first change goes at once); an answer to a press
    /// is never delayed. 0 turns it off. A widget may set its own.
    public var minPublishIntervalMs: Int64 = 200
    /// The values `min_publish_interval_ms` accepts (0 = off, up to a minute).
    public static let minPublishIntervalMsRange: ClosedRange<Int64> = 0...60_000

    public init() {}
}

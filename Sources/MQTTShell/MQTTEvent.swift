import BridgeCore

/// What the MQTT shell reports to its owner.
public enum MQTTEvent: Sendable, Equatable {
    /// Connected (or reconnected) to the broker; subscriptions were re-sent and the
    /// online status published.
    case connected
    /// The connection was lost or an attempt failed; the shell retries with backoff.
    case disconnected(reason: String)
    /// An established connection ended (before the `.disconnected` that reports it):
    /// what the broker said, if anything.
    case dropped(MQTTDrop)
    /// A message arrived on a subscribed topic (payload copied).
    case message(MQTTMessage)
    /// A message larger than `maxPayloadBytes` arrived and was dropped uncopied.
    case payloadTooLarge(topic: String, byteCount: Int)
    /// A fatal error (authentication refused, TLS, DNS, protocol): the shell recreates
    /// its client after a delay and keeps trying; `reason` says why.
    case fatal(reason: String)
    /// The broker refused the connection (a wrong or missing login, most often): the
    /// shell recreates its client after `retryDelayMs` and keeps trying, as after `.fatal`.
    case refused(MQTTRefusal)
}

/// One received MQTT message, copied out of libmosquitto's buffers.
public struct MQTTMessage: Sendable, Equatable {
    public let topic: String
    public let payload: [UInt8]
    /// Whether the broker delivered it from its retained store.
    public let isRetained: Bool

    public init(topic: String, payload: [UInt8], isRetained: Bool) {
        self.topic = topic
        self.payload = payload
        self.isRetained = isRetained
    }
}

/// MQTT quality of service levels.
public enum MQTTQoS: Int32, Sendable {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2
}

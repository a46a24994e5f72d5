import CMosquitto

/// How an established connection ended, as far as the protocol says: MQTT 5
/// brokers end it with a DISCONNECT and a reason ("Session taken over" when
/// another client connected with this client id); MQTT 3.1.1 just closes the socket.
public struct MQTTDrop: Sendable, Equatable {
    /// MQTT 5 "Session taken over" (0x8E).
    public static let sessionTakenOverCode: Int32 = 0x8E

    /// The MQTT 5 DISCONNECT reason the broker gave, nil when it closed without one.
    public let brokerReasonCode: Int32?
    /// libmosquitto's text for that reason ("Session taken over").
    public let brokerReason: String?
    /// Whether the connection spoke MQTT 5, whose brokers say when a session is taken over.
    public let spokeMQTT5: Bool

    public init(brokerReasonCode: Int32?, brokerReason: String?, spokeMQTT5: Bool) {
        self.brokerReasonCode = brokerReasonCode
        self.brokerReason = brokerReason
        self.spokeMQTT5 = spokeMQTT5
    }

    /// Another client connected with this client id (only MQTT 5 can say so).
    public var isSessionTakenOver: Bool { brokerReasonCode == Self.sessionTakenOverCode }

    /// From libmosquitto's disconnect callback code: an MQTT 5 reason code (0x80 and
    /// up, the broker's DISCONNECT) or a `MOSQ_ERR_*` (the socket closed).
    static func from(callbackCode code: Int32, spokeMQTT5: Bool) -> MQTTDrop {
        guard spokeMQTT5, code >= 0x80, code <= 0xFF else {
            return MQTTDrop(brokerReasonCode: nil, brokerReason: nil, spokeMQTT5: spokeMQTT5)
        }
        return MQTTDrop(brokerReasonCode: code, brokerReason: mosquitto_reason_string(code).map { String(cString: $0) },
                        spokeMQTT5: true)
    }
}

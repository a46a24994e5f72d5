/// The broker answered the CONNECT with a refusal (its CONNACK's code), as the MQTT
/// shell reports it; `BrokerLoginRefusal` words it for the homeowner, naming the
/// login the bridge gave.
public struct MQTTRefusal: Sendable, Equatable {
    /// The CONNACK's return code (MQTT 3.1.1) or reason code (MQTT 5).
    public let code: Int32
    /// libmosquitto's text for the code ("Not authorized").
    public let brokerText: String
    /// Whether the connection spoke MQTT 5 (the code is a reason code).
    public let spokeMQTT5: Bool
    /// How long the shell waits before it tries again.
    public let retryDelayMs: Int

    public init(code: Int32, brokerText: String, spokeMQTT5: Bool, retryDelayMs: Int) {
        self.code = code
        self.brokerText = brokerText
        self.spokeMQTT5 = spokeMQTT5
        self.retryDelayMs = retryDelayMs
    }

    /// Whether the broker refused the login: a wrong or missing username or password.
    /// MQTT 3.1.1: 4 "bad user name or password", 5 "not authorized"; MQTT 5: 0x86,
    /// 0x87 and 0x8C "bad authentication method". Mosquitto 2 answers "not authorized"
    /// both to a wrong password and to no username where anonymous clients are refused.
    public var isAboutLogin: Bool {
        spokeMQTT5 ? [0x86, 0x87, 0x8C].contains(code) : [4, 5].contains(code)
    }

    /// The same refusal, with the shell's wait before it tries again.
    public func retrying(inMs delayMs: Int) -> MQTTRefusal {
        MQTTRefusal(code: code, brokerText: brokerText, spokeMQTT5: spokeMQTT5, retryDelayMs: delayMs)
    }
}

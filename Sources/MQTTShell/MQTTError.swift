import CMosquitto

/// A libmosquitto call failed; `message` is libmosquitto's own text for the code.
///
/// Never contains the password: only the operation name and `mosquitto_strerror` text.
public struct MQTTError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the shell was doing, e.g. `publish`.
    public let operation: String
    /// The libmosquitto return code (`MOSQ_ERR_*`), or -1 for the shell's own errors.
    public let code: Int32
    /// Human-readable reason.
    public let message: String

    public var description: String { "MQTT \(operation) failed: \(message)" }

    init(operation: String, code: Int32) {
        self.operation = operation
        self.code = code
        self.message = Self.text(forCode: code)
    }

    init(operation: String, message: String) {
        self.operation = operation
        self.code = -1
        self.message = message
    }

    /// Throws an `MQTTError` unless `code` is `MOSQ_ERR_SUCCESS`.
    static func check(_ code: Int32, _ operation: String) throws(MQTTError) {
        if code != MOSQ_ERR_SUCCESS.rawValue {
            throw MQTTError(operation: operation, code: code)
        }
    }

    /// libmosquitto's text for a return code.
    static func text(forCode code: Int32) -> String {
        guard let text = mosquitto_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The client is not connected right now, so nothing was sent.
    static func notConnected(_ operation: String) -> MQTTError {
        MQTTError(operation: operation, message: "not connected to the broker")
    }
}

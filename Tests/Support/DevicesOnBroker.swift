import MQTTShell

/// Test devices on a test broker, as one MQTT client: subscribed to the devices'
/// command topics, each message handed to the owner's `handle`, the commands a
/// device accepted recorded. `waitUntilReady` publishes a marker to itself and
/// waits for it: once it comes back, the subscriptions stand and everything the
/// owner published before it is stored. For `discover`'s end-to-end suites.
public final class DevicesOnBroker: @unchecked Sendable {
    public let client: MQTTClient
    /// (topic, payload) of every command a device accepted.
    public let accepted = Recorder<(topic: String, payload: String)>()
    private let ready = Recorder<String>()
    private static let readyTopic = "test/ready"

    /// Connects as `clientId`, subscribed to `subscriptions`; every other message
    /// goes to `handle` (with its payload as text), on the client's thread.
    public init(brokerPort: Int, clientId: String, subscriptions: [String],
                handle: @escaping @Sendable (_ topic: String, _ payload: String) -> Void) throws {
        let ready = ready
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: clientId)) { event in
            guard case .message(let message) = event else { return }
            let payload = String(decoding: message.payload, as: UTF8.self)
            if message.topic == Self.readyTopic { ready.append(payload) } else { handle(message.topic, payload) }
        }
        try client.setSubscriptions(subscriptions + [Self.readyTopic])
        try client.start()
        guard waitUntil(timeoutSeconds: 10, { client.isConnected }) else { throw TestSupportError("devices did not connect") }
    }

    /// Returns once the broker has delivered a marker back (or throws after 10 s).
    public func waitUntilReady() throws {
        publish(Self.readyTopic, "1", retain: false)
        guard waitUntil(timeoutSeconds: 10, { !ready.values.isEmpty }) else { throw TestSupportError("devices not subscribed") }
    }

    public func accept(_ topic: String, _ payload: String) { accepted.append((topic, payload)) }

    /// The payloads of the commands accepted on `topic`.
    public func acceptedCommands(on topic: String) -> [String] {
        accepted.values.filter { $0.topic == topic }.map(\.payload)
    }

    public func publish(_ topic: String, _ payload: String, retain: Bool) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: retain)
    }

    public func stop() { client.stop() }
}

import Foundation
import MQTTShell
import TestSupport

/// Shellies on their factory MQTT settings, as their firmwares behave: nothing retained
/// by a gen1 (its `retain` is off), so its relay is heard only when it changes or when
/// asked with `update`. Each device answers an accepted command with its new state, and
/// records it.
///
/// Sources: Shelly gen1 API docs "MQTT" (shelly-api-docs.shelly.cloud/gen1/#mqtt-support:
/// `shellies/command` takes `announce` and `update`; `shellies/<id>/relay/<n>` `on`/`off`,
/// `relay/<n>/command`).
final class FactoryShellies: @unchecked Sendable {
    let client: MQTTClient
    /// (topic, payload) of every command a device accepted.
    let accepted = Recorder<(topic: String, payload: String)>()
    /// Every `shellies/command` request heard.
    let requests = Recorder<String>()
    private let ready = Recorder<String>()

    static let gen1 = "shelly1"

    init(brokerPort: Int) throws {
        let box = Box()
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "factory-shellies-\(brokerPort)")) { event in
            box.devices?.handle(event)
        }
        box.devices = self
        try client.setSubscriptions([
            "shellies/command", "shellies/\(Self.gen1)/command", "shellies/\(Self.gen1)/relay/0/command", "test/ready",
        ])
        try client.start()
        guard waitUntil(timeoutSeconds: 10, { client.isConnected }) else { throw TestSupportError("devices did not connect") }
        publish("test/ready", "1")
        guard waitUntil(timeoutSeconds: 10, { !ready.values.isEmpty }) else { throw TestSupportError("devices not subscribed") }
    }

    final class Box: @unchecked Sendable { weak var devices: FactoryShellies? }

    func handle(_ event: MQTTEvent) {
        guard case .message(let message) = event else { return }
        let payload = String(decoding: message.payload, as: UTF8.self)
        switch message.topic {
        case "test/ready": ready.append(payload)
        case "shellies/command":
            requests.append(payload)
            if payload == "announce" {
                publish("shellies/announce", DiscoveryFixtures.shellyGen1Announce)
                publish("shellies/\(Self.gen1)/announce", DiscoveryFixtures.shellyGen1Announce)
            } else if payload == "update" {
                publishGen1Status()
            }
        case "shellies/\(Self.gen1)/command" where payload == "update":
            publishGen1Status()
        case "shellies/\(Self.gen1)/relay/0/command":
            guard payload == "on" || payload == "off" else { return }
            accept(message.topic, payload)
            gen1Relay = payload
            publishGen1Status()
        default: return
        }
    }

    /// The gen1 relay (read and written on the client's thread only).
    private var gen1Relay = "off"

    private func publishGen1Status() {
        publish("shellies/\(Self.gen1)/online", "true")
        publish("shellies/\(Self.gen1)/relay/0", gen1Relay)
        publish("shellies/\(Self.gen1)/relay/0/power", "0.00")
    }

    private func accept(_ topic: String, _ payload: String) { accepted.append((topic, payload)) }

    func acceptedCommands(on topic: String) -> [String] {
        accepted.values.filter { $0.topic == topic }.map(\.payload)
    }

    /// Never retained: the factory setting.
    func publish(_ topic: String, _ payload: String) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: false)
    }

    func stop() { client.stop() }
}

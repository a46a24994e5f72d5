import AiviSim
import BridgeCore
import Foundation
import MQTTShell
import Testing
import TestSupport

/// Two boards, one account: two bridges with different widgets on one
/// simulator and one broker both receive every press on the account's stream;
/// each carries out only its own widget's, says nothing above debug about the
/// other's, and never PATCHes the other's widget.
@Suite("Several boards, one account (real binaries)", .serialized)
struct SeveralBoardsTests {
    static let token = "shared-account-token"

    static func config(slug: String, device: String, brokerPort: Int, apiURL: String, stateDir: String) -> String {
        """
        aivi:
          api: \(apiURL)
          token_env: SB_TOKEN
        mqtt:
          host: 127.0.0.1
          port: \(brokerPort)
          client_id: bridge-\(slug)
          status_topic: boards/\(slug)/status
        state_dir: \(stateDir)
        timing:
          settle_window_ms: 300
          confirm_timeout_ms: 1500
        widgets:
          - slug: \(slug)
            actions:
              - id: light
                label: Light
                zigbee2mqtt: \(device)
        """
    }

    @Test func eachBridgeCarriesOutOnlyItsOwnWidgetsPresses() throws {
        let directory = try TemporaryDirectory(prefix: "boards")
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let simulator = try AiviSimulator.start(settings: SimSettings(token: Self.token, widgetSlugs: ["kitchen", "garden"]))
        defer { simulator.stop() }
        let lights = try EchoingLights(brokerPort: broker.port, names: ["kitchen_light", "garden_light"])
        defer { lights.stop() }
        var bridges: [String: ChildProcess] = [:]
        defer { bridges.values.forEach { $0.stop() } }
        for (slug, device) in [("kitchen", "kitchen_light"), ("garden", "garden_light")] {
            let path = directory.file("\(slug).yaml")
            try Self.config(slug: slug, device: device, brokerPort: broker.port, apiURL: simulator.baseURL,
                            stateDir: directory.file("state-\(slug)")).write(toFile: path, atomically: true, encoding: .utf8)
            bridges[slug] = try ChildProcess(
                executable: EndToEndHarness.bridgeExecutable, arguments: ["run", "--config", path, "--log-level", "info"],
                directory: directory.path, name: "bridge-\(slug)",
                environment: ["SB_TOKEN": Self.token, "PATH": "/usr/bin:/bin:/usr/sbin:/sbin"])
        }
        let kitchen = try #require(bridges["kitchen"])
        let garden = try #require(bridges["garden"])
        #expect(waitUntil(timeoutSeconds: 15) {
            !simulator.history(slug: "kitchen").isEmpty && !simulator.history(slug: "garden").isEmpty
        }, "kitchen: \(kitchen.stderr)\ngarden: \(garden.stderr)")

        let kitchenPress = try #require(simulator.press(phone: "phone-a", widget: "kitchen", action: "light").eventId)
        #expect(waitUntil(timeoutSeconds: 10) { simulator.tiles(phone: "phone-a", widget: "kitchen").first?.state == .on })
        let gardenPress = try #require(simulator.press(phone: "phone-b", widget: "garden", action: "light").eventId)
        #expect(waitUntil(timeoutSeconds: 10) { simulator.tiles(phone: "phone-b", widget: "garden").first?.state == .on })

        #expect(lights.commands(for: "kitchen_light") == [#"{"state":"ON"}"#])
        #expect(lights.commands(for: "garden_light") == [#"{"state":"ON"}"#])
        #expect(kitchen.stderr.contains("press \(kitchenPress)"))
        #expect(garden.stderr.contains("press \(gardenPress)"))
        #expect(!kitchen.stderr.contains(gardenPress) && !kitchen.stderr.contains("garden"),
                "the kitchen bridge said something about the garden above debug:\n\(kitchen.stderr)")
        #expect(!garden.stderr.contains(kitchenPress) && !garden.stderr.contains("kitchen"),
                "the garden bridge said something about the kitchen above debug:\n\(garden.stderr)")
        #expect(!kitchen.stderr.contains(" warning") && !garden.stderr.contains(" warning"),
                "kitchen:\n\(kitchen.stderr)\ngarden:\n\(garden.stderr)")
        #expect(kitchen.isRunning && garden.isRunning)
    }
}

/// zigbee2mqtt lights that answer every command with their new state.
final class EchoingLights: @unchecked Sendable {
    let client: MQTTClient
    let received = Recorder<(topic: String, payload: String)>()

    init(brokerPort: Int, names: [String]) throws {
        let holder = Holder()
        client = MQTTClient(settings: MQTTSettings(host: "127.0.0.1", port: brokerPort, clientId: "echoing-lights-\(brokerPort)")) { event in
            holder.lights?.handle(event)
        }
        holder.lights = self
        try client.setSubscriptions(Set(names.map { "zigbee2mqtt/\($0)/set" }))
        try client.start()
        guard waitUntil(timeoutSeconds: 10, { client.isConnected }) else { throw TestSupportError("lights did not connect") }
        for name in names {
            publish("zigbee2mqtt/\(name)", #"{"state":"OFF"}"#)
            publish("zigbee2mqtt/\(name)/availability", #"{"state":"online"}"#)
        }
    }

    final class Holder: @unchecked Sendable { weak var lights: EchoingLights? }

    func handle(_ event: MQTTEvent) {
        guard case .message(let message) = event else { return }
        let payload = String(decoding: message.payload, as: UTF8.self)
        received.append((message.topic, payload))
        let device = String(message.topic.dropLast("/set".count))
        publish(device, payload.contains("\"ON\"") ? #"{"state":"ON"}"# : #"{"state":"OFF"}"#)
    }

    func commands(for name: String) -> [String] {
        received.values.filter { $0.topic == "zigbee2mqtt/\(name)/set" }.map(\.payload)
    }

    func publish(_ topic: String, _ payload: String) {
        try? client.publish(topic: topic, payload: Array(payload.utf8), qos: .atLeastOnce, retain: true)
    }

    func stop() { client.stop() }
}

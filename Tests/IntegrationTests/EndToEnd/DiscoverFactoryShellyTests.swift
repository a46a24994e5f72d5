import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Issue 22 items 8 and 9: `discover` as a process against Shellies on their factory
/// MQTT settings (nothing retained, no announce script, no generic status update); the
/// file it writes passes `check` and, run by the daemon against the simulator, every
/// tile's press reaches its device, which confirms it.
@Suite(.serialized) struct DiscoverFactoryShellyTests {
    @Test func factoryShelliesAreDiscoveredAndDriven() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let world = try DiscoverRun(prefix: "discover-factory", brokerPort: broker.port, token: "discover-factory-token")
        defer { world.directory.remove() }
        let simulator = try world.startSimulator()
        defer { simulator.stop() }
        let devices = try FactoryShellies(brokerPort: broker.port)
        defer { devices.stop() }

        let discover = try world.discover(api: simulator.baseURL)
        #expect(discover.status == 0, "\(discover.stderr)")
        #expect(devices.requests.values.contains("update"), "discover never sent 'update' on shellies/command")
        let text = world.writtenConfig
        #expect(text.contains("shelly: \(FactoryShellies.gen1)\n"), "\(text)")
        #expect(text.contains("shelly_color: \(FactoryShellies.rgbw2)\n"), "\(text)")
        #expect(text.contains("shelly_plus_cct: \(FactoryShellies.cct)\n"), "\(text)")

        let check = try world.check()
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        let config = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config)
        let actions = config.widgets.flatMap(\.actions)
        #expect(actions.count == 3, "\(text)")

        let bridge = try world.run(against: simulator)
        defer { bridge.stop() }
        #expect(!simulator.history(slug: world.widget).isEmpty, "\(bridge.stderr)")
        let pressed = try actions.map { (id: $0.id, commandTopic: try #require($0.command?.topic)) }
        let failures = world.pressEach(pressed, on: simulator, bridge: bridge, accepted: devices.acceptedCommands(on:))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// `discover` as a process against a real broker holding announcements from all four
/// sources; `check` on its output unchanged; then the daemon on that output, against
/// the simulator, presses a tile of each source and the device accepts the command.
@Suite(.serialized) struct DiscoverEndToEndTests {
    @Test func discoverCheckAndRunDriveEveryDevice() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let world = try DiscoverRun(prefix: "discover-e2e", brokerPort: broker.port)
        defer { world.directory.remove() }
        let simulator = try world.startSimulator()
        defer { simulator.stop() }
        let devices = try DiscoverDevices(brokerPort: broker.port)
        defer { devices.stop() }

        let discover = try world.discover(api: simulator.baseURL, extra: ["--mqtt-host", "127.0.0.1"])
        #expect(discover.status == 0, "\(discover.stderr)")
        let text = world.writtenConfig

        let refused = try DiscoverRun.command(["discover", "--port", "\(broker.port)", "--seconds", "1", "--output", world.configPath],
                                              directory: world.directory, name: "discover-again")
        #expect(refused.status == 2 && refused.stderr.contains("refusing to overwrite"), "\(refused.stderr)")
        #expect(world.writtenConfig == text)

        let check = try world.check()
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")

        let config = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config)
        let actions = config.widgets.flatMap(\.actions)
        #expect(actions.count == 7, "\(text)")
        let expected: [(preset: String?, command: String)] = [
            ("zigbee2mqtt", "zigbee2mqtt/hall_switch/set"), ("tasmota", "cmnd/huzzah_1/POWER"), ("tasmota", "cmnd/terrasse/POWER"),
            ("shelly", "shellies/shelly1/relay/0/command"), ("shelly_plus", "\(DiscoverDevices.shellyPlus)/command/switch:0"),
            (nil, "garagedoor1/light/garage_esp_status_led/command"),
        ]
        for item in expected {
            #expect(actions.contains { $0.command?.topic == item.command && (item.preset == nil || $0.preset?.hasPrefix(item.preset!) == true) },
                    "no action commanding \(item.command) in\n\(text)")
        }
        #expect(!actions.contains { $0.label.contains("carbon") || $0.label.contains("Temperature") })

        let bridge = try world.run(against: simulator)
        defer { bridge.stop() }
        #expect(!simulator.history(slug: world.widget).isEmpty, "\(bridge.stderr)")
        let pressed = try actions.map { (id: $0.id, commandTopic: try #require($0.command?.topic)) }
        let failures = world.pressEach(pressed, on: simulator, bridge: bridge, accepted: devices.acceptedCommands(on:))
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

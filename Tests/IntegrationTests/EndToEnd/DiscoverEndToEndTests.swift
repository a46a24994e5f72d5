import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// `discover` as a process against a real broker holding announcements from all four
/// sources; `check` on its output unchanged; then the daemon on that output, against
/// the simulator, presses a tile of each source and the device accepts the command.
@Suite(.serialized) struct DiscoverEndToEndTests {
    static let token = "discover-e2e-token"
    static let widget = "home"

    @Test func discoverCheckAndRunDriveEveryDevice() throws {
        let directory = try TemporaryDirectory(prefix: "discover-e2e")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let simulator = try AiviSimulator.start(settings: SimSettings(token: Self.token, widgetSlugs: [Self.widget]), clock: SystemClock())
        defer { simulator.stop() }
        let devices = try DiscoverDevices(brokerPort: broker.port)
        defer { devices.stop() }

        let configPath = directory.file("bridge.yaml")
        let tokenPath = directory.file("aivi-token")
        let discover = try run(directory, "discover", [
            "discover", "--mqtt-host", "127.0.0.1", "--port", "\(broker.port)", "--seconds", "2", "--widget", Self.widget,
            "--output", configPath, "--token-file", tokenPath, "--api", simulator.baseURL, "--state-dir", directory.file("state"),
        ])
        #expect(discover.status == 0, "\(discover.stderr)")
        let text = try String(contentsOfFile: configPath, encoding: .utf8)

        let refused = try run(directory, "discover-again", ["discover", "--port", "\(broker.port)", "--seconds", "1", "--output", configPath])
        #expect(refused.status == 2 && refused.stderr.contains("refusing to overwrite"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: configPath, encoding: .utf8) == text)

        try "\(Self.token)\n".write(toFile: tokenPath, atomically: true, encoding: .utf8)
        chmod(tokenPath, 0o600)
        let check = try run(directory, "check", ["check", "--config", configPath])
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

        let bridge = try ChildProcess(
            executable: EndToEndHarness.bridgeExecutable, arguments: ["run", "--config", configPath, "--log-level", "debug"],
            directory: directory.path, name: "bridge", environment: ["PATH": "/usr/bin:/bin"])
        defer { bridge.stop() }
        #expect(waitUntil(timeoutSeconds: 15) { !simulator.history(slug: Self.widget).isEmpty || !bridge.isRunning }, "\(bridge.stderr)")

        for action in actions {
            let outcome = simulator.press(phone: "phone-a", widget: Self.widget, action: action.id)
            #expect(outcome.isAccepted, "press of \(action.id) refused")
            let topic = try #require(action.command?.topic)
            let accepted = waitUntil(timeoutSeconds: 10) { !devices.acceptedCommands(on: topic).isEmpty }
            #expect(accepted, "the device behind \(action.id) got no command it accepts on \(topic)\n\(bridge.stderr.suffix(3000))")
            let confirmed = waitUntil(timeoutSeconds: 10) { isOn(simulator, action.id) == true }
            #expect(confirmed, "\(action.id) was not confirmed on")
        }
    }

    private func isOn(_ simulator: AiviSimulator, _ action: String) -> Bool? {
        guard case .array(let actions)? = simulator.content(slug: Self.widget)?["actions"] else { return nil }
        return actions.first { $0["id"]?.stringValue == action }?["on"]?.boolValue
    }

    private func run(_ directory: TemporaryDirectory, _ name: String, _ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let process = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: arguments,
                                       directory: directory.path, name: name, environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 30)
        return (status, process.stdout, process.stderr)
    }
}

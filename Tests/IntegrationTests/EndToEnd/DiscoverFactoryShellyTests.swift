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
    static let token = "discover-factory-token"
    static let widget = "home"

    @Test func factoryShelliesAreDiscoveredAndDriven() throws {
        let directory = try TemporaryDirectory(prefix: "discover-factory")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let simulator = try AiviSimulator.start(settings: SimSettings(token: Self.token, widgetSlugs: [Self.widget]), clock: SystemClock())
        defer { simulator.stop() }
        let devices = try FactoryShellies(brokerPort: broker.port)
        defer { devices.stop() }

        let configPath = directory.file("bridge.yaml")
        let tokenPath = directory.file("aivi-token")
        let discover = try run(directory, "discover", [
            "discover", "--port", "\(broker.port)", "--seconds", "2", "--widget", Self.widget, "--output", configPath,
            "--token-file", tokenPath, "--api", simulator.baseURL, "--state-dir", directory.file("state"),
        ])
        #expect(discover.status == 0, "\(discover.stderr)")
        #expect(devices.requests.values.contains("update"), "discover never sent 'update' on shellies/command")
        let text = (try? String(contentsOfFile: configPath, encoding: .utf8)) ?? ""
        #expect(text.contains("shelly: \(FactoryShellies.gen1)\n"), "\(text)")
        #expect(text.contains("shelly_color: \(FactoryShellies.rgbw2)\n"), "\(text)")
        #expect(text.contains("shelly_plus_cct: \(FactoryShellies.cct)\n"), "\(text)")

        try "\(Self.token)\n".write(toFile: tokenPath, atomically: true, encoding: .utf8)
        chmod(tokenPath, 0o600)
        let check = try run(directory, "check", ["check", "--config", configPath])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        let config = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config)
        let actions = config.widgets.flatMap(\.actions)
        #expect(actions.count == 3, "\(text)")

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

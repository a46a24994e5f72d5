import BridgeCore
import Foundation
import Testing
import TestSupport

/// Follow-up of issue 20, item 3, against the real binary and a real broker:
/// `discover` on retained announcements of covers and locks writes them as
/// tiles, and `check` passes the file unchanged.
@Suite struct DiscoverCoversTests {
    @Test func discoverWritesCoversAndLocksThatCheckPasses() throws {
        let directory = try TemporaryDirectory(prefix: "discover-covers")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        for message in CoverAnnouncements.messages {
            try MosquittoCLI.publish(port: broker.port, topic: message.topic, payload: message.payload, retain: true, directory: directory)
        }
        let configPath = directory.file("bridge.yaml")
        let tokenPath = directory.file("aivi-token")
        let discover = try run(directory, "discover", [
            "discover", "--port", "\(broker.port)", "--seconds", "2", "--output", configPath, "--token-file", tokenPath,
            "--state-dir", directory.file("state"),
        ])
        #expect(discover.status == 0, "\(discover.stderr)")
        let text = try String(contentsOfFile: configPath, encoding: .utf8)
        for line in ["zigbee2mqtt_cover: living_blind", "zigbee2mqtt_lock: front_door", "esphome_cover: garagedoor1/garage_door",
                     "esphome_lock: hall/front_lock", "shelly_plus_cover: \(CoverAnnouncements.shellyPlus2PM)",
                     "shelly_roller: shellyswitch25-8CAAB5616291", "tasmota_shutter: living_blinds", "device: cover", "device: lock", "# allow_unlock: true"] {
            #expect(text.contains(line), "no '\(line)' in\n\(text)")
        }
        try "discover-covers-token\n".write(toFile: tokenPath, atomically: true, encoding: .utf8)
        chmod(tokenPath, 0o600)
        let check = try run(directory, "check", ["check", "--config", configPath])
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains("lock-only") || check.stdout.contains("only locks"), "\(check.stdout)")
    }

    private func run(_ directory: TemporaryDirectory, _ name: String, _ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let process = try ChildProcess(executable: EndToEndHarness.bridgeExecutable, arguments: arguments,
                                       directory: directory.path, name: name, environment: ["PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeoutSeconds: 30)
        return (status, process.stdout, process.stderr)
    }
}

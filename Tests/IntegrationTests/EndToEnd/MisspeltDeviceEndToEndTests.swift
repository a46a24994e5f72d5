import CoreTestSupport
import Foundation
import Testing
import TestSupport

/// Issue 22 item 4, against the real binary and a real mosquitto: a zigbee2mqtt name
/// misspelt in the config (`hal_switch` for zigbee2mqtt's `hall_switch`). `watch`
/// counts only the device's own topics (zigbee2mqtt's shared `bridge/state` is not the
/// device speaking), says "never heard from", and both `watch` and the running
/// bridge name the device zigbee2mqtt's retained `bridge/devices` lists a typo away.
@Suite("A misspelt zigbee2mqtt name: never heard from, with the near miss (real binary)", .serialized)
struct MisspeltDeviceEndToEndTests {
    static let nearMiss = "zigbee2mqtt/bridge/devices lists zigbee2mqtt/hall_switch (not zigbee2mqtt/hal_switch): "
        + "is the name in the config misspelt?"

    @Test func watchSaysNeverHeardFromAndNamesTheListedDevice() throws {
        let directory = try TemporaryDirectory(prefix: "misspelt-watch")
        defer { directory.remove() }
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let configPath = directory.file("bridge.yaml")
        try """
        aivi:
          token_env: NOT_NEEDED_BY_WATCH
        mqtt:
          host: 127.0.0.1
          port: \(broker.port)
        widgets:
          - slug: home
            actions:
              - id: hall
                label: Hall
                zigbee2mqtt: hal_switch
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
        // As zigbee2mqtt leaves them: its state and its device list, retained.
        try MosquittoCLI.publish(port: broker.port, topic: "zigbee2mqtt/bridge/state", payload: #"{"state":"online"}"#, retain: true, directory: directory)
        try MosquittoCLI.publish(port: broker.port, topic: "zigbee2mqtt/bridge/devices", payload: DiscoveryFixtures.zigbee2mqttDevices,
                                 retain: true, directory: directory)
        let watch = try ChildProcess(executable: EndToEndHarness.bridgeExecutable,
                                     arguments: ["watch", "--config", configPath, "--seconds", "2"],
                                     directory: directory.path, name: "watch", environment: ["PATH": "/usr/bin:/bin"])
        #expect(watch.waitForExit(timeoutSeconds: 30) == 0, "\(watch.stderr)")
        let lines = watch.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasSuffix(#"home/hall gateway zigbee2mqtt/bridge/state '{"state":"online"}' -> available"#) }, "\(watch.stdout)")
        let row = lines.first { $0.hasPrefix("home/hall ") } ?? ""
        #expect(row.hasPrefix("home/hall  unknown  0         never heard from; "), "\(watch.stdout)")
        #expect(row.hasSuffix(Self.nearMiss), "\(row)")
    }

    @Test func theRunningBridgeNamesTheListedDevice() throws {
        let world = try EndToEndHarness()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            + "\n      - id: hall\n        label: Hall\n        zigbee2mqtt: hal_switch\n"
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        // A small network: the list fits in the default max_payload_bytes.
        world.devices.publish("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttDevices, retain: true)
        try world.startBridge()
        #expect(world.waitForLog("'hall' (widget living-room) never heard from", timeoutSeconds: 20), "\(world.log)")
        let warning = world.log.split(separator: "\n").first { $0.contains("'hall' (widget living-room) never heard from") } ?? ""
        #expect(warning.hasSuffix(Self.nearMiss), "\(warning)")
        world.stopAll()
    }
}

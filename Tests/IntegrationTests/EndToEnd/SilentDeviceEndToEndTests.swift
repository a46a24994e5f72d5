import AiviSim
import Foundation
import Testing
import TestSupport

/// Issue 10 §2 against the real binary: once settled plus a grace, the bridge
/// names the silent action, its topics and the topic the broker has that
/// differs only by case (the near-miss look goes through the real MQTT shell).
@Suite("Never heard from: the real binary names a silent device", .serialized)
struct SilentDeviceEndToEndTests {
    @Test func aSilentDeviceIsNamedWithItsNearMiss() throws {
        let world = try EndToEndHarness()
        let config = try String(contentsOfFile: world.configPath, encoding: .utf8)
            + "\n      - id: kitchen\n        label: Kitchen\n        zigbee2mqtt: kitchen\n"
        try config.write(toFile: world.configPath, atomically: true, encoding: .utf8)
        // The device is really called "Kitchen" in zigbee2mqtt.
        world.devices.publish("zigbee2mqtt/Kitchen", #"{"state":"ON"}"#, retain: true)
        try world.startBridge()
        #expect(world.waitForLog("never heard from", timeoutSeconds: 20), "\(world.log)")
        let warning = world.log.split(separator: "\n").first { $0.contains("never heard from") }.map(String.init) ?? ""
        #expect(warning.contains("action 'kitchen' (widget living-room) never heard from: nothing on zigbee2mqtt/kitchen, zigbee2mqtt/kitchen/state since start"))
        #expect(warning.contains("the broker has zigbee2mqtt/Kitchen (not zigbee2mqtt/kitchen): topics are case-sensitive"))
        // Said once, and the rest of the bridge is unaffected: a press still works.
        _ = try world.press("porch")
        #expect(waitUntil(timeoutSeconds: 10) { world.tile("porch")?.state == .on })
        #expect(world.log.components(separatedBy: "never heard from").count == 2)
        world.stopAll()
    }
}

import BridgeCore
import CoreTestSupport
import Foundation
import Testing
import TestSupport

/// Follow-up of issue 20, item 3, against the real binary and a real broker:
/// `discover` on retained announcements of covers, locks and ESPHome fans writes
/// them as tiles, and `check` passes the file unchanged.
@Suite struct DiscoverCoversTests {
    @Test func discoverWritesCoversLocksAndFansThatCheckPasses() throws {
        let broker = try MosquittoBroker()
        defer { broker.stop() }
        let world = try DiscoverRun(prefix: "discover-covers", brokerPort: broker.port, token: "discover-covers-token")
        defer { world.directory.remove() }
        // ESPHome fans too (issue 20 section 6): a plain one and one with speeds, both switched on and off.
        let fans = [("homeassistant/fan/garagedoor1/garage_fan/config", DiscoveryFixtures.esphomeFan),
                    ("homeassistant/fan/garagedoor1/ceiling_fan/config", DiscoveryFixtures.esphomeSpeedFan)]
        for message in CoverAnnouncements.messages + fans.map({ (topic: $0.0, payload: $0.1) }) {
            try MosquittoCLI.publish(port: broker.port, topic: message.topic, payload: message.payload, retain: true, directory: world.directory)
        }
        let discover = try world.discover()
        #expect(discover.status == 0, "\(discover.stderr)")
        let text = world.writtenConfig
        for line in ["zigbee2mqtt_cover: living_blind", "zigbee2mqtt_lock: front_door", "esphome_cover: garagedoor1/garage_door",
                     "esphome_lock: hall/front_lock", "shelly_plus_cover: \(CoverAnnouncements.shellyPlus2PM)",
                     "shelly_roller: shellyswitch25-8CAAB5616291", "tasmota_shutter: living_blinds", "device: cover", "device: lock", "# allow_unlock: true",
                     "esphome_fan: garagedoor1/garage_fan", "esphome_fan: garagedoor1/ceiling_fan"] {
            #expect(text.contains(line), "no '\(line)' in\n\(text)")
        }
        let check = try world.check()
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains("lock-only") || check.stdout.contains("only locks"), "\(check.stdout)")
    }
}

import Testing
import TestSupport
@testable import BridgeCore

/// Follow-up of issue 20, item 3: `discover` writes covers and locks, and `check`
/// takes what it writes.
@Suite("discover: covers and locks")
struct CoverDiscoveryTests {
    static let text = discoveredConfig(CoverAnnouncements.messages.map { ($0.topic, $0.payload) })

    static func action(_ id: String) throws -> ActionConfig {
        let config = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config, "\(text)")
        return try #require(config.widgets.flatMap(\.actions).first { $0.id == id }, "no action '\(id)' in\n\(text)")
    }

    @Test func theWrittenConfigPassesCheck() {
        let result = ConfigLoader.load(text: Self.text, fileName: "bridge.yaml")
        #expect(result.errors.isEmpty, "\(result.rendered())\n\(Self.text)")
    }

    struct Expected: Sendable, CustomStringConvertible {
        var id: String
        var line: String
        var device: TileDevice
        var icon: String
        var commandTopic: String
        var description: String { id }
    }

    static let expected: [Expected] = [
        Expected(id: "living_blind", line: "zigbee2mqtt_cover: living_blind", device: .cover, icon: "blinds.horizontal.closed",
                 commandTopic: "zigbee2mqtt/living_blind/set"),
        Expected(id: "front_door", line: "zigbee2mqtt_lock: front_door", device: .lock, icon: "lock.fill", commandTopic: "zigbee2mqtt/front_door/set"),
        Expected(id: "double_curtain_left", line: "zigbee2mqtt_cover: double_curtain\n        channel: left", device: .cover,
                 icon: "blinds.horizontal.closed", commandTopic: "zigbee2mqtt/double_curtain/set"),
        Expected(id: "garage_door", line: "esphome_cover: garagedoor1/garage_door", device: .cover, icon: "door.garage.closed",
                 commandTopic: "garagedoor1/cover/garage_door/command"),
        Expected(id: "front_lock", line: "esphome_lock: hall/front_lock", device: .lock, icon: "lock.fill", commandTopic: "hall/lock/front_lock/command"),
        Expected(id: "shellyplus2pm_485519a1ff8c", line: "shelly_plus_cover: shellyplus2pm-485519a1ff8c", device: .cover,
                 icon: "blinds.horizontal.closed", commandTopic: "shellyplus2pm-485519a1ff8c/command/cover:0"),
        Expected(id: "shellyswitch25_8caab5616291", line: "shelly_roller: shellyswitch25-8CAAB5616291", device: .cover,
                 icon: "blinds.horizontal.closed", commandTopic: "shellies/shellyswitch25-8CAAB5616291/roller/0/command"),
        Expected(id: "blinds", line: "tasmota_shutter: living_blinds", device: .cover, icon: "blinds.horizontal.closed",
                 commandTopic: "cmnd/living_blinds/ShutterOpen1"),
        Expected(id: "yard_gate", line: "device: cover", device: .cover, icon: "door.garage.closed", commandTopic: "yard/gate/set"),
        Expected(id: "shed", line: "device: lock", device: .lock, icon: "lock.fill", commandTopic: "shed/lock/set"),
    ]

    @Test(arguments: expected)
    func eachCoverAndLockIsWrittenWithItsPreset(_ expected: Expected) throws {
        #expect(Self.text.contains(expected.line), "\(Self.text)")
        let action = try Self.action(expected.id)
        #expect(action.device == expected.device)
        #expect(action.icon == expected.icon)
        #expect(action.command?.topic == expected.commandTopic)
        #expect(action.allowUnlock == false)
    }

    @Test func locksComeOutLockOnlyWithAllowUnlockCommentedOut() {
        let blocks = Self.text.components(separatedBy: "\n\n")
        let locks = blocks.filter { $0.contains("zigbee2mqtt_lock:") || $0.contains("esphome_lock:") || $0.contains("device: lock") }
        #expect(locks.count == 3)
        for lock in locks { #expect(lock.contains("# allow_unlock: true"), "\(lock)") }
        #expect(!Self.text.contains("\n        allow_unlock"))
    }

    @Test func aCustomCoverReadsTheAnnouncedWordsAndPosition() throws {
        let gate = try Self.action("yard_gate")
        #expect(gate.command?.payloadOn == "go_open" && gate.command?.payloadOff == "go_close")
        #expect(Self.text.contains("opening_value: RISING") && Self.text.contains("closing_value: FALLING"))
        var harness = BridgeHarness(config: try #require(ConfigLoader.load(text: Self.text, fileName: "bridge.yaml").config))
        harness.connectAndSettle(states: [])
        let key = ActionKey(slug: "home", actionId: "yard_gate")
        harness.ackAll(harness.message("yard/gate", #"{"door":"FALLING","level":60}"#))
        #expect(harness.bridge.states[key]?.isOn == true && harness.bridge.states[key]?.motion == .towardOff)
        harness.ackAll(harness.message("yard/gate", #"{"door":"DOWN","level":0}"#))
        #expect(harness.bridge.states[key]?.isOn == false)
        let shed = try Self.action("shed")
        #expect(shed.command?.payloadOn == "close_bolt" && shed.command?.payloadOff == "open_bolt")
        #expect(Self.text.contains("jammed_value: stuck"))
    }

    @Test func aCoverThatReportsNothingIsSkippedAndSaid() {
        #expect(Self.text.contains("Home Assistant cover 'Awning'"), "\(Self.text)")
        #expect(Self.text.contains("a cover tile must show what the device reports"))
    }
}

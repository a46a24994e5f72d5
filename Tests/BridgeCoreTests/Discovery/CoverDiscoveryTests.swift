import Testing
import CoreTestSupport
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

    /// Leftover (d) of issue 20: a position range other than 0 to 100 (home-assistant.io
    /// source/_integrations/cover.mqtt.markdown: `position_closed`, default 0, and `position_open`,
    /// default 100; abbreviated `pos_clsd`/`pos_open`). The bridge reads a position as percent, 0
    /// closed, so such a position is left out and the tile stands on the cover's state words; a
    /// cover that reports only such a position is skipped with the reason. Issue 39 §3: the inverted range
    /// (`position_closed` 100, `position_open` 0) is read, with `invert_position: true`.
    @Test func aPositionRangeOtherThan0To100IsLeftOutOrTheCoverSkipped() throws {
        let inverted = #"{"name":"Loft Shutter","cmd_t":"loft/shutter/set","stat_t":"loft/shutter/state","pos_t":"loft/shutter/position","pos_clsd":100,"pos_open":0,"uniq_id":"loft_shutter_1"}"#
        let byteRange = #"{"name":"Patio Awning","cmd_t":"patio/awning/set","pos_t":"patio/awning/position","pos_clsd":0,"pos_open":255,"uniq_id":"patio_awning_1"}"#
        let text = discoveredConfig([("homeassistant/cover/loft_shutter/config", inverted), ("homeassistant/cover/patio_awning/config", byteRange)])
        let config = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config, "\(text)")
        let shutter = try #require(config.widgets.flatMap(\.actions).first { $0.id == "loft_shutter" }, "\(text)")
        #expect(shutter.stateSources.map(\.topic) == ["loft/shutter/state", "loft/shutter/position"], "\(shutter.stateSources)")
        #expect(shutter.stateSources.last?.isInverted == true)
        #expect(text.contains("invert_position: true   # announced position_closed 100, position_open 0: 100 is closed, 0 fully open"), "\(text)")
        #expect(text.contains("Home Assistant cover 'Patio Awning'"))
        #expect(text.contains("its position runs from 0 to 255 (position_closed to position_open), not 0 to 100, and a position is all it reports"), "\(text)")
        // The tile never shows the shutter closed from a position: it is closed when its state says so.
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle(states: [("loft/shutter/state", "open")])
        let key = ActionKey(slug: "home", actionId: "loft_shutter")
        harness.ackAll(harness.message("loft/shutter/state", "closed"))
        #expect(harness.bridge.states[key]?.isOn == false)
        harness.ackAll(harness.message("loft/shutter/position", "0"))   // inverted: 0 is fully open
        #expect(harness.bridge.states[key]?.isOn == true)
        harness.ackAll(harness.message("loft/shutter/position", "100"))
        #expect(harness.bridge.states[key]?.isOn == false)
    }

    /// Issue 39 §3: a Tasmota shutter announced with ShutterInvert 1 (`sho` bit 0) is written with
    /// `invert_position: true` and says why; issue 39 §2: Nuki Hub's lock announcement (technyon/nuki_hub
    /// src/HomeAssistantDiscovery.cpp publishHASSDeviceConfig) keeps its unlatch words and, with
    /// `avty_mode: all`, both availability topics.
    @Test func invertedShuttersAndNukiHubLocksAreWrittenAsAnnounced() throws {
        let inverted = CoverAnnouncements.tasmotaShutter.replacing(#""sho":[0]"#, with: #""sho":[1]"#)
        let nuki = #"{"dev":{"ids":["nuki_3a1b2c"],"mf":"Nuki","mdl":"SmartLock","name":"Front"},"~":"nuki/lock","name":null,"unique_id":"3a1b2c_lock","cmd_t":"~/action","avty":[{"t":"nuki/maintenance/mqttConnectionState"},{"t":"nuki/lock/availability"}],"avty_mode":"all","pl_lock":"lock","pl_unlk":"unlock","pl_open":"unlatch","stat_t":"~/hastate","stat_jam":"jammed","stat_locked":"locked","stat_locking":"locking","stat_unlocked":"unlocked","stat_unlocking":"unlocking","stat_open":"open","stat_opening":"opening","opt":"false"}"#
        let text = discoveredConfig([("tasmota/discovery/8CAAB5614B98/config", inverted), ("homeassistant/lock/3a1b2c/smartlock/config", nuki)])
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.errors.isEmpty, "\(result.rendered())\n\(text)")
        #expect(text.contains("invert_position: true   # Tasmota announces ShutterInvert 1 (`sho` bit 0): 100 is closed, 0 fully open"), "\(text)")
        #expect(text.contains("unlatched_value: open") && text.contains("unlatching_value: opening"), "\(text)")
        #expect(text.contains("availability_topic: ['nuki/lock/availability', 'nuki/maintenance/mqttConnectionState']   # both must say online"),
                "\(text)")
        #expect(text.contains("jammed_value: jammed"))
        let config = try #require(result.config)
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle(states: [])
        let lock = try #require(config.widgets.flatMap(\.actions).first { $0.device == .lock })
        let key = ActionKey(slug: "home", actionId: lock.id)
        harness.ackAll(harness.message("nuki/lock/hastate", "locked"))
        #expect(harness.bridge.states[key]?.publishedOn == true)
        harness.ackAll(harness.message("nuki/lock/hastate", "open"))
        #expect(harness.bridge.states[key]?.isOn == false)
        harness.ackAll(harness.message("nuki/lock/hastate", "locked"))
        harness.ackAll(harness.message("nuki/lock/availability", "online"))
        harness.ackAll(harness.message("nuki/maintenance/mqttConnectionState", "offline"))   // Nuki Hub's last will
        #expect(harness.bridge.states[key]?.publishedOn == false)
        harness.ackAll(harness.message("nuki/maintenance/mqttConnectionState", "online"))
        #expect(harness.bridge.states[key]?.publishedOn == true)
    }

    @Test func aCoverThatReportsNothingIsSkippedAndSaid() {
        #expect(Self.text.contains("Home Assistant cover 'Awning'"), "\(Self.text)")
        #expect(Self.text.contains("a cover tile must show what the device reports"))
    }
}

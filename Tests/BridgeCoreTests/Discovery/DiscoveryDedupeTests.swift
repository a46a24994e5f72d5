import Testing
import CoreTestSupport
@testable import BridgeCore

@Suite struct DiscoveryDedupeTests {
    /// The Tasmota legacy Home Assistant copy, made to name the same device as the native
    /// announcement of `tasmotaSingleRelay` (ids = last six of its MAC, its topic).
    static let homeAssistantCopyOfTheHuzzah = DiscoveryFixtures.tasmotaLegacyHomeAssistant
        .replacingAll("35EBF6", with: "B3C4D5").replacingAll("EZPlug_B3C4D5", with: "huzzah_1")

    @Test func theFirmwaresOwnAnnouncementWinsOverTheHomeAssistantCopy() {
        let result = discover([
            ("homeassistant/switch/B3C4D5_RL_1/config", Self.homeAssistantCopyOfTheHuzzah),
            ("tasmota/discovery/A4CF12B3C4D5/config", DiscoveryFixtures.tasmotaSingleRelay),
        ])
        #expect(result.toggles.map(\.source) == [.tasmota])
    }

    @Test func homeAssistantCopiesOfNativeDevicesAreNotListedAsSkippedEither() {
        let result = discover([
            ("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttDevices),
            ("homeassistant/binary_sensor/0x00158d000205d552/carbon_monoxide/config", DiscoveryFixtures.zigbee2mqttHomeAssistantCopy),
        ])
        #expect(!result.skipped.contains { $0.what.hasPrefix("Home Assistant") })
    }

    @Test func theSameEntityAnnouncedTwiceIsOneAction() {
        let result = discover([
            ("homeassistant/switch/irrigation/config", DiscoveryFixtures.haAbbreviatedSwitch),
            ("homeassistant/switch/node/irrigation/config", DiscoveryFixtures.haAbbreviatedSwitch),
        ])
        #expect(result.toggles.count == 1)
    }

    @Test func theSameAnnouncementsGiveTheSameFileInAnyOrder() {
        let forward = discoveredConfig(allSourcesMessages)
        #expect(discoveredConfig(allSourcesMessages.reversed()) == forward)
        var shuffled = allSourcesMessages
        var generator = SplitMix64(seed: 7)
        shuffled.shuffle(using: &generator)
        #expect(discoveredConfig(shuffled) == forward)
    }

    @Test func idsAreValidAndUniqueAndACrowdedWidgetSaysSo() {
        var makeIds = ActionIdMaker()
        #expect(["Hall light", "Hall light", "Hall-light!", "42 lamp", "☃"].map { makeIds.make(from: $0) }
                == ["hall_light", "hall_light_2", "hall_light_3", "d_42_lamp", "device"])
        var messages: [(String, String)] = []
        for index in 1...9 {
            messages.append(("homeassistant/switch/s\(index)/config", #"{"name":"Socket \#(index)","cmd_t":"s\#(index)/set","stat_t":"s\#(index)/state"}"#))
        }
        let text = discoveredConfig(messages)
        #expect(text.contains("# 9 actions: more than a Switchboard shows well"))
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").config?.widgets.first?.actions.count == 9)
    }

    @Test func nothingHeardIsEmpty() {
        let result = discover([("some/other/topic", "x")])
        #expect(result.isEmpty && result.heard.isEmpty)
    }
}

import Testing
import CoreTestSupport
@testable import BridgeCore

@Suite struct Zigbee2MQTTDiscoveryTests {
    @Test func aTwoGangSwitchGivesOnePresetTogglePerEndpoint() {
        let result = discover([("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttDevices)])
        #expect(result.toggles.map(\.label) == ["hall_switch L1", "hall_switch L2"])
        #expect(result.toggles.map(\.wiring.command.payloadOn) == [#"{"state_l1":"ON"}"#, #"{"state_l2":"ON"}"#])
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        #expect(text.contains("zigbee2mqtt: hall_switch\n        channel: l1"))
        #expect(text.contains("zigbee2mqtt: hall_switch\n        channel: l2"))
        // The coordinator is left out silently; the CO sensor is listed with why.
        #expect(!text.contains("Coordinator"))
        #expect(result.skipped == [SkippedThing(
            what: "zigbee2mqtt device '0x00158d000205d552' (Feibit SCA01ZB)",
            reason: "no switch or light to toggle (exposes carbon_monoxide, battery_low, battery)")])
    }

    @Test func aDeviceNeverRenamedIsLabelledByVendorAndModel() {
        let unnamed = DiscoveryFixtures.zigbee2mqttDevices.replacingAll(#""friendly_name":"hall_switch""#, with: #""friendly_name":"0x5c0272fffec89ec2""#)
        let result = discover([("zigbee2mqtt/bridge/devices", unnamed)])
        #expect(result.toggles.map(\.label) == ["Lonsonho QS-Zigbee-S04-2C-LN L1", "Lonsonho QS-Zigbee-S04-2C-LN L2"])
        // The preset still names the device by its IEEE address, quoted so YAML keeps it text.
        #expect(DiscoveredConfigWriter.text(result, options: DiscoveryOptions()).contains("zigbee2mqtt: '0x5c0272fffec89ec2'\n"))
    }

    @Test func aLightIsALightAndADisabledDeviceIsListed() {
        let result = discover([("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttLight)])
        #expect(result.toggles.map(\.label) == ["my_bulb"])
        #expect(result.toggles.first?.kind == .light)
        #expect(result.skipped.contains(SkippedThing(what: "zigbee2mqtt device 'my_plug'", reason: "disabled in zigbee2mqtt")))
    }

    @Test func aStateThatCannotBeSetIsNotAToggle() throws {
        // access 5 = published and /get, not /set (exposes.md, "Access").
        let readOnly = DiscoveryFixtures.zigbee2mqttLight.replacingAll(#""value_toggle":"TOGGLE","access":7"#, with: #""value_toggle":"TOGGLE","access":5"#)
        let result = discover([("zigbee2mqtt/bridge/devices", readOnly)])
        #expect(result.toggles.isEmpty)
        #expect(result.skipped.contains { $0.what.contains("my_bulb") })
    }

    @Test func aBaseTopicWithSlashesIsFoundAndWrittenForThePreset() {
        let text = discoveredConfig([
            ("home/zigbee/bridge/info", #"{"version":"1.35.0"}"#),
            ("home/zigbee/bridge/devices", DiscoveryFixtures.zigbee2mqttLight),
        ])
        #expect(text.contains("  zigbee2mqtt_base_topic: home/zigbee\n"))
        #expect(text.contains("zigbee2mqtt: my_bulb\n"))
        #expect(text.contains("(zigbee2mqtt 1.35.0)"))
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").config?.widgets.first?.actions.first?.command?.topic == "home/zigbee/my_bulb/set")
    }

    /// Issue 22 item 7: with `homeassistant: true` a group of lights and switches was two
    /// active tiles commanding one group (its light and switch copies) plus a commented third.
    @Test(arguments: [true, false])
    func aGroupAnnouncedAsLightAndSwitchComesOutOnceCommented(withBridgeGroups: Bool) {
        let copies = [
            ("homeassistant/light/1221051039810110150109113116116_9/light/config", DiscoveryFixtures.zigbee2mqttGroupLightCopy),
            ("homeassistant/switch/1221051039810110150109113116116_9/switch/config", DiscoveryFixtures.zigbee2mqttGroupSwitchCopy),
        ]
        let groups = withBridgeGroups ? [("zigbee2mqtt/bridge/groups", DiscoveryFixtures.zigbee2mqttGroupNine)] : []
        let result = discover([("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttLight)] + groups + copies)
        let group = "zigbee2mqtt/ha_discovery_group/set"
        #expect(!result.toggles.contains { $0.wiring.command.topic == group })
        #expect(result.extras.filter { $0.wiring.command.topic == group }.count == 1)
        #expect(result.extras.first?.source == (withBridgeGroups ? .zigbee2mqtt : .homeAssistant))
        let text = DiscoveredConfigWriter.text(result, options: DiscoveryOptions())
        // One commented group, beside the commented all_off scene of issue 21.
        #expect(text.ranges(of: "      #- id: ").count - text.ranges(of: "      #- id: all_off").count == 1, "\(text)")
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").config?.widgets.first?.actions.map(\.id) == ["my_bulb"])
    }

    /// Issue 22 item 10: a device whose light became a tile had nothing said about its other parts.
    @Test func aDeviceWithALightAndAFanGivesTheLightAndSaysTheFan() {
        let result = discover([("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttFanAndLight)])
        #expect(result.toggles.map(\.label) == ["ceiling_fan"])
        #expect(result.skipped == [SkippedThing(what: "zigbee2mqtt device 'ceiling_fan' (Hampton Bay 99432), its fan",
                                                reason: "a fan: not an on/off toggle (its lights and switches are actions)")])
    }

    @Test func groupsAreOptionalExtrasCommentedOut() {
        let text = discoveredConfig([
            ("zigbee2mqtt/bridge/devices", DiscoveryFixtures.zigbee2mqttLight),
            ("zigbee2mqtt/bridge/groups", DiscoveryFixtures.zigbee2mqttGroups),
        ])
        #expect(text.contains("      #- id: my_group\n      #  label: my_group\n"))
        #expect(text.contains("      #  zigbee2mqtt: my_group\n"))
        let config = ConfigLoader.load(text: text, fileName: "b.yaml").config
        #expect(config?.widgets.first?.actions.map(\.id) == ["my_bulb"])
    }
}

import Testing
import CoreTestSupport
@testable import BridgeCore

@Suite struct HomeAssistantDiscoveryTests {
    @Test func aJSONLightWithoutAPresetIsSpelledOut() {
        let text = discoveredConfig([("homeassistant/light/kitchen/config", DiscoveryFixtures.haAbbreviatedJSONLight)])
        #expect(text.contains("        payload_on: '{\"state\":\"ON\"}'\n"))
        #expect(text.contains("        state_field: state\n"))
        #expect(text.contains("        optimistic: true") == false)
    }

    @Test func abbreviationsAndTheBaseTopicAreExpanded() {
        let result = discover([("homeassistant/switch/irrigation/config", DiscoveryFixtures.haAbbreviatedSwitch)])
        let wiring = result.toggles.first?.wiring
        #expect(wiring?.command == ToggleCommand(topic: "homeassistant/switch/irrigation/set", payloadOn: "ON", payloadOff: "OFF"))
        #expect(wiring?.stateSources == [StateSource(topic: "homeassistant/switch/irrigation/state", field: nil, onValue: "ON", offValue: "OFF")])
        #expect(result.toggles.first?.label == "garden")
    }

    @Test func anESPHomeSwitchAndJSONLightAreTheESPHomePresets() {
        let text = discoveredConfig([
            ("homeassistant/switch/garagedoor1/garage_relay/config", DiscoveryFixtures.esphomeSwitch),
            ("homeassistant/light/garagedoor1/garage_esp_status_led/config", DiscoveryFixtures.esphomeJSONLight),
            ("homeassistant/sensor/garagedoor1/garage_temperature/config", DiscoveryFixtures.esphomeSensor),
        ])
        #expect(text.contains("        esphome: garagedoor1/garage_relay\n"))
        #expect(text.contains("        esphome_light: garagedoor1/garage_esp_status_led\n"))
        #expect(text.contains("#   Home Assistant sensor 'Garage Temperature'"))
        #expect(ConfigLoader.load(text: text, fileName: "b.yaml").errors.isEmpty)
    }

    /// Issue 20 section 6: ESPHome fans are tiles, switched on and off (`esphome_fan`), whatever
    /// speeds they have; a fan whose power goes through a command template is skipped and said.
    @Test func anESPHomeFanIsTheESPHomeFanPreset() throws {
        let announcements = [
            ("homeassistant/fan/garagedoor1/garage_fan/config", DiscoveryFixtures.esphomeFan),
            ("homeassistant/fan/garagedoor1/ceiling_fan/config", DiscoveryFixtures.esphomeSpeedFan),
            ("homeassistant/fan/attic_fan/config", DiscoveryFixtures.templatedFan),
        ]
        let text = discoveredConfig(announcements)
        #expect(text.contains("        esphome_fan: garagedoor1/garage_fan\n"), "\(text)")
        #expect(text.contains("        esphome_fan: garagedoor1/ceiling_fan\n"), "\(text)")
        #expect(text.contains("#   Home Assistant fan 'Attic Fan'") && text.contains("uses command_template, which is not translated"), "\(text)")
        let config = try #require(ConfigLoader.load(text: text, fileName: "b.yaml").config, "\(text)")
        let fans = config.widgets.flatMap(\.actions).filter { $0.id.hasSuffix("_fan") }
        #expect(fans.map(\.icon) == ["fan.fill", "fan.fill"])
        #expect(fans.compactMap { $0.command?.topic }.sorted() == ["garagedoor1/fan/ceiling_fan/command", "garagedoor1/fan/garage_fan/command"])
        #expect(fans.map(\.device) == [.plainSwitch, .plainSwitch])
    }

    @Test func aValueTemplatePathBecomesTheStateField() {
        let result = discover([("homeassistant/switch/35EBF6_RL_1/config", DiscoveryFixtures.tasmotaLegacyHomeAssistant)])
        let wiring = result.toggles.first?.wiring
        #expect(wiring?.stateSources.first?.field == ["POWER1"])
        #expect(wiring?.availability == AvailabilitySource(topic: "tele/EZPlug_35EBF6/LWT", availableValue: "Online", unavailableValue: "Offline"))
    }

    @Test func theDeviceFormSharesRootOptionsWithItsComponents() {
        let result = discover([("homeassistant/device/ea334450945afc/config", DiscoveryFixtures.haDeviceDiscovery)])
        #expect(result.toggles.map(\.label) == ["Kettle"])
        #expect(result.toggles.first?.wiring.stateSources == [StateSource(topic: "sensorBedroom/state", field: ["power"], onValue: "ON", offValue: "OFF")])
        #expect(result.toggles.first?.origin.hasPrefix("Bla electronics xya (bla2mqtt)") == true)
        #expect(result.skipped.map(\.reason) == ["a sensor: only switches, lights, fans, covers and locks become toggles"])
    }

    @Test(arguments: [
        ("{{ value }}", HomeAssistantValueTemplate.rawPayload),
        ("{{value_json.POWER1}}", .field(["POWER1"])),
        ("{{ value_json.a.b }}", .field(["a", "b"])),
        ("{{ value_json['state'] }}", .field(["state"])),
        (#"{{ value_json["a"].b }}"#, .field(["a", "b"])),
    ])
    func translatedTemplates(_ template: String, _ expected: HomeAssistantValueTemplate) throws {
        #expect(try HomeAssistantValueTemplate.parse(template).get() == expected)
    }

    @Test(arguments: [
        "{{ value_json.state | lower }}", "{% if value_json.on %}ON{% endif %}", "{{ 'ON' if value_json.output else 'OFF' }}",
        "{{ value_json[0] }}", "value_json.state", "{{ value_json.a }} {{ value }}",
    ])
    func refusedTemplates(_ template: String) {
        #expect(throws: TemplateRefusal.self) { try HomeAssistantValueTemplate.parse(template).get() }
    }

    @Test func anUntranslatableTemplateIsSkippedWithWhy() {
        let payload = #"{"name":"Plug","stat_t":"plug/state","cmd_t":"plug/set","val_tpl":"{{ value_json.POWER | upper }}"}"#
        let result = discover([("homeassistant/switch/plug/config", payload)])
        #expect(result.toggles.isEmpty)
        #expect(result.skipped.first?.reason.contains("filters") == true)
    }

    @Test func ofSeveralAvailabilityTopicsTheLastIsFollowedAndTheCommentSaysSo() {
        let payload = #"{"name":"Lamp","stat_t":"z/lamp","cmd_t":"z/lamp/set","avty_mode":"all","avty":[{"t":"z/bridge/state"},{"t":"z/lamp/availability","val_tpl":"{{ value_json.state }}"}]}"#
        let toggle = discover([("homeassistant/light/lamp/config", payload)]).toggles.first
        #expect(toggle?.wiring.availability == AvailabilitySource(topic: "z/lamp/availability", field: ["state"], availableValue: "online", unavailableValue: "offline"))
        #expect(toggle?.origin.contains("availability: only z/lamp/availability of 2 topics (mode all)") == true)
    }

    /// Issue 22 item 10: OpenMQTTGateway's `+/+` state topic was refused for its value
    /// template (`| is_defined`); the reason is the wildcard, with the gateway's own topic.
    @Test func anOpenMQTTGatewayWildcardStateTopicIsTheReasonGiven() {
        let result = discover([("homeassistant/switch/C1D2E3F4A5B6-state/config", DiscoveryFixtures.openMQTTGatewayBot)])
        #expect(result.toggles.isEmpty)
        let reason = result.skipped.first?.reason ?? ""
        #expect(reason.contains("'+/+/BTtoMQTT/C1D2E3F4A5B6' matches every gateway"), "\(reason)")
        #expect(reason.contains("state_topic: home/OMG_ESP32_BLE/BTtoMQTT/C1D2E3F4A5B6"), "\(reason)")
        #expect(!reason.contains("template"), "\(reason)")
        // Any other wildcard is said plainly.
        let other = discover([("homeassistant/switch/x/config", #"{"name":"x","stat_t":"a/#","cmd_t":"a/set"}"#)])
        #expect(other.skipped.first?.reason.hasPrefix("its state topic 'a/#' is a wildcard") == true, "\(other.skipped)")
    }
}

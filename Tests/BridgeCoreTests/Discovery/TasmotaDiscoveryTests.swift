import Testing
import CoreTestSupport
@testable import BridgeCore

@Suite struct TasmotaDiscoveryTests {
    @Test func aSingleRelayWithTheDefaultFullTopicIsThePreset() {
        let result = discover([("tasmota/discovery/A4CF12B3C4D5/config", DiscoveryFixtures.tasmotaSingleRelay)])
        #expect(result.toggles.map(\.label) == ["Tasmota"])
        let wiring = result.toggles[0].wiring
        #expect(wiring.command == ToggleCommand(topic: "cmnd/huzzah_1/POWER", payloadOn: "ON", payloadOff: "OFF"))
        #expect(wiring.availability == AvailabilitySource(topic: "tele/huzzah_1/LWT", availableValue: "Online", unavailableValue: "Offline"))
        #expect(PresetMatcher.preset(for: result.toggles[0], zigbee2mqttBase: "zigbee2mqtt") == PresetChoice(preset: .tasmota, name: "huzzah_1"))
        #expect(result.toggles[0].deviceKeys == ["mac:A4CF12B3C4D5", "mac6:B3C4D5"])
    }

    @Test func aCustomFullTopicIsThePresetsFullTopicOptionPerRelayLabelledByFriendlyName() {
        let text = discoveredConfig([("tasmota/discovery/00000049A3BC/config", DiscoveryFixtures.tasmotaTwoRelaysCustomFullTopic)])
        #expect(text.contains("        tasmota: tasmota_49A3BC\n        channel: 1\n        full_topic: '%topic%/%prefix%/'\n"))
        let config = ConfigLoader.load(text: text, fileName: "b.yaml").config
        let actions = config?.widgets.first?.actions ?? []
        #expect(actions.map(\.label) == ["Beer", "Test"])
        let test = actions.first { $0.label == "Test" }
        #expect(test?.command?.topic == "tasmota_49A3BC/cmnd/POWER1")
        #expect(test?.stateSources.contains { $0.topic == "tasmota_49A3BC/stat/POWER1" } == true)
        #expect(test?.availability?.topic == "tasmota_49A3BC/tele/LWT")
        #expect(actions.first { $0.label == "Beer" }?.command?.topic == "tasmota_49A3BC/cmnd/POWER2")
    }

    @Test func setOption30MakesRelaysLights() {
        let lights = DiscoveryFixtures.tasmotaSingleRelay.replacingAll(#""30":0"#, with: #""30":1"#)
        #expect(discover([("tasmota/discovery/A4CF12B3C4D5/config", lights)]).toggles.first?.kind == .light)
        #expect(discover([("tasmota/discovery/A4CF12B3C4D5/config", DiscoveryFixtures.tasmotaSingleRelay)]).toggles.first?.kind == .switchRelay)
    }

    @Test func anEmptyRetainedPayloadMeansTheDeviceWasRemoved() {
        let result = discover([
            ("tasmota/discovery/A4CF12B3C4D5/config", DiscoveryFixtures.tasmotaSingleRelay),
            ("tasmota/discovery/A4CF12B3C4D5/config", ""),
        ])
        #expect(result.toggles.isEmpty && result.skipped.isEmpty)
    }

    @Test func theFullTopicTokensAreFilledIn() throws {
        var json = try JSONValue.parse(DiscoveryFixtures.tasmotaSingleRelay)
        json = json.merging(.object([JSONMember("ft", .string("%hostname%/%id%/%prefix%/"))]))
        let wiring = TasmotaAnnouncement.toggles(json, topic: "t").toggles.first?.wiring
        #expect(wiring?.command.topic == "tasmota-huzzah/B3C4D5/cmnd/POWER")
    }
    /// Issue 22 item 1: explicit keys with `payload_on: AN` never moved the relay (Tasmota
    /// parses no StateText as a command) and lost the preset's RESULT/STATE topics and query.
    @Test func customStateTextsAreThePresetWithOnAndOffValuesAndCommandOnOff() throws {
        let text = discoveredConfig([("tasmota/discovery/A4CF12B3C4D6/config", DiscoveryFixtures.tasmotaGermanStateTexts)])
        #expect(text.contains("        tasmota: terrasse\n        on_value: AN\n        off_value: AUS\n"), "\(text)")
        #expect(!text.contains("payload_on") && !text.contains("command_topic"), "\(text)")
        let action = try #require(ConfigLoader.load(text: text, fileName: "b.yaml").config?.widgets.first?.actions.first)
        #expect(action.command == ToggleCommand(topic: "cmnd/terrasse/POWER", payloadOn: "ON", payloadOff: "OFF"))
        #expect(action.stateQuery?.topic == "cmnd/terrasse/State")
        for topic in ["stat/terrasse/POWER", "stat/terrasse/RESULT", "tele/terrasse/STATE"] {
            #expect(action.stateSources.contains { $0.topic == topic && $0.onValue == "AN" && $0.offValue == "AUS" }, "\(topic)")
        }
    }
}

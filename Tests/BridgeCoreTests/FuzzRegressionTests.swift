import Testing
import CoreTestSupport
@testable import BridgeCore

/// Inputs the fuzz targets (`fuzz/`) found crashing, each replayed on the code the
/// target drives. They crashed before their fix; see `fuzz/RUNS.md`.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    /// `http-date`, in under a minute: a 15-digit year overflowed the milliseconds
    /// (a trap on every reconnect of the event stream).
    @Test func httpDateWithAHugeYearIsRefused() {
        let text = "T 1 Jan 191000000000000 00:0:00 GMT"
        #expect(HTTPDate.milliseconds(from: text) == nil)
        #expect(HTTPDate.serverClockOffsetMs(dateHeader: text, receivedAtMs: 1_795_986_000_000) == nil)
    }

    /// `watch`, in 5 s: a payload's C1 control (U+008B; U+009B is a CSI to many
    /// terminals) reached the terminal, and an ESC hidden in one character by a
    /// combining mark passed the check on characters.
    @Test func watchShowsNoControlCharacterOfAPayload() throws {
        let text = """
        aivi:
          token_env: T
        widgets:
          - slug: home
            actions:
              - id: lamp
                label: Lamp
                kind: toggle
                state_topic: home/lamp
                command_topic: home/lamp/set
        """
        let config = try #require(ConfigLoader.load(text: text, fileName: "watch.yaml").config)
        var session = WatchSession(config: config)
        let payload = Array("on\u{8B}\u{9B}2J\u{1B}\u{301}[2J\u{202E}".utf8)
        let events = session.message(topic: "home/lamp", payload: payload, elapsedMs: 2_000)
        #expect(!events.isEmpty)
        for line in events.map(WatchFormat.human) {
            #expect(!line.unicodeScalars.contains(where: DisplayText.isControl), "\(line.debugDescription)")
        }
        #expect(!PayloadExcerpt.make(payload).unicodeScalars.contains(where: DisplayText.isControl))
    }

    /// `discovery`, in a minute: an announcement whose command topic holds a
    /// wildcard became an action, and the config discover wrote was refused by
    /// `check`. Such a thing is now listed as skipped, with the reason.
    @Test func discoverSkipsAnAnnouncementWithAnUnusableTopic() {
        let light = DiscoveryFixtures.esphomeJSONLight.replacingAll("\"cmd_t\":\"garagedoor1/", with: "\"cmd_t\":\"#arage/")
        let messages = [("homeassistant/light/garagedoor1/garage_esp_status_led/config", light),
                        ("homeassistant/switch/garagedoor1/garage_relay/config", DiscoveryFixtures.esphomeSwitch)]
        let result = discover(messages)
        #expect(result.toggles.map(\.label) == ["Garage Relay"])
        #expect(result.skipped.contains { $0.what.contains("Garage ESP Status LED") && $0.reason.contains("wildcard") })
        let loaded = ConfigLoader.load(text: discoveredConfig(messages), fileName: "discovered.yaml")
        #expect(loaded.config != nil && loaded.errors.isEmpty, "\(loaded.rendered())")
    }

    /// `discovery`, at 335,000 runs: an announced topic holding a C1 control
    /// (U+008E) was written raw, and `check` refuses control characters in the
    /// file. Every control character is now written as an escape in double
    /// quotes, and reads back as the same text.
    @Test(arguments: ["a\u{8E}b", "x\u{2028}y", "\u{202E}rtl", "\u{FEFF}bom", "esc\u{1B}[2J", "plain/topic", "it's"])
    func aDiscoveredValueReadsBackAsItself(_ value: String) throws {
        let text = "v: \(YAMLScalarWriter.scalar(value))\n"
        let root = try #require(YAMLParser.parse(text).root, "\(text.debugDescription)")
        #expect(root.mappingEntries?.first?.value.scalar?.text == value, "\(text.debugDescription)")
        #expect(!YAMLScalarWriter.scalar(value).unicodeScalars.contains(where: YAMLScalarWriter.needsEscape))
    }

    /// `discovery`, at 815,000 runs: a zigbee2mqtt endpoint named with a wildcard
    /// (`l+1`) made the preset's topics hold it; discover wrote `zigbee2mqtt: NAME`
    /// and `check` refused the topics the preset makes. A preset whose topics the
    /// bridge cannot use is no longer chosen.
    @Test func discoverChoosesNoPresetWhoseTopicsHoldAWildcard() {
        let devices = DiscoveryFixtures.zigbee2mqttDevices
            .replacingAll("\"endpoint\":\"l1\"", with: "\"endpoint\":\"l+1\"")
            .replacingAll("\"property\":\"state_l1\"", with: "\"property\":\"state_l+1\"")
        let text = discoveredConfig([("zigbee2mqtt/bridge/devices", devices)])
        let loaded = ConfigLoader.load(text: text, fileName: "discovered.yaml")
        #expect(loaded.config != nil && loaded.errors.isEmpty, "\(loaded.rendered())\n\(text)")
    }
}

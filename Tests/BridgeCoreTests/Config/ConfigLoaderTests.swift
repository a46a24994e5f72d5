import Foundation
import Testing
@testable import BridgeCore

/// A minimal valid file with one action written in by each test.
enum ConfigFixture {
    static let header = """
    aivi:
      token_env: AIVI_TOKEN
    widgets:
      - slug: home
        actions:

    """

    /// The header, then `action` indented as a list item of `actions`.
    static func withAction(_ action: String) -> String {
        let lines = action.split(separator: "\n", omittingEmptySubsequences: false)
        let body = lines.enumerated().map { index, line in
            (index == 0 ? "      - " : "        ") + line
        }.joined(separator: "\n")
        return header + body + "\n"
    }

    static func loadAction(_ action: String) -> (ActionConfig?, ConfigLoadResult) {
        let result = ConfigLoader.load(text: withAction(action), fileName: "bridge.yaml")
        return (result.config?.widgets.first?.actions.first, result)
    }
}

@Suite struct ConfigLoaderTests {
    @Test func exampleConfigLoadsWithoutErrors() throws {
        let text = try String(contentsOf: YAMLTestFiles.exampleConfigURL, encoding: .utf8)
        let result = ConfigLoader.load(text: text, fileName: "bridge.example.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
        let config = try #require(result.config)
        #expect(config.widgets.map(\.slug) == ["living-room", "garden"])
        #expect(config.widgets[0].actions.map(\.id) == ["porch", "fountain", "fan", "movie", "feed_cat"])
        #expect(config.aivi.tokenFile == "/etc/switchboard-bridge/aivi-token")
        #expect(config.mqtt.tls == nil, "the example leaves TLS commented out: its broker is plain TCP on 127.0.0.1")
        #expect(config.mqtt.protocolVersion == nil, "not set: MQTT 5, falling back to 3.1.1")
        #expect(config.status?.listen == "127.0.0.1:8787")
        let fan = config.widgets[0].actions[2]
        #expect(fan.stateSources == [StateSource(topic: "home/fan/state", field: ["power"], onValue: "ON", offValue: "OFF")])
        #expect(fan.availability == AvailabilitySource(topic: "home/fan/online", availableValue: "true"))
        let movie = config.widgets[0].actions[3]
        #expect(movie.kind == .button)
        #expect(movie.publishes == [MQTTMessageSpec(topic: "home/scene/set", payload: "movie")])
        #expect(movie.activeSource == ActiveSource(topic: "home/scene/current", value: "movie"))
        #expect(movie.passthrough == [JSONMember("subtitle", .string("Dim and close"))])
        #expect(config.widgets[0].actions[4].repeatSafe == false)
    }

    @Test func defaultsApplyToAMinimalFile() throws {
        let (_, result) = ConfigFixture.loadAction("id: scene\nlabel: Scene\npublish: {topic: a/b, payload: go}")
        let config = try #require(result.config, "\(result.rendered())")
        #expect(config.aivi.apiBaseURL == "https://api.getaivi.app")
        #expect(config.aivi.eventsPath == "/events")
        #expect(config.mqtt == MQTTSettings())
        #expect(config.timing == TimingSettings())
        #expect(config.status == nil)
        #expect(config.stateDirectory == "/var/lib/switchboard-bridge")
    }

    @Test func rendersDiagnosticWithSourceLineAndCaret() throws {
        let (_, result) = ConfigFixture.loadAction("id: porch\nlabel: Porch\nzigbee2mqtt: porch\ncomand_topic: x")
        #expect(result.config == nil)
        let expected = """
        bridge.yaml:9:9: error: unknown key 'comand_topic' in action 'porch' (did you mean 'command_topic'?)
                comand_topic: x
                ^
        """
        #expect(result.rendered() == expected)
    }

    @Test func reportsAllErrorsOfAFileAtOnce() {
        let text = """
        aivi:
          token_file: /t
          token_env: T
        mqtt:
          port: 70000
          hots: x
        widgets:
          - slug: a
            actions:
              - id: x
                label: X
                kind: toggle
              - id: x
                label: Y
                publish: {topic: a/+/b}
          - slug: a
            actions:
              - {id: z, label: Z, publish: {topic: t}}
        """
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.config == nil)
        let summary = result.errors.map { "\($0.location): \($0.message)" }
        #expect(summary == [
            "3:3: 'aivi' must set only one of 'token_file' and 'token_env'",
            "5:9: 'port' in 'mqtt' must be between 1 and 65535 (it is 70000)",
            "6:3: unknown key 'hots' in 'mqtt' (did you mean 'host'?)",
            "10:9: action 'x' is a toggle and needs a command: set 'command_topic' or a device preset (zigbee2mqtt, tasmota, shelly, shelly_light, shelly_plus, shelly_plus_light, shelly_color, shelly_white, shelly_plus_rgb, shelly_plus_rgbw, shelly_plus_cct, shelly_plus_rgbcct, esphome, esphome_light, esphome_fan, zigbee2mqtt_cover, zigbee2mqtt_lock, esphome_cover, esphome_lock, shelly_plus_cover, shelly_roller, tasmota_shutter)",
            "10:9: action 'x' is a toggle and needs a state source: set 'state_topic' or a device preset, or 'optimistic: true' for a device that reports nothing",
            "13:13: duplicate action id 'x' in widget 'a' (first used at 10:13)",
            "15:26: 'topic' in 'publish' of action 'x' must not contain the MQTT wildcards '+' or '#': the bridge matches and publishes topics exactly",
            "16:11: duplicate widget slug 'a' (first used at 8:11)",
        ], "\(result.rendered())")
    }

    @Test func duplicateKeysDoNotHideLaterErrors() {
        let (_, result) = ConfigFixture.loadAction("id: a\nid: b\nlabel: A\nkind: lamp\npublish: {topic: t}")
        #expect(result.errors.map(\.location) == [SourceLocation(line: 7, column: 9), SourceLocation(line: 9, column: 15)],
                "\(result.rendered())")
    }

    @Test(arguments: [
        ("http://api.example.org", 1), ("https://api.example.org", 0), ("http://127.0.0.1:8080", 0), ("http://localhost", 0),
        ("http://localhost.evil.example", 1),
    ])
    func warnsAboutTokensInClear(api: String, warnings: Int) {
        let text = "aivi: {token_env: A, api: '\(api)'}\n" + ConfigFixture.withAction("id: s\nlabel: S\npublish: {topic: a}")
            .split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\n")
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.config != nil, "\(result.rendered())")
        #expect(result.warnings.count == warnings, "\(result.rendered())")
    }

    @Test func emptyFileNeedsATopLevelMapping() {
        let result = ConfigLoader.load(text: "# nothing yet\n", fileName: "bridge.yaml")
        #expect(result.rendered().hasPrefix("bridge.yaml:1:1: error: the top level must be a mapping of 'key: value' lines"))
    }

    @Test func refusesHugeFiles() {
        let result = ConfigLoader.load(text: String(repeating: "# padding\n", count: 200_000), fileName: "big.yaml")
        #expect(result.config == nil)
        #expect(result.errors.first?.message.hasPrefix("the file is larger than") == true)
    }

    @Test func syntaxErrorsBecomeDiagnostics() {
        let result = ConfigLoader.load(text: "aivi:\n\ttoken_env: X\n", fileName: "b.yaml")
        #expect(result.config == nil)
        #expect(result.rendered() == "b.yaml:2:1: error: tabs are not allowed for indentation; indent with spaces\n\ttoken_env: X\n^")
    }

    @Test func acceptsByteOrderMarkAndCRLF() {
        let text = "\u{FEFF}" + ConfigFixture.withAction("id: s\nlabel: S\npublish: {topic: a, payload: b}")
            .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.config != nil, "\(result.rendered())")
    }
}

@Suite struct ConfigStatusTests {
    @Test(arguments: [("status: true\n", StatusSettings()), ("status: false\n", nil), ("status: {refresh_s: 600}\n", {
        var settings = StatusSettings()
        settings.refreshSeconds = 600
        return settings
    }())])
    func statusSection(yaml: String, expected: StatusSettings?) throws {
        let text = yaml + ConfigFixture.withAction("id: s\nlabel: S\npublish: {topic: a}")
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        let config = try #require(result.config, "\(result.rendered())")
        #expect(config.status == expected)
    }
}

import Testing
@testable import BridgeCore

/// Issue 38 item 12: the bridge's own command limit (a burst of
/// `AiviServiceLimits.actionCommandBurst`, then 2 a second) is per device
/// command topic: eight scenes on one lamp, or a tile and a button on its
/// topic, share one budget instead of multiplying it.
@Suite("Command limit per device command topic")
struct CommandLimitPerTopicTests {
    static func config() throws -> BridgeConfig {
        var text = """
        aivi:
          token_env: AIVI_TOKEN
        widgets:
          - slug: home
            actions:
              - id: lamp
                label: Lamp
                kind: toggle
                state_topic: lamp/state
                command_topic: lamp/set
              - id: lamp_on_button
                label: Lamp on
                publish: {topic: lamp/set, payload: "ON"}

        """
        for index in 0..<8 {
            text += "      - id: s\(index)\n        label: Scene \(index)\n        sets: {lamp: \(index < 4 ? "on" : "off")}\n"
        }
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        guard let config = result.config else { throw CoverTestError.config(result.rendered()) }
        return config
    }

    @Test func eightScenesOnOneLampShareItsLimit() throws {
        var harness = BridgeHarness(config: try Self.config())
        harness.connectAndSettle(states: [("lamp/state", "OFF")])
        var commands = 0
        var rateLimited = 0
        for round in 0..<AiviServiceLimits.actionCommandBurst {
            for index in 0..<8 {
                let effects = harness.press("s\(index)", widget: "home", kind: "button", value: nil, id: "evt_\(round)_\(index)")
                commands += effects.mqttPublishes.filter { $0.topic == "lamp/set" }.count
                rateLimited += effects.drops.filter { $0 == .rateLimited }.count
                harness.ackAll(effects)
            }
        }
        #expect(commands == Int(AiviServiceLimits.actionCommandBurst), "one lamp, one budget (was 8 × 24)")
        #expect(rateLimited > 0)
    }

    @Test func aTileAndAButtonOnOneTopicShareItsLimit() throws {
        var harness = BridgeHarness(config: try Self.config())
        harness.connectAndSettle(states: [("lamp/state", "OFF")])
        var commands = 0
        for round in 0..<AiviServiceLimits.actionCommandBurst {
            let tile = harness.press("lamp", widget: "home", value: round % 2 == 0, id: "evt_t\(round)")
            let button = harness.press("lamp_on_button", widget: "home", kind: "button", value: nil, id: "evt_b\(round)")
            commands += (tile.mqttPublishes + button.mqttPublishes).count
            harness.ackAll(tile + button)
        }
        #expect(commands == Int(AiviServiceLimits.actionCommandBurst))
        // Half a second later one more token is back, for either of them.
        harness.advance(ms: AiviServiceLimits.actionCommandRefillMs)
        #expect(harness.press("lamp_on_button", widget: "home", kind: "button", value: nil, id: "evt_more").mqttPublishes.count == 1)
    }
}

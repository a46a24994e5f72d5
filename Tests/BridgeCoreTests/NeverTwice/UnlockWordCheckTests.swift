import Testing
@testable import BridgeCore

/// Issue 38 item 11: `check` refuses, on the line, what would unlock a lock
/// behind its tile's rules or show it Locked while it is unlocked:
/// `payload_on: UNLOCK` (a lock's on is locked), `on_value: UNLOCKED`, and a
/// button that publishes an unlock word to a lock tile's command topic.
@Suite("check: unlock words where a lock means locked")
struct UnlockWordCheckTests {
    static let lock = "device: lock\nstate_topic: door/state\ncommand_topic: door/set"

    struct Refusal: Sendable, CustomStringConvertible {
        var yaml: String
        var message: String
        var line: Int
        var description: String { yaml }
    }

    @Test(arguments: [
        Refusal(yaml: lock + "\npayload_on: UNLOCK",
                message: "'payload_on' in action 'dev' is 'UNLOCK', an unlock, but a lock tile's on is locked: 'payload_on' is "
                    + "the command that locks (for example LOCK); swap it with 'payload_off'", line: 11),
        Refusal(yaml: lock + "\nallow_unlock: true\npayload_on: unlock",
                message: "'payload_on' in action 'dev' is 'unlock', an unlock", line: 12),
        Refusal(yaml: lock + "\non_value: UNLOCKED",
                message: "'on_value' in action 'dev' is 'UNLOCKED', but a lock tile's on is locked: 'on_value' is what the lock "
                    + "reports when locked (for example LOCKED); swap it with 'off_value'", line: 11),
        Refusal(yaml: "zigbee2mqtt_lock: front\non_value: UNLOCK", message: "'on_value' in action 'dev' is 'UNLOCK'", line: 9),
    ])
    func checkRefusesUnlockWordsOnTheLine(_ refusal: Refusal) {
        let (action, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + refusal.yaml)
        #expect(action == nil)
        let matching = result.errors.filter { $0.message.hasPrefix(refusal.message) }
        #expect(matching.count == 1, "\(result.rendered())")
        #expect(matching.first.map { "\($0.location.line)" } == "\(refusal.line)", "\(result.rendered())")
    }

    @Test func plainLockWordsPass() {
        let (action, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + Self.lock + "\npayload_on: LOCK\non_value: LOCKED")
        #expect(result.diagnostics.isEmpty, "\(result.rendered())")
        #expect(action != nil)
    }

    static func twoWidgets(lockExtra: String, button: String) -> String {
        """
        aivi:
          token_env: AIVI_TOKEN
        widgets:
          - slug: doors
            actions:
              - id: front
                label: Front
                device: lock
                state_topic: front/state
                command_topic: front/set\(lockExtra)
          - slug: shortcuts
            actions:
              - id: other
                label: Other
                publish: {topic: hall/set, payload: "ON"}
              - id: open_front
                label: Open front
        \(button)

        """
    }

    @Test func aButtonThatUnlocksALockOnlyTileIsRefusedOnItsMessagesLine() {
        let text = Self.twoWidgets(lockExtra: "", button: """
                        publish:
                          - {topic: hall/light, payload: "ON"}
                          - {topic: front/set, payload: unlock}
                """)
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        #expect(result.config == nil)
        let matching = result.errors.filter {
            $0.message == "message #2 of 'publish' of action 'open_front' sends 'unlock' to 'front/set', the command topic of "
                + "lock tile 'front', which only locks: a button would unlock it behind the tile's back; remove this message "
                + "(or add 'allow_unlock: true' to 'front' and press that tile)"
        }
        #expect(matching.count == 1, "\(result.rendered())")
        #expect(matching.first?.location.line == 20, "\(result.rendered())")
    }

    @Test func aButtonThatUnlocksAnUnlockingTileIsNotSafeToRepeat() throws {
        let allowed = Self.twoWidgets(lockExtra: "\n        allow_unlock: true",
                                      button: "        publish: {topic: front/set, payload: '{\"state\":\"UNLOCK\"}'}")
        let result = ConfigLoader.load(text: allowed, fileName: "bridge.yaml")
        #expect(result.errors.isEmpty, "\(result.rendered())")
        let button = try #require(result.config?.widgets[1].actions.first { $0.id == "open_front" })
        #expect(!button.repeatSafe, "an unlock never runs twice for one press")
        let forced = ConfigLoader.load(text: allowed + "        repeat_safe: true\n", fileName: "bridge.yaml")
        let refusal = forced.errors.first { $0.message.contains("'repeat_safe: true' in action 'open_front'") }
        #expect(refusal?.location.line == 20, "\(forced.rendered())")
        #expect(refusal?.message.contains("unlocks lock tile 'front'") == true, "\(forced.rendered())")
    }
}

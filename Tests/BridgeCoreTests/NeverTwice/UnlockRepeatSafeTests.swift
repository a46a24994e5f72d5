import Foundation
import Testing
@testable import BridgeCore

/// Issue 38 item 1: an unlocking tile (a lock with `allow_unlock: true`), and a
/// scene that sets one, are not safe to repeat: their event ids are persisted
/// so a replay after a restart never unlocks twice; `repeat_safe: true` on
/// them (or on a pulsed door) is refused on its line with the fix.
@Suite("Never twice: unlocking tiles are not safe to repeat")
struct UnlockRepeatSafeTests {
    static let unlocking = "device: lock\nstate_topic: door/state\ncommand_topic: door/set\nallow_unlock: true"

    struct DefaultCase: Sendable, CustomStringConvertible {
        var yaml: String
        var repeatSafe: Bool
        var description: String { yaml }
    }

    @Test(arguments: [
        DefaultCase(yaml: unlocking, repeatSafe: false),
        DefaultCase(yaml: "esphome_lock: shed-node/shed_lock\nallow_unlock: true", repeatSafe: false),
        DefaultCase(yaml: "zigbee2mqtt_lock: front\nallow_unlock: true", repeatSafe: false),
        DefaultCase(yaml: "device: lock\nstate_topic: door/state\ncommand_topic: door/set", repeatSafe: true),
        DefaultCase(yaml: "device: lock\nstate_topic: door/state\ncommand_topic: door/set\nallow_unlock: false", repeatSafe: true),
        DefaultCase(yaml: unlocking + "\nrepeat_safe: false", repeatSafe: false),
    ])
    func anUnlockingTileDefaultsToNotRepeatSafe(_ testCase: DefaultCase) throws {
        let (action, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + testCase.yaml)
        #expect(result.errors.isEmpty, "\(result.rendered())")
        #expect(action?.repeatSafe == testCase.repeatSafe)
    }

    struct Refusal: Sendable, CustomStringConvertible {
        var yaml: String
        var message: String
        var line: Int
        var description: String { message }
    }

    @Test(arguments: [
        Refusal(yaml: unlocking + "\nrepeat_safe: true",
                message: "'repeat_safe: true' in action 'dev': an unlocking lock tile ('allow_unlock: true') must never run twice "
                    + "for one press; remove 'repeat_safe: true' (or 'allow_unlock: true', to make the tile only lock)",
                line: 12),
        Refusal(yaml: UnlockAndPulseTests.pulsed + "\nrepeat_safe: true",
                message: "'repeat_safe: true' in action 'dev': a pulsed door must never run twice for one press "
                    + "(a second pulse stops or reverses it); remove 'repeat_safe: true'",
                line: 14),
    ])
    func repeatSafeTrueIsRefusedOnItsLine(_ refusal: Refusal) {
        let (action, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + refusal.yaml)
        #expect(action == nil)
        let matching = result.errors.filter { $0.message == refusal.message }
        #expect(matching.count == 1, "\(result.rendered())")
        #expect(matching.first.map { "\($0.location)" } == "\(refusal.line):9", "\(result.rendered())")
    }

    @Test func aSceneThatUnlocksIsNotRepeatSafeAndRefusesTrue() throws {
        let config = try SceneFixture.config()
        let welcome = try #require(config.widgets[0].actions.first { $0.id == "welcome" })
        #expect(welcome.repeatSafe == false, "welcome sets the unlocking 'side' off")
        let refused = SceneConfigTests.load("id: s\nlabel: S\nsets: {side: off}\nrepeat_safe: true")
        #expect(refused.errors.contains { $0.message.contains("'repeat_safe: true' in action 's': its tile(s) 'side' must never run twice") },
                "\(refused.rendered())")
        #expect(refused.config == nil)
    }

    @Test func theShippedESPHomeExampleUnlocksOnlyOnce() throws {
        let text = try String(contentsOf: YAMLTestFiles.exampleConfigURL.deletingLastPathComponent().appendingPathComponent("esphome.yaml"),
                              encoding: .utf8)
        let result = ConfigLoader.load(text: text, fileName: "esphome.yaml")
        #expect(result.errors.isEmpty, "\(result.rendered())")
        let lock = try #require(result.config?.widgets.flatMap(\.actions).first { $0.id == "shed_lock" })
        #expect(lock.allowUnlock && !lock.repeatSafe)
    }
}

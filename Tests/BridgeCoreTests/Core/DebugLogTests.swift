import Testing
@testable import BridgeCore

/// Issue 23: a daemon that does not write debug lines tells the core, which then
/// builds none (one per MQTT message and one per PATCH were half a press's log
/// work), and decides everything else the same.
@Suite("Debug lines are built only when the shell writes them")
struct DebugLogTests {
    static func isDebug(_ effect: BridgeEffect) -> Bool {
        if case .log(.debug, _) = effect { return true }
        return false
    }

    /// The effects of a state message and of its PATCH's answer.
    static func effects(writesDebugLog: Bool) -> [BridgeEffect] {
        var harness = BridgeHarness()
        harness.bridge.writesDebugLog = writesDebugLog
        harness.connectAndSettle()
        harness.endPublishIntervals()
        var effects = harness.message("home/fan/state", "OFF")
        for patch in effects.patches {
            effects += harness.send(.patchCompleted(slug: patch.slug, requestId: patch.requestId, outcome: .status(200)))
        }
        return effects
    }

    @Test func withoutDebugLinesTheDecisionsAreTheSame() {
        let withDebug = Self.effects(writesDebugLog: true)
        let without = Self.effects(writesDebugLog: false)
        #expect(withDebug.contains(where: Self.isDebug), "the premise: a state message logs at debug")
        #expect(!without.contains(where: Self.isDebug))
        #expect(without == withDebug.filter { !Self.isDebug($0) })
    }
}

import Testing
@testable import BridgeCore

/// Issue 38 item 10: a cleared (empty, retained) availability message is not
/// "available". After `offline`, it must not bring back the Locked or Closed
/// the device reported before its outage.
@Suite("Never a lie: a cleared availability is not available")
struct ClearedAvailabilityTests {
    struct Case: Sendable, CustomStringConvertible {
        var action: String
        var state: (String, String)
        var description: String { action }
    }

    @Test(arguments: [
        Case(action: "device: lock\nstate_topic: door/state\ncommand_topic: door/set\navailability_topic: door/availability",
             state: ("door/state", "LOCKED")),
        Case(action: "device: cover\nstate_topic: door/state\ncommand_topic: door/set\navailability_topic: door/availability",
             state: ("door/state", "closed")),
        Case(action: "device: lock\nstate_topic: door/state\ncommand_topic: door/set\navailability_topic: door/availability\n"
                 + "unavailable_value: offline", state: ("door/state", "LOCKED")),
    ])
    func anEmptyAvailabilityAfterOfflineShowsNoSafeState(_ testCase: Case) throws {
        var harness = try BridgeHarness(action: testCase.action, states: [("door/availability", "online"), testCase.state])
        let safeShown = harness.device.shownOn(harness.bridge.actionsByKey[ActionKey(slug: "home", actionId: "dev")]?.device ?? .lock)
        #expect(safeShown == testCase.action.contains("lock"), "locked shows on, closed shows off before the outage")
        harness.ackAll(harness.message("door/availability", "offline"))
        harness.endPublishIntervals()
        harness.ackAll(harness.message("door/availability", ""))
        harness.endPublishIntervals()
        #expect(harness.device.isUnreachable, "empty is not available")
        let device = harness.bridge.actionsByKey[ActionKey(slug: "home", actionId: "dev")]?.device ?? .lock
        let shown = harness.device.shownOn(device)
        #expect(shown == (device == .cover), "neither Locked nor Closed from before the outage")
        // The device's own word brings it back.
        harness.ackAll(harness.message("door/availability", "online"))
        #expect(!harness.device.isUnreachable)
    }
}

import Testing
@testable import BridgeCore

/// Issue 20 section 2: a cover's travel outlasts the confirm timeout.
@Suite("Covers and locks: travel")
struct TravelTests {
    static let cover = "device: cover\nstate_topic: gate/state\ncommand_topic: gate/set\nconfirm_timeout_ms: 5000\ntravel_time_ms: 20000"

    @Test func aClosingDoorIsNotAnsweredWithTheOldStateAtTheConfirmTimeout() throws {
        var harness = try BridgeHarness(action: Self.cover, states: [("gate/state", "open")])
        let press = harness.press(false, id: "evt_1")
        #expect(press.mqttPublishes.map(\.payload) == ["CLOSE"])
        #expect(press.confirmTimers == [5_000])
        harness.ackAll(harness.message("gate/state", "closing"))
        harness.advance(ms: 5_000)
        let timeout = harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev"))))
        #expect(timeout.patches.isEmpty, "answered with the old state: \(timeout.patches)")
        #expect(timeout.confirmTimers == [15_000])
        #expect(timeout.logTexts.map(\.1).contains { $0.contains("still moving toward closed; waiting up to its travel time (20000 ms)") })
        harness.advance(ms: 6_000)
        let closed = harness.message("gate/state", "closed")
        #expect(BridgeHarness.shownOn(closed) == false)
        #expect(closed.patches.last?.answersPress == true)
        #expect(closed.contains(.cancelTimer(.confirm(ActionKey(slug: "home", actionId: "dev")))))
    }

    @Test func theTravelTimeEndsWithTheTruthLogged() throws {
        var harness = try BridgeHarness(action: Self.cover, states: [("gate/state", "open")])
        _ = harness.press(false, id: "evt_1")
        harness.ackAll(harness.message("gate/state", "closing"))
        harness.advance(ms: 5_000)
        _ = harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev"))))
        harness.advance(ms: 15_000)
        let end = harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev"))))
        #expect(BridgeHarness.shownOn(end) == true)
        #expect(end.patches.last?.answersPress == true)
        #expect(end.logTexts.contains { $0.0 == .warning && $0.1.contains("not closed at the end of its travel time (20000 ms)") })
    }

    @Test func aDoorThatNeverMovesIsAnsweredAtTheConfirmTimeout() throws {
        var harness = try BridgeHarness(action: Self.cover, states: [("gate/state", "open")])
        _ = harness.press(false, id: "evt_1")
        harness.advance(ms: 5_000)
        let timeout = harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev"))))
        #expect(BridgeHarness.shownOn(timeout) == true)
        #expect(timeout.patches.last?.answersPress == true)
        #expect(timeout.confirmTimers.isEmpty)
    }

    @Test func anOpenPressIsConfirmedByOpening() throws {
        var harness = try BridgeHarness(action: Self.cover, states: [("gate/state", "closed")])
        _ = harness.press(true, id: "evt_1")
        let opening = harness.message("gate/state", "opening")
        #expect(BridgeHarness.shownOn(opening) == true)
        #expect(opening.patches.last?.answersPress == true)
    }

    @Test func aFallingPositionIsClosing() throws {
        let action = "device: cover\nstate_topic: gate/state\nposition_field: position\ncommand_topic: gate/set\nconfirm_timeout_ms: 5000"
        var harness = try BridgeHarness(action: action, states: [("gate/state", #"{"position":100}"#)])
        _ = harness.press(false, id: "evt_1")
        harness.ackAll(harness.message("gate/state", #"{"position":80}"#))
        #expect(harness.device.motion == .towardOff)
        harness.advance(ms: 5_000)
        let timeout = harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev"))))
        #expect(timeout.patches.isEmpty)
        #expect(timeout.confirmTimers == [TileDevice.cover.defaultTravelTimeMs - 5_000])
    }

    @Test func aLockingLockWaitsForLocked() throws {
        let action = "device: lock\nstate_topic: door/state\ncommand_topic: door/set\nconfirm_timeout_ms: 2000"
        var harness = try BridgeHarness(action: action, states: [("door/state", "UNLOCKED")])
        _ = harness.press(true, id: "evt_1")
        harness.ackAll(harness.message("door/state", "LOCKING"))
        harness.advance(ms: 2_000)
        #expect(harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev")))).patches.isEmpty)
        let locked = harness.message("door/state", "LOCKED")
        #expect(BridgeHarness.shownOn(locked) == true)
    }

    @Test func aSwitchStillAnswersAtTheConfirmTimeout() throws {
        var harness = try BridgeHarness(action: "kind: toggle\nstate_topic: a/state\ncommand_topic: a/set", states: [("a/state", "ON")])
        _ = harness.press(false, id: "evt_1")
        let timeout = harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "dev"))))
        #expect(timeout.patches.last?.answersPress == true)
    }
}

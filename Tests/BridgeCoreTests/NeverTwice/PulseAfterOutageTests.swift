import Testing
@testable import BridgeCore

/// Issue 38 item 2, the core's part: a broker that stalls (SIGSTOP: TCP alive,
/// nothing answered) passes on what it had read when it resumes, so a pulse
/// sent into the stall reaches the relay about when the bridge reconnects. The
/// door is held for its travel time from the reconnect: two pulses inside one
/// travel time never reach the relay, however long the stall.
@Suite("Never twice: a pulse sent before an MQTT outage holds the door after it")
struct PulseAfterOutageTests {
    static let pulsed = UnlockAndPulseTests.pulsed   // travel time 20 s
    static let closed = UnlockAndPulseTests.closed
    static let door = UnlockAndPulseTests.door

    @Test func aDoorPulsedBeforeAStallIsHeldForItsTravelTimeAfterTheReconnect() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.count == 1)
        harness.advance(ms: 3_000)
        harness.ackAll(harness.send(.mqttDisconnected))   // the shell found the broker silent
        let refused = harness.press(true, id: "evt_2")
        #expect(refused.mqttPublishes.isEmpty)
        #expect(refused.patches.last?.answersPress == true, "answered at once with the true state")
        harness.ackAll(refused)
        // The pulse's own hold ends during the stall; the broker resumes 55 s later.
        harness.ackAll(harness.send(.timerFired(.pulseHold(Self.door))))
        harness.advance(ms: 52_000)
        let reconnect = harness.send(.mqttConnected)
        #expect(reconnect.contains(.startTimer(.pulseHold(Self.door), afterMs: 20_000)), "\(reconnect)")
        harness.ackAll(reconnect)
        harness.ackAll(harness.message(Self.closed.0, Self.closed.1))   // the late pulse has barely moved the door
        harness.endPublishIntervals()
        harness.advance(ms: 100)
        let press = harness.press(true, id: "evt_3")
        #expect(press.mqttPublishes.isEmpty, "the late first pulse is moving the door; a second would stop it")
        #expect(press.logTexts.contains { $0.1.contains("a pulse sent before the outage may reach the relay only now") })
        #expect(press.patches.last?.answersPress == true)
        harness.ackAll(press)
        harness.ackAll(harness.send(.timerFired(.pulseHold(Self.door))))
        #expect(harness.press(true, id: "evt_4").mqttPublishes.count == 1)
    }

    @Test func aReconnectWithoutAPulseHoldsNothing() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        harness.ackAll(harness.send(.mqttDisconnected))
        let reconnect = harness.send(.mqttConnected)
        #expect(!reconnect.contains { if case .startTimer(.pulseHold, _) = $0 { true } else { false } })
        harness.ackAll(reconnect)
        #expect(harness.press(true, id: "evt_1").mqttPublishes.count == 1)
    }
}

import Testing
@testable import BridgeCore

/// Issue 38 item 3: the pulse hold belongs to the relay's command topic (its
/// bytes), whatever payload pulses it, for the longest travel time of the
/// tiles that pulse it; a reload that respells the payload keeps it.
@Suite("Never twice: the pulse hold is the relay topic's")
struct PulseHoldByTopicTests {
    static let pulsed = UnlockAndPulseTests.pulsed
    static let closed = UnlockAndPulseTests.closed

    @Test func aReloadThatRespellsThePayloadKeepsTheHold() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.map(\.payload) == ["ON"])
        let respelt = Self.pulsed.replacing("payload: \"ON\"", with: "payload: \"on\"")
        harness.ackAll(harness.send(.configReloaded(try BridgeHarness.coverConfig(respelt))))
        harness.ackAll(harness.message(Self.closed.0, Self.closed.1))
        harness.advance(ms: 2_200)
        let press = harness.press(true, id: "evt_2")
        #expect(press.mqttPublishes.isEmpty, "a second pulse 2.2 s after the first stops the door")
        #expect(press.logTexts.contains { $0.1.contains("not pulsed again") })
        #expect(press.patches.last?.answersPress == true)
    }

    /// Two tiles on one relay (different payload spellings and travel times):
    /// a pulse of either holds the relay for the longer travel time.
    @Test func tilesOfOneRelayHoldItForTheLongestTravelTime() throws {
        let short = Self.pulsed.replacing("travel_time_ms: 20000", with: "travel_time_ms: 1500")
        let long = Self.pulsed.replacing("payload: \"ON\"", with: "payload: \"on\"")
        let text = ConfigFixture.withAction("id: dev\nlabel: Device\n" + short)
            + "      - id: twin\n        label: Twin\n" + long.split(separator: "\n").map { "        \($0)\n" }.joined()
        var harness = BridgeHarness(config: try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config))
        harness.connectAndSettle(states: [Self.closed])
        let first = harness.press(true, id: "evt_1")
        #expect(first.mqttPublishes.count == 1)
        let relay = PulsedDoor(MQTTMessageSpec(topic: "cmnd/garage/POWER", payload: "ON"))
        #expect(relay == PulsedDoor(MQTTMessageSpec(topic: "cmnd/garage/POWER", payload: "on")), "one relay, one hold")
        #expect(first.contains(.startTimer(.pulseHold(relay), afterMs: 20_000 + MQTTSettings.silentBrokerMs)), "\(first)")
        harness.advance(ms: 1_900)
        let twin = harness.press("twin", widget: "home", value: true, id: "evt_2")
        #expect(twin.mqttPublishes.isEmpty)
        #expect(twin.logTexts.contains { $0.1.contains("inside its travel time (20000 ms) and the 3000 ms a stalled broker may hold a pulse; not pulsed again") })
    }

    @Test func theStartHoldsEachRelayOnceForItsLongestTravelTime() throws {
        let short = Self.pulsed.replacing("travel_time_ms: 20000", with: "travel_time_ms: 1500")
        let long = Self.pulsed.replacing("payload: \"ON\"", with: "payload: \"on\"")
        let text = ConfigFixture.withAction("id: dev\nlabel: Device\n" + short)
            + "      - id: twin\n        label: Twin\n" + long.split(separator: "\n").map { "        \($0)\n" }.joined()
        var harness = BridgeHarness(config: try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config))
        let start = harness.send(.started)
        let holds = start.filter { if case .startTimer(.pulseHold, _) = $0 { true } else { false } }
        #expect(holds == [.startTimer(.pulseHold(PulsedDoor(MQTTMessageSpec(topic: "cmnd/garage/POWER", payload: "ON"))), afterMs: 20_000)])
    }
}

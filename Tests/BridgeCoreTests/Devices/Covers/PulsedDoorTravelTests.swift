import Testing
@testable import BridgeCore

/// Issue 39 §4: a pulsed door's contact sensor never says "closing", and a
/// real door takes 10-20 s. Inside its travel time after a pulse the bridge
/// waits for the sensor; only at the end of the travel time does it publish
/// what the sensor says. (The phone shows No response at 15 s; a later
/// update still confirms.)
@Suite("Covers and locks: a pulsed door's travel")
struct PulsedDoorTravelTests {
    static let key = ActionKey(slug: "home", actionId: "dev")
    /// The README's pulse example: a Tasmota relay with PulseTime and a
    /// zigbee2mqtt contact sensor (zigbee-herdsman-converters: `contact: true` is closed).
    static let pulsed = "pulse: {topic: cmnd/garage/POWER, payload: \"ON\"}\nstate_topic: zigbee2mqtt/garage_contact\n"
        + "state_field: contact\non_value: \"false\"\noff_value: \"true\"\nconfirm_timeout_ms: 5000\ntravel_time_ms: 20000"
    static let closed = ("zigbee2mqtt/garage_contact", #"{"contact":true,"battery":100}"#)
    static let open = ("zigbee2mqtt/garage_contact", #"{"contact":false,"battery":100}"#)

    @Test func aClosingPulsedDoorIsNotShownOpenAtTheConfirmTimeout() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.open], started: false)
        let press = harness.press(false, id: "evt_1")
        #expect(press.mqttPublishes.map(\.topic) == ["cmnd/garage/POWER"])
        harness.ackAll(press)
        harness.advance(ms: 5_000)
        let timeout = harness.send(.timerFired(.confirm(Self.key)))
        #expect(timeout.patches.isEmpty, "answered with open at the confirm timeout: \(timeout.patches)")
        #expect(timeout.confirmTimers == [15_000])
        #expect(timeout.logTexts.map(\.1).contains { $0.contains("pulsed; waiting up to its travel time (20000 ms) for its sensor") })
        // The sensor repeats open while the door travels (a periodic report): still nothing published.
        harness.advance(ms: 4_000)
        let repeated = harness.message(Self.open.0, Self.open.1)
        #expect(repeated.patches.isEmpty, "\(repeated.patches)")
        // 16 s after the pulse (the phone shows No response since 15 s): closed confirms it.
        harness.advance(ms: 7_000)
        let closed = harness.message(Self.closed.0, Self.closed.1)
        #expect(BridgeHarness.shownOn(closed) == false)
        #expect(closed.patches.last?.answersPress == true)
        #expect(closed.contains(.cancelTimer(.confirm(Self.key))))
    }

    @Test func aPulsedDoorStillOpenAtTheEndOfItsTravelTimeIsPublishedOpenWithAWarning() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.open])
        harness.ackAll(harness.press(false, id: "evt_1"))
        harness.advance(ms: 5_000)
        harness.ackAll(harness.send(.timerFired(.confirm(Self.key))))
        harness.advance(ms: 15_000)
        let end = harness.send(.timerFired(.confirm(Self.key)))
        #expect(BridgeHarness.shownOn(end) == true)
        #expect(end.patches.last?.answersPress == true)
        #expect(end.logTexts.contains { $0.0 == .warning && $0.1.contains("not closed at the end of its travel time (20000 ms)") })
    }

    @Test func anOpeningPulsedDoorIsConfirmedTheMomentItsSensorOpens() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        harness.ackAll(harness.press(true, id: "evt_1"))
        harness.advance(ms: 800)
        let open = harness.message(Self.open.0, Self.open.1)
        #expect(BridgeHarness.shownOn(open) == true)
        #expect(open.patches.last?.answersPress == true)
    }

    /// A pulse of a door with a short travel time (below the confirm timeout)
    /// is answered at the confirm timeout, as before.
    @Test func aTravelTimeShorterThanTheConfirmTimeoutEndsAtTheConfirmTimeout() throws {
        let quick = Self.pulsed.replacing("travel_time_ms: 20000", with: "travel_time_ms: 3000")
        var harness = try BridgeHarness(action: quick, states: [Self.open])
        harness.ackAll(harness.press(false, id: "evt_1"))
        harness.advance(ms: 5_000)
        let timeout = harness.send(.timerFired(.confirm(Self.key)))
        #expect(BridgeHarness.shownOn(timeout) == true)
        #expect(timeout.patches.last?.answersPress == true)
    }

    /// Issue 39 §5: a door a scene skips inside its travel time says so in its
    /// own facts (the pages show it next to the tile), not only in the log.
    @Test func aDoorSkippedByASceneInsideItsTravelTimeSaysWhyInItsFacts() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "garage": false, "door": false, "front": true])
        let door = ActionKey(slug: "home", actionId: "door")
        harness.ackAll(harness.press("door", widget: "home", value: true, id: "evt_1"))
        harness.advance(ms: 1_000)
        harness.ackAll(harness.report("door", on: true))   // the reed leaves: open, confirmed
        let scene = harness.pressScene("leaving", eventId: "evt_2")
        #expect(!scene.mqttPublishes.contains { $0.topic == "door/relay" })
        let press = try #require(harness.bridge.facts.action(door).lastPress)
        #expect(press.outcome == .refused("skipped by the scene 'leaving': pulsed inside its travel time"), "\(press)")
        #expect(TileNote.pressNote(press.outcome) == "last press did nothing: skipped by the scene 'leaving': pulsed inside its travel time")
    }
}

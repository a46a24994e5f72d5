import Testing
@testable import BridgeCore

/// Issue 20 sections 3 and 4: pulsed doors and lock-only tiles.
@Suite("Covers and locks: pulses and unlocking")
struct UnlockAndPulseTests {
    /// A Tasmota relay with PulseTime and a zigbee2mqtt contact sensor
    /// (zigbee-herdsman-converters: `contact: true` means closed).
    static let pulsed = "pulse: {topic: cmnd/garage/POWER, payload: \"ON\"}\nstate_topic: zigbee2mqtt/garage_contact\n"
        + "state_field: contact\non_value: \"false\"\noff_value: \"true\"\ntravel_time_ms: 20000"
    static let closed = ("zigbee2mqtt/garage_contact", #"{"contact":true,"battery":100}"#)
    static let open = ("zigbee2mqtt/garage_contact", #"{"contact":false,"battery":100}"#)
    static let door = PulsedDoor(MQTTMessageSpec(topic: "cmnd/garage/POWER", payload: "ON"))

    @Test func anUnlockWithoutAllowUnlockSendsNothingAndIsAnswered() throws {
        var harness = try BridgeHarness(action: "device: lock\nstate_topic: door/state\ncommand_topic: door/set",
                                        states: [("door/state", "LOCKED")])
        let press = harness.press(false, id: "evt_1")
        #expect(press.mqttPublishes.isEmpty)
        #expect(BridgeHarness.shownOn(press) == true)
        #expect(press.patches.last?.answersPress == true)
        #expect(press.logTexts.contains { $0.0 == .warning && $0.1.contains("unlock refused: this lock tile only locks") })
        #expect(harness.press(true, id: "evt_2").mqttPublishes.isEmpty, "already locked")
    }

    @Test func aPulsedDoorPulsesOnlyWhenTheSensedStateDiffers() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        let sent = harness.press(true, id: "evt_1").outgoing
        #expect(sent.map(\.topic) == ["cmnd/garage/POWER"])
        #expect(sent.map(\.qos) == [0])
        #expect(sent.map(\.retain) == [false])
        harness.ackAll(harness.message(Self.open.0, Self.open.1))
        harness.advance(ms: 25_000)
        let onOpen = harness.press(true, id: "evt_2")
        #expect(onOpen.mqttPublishes.isEmpty)
        #expect(onOpen.patches.last?.answersPress == true)
    }

    @Test func twoPressesInsideTheTravelTimeMakeOnePulse() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.count == 1)
        harness.advance(ms: 1_000)
        // The door went up and the sensor says open: a close press inside the travel time is not pulsed.
        harness.ackAll(harness.message(Self.open.0, Self.open.1))
        harness.advance(ms: 2_000)
        let second = harness.press(false, id: "evt_2")
        #expect(second.mqttPublishes.isEmpty)
        #expect(second.patches.last?.answersPress == true)
        #expect(second.logTexts.contains { $0.1.contains("inside its travel time (20000 ms) and the 3000 ms a stalled broker may hold a pulse; not pulsed again") })
        // The board's wall clock jumps an hour (NTP): the hold runs on the shell's monotonic timer, not on it.
        harness.advance(ms: 3_600_000)
        #expect(harness.press(false, id: "evt_3").mqttPublishes.isEmpty)
        #expect(harness.effects.contains(.startTimer(.pulseHold(Self.door), afterMs: 20_000 + MQTTSettings.silentBrokerMs)))
        // Its hold ends with a line (issue 42 §4: a test waits on it instead of the clock).
        let ended = harness.send(.timerFired(.pulseHold(Self.door)))
        #expect(ended.logTexts.map(\.1) == ["action 'dev' (widget home): its travel time and the 3000 ms a stalled broker "
                                            + "may hold a pulse have passed since its pulse; it may be pulsed again"], "\(ended.logTexts)")
        #expect(ended.logTexts.map(\.0) == [.info])
        harness.ackAll(ended)
        #expect(harness.press(false, id: "evt_4").mqttPublishes.count == 1)
    }

    /// Item 2 of the follow-up: a restart forgets the last pulse, so the start
    /// holds every pulsed door for its travel time.
    @Test func aRestartInsideTheTravelTimeDoesNotPulseAgain() throws {
        var before = try BridgeHarness(action: Self.pulsed, states: [Self.closed], started: true)
        before.advance(ms: 20_000)
        before.ackAll(before.send(.timerFired(.pulseHold(Self.door))))
        #expect(before.press(true, id: "evt_1").mqttPublishes.count == 1)
        // The bridge restarts at once; the reed sensor still says closed (the door has barely left it).
        var after = try BridgeHarness(config: BridgeHarness.coverConfig(Self.pulsed))
        let start = after.send(.started)
        #expect(start.contains(.startTimer(.pulseHold(Self.door), afterMs: 20_000)))
        #expect(start.logTexts.contains { $0.1.contains("1 pulsed door(s) not pulsed for their travel time after the start") })
        after.ackAll(start)
        after.connectAndSettle(states: [Self.closed])
        let press = after.press(true, id: "evt_2")
        #expect(press.mqttPublishes.isEmpty, "a second pulse would stop the door the first one set moving")
        #expect(press.patches.last?.answersPress == true)
        #expect(press.logTexts.contains { $0.1.contains("a pulse sent before the restart may still be moving the door; not pulsed") })
        after.ackAll(after.send(.timerFired(.pulseHold(Self.door))))
        #expect(after.press(true, id: "evt_3").mqttPublishes.count == 1)
    }

    @Test func aReloadThatMovesTheSensorKeepsTheHold() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.count == 1)
        let moved = Self.pulsed.replacing("zigbee2mqtt/garage_contact", with: "zigbee2mqtt/garage_reed")
        harness.ackAll(harness.send(.configReloaded(try BridgeHarness.coverConfig(moved))))
        harness.ackAll(harness.message("zigbee2mqtt/garage_reed", Self.closed.1))
        harness.advance(ms: 2_000)
        let press = harness.press(true, id: "evt_2")
        #expect(press.mqttPublishes.isEmpty)
        #expect(press.logTexts.contains { $0.1.contains("inside its travel time (20000 ms) and the 3000 ms a stalled broker may hold a pulse; not pulsed again") })
    }

    /// Leftover (c) of issue 20: the hold is the door's, not the tile's. One
    /// reload removes the tile, the next adds it back (here renamed): inside the
    /// travel time of the pulse it is still not pulsed again.
    @Test func aDoorRemovedAndAddedBackByTwoReloadsKeepsItsHold() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [Self.closed])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.count == 1)
        let without = try BridgeHarness.coverConfig("kind: toggle\nstate_topic: porch/state\ncommand_topic: porch/set")
        harness.ackAll(harness.send(.configReloaded(without)))
        harness.advance(ms: 1_000)
        let back = ConfigFixture.withAction("id: garage\nlabel: Garage\n" + Self.pulsed)
        harness.ackAll(harness.send(.configReloaded(try #require(ConfigLoader.load(text: back, fileName: "bridge.yaml").config))))
        harness.ackAll(harness.message(Self.closed.0, Self.closed.1))   // the sensor has not yet seen the door leave
        let press = harness.press("garage", widget: "home", value: true, id: "evt_2")
        #expect(press.mqttPublishes.isEmpty, "a second pulse would stop the door the first one set moving")
        #expect(press.logTexts.contains { $0.1.contains("inside its travel time (20000 ms) and the 3000 ms a stalled broker may hold a pulse; not pulsed again") })
        #expect(press.patches.last?.answersPress == true)
        // The pulse's travel time ends (its timer ran on through both reloads): the door may be pulsed again.
        harness.ackAll(harness.send(.timerFired(.pulseHold(Self.door))))
        #expect(harness.press("garage", widget: "home", value: true, id: "evt_3").mqttPublishes.count == 1)
    }

    /// Two tiles pulsing the same relay the same way drive one door: one hold.
    @Test func twoTilesOfOneDoorShareItsHold() throws {
        let text = ConfigFixture.withAction("id: dev\nlabel: Device\n" + Self.pulsed)
            + "      - id: twin\n        label: Twin\n" + Self.pulsed.split(separator: "\n").map { "        \($0)\n" }.joined()
        var harness = BridgeHarness(config: try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config))
        harness.connectAndSettle(states: [Self.closed])
        #expect(harness.press(true, id: "evt_1").mqttPublishes.count == 1)
        let twin = harness.press("twin", widget: "home", value: true, id: "evt_2")
        #expect(twin.mqttPublishes.isEmpty)
        #expect(twin.logTexts.contains { $0.1.contains("not pulsed again") })
    }

    @Test func aDoorWhoseSensorNeverReportedIsNotPulsed() throws {
        var harness = try BridgeHarness(action: Self.pulsed, states: [])
        let press = harness.press(true, id: "evt_1")
        #expect(press.mqttPublishes.isEmpty)
        #expect(press.patches.last?.answersPress == true)
    }

    @Test func pulsedActionsAreNotRepeatSafeByDefault() throws {
        let (action, _) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + Self.pulsed)
        #expect(action?.repeatSafe == false)
        #expect(action?.device == .cover)
        #expect(action?.command == nil)
        // Issue 38 item 1: a pulse never runs twice for one press, whatever the config says.
        let (safe, refused) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + Self.pulsed + "\nrepeat_safe: true")
        #expect(safe == nil)
        #expect(refused.errors.contains { $0.message.contains("a pulsed door must never run twice for one press") })
    }

    @Test func aPulseWithoutASensorIsRefusedOnItsLine() {
        let (_, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\npulse: {topic: cmnd/garage/POWER, payload: \"ON\"}")
        #expect(result.errors.count == 1)
        let error = result.errors.first
        #expect(error?.message.contains("needs the door's sensor as its state source") == true)
        #expect(error?.message.contains("An opener without a sensor is a button") == true)
        #expect(error.map { "\($0.location)" } == "8:9")
    }

    @Test func aPulseIsNeverRetainedNorRetried() {
        let (_, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + Self.pulsed.replacing("payload: \"ON\"}", with: "payload: \"ON\", retain: true, qos: 1}"))
        #expect(result.errors.map(\.message).filter { $0.contains("a pulse is sent once, at QoS 0 and never retained") }.count == 2)
    }
}

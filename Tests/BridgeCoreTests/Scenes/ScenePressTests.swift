import Testing
@testable import BridgeCore

/// Issue 21 section 2: a scene press drives each target not already in its
/// scene state through the target's own rules, and nothing else.
@Suite("Scenes: what a press sends")
struct ScenePressTests {
    /// How one target stands before the press.
    enum Standing: CaseIterable, CustomStringConvertible {
        case there, away, unknown, awayUnreachable, thereUnreachable
        var description: String { "\(self)" }
    }

    /// `leaving` = {porch: off, garage: off, door: off, front: on}: a switch, a
    /// cover with commands, a pulsed door and a lock-only lock.
    static let leaving: [(id: String, on: Bool)] = [("porch", false), ("garage", false), ("door", false), ("front", true)]

    /// What a press must send to a target standing so (topic, payload), or nothing.
    static func expectedCommand(_ id: String, _ standing: Standing) -> (String, String)? {
        switch standing {
        case .there, .awayUnreachable, .thereUnreachable: return nil
        case .away, .unknown:
            switch id {
            case "porch": return ("porch/set", "OFF")
            case "garage": return ("garage/set", "CLOSE")
            case "door": return standing == .away ? ("door/relay", "ON") : nil   // never pulsed without its sensor
            default: return ("front/set", "LOCK")
            }
        }
    }

    /// Sets the tiles up as `standings` says (one input per report).
    static func harness(_ standings: [Standing], config: BridgeConfig) -> BridgeHarness {
        var harness = BridgeHarness(config: config)
        var reports: [(String, String)] = []
        for ((id, on), standing) in zip(leaving, standings) {
            guard let tile = SceneFixture.tiles[id] else { continue }
            switch standing {
            case .there: reports.append((tile.state, on ? tile.on : tile.off))
            case .away: reports.append((tile.state, on ? tile.off : tile.on))
            case .unknown: break
            case .awayUnreachable, .thereUnreachable:
                let arrives = standing == .thereUnreachable ? on : !on
                reports.append((tile.state, arrives ? tile.on : tile.off))
                if let availability = tile.availability { reports.append((availability, "offline")) }
            }
        }
        harness.connectAndSettle(states: reports)
        return harness
    }

    /// Every mix of the four kinds' standings (625): the commands of the press,
    /// the highlight before and after, when the press is answered, and that a
    /// second press once the devices confirmed sends nothing.
    @Test func everyMixOfTargetStates() throws {
        let config = try SceneFixture.config()
        var mixes: [[Standing]] = [[]]
        for _ in Self.leaving { mixes = mixes.flatMap { mix in Standing.allCases.map { mix + [$0] } } }
        #expect(mixes.count == 625)
        for mix in mixes {
            var harness = Self.harness(mix, config: config)
            let allThere = mix.allSatisfy { $0 == .there }
            let before = harness.bridge.renderedBody(slug: "home").map(BridgeHarness.highlights)?["leaving"]
            #expect(before == allThere, "\(mix): highlight before the press")
            let press = harness.pressScene("leaving", eventId: "evt_1")
            let expected = zip(Self.leaving, mix).compactMap { Self.expectedCommand($0.0.id, $0.1) }
            #expect(press.mqttPublishes.map { "\($0.topic) \($0.payload)" } == expected.map { "\($0.0) \($0.1)" }, "\(mix)")
            #expect(press.outgoing.filter { $0.topic == "door/relay" }.allSatisfy { $0.qos == 0 && !$0.retain }, "\(mix)")
            // Answered at once when nothing went out; otherwise the wait is armed.
            #expect((press.patches.last?.answersPress == true) == expected.isEmpty, "\(mix): answered at the press")
            #expect(press.contains(.startTimer(.confirm(ActionKey(slug: "home", actionId: "leaving")), afterMs: 1_500)) == !expected.isEmpty,
                    "\(mix): the answer's wait")
            // The commanded devices confirm, one message each.
            var answers: [PatchRequest] = press.patches
            for ((id, on), standing) in zip(Self.leaving, mix) where Self.expectedCommand(id, standing) != nil {
                let effects = harness.report(id, on: on)
                answers += effects.patches
                harness.ackAll(effects)
            }
            let noneUnreachable = mix.allSatisfy { $0 != .awayUnreachable && $0 != .thereUnreachable }
            let doorKnown = mix[2] != .unknown
            let activeAtEnd = noneUnreachable && doorKnown
            #expect(answers.last?.answersPress == true, "\(mix): the press ends in an answer")
            #expect(answers.last.map { BridgeHarness.highlights($0.body)["leaving"] } == activeAtEnd, "\(mix): highlight at the answer")
            harness.advance(ms: 30_000)
            for timer in [BridgeTimer.confirm(ActionKey(slug: "home", actionId: "leaving")), .pulseHold(PulsedDoor(MQTTMessageSpec(topic: "door/relay", payload: "ON")))] {
                harness.ackAll(harness.send(.timerFired(timer)))
            }
            #expect(harness.pressScene("leaving", eventId: "evt_2").mqttPublishes.isEmpty, "\(mix): the second press sends nothing")
        }
    }

    /// Issue 21 section 2: a scene's press is deduplicated on its event id like any other.
    @Test func aSceneEventDeliveredTwiceRunsOnce() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": false, "garage": false])
        #expect(harness.pressScene("all_off", eventId: "evt_1").mqttPublishes.map(\.topic) == ["porch/set"])
        harness.ackAll(harness.report("porch", on: false))
        harness.ackAll(harness.report("porch", on: true))   // switched back on at the wall: a new press would act
        let again = harness.pressScene("all_off", eventId: "evt_1")
        #expect(again.mqttPublishes.isEmpty)
        #expect(again.drops == [.duplicate])
        #expect(harness.pressScene("all_off", eventId: "evt_2").mqttPublishes.map(\.topic) == ["porch/set"])
    }

    @Test func anUnreachableTargetIsSkippedAndLoggedAndTheRestRun() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": true, "garage": true])
        harness.ackAll(harness.message("fountain/availability", "offline"))
        let press = harness.pressScene("all_off", eventId: "evt_1")
        #expect(press.mqttPublishes.map(\.topic) == ["porch/set", "garage/set"])
        #expect(press.logTexts.contains { $0.0 == .warning && $0.1.contains("tile 'fountain' skipped (device unavailable); the other tiles still run") })
    }

    @Test func aSceneButtonSendsItsOwnMessagesAfterTheTiles() throws {
        var harness = try BridgeHarness(scenes: ["porch": false, "side": true])
        let press = harness.pressScene("welcome", eventId: "evt_1")
        #expect(press.mqttPublishes.map { "\($0.topic) \($0.payload)" } == ["side/set UNLOCK", "porch/set ON", "speaker/say welcome"])
    }

    @Test func aPulsedDoorIsPulsedOncePerTravelTimeWhateverTheScenePresses() throws {
        var harness = try BridgeHarness(scenes: ["porch": false, "garage": false, "door": true, "front": true])
        #expect(harness.pressScene("leaving", eventId: "evt_1").mqttPublishes.map(\.topic) == ["door/relay"])
        // Pressed again while the door's pulse is awaited: it is on its way, nothing more.
        harness.advance(ms: 500)
        #expect(harness.pressScene("leaving", eventId: "evt_2").mqttPublishes.isEmpty)
        // The door's confirm timeout passes, the sensor still says open: inside the travel time, no second pulse
        // (issue 39 §4: the pulse's wait goes on for the travel time, its sensor never says closing).
        harness.advance(ms: 5_000)
        harness.ackAll(harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "door")))))
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "door")]?.pendingPress?.isTravelling == true)
        let third = harness.pressScene("leaving", eventId: "evt_3")
        #expect(third.mqttPublishes.isEmpty)
        // The travel time ends (the press's wait and the door's hold together), the sensor still open: pulsed again.
        harness.ackAll(harness.send(.timerFired(.confirm(ActionKey(slug: "home", actionId: "door")))))
        harness.ackAll(harness.send(.timerFired(.pulseHold(PulsedDoor(MQTTMessageSpec(topic: "door/relay", payload: "ON"))))))
        #expect(harness.pressScene("leaving", eventId: "evt_4").mqttPublishes.map(\.topic) == ["door/relay"])
    }

    @Test func aSceneWithAPulsedDoorIsNotRepeatSafeAndPersistsItsPress() throws {
        let config = try SceneFixture.config()
        let actions = Dictionary(uniqueKeysWithValues: config.widgets[0].actions.map { ($0.id, $0) })
        #expect(actions["leaving"]?.repeatSafe == false, "the door must never be pulsed twice for one press")
        #expect(actions["all_off"]?.repeatSafe == true)
        #expect(actions["welcome"]?.repeatSafe == false, "it unlocks 'side' (issue 38 item 1)")
        var harness = try BridgeHarness(scenes: ["porch": true, "garage": false, "door": true, "front": true])
        let press = harness.pressScene("leaving", eventId: "evt_1")
        #expect(press.recorded.map(\.id) == ["evt_1"])
        let recordAt = press.firstIndex { if case .recordThenPublish = $0 { true } else { false } } ?? press.count
        #expect(!press[..<recordAt].contains { if case .publishMQTT = $0 { true } else { false } },
                "no command goes out before the id is recorded (the harness feeds the record back)")
        #expect(!press.mqttPublishes.isEmpty, "they go out once it is")
        #expect(harness.pressScene("all_off", eventId: "evt_2").recorded.isEmpty)
    }

    @Test func withMQTTDownAScenePressThatNeedsACommandIsAnsweredWithTheTruth() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": false, "garage": false])
        harness.send(.mqttDisconnected)
        let press = harness.pressScene("all_off", eventId: "evt_1")
        #expect(press.mqttPublishes.isEmpty)
        #expect(press.drops == [.mqttDisconnected])
        #expect(press.patches.last?.answersPress == true)
        // A scene already in place needs no broker.
        #expect(harness.pressScene("evening", eventId: "evt_2").drops.isEmpty)
    }
}

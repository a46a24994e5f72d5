import Testing
@testable import BridgeCore

/// Issue 21 section 2: when a scene press is answered. At once when nothing
/// went out; otherwise once every commanded tile confirmed (or ended its wait)
/// or `button_answer_window_ms` passed, whichever is first, so the phone goes
/// Sent → Active. Each tile's own command is confirmed like its own press.
@Suite("Scenes: the answer's timing")
struct SceneAnswerTests {
    static let allOff = ActionKey(slug: "home", actionId: "all_off")
    static let porch = ActionKey(slug: "home", actionId: "porch")
    static let fountain = ActionKey(slug: "home", actionId: "fountain")

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// What happens after the press, at which ms: (ms, topic, payload); a nil topic fires the scene's window.
        var events: [(Int64, String?, String)]
        /// When the answer must come (ms after the press) and its highlight.
        var answerAtMs: Int64
        var answerActive: Bool
        var description: String { name }
    }

    @Test(arguments: [
        Case(name: "both confirm: answered at the second, active",
             events: [(150, "fountain/state", "OFF"), (350, "porch/state", "OFF")], answerAtMs: 350, answerActive: true),
        Case(name: "one never confirms: answered at the window, idle",
             events: [(150, "fountain/state", "OFF"), (1_500, nil, "")], answerAtMs: 1_500, answerActive: false),
        Case(name: "one becomes unavailable: answered when none is on its way, idle",
             events: [(150, "fountain/state", "OFF"), (400, "porch/availability", "offline")], answerAtMs: 400, answerActive: false),
        Case(name: "both confirm at once", events: [(100, "porch/state", "OFF"), (100, "fountain/state", "OFF")],
             answerAtMs: 100, answerActive: true),
    ])
    func aCommandedSceneIsAnsweredWhenItsTilesAreDoneOrAtTheWindow(testCase: Case) throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": true, "garage": false])
        let press = harness.pressScene("all_off", eventId: "evt_1")
        #expect(press.mqttPublishes.map(\.topic) == ["porch/set", "fountain/set"])
        #expect(press.patches.isEmpty, "Sent: no answer yet")
        #expect(press.contains(.startTimer(.confirm(Self.allOff), afterMs: 1_500)))
        #expect(press.contains(.startTimer(.confirm(Self.porch), afterMs: 5_000)), "each tile waits for its device as its own press")
        var elapsedMs: Int64 = 0
        var answer: (atMs: Int64, patch: PatchRequest)?
        for (atMs, topic, payload) in testCase.events {
            harness.advance(ms: atMs - elapsedMs)
            elapsedMs = atMs
            let effects = topic.map { harness.message($0, payload) } ?? harness.send(.timerFired(.confirm(Self.allOff)))
            if answer == nil, let patch = effects.patches.first(where: \.answersPress) { answer = (atMs, patch) }
            harness.ackAll(effects)
        }
        let (atMs, patch) = try #require(answer)
        #expect(atMs == testCase.answerAtMs)
        #expect(BridgeHarness.highlights(patch.body)["all_off"] == testCase.answerActive)
        #expect(harness.bridge.states[Self.allOff]?.pendingPress == nil)
    }

    @Test func aSceneAlreadyInPlaceIsAnsweredAtOnceActive() throws {
        var harness = try BridgeHarness(scenes: ["porch": false, "fountain": false, "garage": false])
        let press = harness.pressScene("all_off", eventId: "evt_1")
        #expect(press.mqttPublishes.isEmpty)
        let answer = try #require(press.patches.last)
        #expect(answer.answersPress)
        #expect(BridgeHarness.highlights(answer.body)["all_off"] == true)
    }

    @Test func aZeroWindowAnswersAtOnce() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": false, "garage": false], timing: "  button_answer_window_ms: 0")
        let press = harness.pressScene("all_off", eventId: "evt_1")
        #expect(press.mqttPublishes.map(\.topic) == ["porch/set"])
        #expect(press.patches.last?.answersPress == true)
    }

    /// The tile's own wait goes on after the scene's answer: its truth is published at its confirm timeout.
    @Test func aTileThatNeverConfirmsIsAnsweredWithItsTruthAsItsOwnPress() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": false, "garage": false])
        _ = harness.pressScene("all_off", eventId: "evt_1")
        harness.advance(ms: 1_500)
        harness.ackAll(harness.send(.timerFired(.confirm(Self.allOff))))
        harness.advance(ms: 3_500)
        let timeout = harness.send(.timerFired(.confirm(Self.porch)))
        #expect(timeout.logTexts.contains { $0.0 == .warning && $0.1.contains("press evt_1 home/porch: no confirmation from the device") })
        let fact = try #require(harness.bridge.facts.actions[Self.porch]?.lastPress)
        #expect(fact.eventId == "evt_1")
        #expect(fact.requestedOn == false)
        #expect(fact.outcome == .answeredWithTruth(afterMs: 5_000))
    }

    @Test func aSecondPressWhileWaitingIsCoveredByTheSameAnswer() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": false, "garage": false])
        _ = harness.pressScene("all_off", eventId: "evt_1")
        harness.advance(ms: 100)
        let second = harness.pressScene("all_off", eventId: "evt_2")
        #expect(second.mqttPublishes.isEmpty, "the porch is on its way already")
        #expect(second.patches.isEmpty)
        harness.advance(ms: 200)
        let confirmed = harness.report("porch", on: false)
        #expect(confirmed.patches.last?.answersPress == true)
    }
}

import Testing
@testable import BridgeCore

/// Issue 38 item 5: with the state directory on a full disk, an optimistic
/// toggle not safe to repeat was shown On although nothing was sent, and a
/// pulsed door was refused a second later as "pulsed 1027 ms ago", never
/// pulsed. A press whose record fails commits nothing: no state, no door
/// hold, no command token, no press fact; it is answered with the true state
/// and a reason, and a later press (the disk writable again) is carried out.
@Suite("Never a lie: an unsafe press whose record fails commits nothing")
struct FailedRecordTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let action: String
        let state: (String, String)
        let commandTopic: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "optimistic toggle", action: "kind: toggle\ncommand_topic: garden/lamp/set\noptimistic: true\nrepeat_safe: false",
             state: ("garden/lamp/set", "OFF"), commandTopic: "garden/lamp/set"),
        Case(name: "pulsed door", action: UnlockAndPulseTests.pulsed, state: UnlockAndPulseTests.closed,
             commandTopic: "cmnd/garage/POWER"),
    ]

    static let key = ActionKey(slug: "home", actionId: "dev")

    /// Command tokens left on `topic` (a topic never sent to has a full bucket).
    static func tokensLeft(_ harness: BridgeHarness, _ topic: String) -> Int {
        guard var bucket = harness.bridge.commandBuckets[UTF8Key(topic)] else { return Int(AiviServiceLimits.actionCommandBurst) }
        var count = 0
        while count <= AiviServiceLimits.actionCommandBurst, bucket.canTake(nowMs: harness.clockMs) {
            bucket.take(nowMs: harness.clockMs)
            count += 1
        }
        return count
    }

    static func sentCommands(_ effects: [BridgeEffect]) -> [String] {
        effects.compactMap { if case .publishMQTT(let message) = $0 { message.topic } else { nil } }
    }

    @Test(arguments: cases)
    func aPressWhoseRecordFailedCommitsNothingAndALaterPressRuns(_ example: Case) throws {
        var harness = try BridgeHarness(action: example.action, states: [example.state])
        // A tile with no state topic (the optimistic one) leaves the start's PATCH in flight.
        if let inFlight = harness.bridge.publishers["home"]?.inFlight {
            harness.ackAll(harness.send(.patchCompleted(slug: "home", requestId: inFlight.requestId, outcome: .status(200))))
            harness.endPublishIntervals()
        }
        let stateBefore = harness.bridge.states[Self.key]
        let factBefore = harness.bridge.facts.actions[Self.key]?.lastPress
        let tokensBefore = Self.tokensLeft(harness, example.commandTopic)

        harness.recordsFail = true
        let failed = harness.press(true, id: "evt_1")
        #expect(Self.sentCommands(failed).isEmpty, "nothing is sent")
        #expect(failed.drops.contains(.notRecorded))
        #expect(harness.bridge.states[Self.key] == stateBefore, "no state committed")
        #expect(!failed.contains { if case .startTimer(.pulseHold, _) = $0 { true } else { false } }, "no door hold")
        #expect(Self.tokensLeft(harness, example.commandTopic) == tokensBefore, "no command token spent")
        #expect(harness.bridge.facts.actions[Self.key]?.lastPress == factBefore, "no press fact")
        #expect(!failed.patches.contains { $0.body.contains(#""on":true"#) }, "never published On: \(failed.patches.map(\.body))")
        #expect(failed.patches.last?.answersPress == true, "answered")
        #expect(BridgeHarness.shownOn(failed) == false, "with the true state")
        #expect(failed.logTexts.contains { $0.0 == .error && $0.1.contains("could not be recorded") }, "with a reason")
        harness.ackAll(failed)
        harness.endPublishIntervals()

        harness.recordsFail = false
        harness.advance(ms: 1_000)
        let later = harness.press(true, id: "evt_2")
        #expect(later.outgoing.map(\.topic) == [example.commandTopic], "\(later.logTexts)")
    }
}

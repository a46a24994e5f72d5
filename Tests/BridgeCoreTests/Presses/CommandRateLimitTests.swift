import Testing
@testable import BridgeCore

/// Issue 19 item 17: a hostile service made 24,000 commands a second on one
/// relay. Each action's presses become commands at most in a burst of 24, then
/// 2 a second (above the service's own limits); a press over it is answered with
/// the true state, logged under one kind, and not remembered.
@Suite("Per-action limit on presses becoming commands")
struct CommandRateLimitTests {
    static func logs(_ effects: [BridgeEffect]) -> [LogMessage] {
        effects.compactMap { if case .log(_, let message) = $0 { return message } else { return nil } }
    }

    @Test func aFloodOfPressesOnOneActionMakesAtMostTheBurstThenTwoASecond() {
        var harness = BridgeHarness(config: .answeringButtonsAtOnce)
        harness.connectAndSettle()
        var commands = 0, refused = 0, answered = 0
        var refusalKinds: Set<String> = []
        for index in 0..<10_000 {
            if index % 10 == 0 { harness.advance(ms: 1) }   // 10,000 presses in 1 s
            let effects = harness.press("movie", kind: "button", value: nil, id: "evt_\(index)")
            commands += effects.mqttPublishes.count
            if effects.drops == [.rateLimited] {
                refused += 1
                refusalKinds.formUnion(Self.logs(effects).map(\.kind))
            }
            answered += effects.patches.count
            harness.ackAll(effects)
        }
        #expect(commands <= 24 + 2 && commands >= 24, "\(commands) commands")
        #expect(refused == 10_000 - commands)
        #expect(refusalKinds.count == 1, "one kind, so the shell's rate limit bounds the lines: \(refusalKinds)")
        #expect(answered > 0, "refused presses are answered with the true state")
    }

    @Test func theBucketRefillsAndOtherActionsAreNotAffected() {
        var harness = BridgeHarness(config: .answeringButtonsAtOnce)
        harness.connectAndSettle()
        for index in 0..<24 {
            harness.ackAll(harness.press("movie", kind: "button", value: nil, id: "evt_\(index)"))
        }
        let over = harness.press("movie", kind: "button", value: nil, id: "evt_over")
        #expect(over.mqttPublishes.isEmpty)
        #expect(over.drops == [.rateLimited])
        #expect(over.patches.count == 1, "answered with the true state")
        harness.ackAll(over)
        #expect(!harness.bridge.dedupe.contains("evt_over"), "not remembered: a replay under the limit may run it")
        let other = harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat")
        #expect(other.mqttPublishes.count == 1, "another action has its own limit")
        harness.ackAll(other)
        harness.advance(ms: AiviServiceLimits.actionCommandRefillMs)
        let replay = harness.press("movie", kind: "button", value: nil, id: "evt_over")
        #expect(replay.mqttPublishes.count == 1)
    }

    @Test func aPressAnsweredWithoutACommandDoesNotCount() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "ON"), ("stat/fountain/POWER", "OFF")])
        for index in 0..<100 {
            let effects = harness.press("fan", value: true, id: "evt_\(index)")   // already on: answered at once
            #expect(effects.drops.isEmpty)
            harness.ackAll(effects)
        }
        #expect(harness.press("fan", value: false, id: "evt_off").mqttPublishes.count == 1)
    }

    @Test func aBoardClockSteppingBackNeitherRefillsNorStalls() {
        var bucket = TokenBucket(capacity: 1, refillMs: 500, nowMs: 10_000)
        bucket.take(nowMs: 10_000)
        let emptyNow = bucket.canTake(nowMs: 10_000)
        let afterStepBack = bucket.canTake(nowMs: 10_000 - 3_600_000)
        let halfASecondLater = bucket.canTake(nowMs: 10_000 - 3_600_000 + 500)
        #expect(!emptyNow && !afterStepBack)
        #expect(halfASecondLater, "a step back of an hour must not stall the bucket for an hour")
    }
}

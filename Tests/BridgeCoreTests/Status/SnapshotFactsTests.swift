import Testing
@testable import BridgeCore

/// The read-only snapshot the status page, the Webhook Widget view and
/// `/metrics` render from: what the core records about connections, messages,
/// presses and publishing, and why a widget's body differs from the service's.
@Suite("Snapshot: the core's facts for the status page")
struct SnapshotFactsTests {
    static let fountain = ActionKey(slug: "living-room", actionId: "fountain")
    static let fan = ActionKey(slug: "living-room", actionId: "fan")

    @Test func connectionsAndTheMessageThatLastSetATile() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        harness.send(.eventStreamConnected)
        harness.advance(ms: 3_000)
        harness.send(.mqttDisconnected)
        harness.send(.mqttConnected)
        harness.message("stat/fountain/POWER", "ON")
        let snapshot = harness.bridge.snapshot(serverClockOffsetMs: 250)
        #expect(snapshot.facts.connections.mqttConnects == 2)
        #expect(snapshot.facts.connections.mqttReconnects == 1)
        #expect(snapshot.facts.connections.mqttChangedAtMs == harness.clockMs)
        #expect(snapshot.facts.connections.eventStreamConnects == 1)
        #expect(snapshot.serverClockOffsetMs == 250)
        let heard = snapshot.facts.action(Self.fountain).lastMessage
        #expect(heard == HeardMessage(topic: "stat/fountain/POWER", payloadExcerpt: "ON", atMs: harness.clockMs))
    }

    struct PressCase: Sendable, CustomStringConvertible {
        var name: String
        var before: @Sendable (inout BridgeHarness) -> Void = { _ in }
        var action = "fountain"
        var kind = "toggle"
        var value: Bool? = true
        var ageMs: Int64 = 100
        var after: @Sendable (inout BridgeHarness) -> Void = { _ in }
        var expected: PressFactOutcome
        var description: String { name }
    }

    static let pressCases: [PressCase] = [
        PressCase(name: "commanded, waiting", expected: .commanded),
        PressCase(name: "confirmed by the device", after: { harness in
            harness.advance(ms: 120)
            harness.message("stat/fountain/POWER", "ON")
        }, expected: .confirmed(afterMs: 120)),
        PressCase(name: "answered with the truth after the confirm timeout", after: { harness in
            harness.advance(ms: 5_000)
            harness.send(.timerFired(.confirm(SnapshotFactsTests.fountain)))
        }, expected: .answeredWithTruth(afterMs: 5_000)),
        PressCase(name: "already in the asked state", value: false, expected: .alreadyInState),
        PressCase(name: "device unavailable", before: { $0.message("tele/fountain/LWT", "Offline") }, expected: .deviceUnavailable),
        PressCase(name: "button", action: "feed_cat", kind: "button", value: nil, expected: .published(messageCount: 1)),
        PressCase(name: "expired", ageMs: 5_400, expected: .expired(lateMs: 400)),
        PressCase(name: "wrong kind", action: "feed_cat", expected: .refused("a toggle press for a button")),
        PressCase(name: "MQTT disconnected", before: { $0.send(.mqttDisconnected) },
                  expected: .refused("MQTT is disconnected; answered with the true state")),
        PressCase(name: "duplicate", before: { harness in _ = harness.press("fountain", id: "evt_1") },
                  value: false, expected: .duplicate),
    ]

    @Test(arguments: pressCases)
    func everyPressOutcomeIsRecorded(_ testCase: PressCase) {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        testCase.before(&harness)
        harness.advance(ms: 1_000)
        let pressedAtMs = harness.clockMs
        _ = harness.press(testCase.action, kind: testCase.kind, value: testCase.value, id: "evt_1", ageMs: testCase.ageMs)
        testCase.after(&harness)
        let key = ActionKey(slug: "living-room", actionId: testCase.action)
        let press = harness.bridge.snapshot(serverClockOffsetMs: 0).facts.action(key).lastPress
        #expect(press?.outcome == testCase.expected)
        #expect(press?.eventId == "evt_1")
        let isToggleAction = harness.bridge.config.allActions.contains { $0.action.id == testCase.action && $0.action.kind == .toggle }
        #expect(press?.requestedOn == (isToggleAction ? testCase.value ?? false : nil), "the configured action's kind decides")
        #expect(press?.atMs == pressedAtMs)
    }

    @Test func aPressForAnUnknownActionLeavesNoFact() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        _ = harness.press("nope", id: "evt_1")
        #expect(harness.bridge.snapshot(serverClockOffsetMs: 0).facts.actions[ActionKey(slug: "living-room", actionId: "nope")] == nil)
    }

    @Test func theBodyPhonesShowAndWhyTheBridgesDiffers() throws {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var snapshot = harness.bridge.snapshot(serverClockOffsetMs: 0)
        #expect(snapshot.publishMarker(slug: "living-room") == nil)
        #expect(snapshot.publishing(slug: "living-room").acknowledgedBody == harness.bridge.acknowledgedBody(slug: "living-room"))
        #expect(snapshot.facts.publishing["living-room"]?.lastAcknowledgedAtMs == harness.clockMs)

        let patch = harness.message("stat/fountain/POWER", "ON").patches
        try #require(patch.count == 1)
        #expect(harness.bridge.snapshot(serverClockOffsetMs: 0).publishMarker(slug: "living-room") == .pending)
        harness.send(.patchCompleted(slug: "living-room", requestId: patch[0].requestId, outcome: .status(429, retryAfterMs: 7_000)))
        snapshot = harness.bridge.snapshot(serverClockOffsetMs: 0)
        #expect(snapshot.publishMarker(slug: "living-room") == .retrying("HTTP 429 (rate limited)"))
        #expect(snapshot.facts.publishing["living-room"]?.retryAfterMs == 7_000)

        let retry = harness.send(.timerFired(.publishRetry(slug: "living-room"))).patches
            + harness.send(.timerFired(.publishInterval(slug: "living-room"))).patches
        try #require(retry.count == 1)
        harness.send(.patchCompleted(slug: "living-room", requestId: retry[0].requestId,
                                     outcome: .status(400, reason: "label too long")))
        snapshot = harness.bridge.snapshot(serverClockOffsetMs: 0)
        guard case .refused(let reason)? = snapshot.publishMarker(slug: "living-room") else {
            Issue.record("expected refused, got \(String(describing: snapshot.publishMarker(slug: "living-room")))")
            return
        }
        #expect(reason.contains("HTTP 400") && reason.contains("label too long"))
    }

    @Test func aStateChangeInsideThePublishIntervalIsMarkedHeld() {
        var config = BridgeConfig.sample
        config.timing.minPublishIntervalMs = 1_000
        var harness = BridgeHarness(config: config)
        harness.send(.mqttConnected)
        harness.message("home/fan/state", "ON")
        harness.ackAll(harness.message("stat/fountain/POWER", "OFF"))
        harness.ackAll(harness.send(.timerFired(.settle)))
        harness.message("stat/fountain/POWER", "ON")
        #expect(harness.bridge.snapshot(serverClockOffsetMs: 0).publishMarker(slug: "living-room") == .heldByInterval)
    }

    @Test func neverHeardFromAndTheWarningThatNamedIt() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("stat/fountain/POWER", "OFF")])
        let snapshot = harness.bridge.snapshot(serverClockOffsetMs: 0)
        let actions = Dictionary(uniqueKeysWithValues: harness.bridge.config.allActions.map { ($0.action.id, $0.action) })
        #expect(snapshot.isNeverHeard(actions["fan"]!))
        #expect(!snapshot.isNeverHeard(actions["fountain"]!))
        #expect(!snapshot.isNeverHeard(actions["feed_cat"]!), "a plain button listens to nothing")
        harness.send(.mqttDisconnected)
        harness.send(.timerFired(.silenceCheck))
        let warning = harness.bridge.snapshot(serverClockOffsetMs: 0).facts.action(Self.fan).lastWarning ?? ""
        #expect(warning.contains("never heard from"), "\(warning)")
    }

    @Test func aReloadForgetsTheFactsOfRemovedActions() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        #expect(harness.bridge.snapshot(serverClockOffsetMs: 0).facts.actions[Self.fountain] != nil)
        var smaller = BridgeConfig.sample
        smaller.widgets[0].actions.removeAll { $0.id == "fountain" }
        harness.send(.configReloaded(smaller))
        #expect(harness.bridge.snapshot(serverClockOffsetMs: 0).facts.actions[Self.fountain] == nil)
    }
}

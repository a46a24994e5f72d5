import Testing
@_spi(DurableRecordStore) @testable import BridgeCore

@Suite("Decision 3: presses")
struct PressTests {
    struct DropCase: Sendable, CustomStringConvertible {
        var name: String
        var action: String
        var widget: String = "living-room"
        var kind: String = "toggle"
        var value: Bool? = true
        var ageMs: Int64 = 100
        var reason: PressDropReason
        var level: BridgeLogLevel
        var description: String { name }
    }

    static let dropCases: [DropCase] = [
        DropCase(name: "other widget", action: "porch", widget: "kitchen", reason: .otherWidget, level: .debug),
        DropCase(name: "unknown action", action: "porch", reason: .unknownAction, level: .warning),
        DropCase(name: "wrong kind", action: "movie", kind: "toggle", reason: .wrongKind, level: .warning),
        DropCase(name: "expired", action: "fan", ageMs: 5_001, reason: .expired, level: .warning),
    ]

    @Test(arguments: dropCases)
    func dropsWithAReasonAndNoCommand(_ testCase: DropCase) {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        let effects = harness.press(testCase.action, widget: testCase.widget, kind: testCase.kind,
                                    value: testCase.value, id: "evt_1", ageMs: testCase.ageMs)
        #expect(effects.drops == [testCase.reason])
        #expect(effects.mqttPublishes.isEmpty)
        #expect(effects.patches.isEmpty)
        #expect(effects.contains { if case .log(testCase.level, _) = $0 { true } else { false } })
    }

    @Test(arguments: [
        ("{\"id\":\"e\",\"type\":\"widget.deleted.v1\"}", PressDropReason.unknownType),
        ("not json", .malformed),
        ("{\"id\":\"e\",\"type\":\"widget.action.v1\",\"expires_at\":\"soon\",\"data\":{}}", .malformed),
        ("{\"id\":\"e\",\"type\":\"widget.action.v1\",\"expires_at\":\"2030-01-01T00:00:00Z\",\"data\":{\"widget\":\"living-room\",\"action\":\"fan\",\"kind\":\"toggle\"}}", .malformed),
    ])
    func unknownTypesAndMalformedEventsAreSkipped(data: String, reason: PressDropReason) {
        var harness = BridgeHarness()
        let effects = harness.send(.streamEvent(StreamEvent(id: "e", type: "widget.action.v1", data: data)))
        #expect(effects.drops == [reason])
        #expect(effects.mqttPublishes.isEmpty)
    }

    @Test func expiryIsJudgedOnTheServersClockNotTheBoards() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        harness.serverOffsetMs = 600_000   // the board is 10 minutes behind
        let fresh = harness.press("fan", id: "evt_fresh", ageMs: 200)
        #expect(fresh.mqttPublishes.map(\.topic) == ["home/fan/set"])
        let stale = harness.press("fan", value: false, id: "evt_stale", ageMs: 6_000)
        #expect(stale.drops == [.expired])
    }

    @Test func aDuplicateEventIdRunsOnce() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        #expect(harness.press("movie", kind: "button", value: nil, id: "evt_1").mqttPublishes.count == 1)
        let again = harness.press("movie", kind: "button", value: nil, id: "evt_1")
        #expect(again.mqttPublishes.isEmpty)
        #expect(again.drops == [.duplicate])
    }

    @Test func togglePressSendsAnExplicitCommandAndWaitsForTheDevice() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        let effects = harness.press("fountain", value: true, id: "evt_1")
        #expect(effects.mqttPublishes.map(\.topic) == ["cmnd/fountain/POWER"])
        #expect(effects.mqttPublishes.map(\.payload) == ["ON"])
        #expect(effects.contains(.startTimer(.confirm(ActionKey(slug: "living-room", actionId: "fountain")), afterMs: 5_000)))
        #expect(effects.patches.isEmpty)
        let echo = harness.message("stat/fountain/RESULT", "{\"POWER\":\"ON\"}")
        #expect(echo.contains(.cancelTimer(.confirm(ActionKey(slug: "living-room", actionId: "fountain")))))
        #expect(echo.patches.count == 1)
        #expect(echo.patches.first?.body.contains("\"id\":\"fountain\",\"label\":\"Fountain\",\"kind\":\"toggle\",\"on\":true") == true)
    }

    @Test func toggleCommandsAreQoS1AndNeverRetained() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        let commands = harness.press("fan", value: true, id: "evt_1").compactMap {
            if case .publishMQTT(let message) = $0 { message } else { nil }
        }
        #expect(commands.count == 1)
        #expect(commands.allSatisfy { $0.qos == 1 && !$0.retain })
    }

    @Test func onTimeoutTheTrueStateIsPublishedAnyway() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        _ = harness.press("fan", value: true, id: "evt_1")
        harness.advance(ms: 5_000)
        let timeout = harness.send(.timerFired(.confirm(ActionKey(slug: "living-room", actionId: "fan"))))
        #expect(timeout.patches.count == 1)
        #expect(timeout.patches.first?.body.contains("\"id\":\"fan\",\"label\":\"Fan\",\"kind\":\"toggle\",\"on\":false") == true)
    }

    @Test func aPressAlreadyInTheRequestedStateIsAnsweredAtOnce() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "ON"), ("stat/fountain/POWER", "OFF")])
        let effects = harness.press("fan", value: true, id: "evt_1")
        #expect(effects.mqttPublishes.isEmpty)
        #expect(effects.patches.count == 1)
    }

    @Test func aPressForAnUnavailableDeviceSendsNoCommandAndAnswersAtOnce() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "ON"), ("stat/fountain/POWER", "OFF")])
        harness.ackAll(harness.message("home/fan/online", "false"))
        let effects = harness.press("fan", value: true, id: "evt_1")
        #expect(effects.mqttPublishes.isEmpty)
        #expect(effects.patches.count == 1)
        #expect(effects.patches.first?.body.contains("\"id\":\"fan\",\"label\":\"Fan\",\"kind\":\"toggle\",\"on\":false") == true)
    }

    @Test func aDeviceGoingOfflineWhilePendingIsAnsweredAtOnce() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        _ = harness.press("fan", value: true, id: "evt_1")
        let offline = harness.message("home/fan/online", "false")
        #expect(offline.contains(.cancelTimer(.confirm(ActionKey(slug: "living-room", actionId: "fan")))))
        #expect(offline.patches.count == 1)
    }

    @Test func aButtonPressPublishesItsMessageThenTheContentEvenIfUnchanged() {
        var harness = BridgeHarness(config: .answeringButtonsAtOnce)
        harness.connectAndSettle()
        let effects = harness.press("movie", kind: "button", value: nil, id: "evt_1")
        let publishIndex = effects.firstIndex { if case .publishMQTT = $0 { true } else { false } }
        let patchIndex = effects.firstIndex { if case .sendPatch = $0 { true } else { false } }
        #expect(publishIndex != nil && patchIndex != nil)
        if let publishIndex, let patchIndex { #expect(publishIndex < patchIndex) }
        #expect(effects.patches.first?.body == harness.bridge.acknowledgedBody(slug: "living-room"))
    }

    @Test func anAnswerOwedDuringAPatchInFlightIsSentAfterIt() {
        var harness = BridgeHarness(config: .answeringButtonsAtOnce)
        harness.connectAndSettle()
        let inFlight = harness.message("home/fan/state", "OFF").patches[0]
        #expect(harness.press("movie", kind: "button", value: nil, id: "evt_1").patches.isEmpty)
        let after = harness.send(.patchCompleted(slug: "living-room", requestId: inFlight.requestId, outcome: .status(200)))
        #expect(after.patches.count == 1)
        let quiet = harness.send(.patchCompleted(slug: "living-room", requestId: after.patches[0].requestId, outcome: .status(200)))
        #expect(quiet.patches.isEmpty)
    }

    /// Issue 23, issue 38 item 5: an unsafe press is only recorded at first;
    /// it is carried out (command, answer) once the store's record of its id
    /// comes back, and only that record releases it.
    @Test func anUnsafeActionsCommandGoesOutOnlyThroughItsRecord() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        harness.holdsRecords = true
        let effects = harness.press("feed_cat", kind: "button", value: nil, id: "evt_cat")
        #expect(!effects.contains { if case .publishMQTT = $0 { true } else { false } }, "no plain publish: \(effects)")
        #expect(effects.recorded.map(\.id) == ["evt_cat"], "one record: the new id")
        #expect(effects.patches.isEmpty, "nothing of the press before its record: \(effects)")
        guard case .recordThenPublish(let release)? = effects.first(where: { if case .recordThenPublish = $0 { true } else { false } })
        else { Issue.record("no release: \(effects)"); return }
        #expect(release.released(by: DurableRecord(syncedRecordOf: RememberedEvent(id: "evt_other", expiresAtMs: 0))) == nil,
                "a record of another id releases nothing")
        guard let carryOut = release.released(by: DurableRecord(syncedRecordOf: release.event)) else {
            Issue.record("the record of the id released nothing"); return
        }
        let released = harness.send(carryOut)
        #expect(released.mqttPublishes.map(\.topic) == ["home/feeder/cmd"])
        #expect(released.contains { if case .observe(.pressCarriedOut(eventId: "evt_cat", _, _)) = $0 { true } else { false } })
        #expect(released.patches.count == 1, "answered once carried out")
        #expect(harness.send(carryOut).mqttPublishes.isEmpty, "a second record of the id carries nothing out")
    }

    @Test func rememberedUnsafeIdsSurviveARestart() {
        var first = BridgeHarness()
        first.connectAndSettle()
        let persisted = first.press("feed_cat", kind: "button", value: nil, id: "evt_cat").recorded
        var restarted = BridgeHarness(remembered: persisted)
        restarted.clockMs = first.clockMs + 1_000
        restarted.connectAndSettle()
        let replay = restarted.press("feed_cat", kind: "button", value: nil, id: "evt_cat", ageMs: 1_100)
        #expect(replay.mqttPublishes.isEmpty)
        #expect(replay.drops == [.duplicate])
    }

    @Test func theDedupeMemoryForgetsExpiredIdsAndHasACap() {
        var config = BridgeConfig.sample
        config.timing.dedupeCapacity = 3
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle()
        for index in 0..<5 { _ = harness.press("movie", kind: "button", value: nil, id: "evt_\(index)") }
        #expect(harness.bridge.dedupe.entries.count == 3)
        harness.advance(ms: 5_000 + config.timing.dedupeMarginMs + HTTPDate.uncertaintyMs + 1)
        _ = harness.press("movie", kind: "button", value: nil, id: "evt_new")
        #expect(harness.bridge.dedupe.entries.keys.map(\.text) == ["evt_new"])
    }

    @Test func optimisticTogglesTakeTheCommandAsTheState() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let effects = harness.press("lamp", widget: "garden", value: true, id: "evt_1")
        #expect(effects.mqttPublishes.map(\.topic) == ["garden/lamp/set"])
        #expect(effects.patches.first?.body.contains("\"on\":true") == true)
    }

    @Test func aPressNeedingACommandWhileMQTTIsDownIsRefusedAndAnsweredNotRemembered() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "OFF"), ("stat/fountain/POWER", "OFF")])
        harness.send(.mqttDisconnected)
        let refused = harness.press("movie", kind: "button", value: nil, id: "evt_1")
        #expect(refused.mqttPublishes.isEmpty)
        #expect(refused.drops == [.mqttDisconnected])
        #expect(refused.patches.count == 1, "the phone gets the true state instead of waiting")
        harness.ackAll(refused)
        harness.send(.mqttConnected)
        let replayed = harness.press("movie", kind: "button", value: nil, id: "evt_1")
        #expect(replayed.mqttPublishes.map(\.topic) == ["home/scene/set"], "a replay once MQTT is back runs it")
    }

    @Test func pressesAnsweredWithoutACommandDoNotNeedMQTT() {
        var harness = BridgeHarness()
        harness.connectAndSettle(states: [("home/fan/state", "ON"), ("stat/fountain/POWER", "OFF")])
        harness.send(.mqttDisconnected)
        let effects = harness.press("fan", value: true, id: "evt_1")
        #expect(effects.drops.isEmpty)
        #expect(effects.patches.count == 1)
    }

    @Test func expiredUnsafeIdsAreForgottenAfterThePressNotBeforeIt() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        _ = harness.press("feed_cat", kind: "button", value: nil, id: "evt_old")
        harness.advance(ms: 5_000 + BridgeConfig.sample.timing.dedupeMarginMs + HTTPDate.uncertaintyMs + 1)
        let effects = harness.press("movie", kind: "button", value: nil, id: "evt_new")
        guard let commandIndex = effects.firstIndex(where: { if case .publishMQTT = $0 { true } else { false } }),
              let forgetIndex = effects.firstIndex(where: { if case .forgetUnsafeEventIds(["evt_old"]) = $0 { true } else { false } })
        else { Issue.record("expected a command and the expired id forgotten: \(effects)"); return }
        #expect(commandIndex < forgetIndex)
        #expect(effects.recorded.isEmpty, "a safe press records nothing")
    }
}

extension BridgeConfig {
    /// The sample with `button_answer_window_ms: 0`: the scene answers at once
    /// like any button (its wait for the active state is in ButtonAnswerTests).
    static var answeringButtonsAtOnce: BridgeConfig {
        var config = BridgeConfig.sample
        config.timing.buttonAnswerWindowMs = 0
        return config
    }
}

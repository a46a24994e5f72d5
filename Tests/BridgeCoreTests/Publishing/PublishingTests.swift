import Testing
@testable import BridgeCore

@Suite("Decision 2: publishing per widget")
struct PublishingTests {
    @Test func nothingIsPublishedBeforeStatesSettle() {
        var harness = BridgeHarness()
        let connect = harness.send(.mqttConnected)
        #expect(connect.patches.isEmpty)
        #expect(connect.contains(.startTimer(.settle, afterMs: 1_500)))
        #expect(harness.message("home/fan/state", "ON").patches.isEmpty)
        let settled = harness.message("stat/fountain/POWER", "OFF")
        #expect(settled.patches.map(\.slug).sorted() == ["garden", "living-room"])
    }

    @Test func settleWindowPublishesWhenSomeToggleNeverSpeaks() {
        var harness = BridgeHarness()
        harness.send(.mqttConnected)
        harness.message("home/fan/state", "ON")
        #expect(harness.send(.timerFired(.settle)).patches.count == 2)
    }

    @Test func connectAsksDevicesThatDoNotRetain() {
        var harness = BridgeHarness()
        let effects = harness.send(.mqttConnected)
        #expect(effects.mqttPublishes.map(\.topic) == ["cmnd/fountain/State"])
        #expect(effects.mqttPublishes.first?.payload == "")
        guard case .subscribe(let topics)? = effects.first(where: { if case .subscribe = $0 { true } else { false } }) else {
            Issue.record("no subscribe"); return
        }
        #expect(topics == harness.bridge.subscribedTopics)
        #expect(topics.contains("stat/fountain/RESULT"))
    }

    @Test func atMostOnePatchInFlightAndTheLatestContentFollows() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let first = harness.message("home/fan/state", "OFF").patches
        #expect(first.count == 1)
        #expect(harness.message("home/fan/state", "ON").patches.isEmpty)
        #expect(harness.message("home/fan/state", "OFF").patches.isEmpty)
        #expect(harness.message("stat/fountain/POWER", "ON").patches.isEmpty)
        // A PATCH slower than the publish interval: the interval ends while it is in flight.
        #expect(harness.send(.timerFired(.publishInterval(slug: "living-room"))).patches.isEmpty)
        let next = harness.send(.patchCompleted(slug: "living-room", requestId: first[0].requestId, outcome: .status(200))).patches
        #expect(next.count == 1)
        #expect(next.first?.body == harness.bridge.renderedBody(slug: "living-room"))
    }

    @Test func contentEqualToTheAcknowledgedOneIsNotSentAgain() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        #expect(harness.message("home/fan/state", "ON").patches.isEmpty)
        #expect(harness.message("home/fan/state", "{\"power\":\"on\"}").patches.isEmpty)
    }

    @Test(arguments: [500, 502, 503, 408])
    func transientFailuresRetryWithGrowingJitteredBackoffAndSendTheLatest(status: Int) {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var request = harness.message("home/fan/state", "OFF").patches[0]
        var delays: [Int64] = []
        for _ in 0..<8 {
            let failed = harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(status)))
            #expect(failed.patches.isEmpty)
            guard case .startTimer(.publishRetry, let delayMs)? = failed.first(where: { if case .startTimer = $0 { true } else { false } })
            else { Issue.record("no retry timer"); return }
            delays.append(delayMs)
            harness.message("stat/fountain/POWER", delays.count % 2 == 0 ? "ON" : "OFF")
            harness.endPublishIntervals()   // every backoff outlasts the default interval
            request = harness.send(.timerFired(.publishRetry(slug: "living-room"))).patches[0]
            #expect(request.body == harness.bridge.renderedBody(slug: "living-room"))
        }
        #expect(delays[0] >= 250 && delays[0] <= 500)
        #expect(delays[3] >= 2_000 && delays[3] <= 4_000)
        #expect(delays.allSatisfy { $0 <= 30_000 })
        #expect(delays[7] >= 15_000)
    }

    @Test func rateLimitWaitsRetryAfter() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let request = harness.message("home/fan/state", "OFF").patches[0]
        let effects = harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(429, retryAfterMs: 7_000)))
        #expect(effects.contains(.startTimer(.publishRetry(slug: "living-room"), afterMs: 7_000)))
    }

    @Test(arguments: [(401, "check the API token"), (404, "no widget with this slug"), (400, "refused the content"),
                      (301, "redirect: check aivi.api")])
    func permanentErrorsAreLoggedOnceWithAHintAndRetriedSlowly(status: Int, hint: String) {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        var request = harness.message("home/fan/state", "OFF").patches[0]
        var errorLogs: [String] = []
        for _ in 0..<3 {
            let effects = harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(status)))
            errorLogs += effects.compactMap { if case .log(.error, let message) = $0 { message.text } else { nil } }
            #expect(effects.contains(.startTimer(.publishRetry(slug: "living-room"), afterMs: 300_000)))
            harness.endPublishIntervals()
            request = harness.send(.timerFired(.publishRetry(slug: "living-room"))).patches[0]
        }
        #expect(errorLogs.count == 1)
        #expect(errorLogs.first?.contains(hint) == true)
    }

    @Test func aStaleAnswerIsIgnored() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        _ = harness.message("home/fan/state", "OFF")
        let effects = harness.send(.patchCompleted(slug: "living-room", requestId: 9_999, outcome: .status(200)))
        #expect(effects.patches.isEmpty)
        #expect(harness.bridge.isPatchInFlight(slug: "living-room"))
    }
}

/// Issue 12 (lower): after a 401, the event stream connecting with the same
/// token retries the refused widgets at once instead of after 5 minutes.
@Suite("Token refusal retried on a stream connect")
struct TokenRefusalRetryTests {
    @Test(arguments: [401, 403])
    func aStreamConnectRetriesWidgetsRefusedForTheToken(status: Int) {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let request = harness.message("home/fan/state", "OFF").patches[0]
        let refused = harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(status)))
        #expect(refused.contains(.startTimer(.publishRetry(slug: "living-room"), afterMs: 300_000)))
        harness.endPublishIntervals()
        let connected = harness.send(.eventStreamConnected)
        #expect(connected.contains(.cancelTimer(.publishRetry(slug: "living-room"))))
        #expect(connected.patches.map(\.slug) == ["living-room"])
    }

    @Test func otherRefusalsWaitTheirTurn() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let request = harness.message("home/fan/state", "OFF").patches[0]
        harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId, outcome: .status(404)))
        #expect(harness.send(.eventStreamConnected).patches.isEmpty)
    }
}

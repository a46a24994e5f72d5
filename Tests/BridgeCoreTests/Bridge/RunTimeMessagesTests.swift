import Testing
@testable import BridgeCore

/// Run-time messages that say what happened and how to fix it (issue 13).
@Suite struct RunTimeMessagesTests {
    @Test func aRefusedPatchLogsTheServicesOwnReason() throws {
        var harness = BridgeHarness()
        harness.send(.mqttConnected)
        let patch = try #require(harness.send(.timerFired(.settle)).patches.first)
        let reason = "content.actions[1]: color is not #RRGGBB"
        let effects = harness.send(.patchCompleted(slug: patch.slug, requestId: patch.requestId,
                                                   outcome: .status(400, reason: reason)))
        let errors = effects.compactMap { if case .log(.error, let message) = $0 { return message.text } else { return nil } }
        #expect(errors.contains { $0.contains("refused with HTTP 400: the service said \"\(reason)\"") }, "\(errors)")
    }

    @Test(arguments: [
        (#"{"error":"content.actions[0]: label is missing"}"#, "content.actions[0]: label is missing"),
        (#"{"message":"bad"}"#, "bad"),
        ("plain words\r\nand a second line\u{1B}[31m", "plain words  and a second line [31m"),
        ("", nil),
        (#"{"error":""}"#, nil),
    ] as [(String, String?)])
    func theServicesReasonIsSanitized(body: String, expected: String?) {
        #expect(ServiceErrorText.reason(fromBody: Array(body.utf8)) == expected)
    }

    @Test func theServicesReasonIsBounded() throws {
        let reason = try #require(ServiceErrorText.reason(fromBody: Array(String(repeating: "x", count: 100_000).utf8)))
        #expect(reason.unicodeScalars.count == ServiceErrorText.maxScalars + 1)
        #expect(reason.hasSuffix("…"))
    }

    @Test func twoClientsWithOneIdAreRecognisedByQuickDrops() {
        var detector = ClientIdConflictDetector()
        var reports: [Bool] = []
        var nowMs: Int64 = 0
        for _ in 0..<5 {
            detector.connected(nowMs: nowMs)
            nowMs += 300
            reports.append(detector.disconnected(nowMs: nowMs))
            nowMs += 500
        }
        #expect(reports == [false, false, true, false, false], "reported once, on the third quick drop")
    }

    @Test func slowDropsAndFailedAttemptsAreNotAConflict() {
        var detector = ClientIdConflictDetector()
        var nowMs: Int64 = 0
        for _ in 0..<5 {
            detector.connected(nowMs: nowMs)
            nowMs += 5_000
            let slowDrop = detector.disconnected(nowMs: nowMs)
            let failedAttempt = detector.disconnected(nowMs: nowMs + 10)
            #expect(!slowDrop)
            #expect(!failedAttempt, "a failed attempt without a connection")
        }
        detector.connected(nowMs: nowMs)
        let first = detector.disconnected(nowMs: nowMs + 100)
        detector.connected(nowMs: nowMs + 200)
        let second = detector.disconnected(nowMs: nowMs + 300)
        detector.connected(nowMs: nowMs + 400)
        let long = detector.disconnected(nowMs: nowMs + 10_000)
        #expect(!first && !second)
        #expect(!long, "a long connection resets the streak")
    }
}

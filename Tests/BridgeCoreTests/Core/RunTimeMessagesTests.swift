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

    typealias Drop = ClientIdConflictDetector.Drop

    /// Issue 19, item 18: what the broker said tells a taken-over session from a broker
    /// that keeps dropping this client; 3.1.1 cannot tell, and the message says so.
    @Test(arguments: [
        (Drop.sessionTakenOver, ClientIdConflictDetector.Finding.clientIdConflict),
        (.unexplained, .possibleClientIdConflict),
        (.otherReason, .keepsDropping),
    ])
    func quickDropsAreReportedOnceWithWhatTheBrokerSaid(drop: Drop, finding: ClientIdConflictDetector.Finding) {
        var detector = ClientIdConflictDetector()
        var reports: [ClientIdConflictDetector.Finding?] = []
        var nowMs: Int64 = 0
        for _ in 0..<5 {
            detector.connected(nowMs: nowMs)
            nowMs += 300
            reports.append(detector.disconnected(nowMs: nowMs, drop: drop))
            nowMs += 500
        }
        #expect(reports == [nil, nil, finding, nil, nil], "reported once, on the third quick drop")
    }

    @Test func oneTakeoverInTheStreakIsAConflictAndTheMessagesSayWhatIsKnown() {
        var detector = ClientIdConflictDetector()
        var last: ClientIdConflictDetector.Finding?
        for (index, drop) in [Drop.unexplained, .sessionTakenOver, .otherReason].enumerated() {
            detector.connected(nowMs: Int64(index) * 1_000)
            last = detector.disconnected(nowMs: Int64(index) * 1_000 + 100, drop: drop)
        }
        #expect(last == .clientIdConflict)
        #expect(ClientIdConflictDetector.message(.clientIdConflict, clientId: "b").hasPrefix("another client uses client_id b"))
        #expect(ClientIdConflictDetector.message(.possibleClientIdConflict, clientId: "b").contains("may use client_id b"))
        let dropping = ClientIdConflictDetector.message(.keepsDropping, clientId: "b")
        #expect(dropping.contains("a reason other than another client taking over client_id b"), "\(dropping)")
    }

    @Test func slowDropsAndFailedAttemptsAreNotAConflict() {
        var detector = ClientIdConflictDetector()
        var nowMs: Int64 = 0
        let drop = Drop.sessionTakenOver
        for _ in 0..<5 {
            detector.connected(nowMs: nowMs)
            nowMs += 5_000
            let slowDrop = detector.disconnected(nowMs: nowMs, drop: drop)
            let failedAttempt = detector.disconnected(nowMs: nowMs + 10, drop: drop)
            #expect(slowDrop == nil)
            #expect(failedAttempt == nil, "a failed attempt without a connection")
        }
        detector.connected(nowMs: nowMs)
        let first = detector.disconnected(nowMs: nowMs + 100, drop: drop)
        detector.connected(nowMs: nowMs + 200)
        let second = detector.disconnected(nowMs: nowMs + 300, drop: drop)
        detector.connected(nowMs: nowMs + 400)
        let long = detector.disconnected(nowMs: nowMs + 10_000, drop: drop)
        #expect(first == nil && second == nil)
        #expect(long == nil, "a long connection resets the streak")
    }
}

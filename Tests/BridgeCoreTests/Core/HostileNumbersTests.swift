import Testing
@testable import BridgeCore

/// Issue 12, item 2: numbers read from headers, payloads and files never trap,
/// and the delays the server asks for are clamped and honoured only on 429/503.
@Suite("Hostile numbers")
struct HostileNumbersTests {
    static let date = "Sun, 29 Nov 2026 21:00:00 GMT"
    static let dateMs: Int64 = 1_795_986_000_000

    @Test(arguments: [
        ("7", 7_000), (" 12 ", 12_000), ("0", 0),
        ("9223372036854775807", Int64.max), ("99999999999999999999999999", Int64.max),
        ("Sun, 29 Nov 2026 21:01:00 GMT", 60_000), ("Sun, 29 Nov 2026 20:59:00 GMT", -60_000),
    ] as [(String, Int64)])
    func retryAfterIsReadAsSecondsOrAnHTTPDate(header: String, expectedMs: Int64) {
        #expect(RetryAfter.delayMs(header: header, responseDate: Self.date, boardClockMs: 0) == expectedMs)
    }

    @Test(arguments: ["-5", "+5", "1.5", "", "soon", "-9223372036854775808", "Sun, 29 Nov 1000000000000 21:00:00 GMT"])
    func unreadableRetryAfterIsIgnored(header: String) {
        #expect(RetryAfter.delayMs(header: header, responseDate: Self.date, boardClockMs: 0) == nil)
    }

    @Test func anHTTPDateWithoutADateHeaderIsMeasuredFromTheBoardsClock() {
        let delay = RetryAfter.delayMs(header: "Sun, 29 Nov 2026 21:00:30 GMT", responseDate: nil, boardClockMs: Self.dateMs)
        #expect(delay == 30_000)
    }

    @Test(arguments: [
        (429, Int64.max, 3_600_000), (429, Int64.min, 1_000), (429, 0, 1_000), (429, 7_000, 7_000),
    ] as [(Int, Int64, Int64)])
    func a429WaitsTheClampedRetryAfter(status: Int, retryAfterMs: Int64, expectedMs: Int64) {
        #expect(PatchVerdict(.status(status, retryAfterMs: retryAfterMs)) == .rateLimited(retryAfterMs: expectedMs))
    }

    @Test func a503HonoursTheClampedRetryAfterAndOtherStatusesIgnoreIt() {
        #expect(PatchVerdict(.status(503, retryAfterMs: Int64.max)) == .transient(reason: "HTTP 503", retryAfterMs: 3_600_000))
        #expect(PatchVerdict(.status(503)) == .transient(reason: "HTTP 503"))
        #expect(PatchVerdict(.status(500, retryAfterMs: 5_000)) == .transient(reason: "HTTP 500"))
        #expect(PatchVerdict(.status(200, retryAfterMs: Int64.max)) == .success)
        #expect(PatchVerdict(.status(404, retryAfterMs: -1)) == .permanent(status: 404))
    }

    @Test func the503WaitReachesTheTimer() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let request = harness.message("home/fan/state", "OFF").patches[0]
        let effects = harness.send(.patchCompleted(slug: "living-room", requestId: request.requestId,
                                                   outcome: .status(503, retryAfterMs: 90_000_000_000)))
        #expect(effects.contains(.startTimer(.publishRetry(slug: "living-room"), afterMs: 3_600_000)))
    }

    @Test(arguments: [
        "Sun, 29 Nov 1000000000000 21:00:00 GMT", "Sun, 29 Nov 2026 -99999999999999999:00:00 GMT",
        "Sun, 29 Nov 9223372036854775807 21:00:00 GMT", "Sun, -29 Nov 2026 21:00:00 GMT", "Sun, 29 Nov 2026 +1:00:00 GMT",
        "Sun, 29 Nov 2026 21:00:99999999999999999999 GMT", "Sun, 29 Nov 0 21:00:00 GMT", "Sun, 29 Nov 2026 21::00 GMT",
    ])
    func hostileDatesAreRefused(text: String) {
        #expect(HTTPDate.milliseconds(from: text) == nil)
        #expect(HTTPDate.serverClockOffsetMs(dateHeader: text, receivedAtMs: Int64.min) == nil)
    }

    @Test func extremeDatesAndClocksDoNotOverflow() {
        #expect(HTTPDate.milliseconds(from: Self.date) == Self.dateMs)
        #expect(HTTPDate.milliseconds(from: "Fri, 31 Dec 9999 23:59:60 GMT") == 253_402_300_800_000)
        #expect(HTTPDate.milliseconds(from: "Mon, 01 Jan 0001 00:00:00 GMT") == -62_135_596_800_000)
        #expect(HTTPDate.serverClockOffsetMs(dateHeader: Self.date, receivedAtMs: Int64.min) == Int64.max)
        #expect(BridgeInput(.mqttConnected, boardClockMs: Int64.max, serverClockOffsetMs: Int64.max).serverClockMs == Int64.max)
        #expect(BridgeInput(.mqttConnected, boardClockMs: Int64.min, serverClockOffsetMs: -1).serverClockMs == Int64.min)
    }

    @Test func idsRememberedWithExtremeExpiriesAreForgottenWithoutOverflow() {
        var memory = DedupeMemory(marginMs: 86_400_000, capacity: 16, remembered: [
            RememberedEvent(id: "far", expiresAtMs: Int64.max), RememberedEvent(id: "past", expiresAtMs: Int64.min),
        ])
        let forgotten = memory.forgetExpired(serverClockMs: Self.dateMs, uncertaintyMs: Int64.max - 1)
        #expect(forgotten == ["past"])
        #expect(memory.contains("far") && !memory.contains("past"))
    }

    @Test(arguments: [1, 63, 64, 1_000])
    func backoffDoublingSaturates(times: Int) {
        #expect(Int64(60_000).doubledSaturating(times: times) > 0)
        #expect(Int64(1).doubledSaturating(times: 3) == 8)
    }
}

/// Issue 12, item 3: oversized MQTT payloads are dropped and logged once per
/// topic, with a bounded memory of topics.
@Suite("Oversized MQTT payloads")
struct OversizedPayloadTests {
    @Test func anOversizedPayloadIsLoggedOncePerTopicAndChangesNothing() {
        var harness = BridgeHarness()
        harness.connectAndSettle()
        let limit = harness.bridge.config.mqtt.maxPayloadBytes
        var warnings: [String] = []
        for _ in 0..<3 {
            let effects = harness.send(.mqttPayloadTooLarge(topic: "home/fan/state", byteCount: 1_000_000))
            warnings += effects.compactMap { if case .log(.warning, let message) = $0 { message.text } else { nil } }
            let inCore = harness.send(.mqttMessage(topic: "home/fan/state", payload: Array(repeating: 0x4F, count: limit + 1)))
            #expect(inCore.patches.isEmpty)
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("home/fan/state") == true)
        #expect(warnings.first?.contains("max_payload_bytes") == true)
    }

    @Test func theMemoryOfOversizedTopicsIsBounded() {
        var harness = BridgeHarness()
        var logged = 0
        for index in 0..<1_000 {
            let effects = harness.send(.mqttPayloadTooLarge(topic: "flood/\(index)", byteCount: 70_000))
            logged += effects.filter { if case .log(.warning, _) = $0 { true } else { false } }.count
        }
        #expect(logged == Bridge.maxOversizedTopicsRemembered)
        #expect(harness.bridge.topicsWithOversizedPayload.count == Bridge.maxOversizedTopicsRemembered)
    }

    @Test func maxPayloadBytesIsASetting() throws {
        let text = "aivi: {token_env: A}\nmqtt: {max_payload_bytes: 2048}\nwidgets:\n  - slug: w\n    actions:\n      - {id: a, label: A, publish: {topic: x/y, payload: go}}\n"
        let config = try #require(ConfigLoader.load(text: text, fileName: "bridge.yaml").config)
        #expect(config.mqtt.maxPayloadBytes == 2_048)
        #expect(BridgeConfig().mqtt.maxPayloadBytes == 65_536)
    }
}

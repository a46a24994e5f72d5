import CurlShell
import Foundation
import Testing
import TestSupport

/// An SSEClient under test with its events recorded.
final class RecordedSSEClient: @unchecked Sendable {
    let events = Recorder<SSEClientEvent>()
    let client: SSEClient

    init(server: ScriptedHTTPServer, stream: String, deadConnectionTimeoutMs: Int = 45_000, maxEventBytes: Int = 65_536) {
        let settings = SSEClientSettings(
            url: server.baseURL + "/events/" + stream,
            headers: [HTTPHeader(name: "Authorization", value: "Token secret")],
            deadConnectionTimeoutMs: deadConnectionTimeoutMs,
            initialRetryDelayMs: 20,
            maxRetryDelayMs: 2_000,
            maxEventBytes: maxEventBytes
        )
        let recorder = events
        client = SSEClient(settings: settings) { recorder.append($0) }
    }

    var receivedEvents: [SSEEvent] {
        events.values.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    var disconnections: [(reason: String, retryDelayMs: Int)] {
        events.values.compactMap { if case .disconnected(let reason, let delay) = $0 { (reason, delay) } else { nil } }
    }
}

@Suite("SSEClient over loopback")
struct SSEClientTests {
    @Test func reconnectsWithLastEventIdAfterTheServerCloses() throws {
        let server = try ScriptedHTTPServer()
        let recorded = RecordedSSEClient(server: server, stream: "drop")
        try recorded.client.start()
        defer { recorded.client.stop() }

        #expect(waitUntil { recorded.receivedEvents.count == 2 })
        #expect(recorded.receivedEvents == [
            SSEEvent(id: "1", type: "widget.action.v1", data: "one"),
            SSEEvent(id: "2", type: "message", data: "two\nlines"),
        ])
        #expect(recorded.client.lastEventId == "2")
        #expect(server.log.contains("GET /events/drop last-event-id=1 accept=text/event-stream"))
        #expect(recorded.disconnections.first?.reason == "stream closed by the server")
        let connectedDates = recorded.events.values.compactMap { if case .connected(let date) = $0 { date } else { nil } }
        #expect(connectedDates.count == 2)
        #expect(connectedDates.allSatisfy { $0.hasSuffix("GMT") })
    }

    @Test func deadConnectionTimerReconnectsAHalfOpenStream() throws {
        let server = try ScriptedHTTPServer()
        let recorded = RecordedSSEClient(server: server, stream: "halfopen", deadConnectionTimeoutMs: 500)
        try recorded.client.start()
        defer { recorded.client.stop() }

        #expect(waitUntil { recorded.receivedEvents.map(\.data) == ["first", "second"] })
        #expect(recorded.disconnections.first?.reason.contains("no data for 500 ms") == true)
        #expect(server.log.contains("GET /events/halfopen last-event-id=a accept=text/event-stream"))
    }

    @Test func oversizedEventIsSkippedAndReported() throws {
        let server = try ScriptedHTTPServer()
        let recorded = RecordedSSEClient(server: server, stream: "oversized", maxEventBytes: 1_024)
        try recorded.client.start()
        defer { recorded.client.stop() }

        #expect(waitUntil { recorded.receivedEvents.map(\.data) == ["small"] })
        #expect(recorded.events.values.contains(.invalidEvent(reason: "event larger than 1024 bytes skipped")))
        #expect(recorded.client.lastEventId == "ok")
    }

    @Test(arguments: [("wrongtype", "unexpected content type 'text/html'"), ("unavailable", "HTTP status 503")])
    func rejectedStreamsBackOff(stream: String, reason: String) throws {
        let server = try ScriptedHTTPServer()
        let recorded = RecordedSSEClient(server: server, stream: stream)
        try recorded.client.start()
        defer { recorded.client.stop() }

        #expect(waitUntil { recorded.disconnections.count >= 4 })
        let disconnections = recorded.disconnections
        #expect(disconnections.allSatisfy { $0.reason == reason })
        // Base 20 ms doubling: the first delay is at most 30 ms, the fourth at least 160 ms.
        #expect(disconnections[3].retryDelayMs > disconnections[0].retryDelayMs)
        #expect(!recorded.events.values.contains { if case .connected = $0 { true } else { false } })
    }

    @Test func stopReturnsWhileTheStreamIsOpen() throws {
        let server = try ScriptedHTTPServer()
        let recorded = RecordedSSEClient(server: server, stream: "halfopen")
        try recorded.client.start()
        #expect(waitUntil { recorded.receivedEvents.count == 1 })
        recorded.client.stop()
        #expect(recorded.disconnections.isEmpty)
    }
}

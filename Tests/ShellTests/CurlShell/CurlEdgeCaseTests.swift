import BridgeCore
import CurlShell
import Foundation
import Testing
import TestSupport

/// The libcurl shell against a scripted python server: TLS, bounded bodies and the
/// event-stream cases the simulator does not script (BOM, oversized events, wrong
/// content type).
@Suite("libcurl shell: TLS and event-stream edge cases")
struct CurlEdgeCaseTests {
    /// libcurl's CURLE_PEER_FAILED_VERIFICATION.
    static let peerFailedVerification: Int32 = 60

    func send(_ client: HTTPClient, _ request: HTTPClientRequest) -> HTTPClientResult? {
        let done = Mailbox<HTTPClientResult>()
        client.send(request) { done.put($0) }
        return done.take(timeoutSeconds: 10)
    }

    func status(_ result: HTTPClientResult?) -> Int? {
        if case .response(let response) = result { return response.status }
        return nil
    }

    @Test func httpsIsVerifiedWithTheCAFileAndKeepsOneConnection() throws {
        let server = try ScriptedHTTPServer(useTLS: true)
        var settings = HTTPClientSettings()
        settings.caFile = try #require(server.certificates?.caFile)
        let client = try HTTPClient(settings: settings)
        defer { client.stop() }

        for index in 0..<3 {
            let result = send(client, HTTPClientRequest(method: "PATCH", url: server.baseURL + "/echo", body: Array("\(index)".utf8)))
            #expect(status(result) == 200)
        }
        #expect(server.connectionCount == 1)
    }

    @Test func httpsRefusesAnUnknownCertificate() throws {
        let server = try ScriptedHTTPServer(useTLS: true)
        let client = try HTTPClient()
        defer { client.stop() }

        let result = send(client, HTTPClientRequest(method: "PATCH", url: server.baseURL + "/echo", headers: [("Authorization", "Token tls-secret")]))
        guard case .failure(let error) = result else {
            Issue.record("expected a TLS failure, got \(String(describing: result))")
            return
        }
        #expect(error.code == Self.peerFailedVerification)
        #expect(!error.description.contains("tls-secret"))
    }

    @Test func responseBodyIsBounded() throws {
        let server = try ScriptedHTTPServer()
        var settings = HTTPClientSettings()
        settings.maxResponseBytes = 1_000
        let client = try HTTPClient(settings: settings)
        defer { client.stop() }

        let result = send(client, HTTPClientRequest(method: "GET", url: server.baseURL + "/big"))
        if case .response(let response) = result {
            #expect(response.body.count <= 1_000)
        }
    }

    @Test func aGetAfterAPatchOnTheSameHandleIsAGet() throws {
        let server = try ScriptedHTTPServer()
        let client = try HTTPClient()
        defer { client.stop() }

        #expect(status(send(client, HTTPClientRequest(method: "PATCH", url: server.baseURL + "/echo", body: Array("1".utf8)))) == 200)
        #expect(status(send(client, HTTPClientRequest(method: "GET", url: server.baseURL + "/nothing"))) == 404)
        #expect(server.log.contains { $0.hasPrefix("GET /nothing") })
    }

    func stream(_ server: ScriptedHTTPServer, _ name: String, maxEventBytes: Int = 64 * 1024) -> (SSEClient, Mailbox<SSEClientEvent>) {
        var settings = SSEClientSettings(url: server.baseURL + "/events/" + name, headers: [("Authorization", "Token secret")])
        settings.initialReconnectDelayMs = 20
        settings.maxReconnectDelayMs = 2_000
        settings.maxEventBytes = maxEventBytes
        let seen = Mailbox<SSEClientEvent>()
        return (SSEClient(settings: settings) { seen.put($0) }, seen)
    }

    func events(_ seen: Mailbox<SSEClientEvent>) -> [StreamEvent] {
        seen.all.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test func bomRetryAndMultiLineDataSurviveAReconnect() throws {
        let server = try ScriptedHTTPServer()
        let (client, seen) = stream(server, "drop")
        try client.start()
        defer { client.stop() }

        #expect(seen.waitFor(count: 2) { if case .event = $0 { true } else { false } })
        #expect(events(seen) == [
            StreamEvent(id: "1", type: "widget.action.v1", data: "one"),
            StreamEvent(id: "2", type: "message", data: "two\nlines"),
        ])
        client.stop()  // the id is the loop's until then
        #expect(client.lastEventId == "2")
        #expect(server.log.contains("GET /events/drop last-event-id=1 accept=text/event-stream"))
        let dates = seen.all.compactMap { if case .connected(let date) = $0 { date } else { nil } }
        #expect(dates.count == 2 && dates.allSatisfy { $0.hasSuffix("GMT") })
    }

    @Test func anOversizedEventIsSkippedAndTheNextOneArrives() throws {
        let server = try ScriptedHTTPServer()
        let (client, seen) = stream(server, "oversized", maxEventBytes: 1_024)
        try client.start()
        defer { client.stop() }

        #expect(seen.waitFor { if case .event(let event) = $0 { event.data == "small" } else { false } })
        #expect(seen.all.contains { if case .invalidEvent = $0 { true } else { false } })
        #expect(events(seen).map(\.data) == ["small"])
        client.stop()  // the id is the loop's until then
        #expect(client.lastEventId == "ok")
    }

    @Test(arguments: ["wrongtype", "unavailable"])
    func aStreamThatIsNotAnEventStreamIsNeverConnected(name: String) throws {
        let server = try ScriptedHTTPServer()
        let (client, seen) = stream(server, name)
        try client.start()
        #expect(seen.waitFor(count: 2) { if case .disconnected = $0 { true } else { false } })
        client.stop()
        #expect(!seen.all.contains { if case .connected = $0 { true } else { false } })
    }
}

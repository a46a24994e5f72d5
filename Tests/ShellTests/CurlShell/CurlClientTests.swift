import AiviSim
import BridgeCore
import CurlShell
import Foundation
import HTTPServer
import Testing

/// The real libcurl against the project's own servers on loopback.
@Suite("libcurl shell: PATCH and the event stream")
struct CurlClientTests {
    static let token = "curl-test-token"
    static let content = #"{"content":{"template":"switchboard","actions":[{"id":"a","label":"A","kind":"toggle","on":true}]}}"#

    func simulator() throws -> AiviSimulator {
        var settings = SimSettings(token: Self.token, widgetSlugs: ["w"])
        settings.keepaliveIntervalMs = 300
        return try AiviSimulator.start(settings: settings)
    }

    func patch(_ client: HTTPClient, _ url: String, token: String = token) -> HTTPClientResult {
        let done = Mailbox<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "PATCH", url: url,
                                      headers: [("Authorization", "Token \(token)"), ("Content-Type", "application/json")],
                                      body: Array(Self.content.utf8))) { done.put($0) }
        guard let result = done.take(timeoutSeconds: 10) else {
            Issue.record("no completion within 10 s")
            return .response(HTTPClientResponse(status: -1, headers: [:], body: []))
        }
        return result
    }

    func status(_ result: HTTPClientResult) -> Int? {
        if case .response(let response) = result { return response.status }
        return nil
    }

    @Test func patchStatusesAndRetryAfter() throws {
        let sim = try simulator()
        defer { sim.stop() }
        let client = try HTTPClient()
        defer { client.stop() }
        #expect(status(patch(client, sim.baseURL + "/widget/w")) == 200)
        #expect(sim.content(slug: "w")?["actions"] != nil)
        #expect(status(patch(client, sim.baseURL + "/widget/w", token: "wrong")) == 401)
        #expect(status(patch(client, sim.baseURL + "/widget/nope")) == 404)
        sim.failNextPatches(count: 1, status: 429, retryAfterSeconds: 2)
        guard case .response(let limited) = patch(client, sim.baseURL + "/widget/w") else { Issue.record("no answer"); return }
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") == "2")
    }

    @Test func aSlowServerTimesOutWithoutTheTokenInTheError() throws {
        let sim = try simulator()
        defer { sim.stop() }
        var settings = HTTPClientSettings()
        settings.totalTimeoutMs = 300
        let client = try HTTPClient(settings: settings)
        defer { client.stop() }
        sim.delayAnswers(milliseconds: 2_000)
        guard case .failure(let error) = patch(client, sim.baseURL + "/widget/w") else { Issue.record("expected a timeout"); return }
        #expect(error.description.lowercased().contains("timeout") || error.description.lowercased().contains("timed out"))
        #expect(!error.description.contains(Self.token))
    }

    @Test func stopAbortsAPatchInProgressInsteadOfWaitingForIt() throws {
        let sim = try simulator()
        defer { sim.stop() }
        let client = try HTTPClient()
        sim.delayAnswers(milliseconds: 8_000)
        let arrived = Mailbox<Bool>()
        sim.observe { observation in if case .patchReceived = observation { arrived.put(true) } }
        let done = Mailbox<HTTPClientResult>()
        client.send(HTTPClientRequest(method: "PATCH", url: sim.baseURL + "/widget/w",
                                      headers: [("Authorization", "Token \(Self.token)")], body: Array(Self.content.utf8))) { done.put($0) }
        #expect(arrived.waitFor { $0 }, "the PATCH reached the server and waits for its answer")
        client.stop()
        guard let result = done.take(timeoutSeconds: 10) else { Issue.record("no completion"); return }
        if case .response(let response) = result { Issue.record("the transfer ran to its answer: \(response.status)") }
    }

    @Test func oneConnectionServesSeveralRequests() throws {
        let server = try HTTPServer.start(configuration: HTTPServerConfiguration(), handler: { _ in .response(.text(200, "ok")) })
        defer { server.stop() }
        let client = try HTTPClient()
        defer { client.stop() }
        for _ in 0..<5 { #expect(status(patch(client, "http://127.0.0.1:\(server.port)/x")) == 200) }
        #expect(server.openConnectionCount == 1)
    }

    @Test func theStreamDeliversPressesAndResumesWithLastEventID() throws {
        let sim = try simulator()
        defer { sim.stop() }
        let seen = Mailbox<SSEClientEvent>()
        let stream = SSEClient(settings: streamSettings(sim)) { seen.put($0) }
        try stream.start()
        defer { stream.stop() }
        #expect(seen.waitFor { if case .connected(let date) = $0 { date != nil } else { false } })
        // The widget needs content before its tile can be pressed.
        let client = try HTTPClient()
        defer { client.stop() }
        _ = patch(client, sim.baseURL + "/widget/w")
        let pressed = sim.press(phone: "p", widget: "w", action: "a")
        #expect(seen.waitFor { if case .event(let event) = $0 { event.id == pressed.eventId } else { false } })
        sim.dropEventStreams(.close)
        #expect(seen.waitFor { if case .disconnected = $0 { true } else { false } })
        let missed = sim.press(phone: "q", widget: "w", action: "a")
        #expect(seen.waitFor { if case .event(let event) = $0 { event.id == missed.eventId } else { false } })
        stream.stop()  // the id is the loop's until then
        #expect(stream.lastEventId == missed.eventId)
        let deliveries = seen.all.filter { if case .event(let event) = $0 { event.id == pressed.eventId } else { false } }
        #expect(deliveries.count == 1, "Last-Event-ID: the service replays only what came after")
    }

    @Test func aHalfOpenStreamIsDeclaredDeadAndReopened() throws {
        let sim = try simulator()
        defer { sim.stop() }
        let seen = Mailbox<SSEClientEvent>()
        var settings = streamSettings(sim)
        settings.deadConnectionTimeoutMs = 1_000
        let stream = SSEClient(settings: settings) { seen.put($0) }
        try stream.start()
        defer { stream.stop() }
        #expect(seen.waitFor { if case .connected = $0 { true } else { false } })
        sim.dropEventStreams(.halfOpen)
        #expect(seen.waitFor { if case .disconnected(let reason, _) = $0 { reason.contains("dead") } else { false } })
        #expect(seen.waitFor(count: 2) { if case .connected = $0 { true } else { false } })
    }

    @Test func aRefusedStreamBacksOffInsteadOfHotLooping() throws {
        let sim = try simulator()
        defer { sim.stop() }
        let seen = Mailbox<SSEClientEvent>()
        var settings = SSEClientSettings(url: sim.baseURL + "/events", headers: [("Authorization", "Token wrong")])
        settings.initialReconnectDelayMs = 200
        let stream = SSEClient(settings: settings) { seen.put($0) }
        try stream.start()
        #expect(seen.waitFor { if case .disconnected(let reason, 401) = $0 { reason.contains("HTTP 401") } else { false } })
        _ = seen.waitFor(count: 99, timeoutSeconds: 1.5) { _ in false }
        stream.stop()
        let refusals = seen.all.filter { if case .disconnected = $0 { true } else { false } }.count
        // Issue 22 item 5: a refused token waits as after five failures (200 ms × 2⁵, half
        // jittered: 3.2 s at least), not 200 ms doubling (2-4 refusals in 1.5 s before).
        #expect(refusals == 1, "a refused token backs off to the cap at once, got \(refusals) refusals in 1.5 s")
    }

    func streamSettings(_ sim: AiviSimulator) -> SSEClientSettings {
        var settings = SSEClientSettings(url: sim.baseURL + "/events", headers: [("Authorization", "Token \(Self.token)")])
        settings.initialReconnectDelayMs = 100
        return settings
    }
}

/// Collects values from other threads; waits on conditions with deadlines.
final class Mailbox<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var values: [Value] = []

    func put(_ value: Value) {
        condition.lock()
        values.append(value)
        condition.broadcast()
        condition.unlock()
    }

    var all: [Value] {
        condition.lock()
        defer { condition.unlock() }
        return values
    }

    /// The first value, waiting up to the deadline.
    func take(timeoutSeconds: Double) -> Value? {
        _ = waitFor(timeoutSeconds: timeoutSeconds) { _ in true }
        return all.first
    }

    /// Waits until `count` values satisfy `predicate`, up to the deadline.
    @discardableResult
    func waitFor(count: Int = 1, timeoutSeconds: Double = 10, _ predicate: (Value) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        condition.lock()
        defer { condition.unlock() }
        while values.filter(predicate).count < count {
            if !condition.wait(until: deadline) { return values.filter(predicate).count >= count }
        }
        return true
    }
}

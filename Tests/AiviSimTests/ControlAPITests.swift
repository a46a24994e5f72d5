import AiviSim
import BridgeCore
import Testing

/// The `/_sim/` control API over HTTP, the way the demo and outside tests drive it.
@Suite struct ControlAPITests {
    static func post(_ fixture: SimFixture, _ path: String, _ body: String) throws -> TestResponse {
        try TestHTTP.request(port: fixture.port, "POST", path, body: body)
    }

    @Test func pressesAsAPhoneAndReportsUnknownTiles() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let accepted = try Self.post(fixture, "/_sim/press", "{\"phone\":\"p\",\"widget\":\"living-room\",\"action\":\"porch\"}")
        let eventId = try JSONValue.parse(accepted.bodyText)["event_id"]?.stringValue
        #expect(eventId == fixture.simulator.events().first?.id)
        let unknownAction = try Self.post(fixture, "/_sim/press", "{\"phone\":\"p\",\"widget\":\"living-room\",\"action\":\"x\"}")
        #expect(unknownAction.status == 404)
        #expect(unknownAction.bodyText.contains("unknown_action"))
        let unknownWidget = try Self.post(fixture, "/_sim/press", "{\"phone\":\"p\",\"widget\":\"attic\",\"action\":\"porch\"}")
        #expect(unknownWidget.status == 404)
        #expect(try Self.post(fixture, "/_sim/press", "{\"phone\":\"p\"}").status == 400)
        #expect(try Self.post(fixture, "/_sim/press", "not json").status == 400)
    }

    @Test func showsContentAndHistoryWithReceiveTimes() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        fixture.clock.advance(byMs: 1_250)
        try fixture.publish(SimFixture.actions(porchOn: true))
        let response = try TestHTTP.request(port: fixture.port, "GET", "/_sim/widgets/living-room")
        let json = try JSONValue.parse(response.bodyText)
        guard case .array(let history)? = json["history"] else {
            Issue.record("no history")
            return
        }
        #expect(history.map { $0["received_at"]?.stringValue } == ["2026-11-29T21:00:00.000Z", "2026-11-29T21:00:01.250Z"])
        #expect(json["content"] == fixture.simulator.content(slug: SimFixture.slug))
        #expect(try TestHTTP.request(port: fixture.port, "GET", "/_sim/widgets/attic").status == 404)
    }

    @Test func injectsFaultsOverHTTP() throws {
        let fixture = try SimFixture()
        #expect(try Self.post(fixture, "/_sim/faults/fail-patches", "{\"count\":1,\"status\":429,\"retry_after_s\":3}").status == 200)
        let failed = try TestHTTP.request(port: fixture.port, "PATCH", "/widget/living-room",
                                          headers: [("Authorization", "Token \(SimFixture.token)")],
                                          body: SimFixture.body(actions: SimFixture.actions()))
        #expect(failed.status == 429)
        #expect(failed.header("Retry-After") == "3")
        #expect(try fixture.publish() == 200)
        let client = try EventStreamTests.openStream(fixture)
        #expect(try Self.post(fixture, "/_sim/faults/duplicate-events", "{\"count\":1}").status == 200)
        #expect(try Self.post(fixture, "/_sim/faults/inject-event", "{\"kind\":\"unknown_type\"}").status == 200)
        #expect(client.waitFor { $0.contains(where: { $0.event == "widget.unknown.v9" }) })
        #expect(try Self.post(fixture, "/_sim/faults/drop-streams", "{\"mode\":\"close\"}").status == 200)
        #expect(client.connection.readToEnd())
        #expect(try Self.post(fixture, "/_sim/faults/delay-events", "{\"ms\":100}").status == 200)
        #expect(try Self.post(fixture, "/_sim/faults/delay-answers", "{\"ms\":1}").status == 200)
        #expect(try Self.post(fixture, "/_sim/faults/clear", "").status == 200)
        #expect(try Self.post(fixture, "/_sim/faults/drop-streams", "{\"mode\":\"sideways\"}").status == 400)
        #expect(try Self.post(fixture, "/_sim/faults/melt", "{}").status == 404)
        #expect(try Self.post(fixture, "/_sim/faults/delay-events", "{\"ms\":9223372036854775807}").status == 400)
        #expect(try Self.post(fixture, "/_sim/clock/advance", "{\"ms\":9223372036854775807}").status == 400)
        #expect(try Self.post(fixture, "/_sim/clock/advance", "{\"ms\":-1}").status == 400)
        let streams = try TestHTTP.request(port: fixture.port, "GET", "/_sim/streams")
        #expect(streams.status == 200)
        let events = try TestHTTP.request(port: fixture.port, "GET", "/_sim/events")
        #expect(events.bodyText == "{\"events\":[]}")
    }

    @Test("reset-patches: the next PATCH gets no answer at all (its connection is reset), the one after is served")
    func resetsPatchConnections() throws {
        let fixture = try SimFixture()
        #expect(try Self.post(fixture, "/_sim/faults/reset-patches", "{\"count\":1}").status == 200)
        let headers = [("Authorization", "Token \(SimFixture.token)")]
        let body = SimFixture.body(actions: SimFixture.actions())
        #expect(throws: (any Error).self) {
            try TestHTTP.request(port: fixture.port, "PATCH", "/widget/living-room", headers: headers, body: body)
        }
        #expect(fixture.simulator.content(slug: SimFixture.slug) == nil, "the reset PATCH was not stored")
        let served = try TestHTTP.request(port: fixture.port, "PATCH", "/widget/living-room", headers: headers, body: body)
        #expect(served.status == 200)
        #expect(try Self.post(fixture, "/_sim/faults/reset-patches", "{}").status == 400)
    }

    @Test func refusesToAdvanceTheSystemClock() throws {
        let simulator = try AiviSimulator.start(settings: SimSettings(token: "t", widgetSlugs: ["w"]))
        defer { simulator.stop() }
        let response = try TestHTTP.request(port: simulator.port, "POST", "/_sim/clock/advance", body: "{\"ms\":1}")
        #expect(response.status == 409)
    }

    @Test func unknownPathsAndMethodsAreRefused() throws {
        let fixture = try SimFixture()
        #expect(try TestHTTP.request(port: fixture.port, "GET", "/nothing").status == 404)
        #expect(try TestHTTP.request(port: fixture.port, "GET", "/widget/living-room").status == 405)
        #expect(try TestHTTP.request(port: fixture.port, "POST", "/events").status == 405)
    }
}

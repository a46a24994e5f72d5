import AiviSim
import BridgeCore
import Testing
import TestSupport

/// `GET /events`: framing, replay, expiry, keepalives and stream faults.
@Suite struct EventStreamTests {
    /// A fixture with content published and a stream open (registered with the simulator).
    static func openStream(_ fixture: SimFixture, lastEventId: String? = nil) throws -> EventStreamClient {
        let before = fixture.simulator.openEventStreamCount
        let client = try EventStreamClient(port: fixture.port, token: SimFixture.token, lastEventId: lastEventId)
        #expect(waitUntil { fixture.simulator.openEventStreamCount > before })
        return client
    }

    static func ids(_ client: EventStreamClient) -> [String] {
        client.eventFrames.compactMap(\.id)
    }

    @Test func refusesAnyTokenButTheOwners() throws {
        let fixture = try SimFixture()
        let wrong = try TestHTTP.request(port: fixture.port, "GET", "/events", headers: [("Authorization", "Token nope")])
        let missing = try TestHTTP.request(port: fixture.port, "GET", "/events")
        #expect(wrong.status == 401)
        #expect(missing.status == 401)
    }

    @Test func framesAPressAsTheContractShows() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let client = try Self.openStream(fixture)
        #expect(client.status == 200)
        #expect(client.header("Content-Type") == "text/event-stream")
        #expect(client.header("Date") == "Sun, 29 Nov 2026 21:00:00 GMT")
        fixture.clock.advance(byMs: 120)
        let outcome = fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "porch")
        let eventId = try #require(outcome.eventId)
        #expect(client.waitFor { $0.contains(where: { $0.id == eventId }) })
        let frame = try #require(client.eventFrames.first)
        #expect(frame.event == "widget.action.v1")
        let expected = "{\"id\":\"\(eventId)\",\"type\":\"widget.action.v1\",\"created_at\":\"2026-11-29T21:00:00.120Z\","
            + "\"expires_at\":\"2026-11-29T21:00:05.120Z\",\"data\":{\"widget\":\"living-room\",\"action\":\"porch\","
            + "\"kind\":\"toggle\",\"value\":true}}"
        #expect(frame.data == expected)
        #expect(client.text.contains("id: \(eventId)\nevent: widget.action.v1\ndata: {"))
    }

    @Test func buttonEventsCarryNoValue() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let client = try Self.openStream(fixture)
        _ = fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "movie")
        #expect(client.waitFor { !$0.filter { $0.data != nil }.isEmpty })
        let data = try JSONValue.parse(try #require(client.eventFrames.first?.data))
        #expect(data["data"] == .object([JSONMember("widget", .string("living-room")),
                                         JSONMember("action", .string("movie")),
                                         JSONMember("kind", .string("button"))]))
    }

    @Test func replaysUnexpiredEventsAfterLastEventId() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let ids = ["porch", "movie", "fountain"].compactMap {
            fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: $0).eventId
        }
        #expect(ids.count == 3)
        let resumed = try Self.openStream(fixture, lastEventId: ids[0])
        #expect(resumed.waitFor { $0.compactMap(\.id).count >= 2 })
        let all = try Self.openStream(fixture)
        #expect(all.waitFor { $0.compactMap(\.id).count >= 3 })
        let unknown = try Self.openStream(fixture, lastEventId: "evt_unknown")
        #expect(unknown.waitFor { $0.compactMap(\.id).count >= 3 })
        // A later press proves nothing else was queued before it.
        let later = try #require(fixture.simulator.press(phone: "bob", widget: SimFixture.slug, action: "movie").eventId)
        #expect(resumed.waitFor { $0.contains(where: { $0.id == later }) })
        #expect(Self.ids(resumed) == [ids[1], ids[2], later])
        #expect(all.waitFor { $0.contains(where: { $0.id == later }) })
        #expect(Self.ids(all) == ids + [later])
    }

    @Test(arguments: [(4_999, true), (5_000, false)] as [(Int64, Bool)])
    func replaysOnlyUntilExpiry(ageMs: Int64, isReplayed: Bool) throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let old = try #require(fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "porch").eventId)
        fixture.clock.advance(byMs: ageMs)
        let client = try Self.openStream(fixture)
        let fresh = try #require(fixture.simulator.press(phone: "bob", widget: SimFixture.slug, action: "movie").eventId)
        #expect(client.waitFor { $0.contains(where: { $0.id == fresh }) })
        #expect(Self.ids(client) == (isReplayed ? [old, fresh] : [fresh]))
    }

    @Test func doesNotDeliverAfterExpiryEvenWhenDelayed() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let client = try Self.openStream(fixture)
        fixture.simulator.delayEvents(milliseconds: 3_000)
        let delayed = try #require(fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "porch").eventId)
        fixture.simulator.delayEvents(milliseconds: 6_000)
        let lost = try #require(fixture.simulator.press(phone: "bob", widget: SimFixture.slug, action: "porch").eventId)
        fixture.simulator.clearFaults()
        fixture.clock.advance(byMs: 3_000)
        #expect(client.waitFor { $0.contains(where: { $0.id == delayed }) })
        fixture.clock.advance(byMs: 3_000)
        let fresh = try #require(fixture.simulator.press(phone: "carol", widget: SimFixture.slug, action: "movie").eventId)
        #expect(client.waitFor { $0.contains(where: { $0.id == fresh }) })
        #expect(Self.ids(client) == [delayed, fresh])
        #expect(!Self.ids(client).contains(lost))
    }

    @Test func sendsAKeepaliveAfterSilence() throws {
        let fixture = try SimFixture { $0.keepaliveIntervalMs = 15_000 }
        let client = try Self.openStream(fixture)
        fixture.clock.advance(byMs: 14_999)
        _ = fixture.simulator.press(phone: "alice", widget: "garden", action: "none")
        fixture.clock.advance(byMs: 1)
        #expect(client.waitFor { $0.contains(where: { $0.comment == "keepalive" }) })
        #expect(client.eventFrames.isEmpty)
    }

    @Test func startsWithRetryWhenConfigured() throws {
        let fixture = try SimFixture { $0.sseRetryMs = 2_500 }
        let client = try Self.openStream(fixture)
        #expect(client.connection.read(until: { _ in client.text.hasPrefix("retry: 2500\n\n") }))
    }

    @Test func deliversEveryPressToEveryOpenStream() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let first = try Self.openStream(fixture)
        let second = try Self.openStream(fixture)
        let id = try #require(fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "porch").eventId)
        #expect(first.waitFor { $0.contains(where: { $0.id == id }) })
        #expect(second.waitFor { $0.contains(where: { $0.id == id }) })
    }

    @Test func dropsStreamsCleanly() throws {
        let fixture = try SimFixture()
        let client = try Self.openStream(fixture)
        fixture.simulator.dropEventStreams(.close)
        #expect(client.connection.readToEnd())
        #expect(client.connection.receivedText.hasSuffix("0\r\n\r\n"))
        #expect(waitUntil { fixture.simulator.openEventStreamCount == 0 })
    }

    @Test func goesHalfOpenWithoutClosing() throws {
        let fixture = try SimFixture { $0.keepaliveIntervalMs = 1_000 }
        try fixture.publish()
        let silent = try Self.openStream(fixture)
        fixture.simulator.dropEventStreams(.halfOpen)
        let id = try #require(fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "porch").eventId)
        let fresh = try Self.openStream(fixture)
        #expect(fresh.waitFor { $0.contains(where: { $0.id == id }) })
        fixture.clock.advance(byMs: 2_000)
        #expect(fresh.waitFor { $0.contains(where: { $0.comment == "keepalive" }) })
        silent.connection.readSome(timeoutMs: 20)
        #expect(silent.frames.isEmpty)
        #expect(!silent.connection.isClosedByPeer)
        #expect(fixture.simulator.openEventStreamCount == 2)
    }

    @Test func deliversAnEventTwiceWhenAsked() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let client = try Self.openStream(fixture)
        fixture.simulator.duplicateNextEvents(count: 1)
        let twice = try #require(fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "porch").eventId)
        let once = try #require(fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "movie").eventId)
        #expect(client.waitFor { $0.contains(where: { $0.id == once }) })
        #expect(Self.ids(client) == [twice, twice, once])
    }

    @Test(arguments: [InjectedEventKind.malformed, .unknownType])
    func sendsInjectedEvents(kind: InjectedEventKind) throws {
        let fixture = try SimFixture()
        let client = try Self.openStream(fixture)
        fixture.simulator.injectEvent(kind)
        #expect(client.waitFor { !$0.filter { $0.data != nil }.isEmpty })
        let frame = try #require(client.eventFrames.first)
        let data = try #require(frame.data)
        switch kind {
        case .malformed:
            #expect(frame.event == "widget.action.v1")
            #expect(throws: JSONParseError.self) { try JSONValue.parse(data) }
        case .unknownType:
            #expect(frame.event == "widget.unknown.v9")
            #expect(try JSONValue.parse(data)["type"] == .string("widget.unknown.v9"))
        }
    }

    @Test func aStreamThatDoesNotReadDoesNotBlockPatches() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let stalled = try Self.openStream(fixture)
        for _ in 0..<20 { _ = fixture.simulator.press(phone: "alice", widget: SimFixture.slug, action: "movie") }
        #expect(try fixture.publish() == 200)
        _ = stalled
    }
}

import AiviSim
import BridgeCore
import Testing

/// `PATCH /widget/{slug}`: every answer the service gives, through curl.
@Suite struct PatchWidgetTests {
    static func curlPatch(_ fixture: SimFixture, slug: String = SimFixture.slug, token: String? = SimFixture.token,
                          body: String) throws -> (status: Int, body: String) {
        var arguments = ["-X", "PATCH", "-H", "Content-Type: application/json", "--data-binary", body]
        if let token { arguments += ["-H", "Authorization: Token \(token)"] }
        return try CurlProcess.request(arguments + ["http://127.0.0.1:\(fixture.port)/widget/\(slug)"])
    }

    @Test func storesValidContentAsAWhole() throws {
        let fixture = try SimFixture()
        let first = try Self.curlPatch(fixture, body: SimFixture.body(actions: SimFixture.actions()))
        #expect(first.status == 200)
        let second = try Self.curlPatch(fixture, body: SimFixture.body(actions: "[{\"id\":\"only\",\"label\":\"Only\"}]"))
        #expect(second.status == 200)
        let content = try #require(fixture.simulator.content(slug: SimFixture.slug))
        #expect(content["actions"] == .array([.object([JSONMember("id", .string("only")), JSONMember("label", .string("Only"))])]))
        let history = fixture.simulator.history(slug: SimFixture.slug)
        #expect(history.count == 2)
        #expect(history.map(\.receivedAtMs) == [fixture.clock.nowMs, fixture.clock.nowMs])
        #expect(fixture.simulator.content(slug: "garden") == nil)
    }

    @Test(arguments: [
        ("wrong token", SimFixture.slug, "not-the-token", 401),
        ("unknown slug", "kitchen", SimFixture.token, 404),
    ])
    func refusesWrongTokenAndUnknownSlug(name: String, slug: String, token: String, status: Int) throws {
        let fixture = try SimFixture()
        let result = try Self.curlPatch(fixture, slug: slug, token: token, body: SimFixture.body(actions: SimFixture.actions()))
        #expect(result.status == status, "\(name)")
        #expect(try JSONValue.parse(result.body)["error"]?.stringValue != nil, "\(name)")
        #expect(fixture.simulator.history(slug: SimFixture.slug).isEmpty)
    }

    @Test func refusesAMissingAuthorization() throws {
        let fixture = try SimFixture()
        let result = try Self.curlPatch(fixture, token: nil, body: SimFixture.body(actions: SimFixture.actions()))
        #expect(result.status == 401)
    }

    @Test(arguments: [
        ("not JSON", "{\"content\":"),
        ("not an object", "[1,2]"),
        ("content missing", "{\"actions\":[]}"),
        ("content not an object", "{\"content\":[]}"),
        ("template missing", "{\"content\":{\"actions\":[]}}"),
        ("other template", "{\"content\":{\"template\":\"gauge\",\"actions\":[]}}"),
        ("actions missing", "{\"content\":{\"template\":\"switchboard\"}}"),
        ("actions not an array", "{\"content\":{\"template\":\"switchboard\",\"actions\":{}}}"),
        ("action not an object", SimFixture.body(actions: "[\"porch\"]")),
        ("id missing", SimFixture.body(actions: "[{\"label\":\"A\"}]")),
        ("id empty", SimFixture.body(actions: "[{\"id\":\"\",\"label\":\"A\"}]")),
        ("id not a string", SimFixture.body(actions: "[{\"id\":7,\"label\":\"A\"}]")),
        ("duplicate id", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\"},{\"id\":\"a\",\"label\":\"B\"}]")),
        ("label missing", SimFixture.body(actions: "[{\"id\":\"a\"}]")),
        ("label not a string", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":1}]")),
        ("unknown kind", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\",\"kind\":\"slider\"}]")),
        ("toggle without on", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\",\"kind\":\"toggle\"}]")),
        ("on not a bool", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\",\"kind\":\"toggle\",\"on\":\"yes\"}]")),
        ("active not a bool", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\",\"active\":1}]")),
        ("icon not a string", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\",\"icon\":false}]")),
        ("bad hex color", SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"A\",\"color\":\"#12345\"}]")),
    ])
    func refusesInvalidContentWith400(name: String, body: String) throws {
        let fixture = try SimFixture()
        let result = try Self.curlPatch(fixture, body: body)
        #expect(result.status == 400, "\(name)")
        let message = try JSONValue.parse(result.body)["error"]?.stringValue
        #expect(message?.isEmpty == false, "\(name)")
        #expect(fixture.simulator.history(slug: SimFixture.slug).isEmpty, "\(name)")
    }

    @Test func acceptsExtraFieldsVerbatim() throws {
        let fixture = try SimFixture()
        let actions = "[{\"id\":\"a\",\"label\":\"A\",\"gradient\":[\"#FF0000\",\"#00FF00\"],\"words\":{\"on\":\"Open\"}}]"
        #expect(try Self.curlPatch(fixture, body: SimFixture.body(actions: actions)).status == 200)
        let stored = fixture.simulator.content(slug: SimFixture.slug)?["actions"]?.serialized()
        #expect(stored == actions)
    }

    @Test func refusesAnOversizedBodyWith413() throws {
        let fixture = try SimFixture { $0.maxBodyBytes = 2_000 }
        let label = String(repeating: "x", count: 3_000)
        let result = try Self.curlPatch(fixture, body: SimFixture.body(actions: "[{\"id\":\"a\",\"label\":\"\(label)\"}]"))
        #expect(result.status == 413)
    }

    @Test(arguments: [(500, nil), (503, nil), (429, 7), (401, nil)] as [(Int, Int?)])
    func failsTheNextPatchesAsInjected(status: Int, retryAfterSeconds: Int?) throws {
        let fixture = try SimFixture()
        fixture.simulator.failNextPatches(count: 2, status: status, retryAfterSeconds: retryAfterSeconds)
        let body = SimFixture.body(actions: SimFixture.actions())
        let headers = [("Authorization", "Token \(SimFixture.token)")]
        let first = try TestHTTP.request(port: fixture.port, "PATCH", "/widget/\(SimFixture.slug)", headers: headers, body: body)
        let second = try TestHTTP.request(port: fixture.port, "PATCH", "/widget/\(SimFixture.slug)", headers: headers, body: body)
        let third = try TestHTTP.request(port: fixture.port, "PATCH", "/widget/\(SimFixture.slug)", headers: headers, body: body)
        #expect([first.status, second.status, third.status] == [status, status, 200])
        #expect(first.header("Retry-After") == retryAfterSeconds.map(String.init))
        #expect(fixture.simulator.history(slug: SimFixture.slug).count == 1)
    }

    @Test func delaysAnswersWhenAsked() throws {
        let fixture = try SimFixture()
        fixture.simulator.delayAnswers(milliseconds: 30)
        #expect(try fixture.publish() == 200)
        fixture.simulator.clearFaults()
        #expect(try fixture.publish() == 200)
    }

    @Test func answersWithTheServersDate() throws {
        let fixture = try SimFixture()
        let response = try TestHTTP.request(port: fixture.port, "PATCH", "/widget/\(SimFixture.slug)",
                                            headers: [("Authorization", "Token \(SimFixture.token)")],
                                            body: SimFixture.body(actions: SimFixture.actions()))
        #expect(response.header("Date") == "Sun, 29 Nov 2026 21:00:00 GMT")
    }
}

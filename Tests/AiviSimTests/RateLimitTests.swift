import AiviSim
import Testing

/// The documented press limits, at their exact edges, on the manual clock.
@Suite struct RateLimitTests {
    static func press(_ fixture: SimFixture, _ phone: String = "alice", action: String = "movie") -> PressOutcome {
        fixture.simulator.press(phone: phone, widget: SimFixture.slug, action: action)
    }

    @Test func phoneBurstOfEightThenOneASecond() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        for _ in 0..<8 { #expect(Self.press(fixture).isAccepted) }
        #expect(Self.press(fixture).refusal == .phoneRateLimit)
        fixture.clock.advance(byMs: 999)
        #expect(Self.press(fixture).refusal == .phoneRateLimit)
        fixture.clock.advance(byMs: 1)
        #expect(Self.press(fixture).isAccepted)
        #expect(Self.press(fixture).refusal == .phoneRateLimit)
        #expect(Self.press(fixture, "bob").isAccepted, "another phone has its own limit")
        #expect(fixture.simulator.events().count == 10, "refused presses are never delivered")
    }

    @Test func refusedPressesConsumeNothing() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        for _ in 0..<8 { #expect(Self.press(fixture).isAccepted) }
        for _ in 0..<5 { #expect(!Self.press(fixture).isAccepted) }
        fixture.clock.advance(byMs: 1_000)
        #expect(Self.press(fixture).isAccepted)
    }

    @Test func phoneAtMostSixtyAMinute() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        for _ in 0..<8 { #expect(Self.press(fixture).isAccepted) }
        for _ in 1...52 {
            fixture.clock.advance(byMs: 1_000)
            #expect(Self.press(fixture).isAccepted)
        }
        fixture.clock.advance(byMs: 1_000)
        #expect(Self.press(fixture).refusal == .phoneMinuteLimit, "the 61st press within a minute")
        fixture.clock.advance(byMs: 6_999)
        #expect(Self.press(fixture).refusal == .phoneMinuteLimit)
        fixture.clock.advance(byMs: 1)
        #expect(Self.press(fixture).isAccepted, "the first burst left the window 60 s after it")
    }

    @Test func accountBurstOfTwentyThenOneASecond() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        for phone in ["alice", "bob"] {
            for _ in 0..<8 { #expect(Self.press(fixture, phone).isAccepted) }
        }
        for _ in 0..<4 { #expect(Self.press(fixture, "carol").isAccepted) }
        #expect(Self.press(fixture, "carol").refusal == .accountRateLimit)
        #expect(Self.press(fixture, "dave").refusal == .accountRateLimit)
        fixture.clock.advance(byMs: 999)
        #expect(Self.press(fixture, "dave").refusal == .accountRateLimit)
        fixture.clock.advance(byMs: 1)
        #expect(Self.press(fixture, "dave").isAccepted)
        #expect(Self.press(fixture, "erin").refusal == .accountRateLimit)
        #expect(fixture.simulator.events().count == 21)
    }

    @Test func limitsArePerWidget() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        try fixture.publish(slug: "garden")
        for _ in 0..<8 { #expect(Self.press(fixture).isAccepted) }
        #expect(fixture.simulator.press(phone: "alice", widget: "garden", action: "movie").isAccepted)
    }

    @Test func controlAPIAnswersRefusalsWithTheirReason() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        let body = "{\"phone\":\"alice\",\"widget\":\"living-room\",\"action\":\"movie\"}"
        for _ in 0..<8 {
            let response = try TestHTTP.request(port: fixture.port, "POST", "/_sim/press", body: body)
            #expect(response.bodyText.hasPrefix("{\"accepted\":true,\"event_id\":\"evt_"))
        }
        let refused = try TestHTTP.request(port: fixture.port, "POST", "/_sim/press", body: body)
        #expect(refused.status == 200)
        #expect(refused.bodyText == "{\"accepted\":false,\"reason\":\"phone_rate_limit\"}")
    }
}

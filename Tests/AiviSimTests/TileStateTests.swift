import AiviSim
import Testing

/// What a tile shows on each phone, per the guide's table, on the manual clock.
@Suite struct TileStateTests {
    static func press(_ fixture: SimFixture, _ phone: String, _ action: String) -> PressOutcome {
        fixture.simulator.press(phone: phone, widget: SimFixture.slug, action: action)
    }

    @Test func restingStatesFollowWhatWasPublished() throws {
        let fixture = try SimFixture()
        #expect(fixture.simulator.tiles(phone: "alice", widget: SimFixture.slug).isEmpty)
        try fixture.publish(SimFixture.actions(porchOn: false, fountainOn: true, movieActive: false))
        #expect(fixture.state("alice", "porch") == .off)
        #expect(fixture.state("alice", "fountain") == .on)
        #expect(fixture.state("alice", "movie") == .idle)
        fixture.clock.advance(byMs: 2_000)
        try fixture.publish(SimFixture.actions(movieActive: true))
        #expect(fixture.state("alice", "movie") == .active)
    }

    @Test func toggleTurnsOnUntilTheConfirmingUpdate() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        #expect(Self.press(fixture, "alice", "porch").isAccepted)
        #expect(fixture.state("alice", "porch") == .turningOn)
        fixture.clock.advance(byMs: 300)
        try fixture.publish(SimFixture.actions(porchOn: true))
        #expect(fixture.state("alice", "porch") == .on)
    }

    @Test func toggleTurnsOffUntilTheConfirmingUpdate() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        #expect(Self.press(fixture, "alice", "fountain").isAccepted)
        #expect(fixture.state("alice", "fountain") == .turningOff)
        try fixture.publish(SimFixture.actions(fountainOn: false))
        #expect(fixture.state("alice", "fountain") == .off)
    }

    @Test func withStrictConfirmationAnUpdateThatDoesNotConfirmKeepsTheWait() throws {
        let fixture = try SimFixture { $0.rules.toggleWaitEndsOnAnyUpdate = false }
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        try fixture.publish(SimFixture.actions(porchOn: false, fountainOn: false))
        #expect(fixture.state("alice", "porch") == .turningOn)
        #expect(fixture.state("alice", "fountain") == .off)
    }

    /// The default: "publish the true state even when a press failed ... the
    /// phone shows off instead of waiting" — any later update ends the wait.
    @Test func byDefaultTheTrueStateEndsTheWait() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        try fixture.publish(SimFixture.actions(porchOn: false, fountainOn: false))
        #expect(fixture.state("alice", "porch") == .off)
    }

    @Test func toggleShowsNoResponseAfterFifteenSecondsForAboutAMinute() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        fixture.clock.advance(byMs: 14_999)
        #expect(fixture.state("alice", "porch") == .turningOn)
        fixture.clock.advance(byMs: 1)
        #expect(fixture.state("alice", "porch") == .noResponse)
        let tile = fixture.simulator.tiles(phone: "alice", widget: SimFixture.slug).first { $0.id == "porch" }
        #expect(tile?.publishedOnOrActive == false, "No response shows the state last published")
        fixture.clock.advance(byMs: 59_999)
        #expect(fixture.state("alice", "porch") == .noResponse)
        fixture.clock.advance(byMs: 1)
        #expect(fixture.state("alice", "porch") == .off)
    }

    @Test func aConfirmingUpdateEndsTheWaitEvenAfterNoResponse() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        fixture.clock.advance(byMs: 20_000)
        #expect(fixture.state("alice", "porch") == .noResponse)
        try fixture.publish(SimFixture.actions(porchOn: true))
        #expect(fixture.state("alice", "porch") == .on)
    }

    @Test func buttonShowsSentUntilAnyLaterUpdate() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "movie")
        #expect(fixture.state("alice", "movie") == .sent)
        fixture.clock.advance(byMs: 4_000)
        try fixture.publish()
        #expect(fixture.state("alice", "movie") == .idle, "an identical update answers a button")
    }

    @Test func buttonSentLastsFivePlusTwoSecondsThenGoesBack() throws {
        let fixture = try SimFixture()
        try fixture.publish(SimFixture.actions(movieActive: true))
        _ = Self.press(fixture, "alice", "movie")
        fixture.clock.advance(byMs: 6_999)
        #expect(fixture.state("alice", "movie") == .sent)
        fixture.clock.advance(byMs: 1)
        #expect(fixture.state("alice", "movie") == .active)
    }

    @Test func aRefusedPressGoesStraightBackWithNoMarker() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        for _ in 0..<8 { _ = Self.press(fixture, "alice", "movie") }
        let refused = Self.press(fixture, "alice", "porch")
        #expect(refused.refusal == .phoneRateLimit)
        #expect(fixture.state("alice", "porch") == .off)
    }

    @Test func aPressAsksForTheOppositeOfWhatTheTileShows() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        _ = Self.press(fixture, "alice", "porch")
        let values = fixture.simulator.events().map(\.value)
        #expect(values == [true, false])
        #expect(fixture.state("alice", "porch") == .turningOff)
    }

    @Test func otherPhonesGetTheLatestContentAtMostEveryTwoSeconds() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        #expect(fixture.state("bob", "porch") == .off)
        _ = Self.press(fixture, "alice", "porch")
        #expect(fixture.state("bob", "porch") == .off, "a press shows only on the pressing phone")
        fixture.clock.advance(byMs: 500)
        try fixture.publish(SimFixture.actions(porchOn: true))
        #expect(fixture.state("alice", "porch") == .on, "the pressing phone gets the update at once")
        #expect(fixture.state("bob", "porch") == .on, "first update since bob's last")
        fixture.clock.advance(byMs: 500)
        try fixture.publish(SimFixture.actions(porchOn: true, fountainOn: false))
        fixture.clock.advance(byMs: 500)
        try fixture.publish(SimFixture.actions(porchOn: false, fountainOn: false))
        #expect(fixture.state("bob", "porch") == .on)
        #expect(fixture.state("bob", "fountain") == .on)
        fixture.clock.advance(byMs: 999)
        #expect(fixture.state("bob", "porch") == .on)
        fixture.clock.advance(byMs: 1)
        #expect(fixture.state("bob", "porch") == .off, "the latest content, 2 s after the last update")
        #expect(fixture.state("bob", "fountain") == .off)
    }

    @Test func thePressingPhoneIsNotThrottled() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "movie")
        try fixture.publish()
        #expect(fixture.state("alice", "movie") == .idle)
        _ = Self.press(fixture, "alice", "porch")
        fixture.clock.advance(byMs: 100)
        try fixture.publish(SimFixture.actions(porchOn: true))
        #expect(fixture.state("alice", "porch") == .on)
    }

    @Test func controlAPIShowsEachPhonesTiles() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        let alice = try TestHTTP.request(port: fixture.port, "GET", "/_sim/phones/alice")
        #expect(alice.bodyText.contains("{\"id\":\"porch\",\"label\":\"Porch light\",\"kind\":\"toggle\",\"state\":\"Turning on\",\"on\":false}"))
        let advanced = try TestHTTP.request(port: fixture.port, "POST", "/_sim/clock/advance", body: "{\"ms\":15000}")
        #expect(advanced.bodyText.contains("\"now\":\"2026-11-29T21:00:15.000Z\""))
        let later = try TestHTTP.request(port: fixture.port, "GET", "/_sim/phones/alice")
        #expect(later.bodyText.contains("\"state\":\"No response\""))
    }

    @Test func theAssumedAnyUpdateRuleIsOneSetting() throws {
        let fixture = try SimFixture { $0.rules.toggleWaitEndsOnAnyUpdate = true }
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        try fixture.publish(SimFixture.actions(porchOn: false))
        #expect(fixture.state("alice", "porch") == .off, "the true state published after a failed press")
    }

    @Test func severalPhonesShowTheSameWidgetEachTheirOwnWay() throws {
        let fixture = try SimFixture()
        try fixture.publish()
        _ = Self.press(fixture, "alice", "porch")
        _ = Self.press(fixture, "bob", "movie")
        #expect(fixture.state("alice", "porch") == .turningOn)
        #expect(fixture.state("alice", "movie") == .idle)
        #expect(fixture.state("bob", "porch") == .off)
        #expect(fixture.state("bob", "movie") == .sent)
        #expect(fixture.state("carol", "porch") == .off)
    }
}

import Testing
@testable import BridgeCore

/// Issue 21 section 3: a scene is active exactly while every target is known,
/// reachable and in its scene state, and one input's changes are all applied
/// before anything is rendered.
@Suite("Scenes: the derived highlight")
struct SceneHighlightTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var reports: [(String, String)]
        var active: Bool
        var description: String { name }
    }

    static let evening = ["porch/state": "ON", "fountain/state": "OFF"]

    @Test(arguments: [
        Case(name: "both in their state", reports: [("porch/state", "ON"), ("fountain/state", "OFF")], active: true),
        Case(name: "one off its state", reports: [("porch/state", "OFF"), ("fountain/state", "OFF")], active: false),
        Case(name: "one never reported", reports: [("porch/state", "ON")], active: false),
        Case(name: "one unreachable, in its state", reports: [("porch/state", "ON"), ("fountain/state", "OFF"),
                                                                ("fountain/availability", "offline")], active: false),
        Case(name: "back online", reports: [("porch/state", "ON"), ("fountain/state", "OFF"), ("fountain/availability", "offline"),
                                            ("fountain/availability", "online")], active: true),
    ])
    func eveningIsActiveExactlyWhileItsTilesHold(testCase: Case) throws {
        var harness = try BridgeHarness(scenes: [:])
        for (topic, payload) in testCase.reports { harness.ackAll(harness.message(topic, payload)) }
        harness.endPublishIntervals()
        let body = try #require(harness.bridge.acknowledgedBody(slug: "home"))
        #expect(BridgeHarness.highlights(body)["evening"] == testCase.active)
    }

    struct CoverCase: Sendable, CustomStringConvertible {
        var word: String
        var allOffActive: Bool
        var description: String { word }
    }

    /// A cover's `off` is closed and at rest; a lock's `on` is locked, fully.
    @Test(arguments: [
        CoverCase(word: "closed", allOffActive: true), CoverCase(word: "open", allOffActive: false),
        CoverCase(word: "closing", allOffActive: false), CoverCase(word: "opening", allOffActive: false),
        CoverCase(word: "stopped", allOffActive: false),
    ])
    func aCoverHoldsClosedOnlyWhenItSaysClosed(testCase: CoverCase) throws {
        var harness = try BridgeHarness(scenes: ["porch": false, "fountain": false])
        harness.ackAll(harness.message("garage/state", testCase.word))
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "all_off")]?.isActive == testCase.allOffActive)
    }

    @Test(arguments: ["LOCKING", "JAMMED", "UNLOCKED"])
    func aLockHoldsLockedOnlyWhenFullyLocked(word: String) throws {
        var harness = try BridgeHarness(scenes: ["porch": false, "garage": false, "door": false, "front": true])
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "leaving")]?.isActive == true)
        harness.ackAll(harness.message("front/state", word))
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "leaving")]?.isActive == false)
    }

    /// A jammed bolt is not unlocked either: Welcome (side: off) is inactive.
    @Test func aJammedLockHoldsNeitherState() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "side": false])
        let welcome = ActionKey(slug: "home", actionId: "welcome")
        #expect(harness.bridge.states[welcome]?.isActive == true)
        harness.ackAll(harness.message("side/state", "JAMMED"))
        #expect(harness.bridge.states[welcome]?.isActive == false)
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "side")]?.isOn == false, "the tile shows it unlocked")
    }

    /// The wall: the fountain switched on by hand ends Evening and All off in
    /// the same PATCH as the fountain.
    @Test func aChangeAtTheWallEndsTheScenesInTheSamePatchAsTheTile() throws {
        var harness = try BridgeHarness(scenes: ["porch": false, "fountain": false, "garage": false])
        harness.ackAll(harness.report("porch", on: true))
        let before = try #require(harness.bridge.acknowledgedBody(slug: "home"))
        #expect(BridgeHarness.highlights(before)["evening"] == true)
        harness.endPublishIntervals()
        let wall = harness.report("fountain", on: true)
        #expect(wall.patches.count == 1)
        let body = try #require(wall.patches.first?.body)
        #expect(BridgeHarness.tiles(body)["fountain"] == true)
        #expect(BridgeHarness.highlights(body)["evening"] == false)
        #expect(BridgeHarness.highlights(body)["all_off"] == false)
    }

    /// Two scenes that cannot both hold are never published active together.
    @Test func eveningThenAllOffNeverShowsBoth() throws {
        var harness = try BridgeHarness(scenes: ["porch": true, "fountain": false, "garage": false])
        #expect(BridgeHarness.highlights(try #require(harness.bridge.acknowledgedBody(slug: "home")))["evening"] == true)
        let press = harness.pressScene("all_off", eventId: "evt_1")
        #expect(press.mqttPublishes.map { "\($0.topic) \($0.payload)" } == ["porch/set OFF"])
        harness.advance(ms: 350)
        let confirmed = harness.report("porch", on: false)
        let answer = try #require(confirmed.patches.last)
        #expect(answer.answersPress)
        #expect(BridgeHarness.highlights(answer.body)["all_off"] == true)
        #expect(BridgeHarness.highlights(answer.body)["evening"] == false)
        #expect(BridgeHarness.tiles(answer.body)["porch"] == false)
    }

    /// The root cause (issue 21 section 3): one message moving two topic-based
    /// highlights is applied to both before the press's answer renders. Movie
    /// is listed first, so its listener turning active used to answer the press
    /// while Party's still said active.
    @Test func oneMessageMovingTwoTopicHighlightsIsRenderedOnce() throws {
        var harness = try BridgeHarness(scenes: [:])
        harness.ackAll(harness.message("home/scene/current", "party"))
        harness.endPublishIntervals()
        let press = harness.pressScene("movie", eventId: "evt_1")
        #expect(press.patches.isEmpty, "waits for the scene engine")
        harness.advance(ms: 200)
        let effects = harness.message("home/scene/current", "movie")
        #expect(effects.patches.count == 1)
        for patch in effects.patches {
            let highlights = BridgeHarness.highlights(patch.body)
            #expect(!(highlights["movie"] == true && highlights["party"] == true), "both active in \(patch.body)")
            #expect(highlights["movie"] == true)
        }
    }

    @Test func setsWinOverAnActiveTopic() throws {
        let text = SceneFixture.text.replacing("sets: {porch: on, fountain: off}",
                                               with: "sets: {porch: on, fountain: off}\n        active_topic: home/scene/current\n        active_value: evening")
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        let warning = try #require(result.diagnostics.first { $0.message.contains("'active_topic' in action 'evening' is ignored") })
        #expect(warning.severity == .warning)
        let config = try #require(result.config)
        var harness = BridgeHarness(config: config)
        harness.connectAndSettle(states: [("porch/state", "OFF"), ("fountain/state", "OFF")])
        #expect(config.widgets[0].actions.first { $0.id == "evening" }?.activeSource == nil)
        harness.ackAll(harness.message("home/scene/current", "evening"))
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "evening")]?.isActive == false, "the tiles decide, not the topic")
    }
}

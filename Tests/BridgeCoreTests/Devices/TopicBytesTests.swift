import Testing
@testable import BridgeCore

/// Issue 19, item 9: MQTT topics are bytes. Swift's `String ==` is canonical
/// equivalence, so `café/state` written NFC (`c3 a9`) and NFD (`65 cc 81`)
/// were one topic to the bridge, `watch` and `check`: one device's state moved
/// the other's tile, and only one of the two was subscribed. Now both are
/// keyed by their UTF-8 bytes (`UTF8Key`) everywhere.
@Suite("Topics are bytes: NFC and NFD are two topics")
struct TopicBytesTests {
    static let composed = "caf\u{E9}/state"
    static let decomposed = "cafe\u{301}/state"

    static func config() throws -> BridgeConfig {
        let yaml = ConfigFixture.withAction("""
        id: nfc
        label: Composed
        kind: toggle
        state_topic: "\(composed)"
        command_topic: "caf\u{E9}/set"
        """) + """
              - id: nfd
                label: Decomposed
                kind: toggle
                state_topic: "\(decomposed)"
                command_topic: "cafe\u{301}/set"

        """
        let result = ConfigLoader.load(text: yaml, fileName: "bridge.yaml")
        return try #require(result.config, "\(result.rendered())")
    }

    @Test func theTwoSpellingsAreDifferentBytesButEqualStrings() {
        #expect(Self.composed == Self.decomposed, "the premise: String == merges them")
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8))
        #expect(UTF8Key(Self.composed) != UTF8Key(Self.decomposed))
    }

    @Test func theBridgeSubscribesToBothAndEachMovesOnlyItsOwnAction() throws {
        var harness = BridgeHarness(config: try Self.config())
        let connected = harness.send(.mqttConnected)
        let subscribed = connected.compactMap { effect -> [String]? in if case .subscribe(let topics) = effect { topics } else { nil } }
        #expect(subscribed.flatMap { $0 }.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                == [Array(Self.decomposed.utf8), Array(Self.composed.utf8)])
        harness.message(Self.decomposed, "ON")
        harness.message(Self.composed, "OFF")
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "nfd")]?.isOn == true)
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "nfc")]?.isOn == false)
        harness.message(Self.composed, "ON")
        harness.message(Self.decomposed, "OFF")
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "nfc")]?.isOn == true)
        #expect(harness.bridge.states[ActionKey(slug: "home", actionId: "nfd")]?.isOn == false)
    }

    @Test func aReloadThatAddsTheOtherSpellingSubscribesToIt() throws {
        let both = try Self.config()
        var onlyComposed = both
        onlyComposed.widgets[0].actions.removeLast()
        var harness = BridgeHarness(config: onlyComposed)
        harness.send(.mqttConnected)
        let effects = harness.send(.configReloaded(both))
        let added = effects.compactMap { effect -> [String]? in if case .subscribe(let topics) = effect { topics } else { nil } }
        #expect(added.flatMap { $0 }.map { Array($0.utf8) } == [Array(Self.decomposed.utf8)])
    }

    @Test func watchTellsTheTwoApart() throws {
        var session = WatchSession(config: try Self.config())
        #expect(session.subscribedTopics.count == 2)
        let events = session.message(topic: Self.decomposed, payload: Array("ON".utf8), elapsedMs: 1)
        #expect(events.map(\.action.actionId) == ["nfd"])
        #expect(session.message(topic: Self.composed, payload: Array("OFF".utf8), elapsedMs: 2).map(\.action.actionId) == ["nfc"])
    }

    @Test func discoveryKeepsAnAnnouncementOnEachSpelling() throws {
        var session = DiscoverySession(options: DiscoveryOptions())
        for (objectId, topic) in [("nfc", Self.composed), ("nfd", Self.decomposed)] {
            let config = "{\"name\":\"\(objectId)\",\"state_topic\":\"\(topic)\",\"command_topic\":\"\(topic)/set\",\"unique_id\":\"\(objectId)\"}"
            // The announcement topics differ only by normalization too.
            let announced = objectId == "nfc" ? "homeassistant/switch/caf\u{E9}/config" : "homeassistant/switch/cafe\u{301}/config"
            _ = session.receive(DiscoveryMessage(topic: announced, payload: Array(config.utf8)))
        }
        let topics = session.result().toggles.flatMap { $0.wiring.stateSources.map(\.topic) }.map { Array($0.utf8) }
        #expect(Set(topics) == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)], "\(session.result().skipped)")
    }
}

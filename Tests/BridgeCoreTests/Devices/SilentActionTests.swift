import Testing
@testable import BridgeCore

/// Issue 10 section 2: after settling plus a grace, one warning per toggle whose
/// state is still unknown, with the topics and any near miss the broker shows.
@Suite("Never heard from: the bridge says why a tile never updates")
struct SilentActionTests {
    static let yaml = ConfigFixture.withAction("id: kitchen\nlabel: Kitchen\nzigbee2mqtt: kitchen")
        + "      - id: fan\n        label: Fan\n        kind: toggle\n        state_topic: home/fan/state\n        state_field: power\n"
        + "        command_topic: home/fan/set\n"
        + "      - id: plug\n        label: Plug\n        tasmota: plug\n"

    func settled() throws -> (Bridge, [BridgeEffect]) {
        let config = try #require(ConfigLoader.load(text: Self.yaml, fileName: "bridge.yaml").config)
        var bridge = Bridge(config: config)
        var effects = bridge.handle(BridgeInput(.mqttConnected, boardClockMs: 0))
        effects += bridge.handle(BridgeInput(.mqttMessage(topic: "stat/plug/POWER", payload: Array("ON".utf8)), boardClockMs: 10))
        effects += bridge.handle(BridgeInput(.mqttMessage(topic: "home/fan/state", payload: Array(#"{"speed":3,"linkquality":90}"#.utf8)), boardClockMs: 20))
        effects += bridge.handle(BridgeInput(.timerFired(.settle), boardClockMs: 300))
        return (bridge, effects)
    }

    static func warnings(_ effects: [BridgeEffect]) -> [String] {
        effects.compactMap { if case .log(.warning, let message) = $0 { message.text } else { nil } }
    }

    @Test func silentActionsAreNamedWithTheirTopicsAndNearMisses() throws {
        var (bridge, effects) = try settled()
        #expect(effects.contains(.startTimer(.silenceCheck, afterMs: SilenceTracker.graceMs)))
        #expect(Self.warnings(effects).isEmpty)
        let check = bridge.handle(BridgeInput(.timerFired(.silenceCheck), boardClockMs: 5_300))
        // The kitchen never spoke: a broker-wide look for near misses, bounded in time.
        #expect(check == [.subscribe(["#"]), .startTimer(.nearMissProbe, afterMs: SilenceTracker.probeWindowMs)])
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "zigbee2mqtt/Kitchen", payload: Array(#"{"state":"ON"}"#.utf8)), boardClockMs: 5_400))
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "other/topic", payload: Array("x".utf8)), boardClockMs: 5_500))
        // A huge retained payload elsewhere on the broker (zigbee2mqtt/bridge/devices) is not the bridge's to log.
        let huge = bridge.handle(BridgeInput(.mqttPayloadTooLarge(topic: "zigbee2mqtt/bridge/devices", byteCount: 900_000), boardClockMs: 5_600))
        #expect(Self.warnings(huge).isEmpty)
        let done = bridge.handle(BridgeInput(.timerFired(.nearMissProbe), boardClockMs: 7_300))
        #expect(done.first == .unsubscribe(["#"]))
        #expect(Self.warnings(done) == [
            "action 'fan' (widget home) has no state yet: home/fan/state spoke without field 'power' (fields present: speed, linkquality)",
            "action 'kitchen' (widget home) never heard from: nothing on zigbee2mqtt/kitchen, zigbee2mqtt/kitchen/state since start; "
                + "the broker has zigbee2mqtt/Kitchen (not zigbee2mqtt/kitchen): topics are case-sensitive",
        ])
        // Said once: the check does not come back.
        #expect(bridge.handle(BridgeInput(.timerFired(.nearMissProbe), boardClockMs: 9_000)).isEmpty)
    }

    /// Issue 22 item 4: beyond case — a name in zigbee2mqtt's retained device list a typo
    /// away, and a topic the broker has under a misspelt device's (its availability).
    @Test func aTypoIsNamedFromTheDeviceListAndTheBrokersTopics() throws {
        var (bridge, _) = try settled()
        _ = bridge.handle(BridgeInput(.timerFired(.silenceCheck), boardClockMs: 5_300))
        let list = #"[{"friendly_name":"Coordinator","type":"Coordinator"},{"friendly_name":"kitchn"}]"#
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "zigbee2mqtt/bridge/devices", payload: Array(list.utf8)), boardClockMs: 5_400))
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "zigbee2mqtt/kitchenn/availability", payload: Array("online".utf8)), boardClockMs: 5_500))
        let done = bridge.handle(BridgeInput(.timerFired(.nearMissProbe), boardClockMs: 7_300))
        #expect(Self.warnings(done).last == "action 'kitchen' (widget home) never heard from: nothing on zigbee2mqtt/kitchen, "
            + "zigbee2mqtt/kitchen/state since start; the broker has zigbee2mqtt/kitchenn (not zigbee2mqtt/kitchen); "
            + "zigbee2mqtt/bridge/devices lists zigbee2mqtt/kitchn (not zigbee2mqtt/kitchen): is the name in the config misspelt?")
    }

    @Test func nothingIsSaidWhenEveryToggleIsKnown() throws {
        var (bridge, _) = try settled()
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "zigbee2mqtt/kitchen", payload: Array(#"{"state":"OFF"}"#.utf8)), boardClockMs: 400))
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "home/fan/state", payload: Array(#"{"power":"ON"}"#.utf8)), boardClockMs: 500))
        #expect(bridge.handle(BridgeInput(.timerFired(.silenceCheck), boardClockMs: 5_300)).isEmpty)
    }

    @Test func unreadablePayloadNamesActionTopicExcerptAndExpectation() throws {
        var (bridge, _) = try settled()
        let long = #"{"power":"maybe","note":""# + String(repeating: "x", count: 300) + #""}"#
        let warnings = Self.warnings(bridge.handle(BridgeInput(.mqttMessage(topic: "home/fan/state", payload: Array(long.utf8)), boardClockMs: 400)))
        #expect(warnings.count == 1)
        let warning = try #require(warnings.first)
        #expect(warning.hasPrefix("action 'fan' (widget home): ignoring payload '{\"power\":\"maybe\""))
        #expect(warning.hasSuffix("on home/fan/state: expected 'ON' or 'OFF' in field 'power', got 'maybe'"))
        #expect(warning.count < 260, "the excerpt is bounded")
    }

    @Test func hostileFieldNamesAreCutInTheLog() throws {
        var (bridge, _) = try settled()
        let key = String(repeating: "k", count: 5_000)
        _ = bridge.handle(BridgeInput(.mqttMessage(topic: "home/fan/state", payload: Array(#"{"\#(key)":1}"#.utf8)), boardClockMs: 400))
        _ = bridge.handle(BridgeInput(.timerFired(.silenceCheck), boardClockMs: 5_300))
        let done = bridge.handle(BridgeInput(.timerFired(.nearMissProbe), boardClockMs: 7_300))
        let fan = try #require(Self.warnings(done).first { $0.contains("'fan'") })
        #expect(fan.count < 200, "\(fan.count)")
    }
}

import Testing
@testable import BridgeCore

/// `allTogglesKnown` is a count `ActionStates` keeps at every write, not a scan
/// of every action per message: after every input of these runs it says what
/// the scan said (retained states, payloads not understood, unreachable
/// devices, states forgotten by a reload, actions added and dropped).
@Suite struct AllTogglesKnownTests {
    static let base = ConfigFixture.withAction("id: kitchen\nlabel: Kitchen\nzigbee2mqtt: kitchen")
        + "      - id: fan\n        label: Fan\n        kind: toggle\n        state_topic: home/fan/state\n        state_field: power\n"
        + "        command_topic: home/fan/set\n"
        + "      - id: plug\n        label: Plug\n        tasmota: plug\n"
        + "      - id: guess\n        label: Guess\n        kind: toggle\n        state_topic: home/guess/state\n"
        + "        command_topic: home/guess/set\n        optimistic: true\n"
    /// The fan reads another topic (its state is forgotten), the plug is gone, a heater is new.
    static let changed = ConfigFixture.withAction("id: kitchen\nlabel: Kitchen\nzigbee2mqtt: kitchen")
        + "      - id: fan\n        label: Fan\n        kind: toggle\n        state_topic: home/fan2/state\n        state_field: power\n"
        + "        command_topic: home/fan/set\n"
        + "      - id: heater\n        label: Heater\n        kind: toggle\n        state_topic: home/heater/state\n"
        + "        command_topic: home/heater/set\n"

    /// The scan the count replaced.
    static func scanned(_ bridge: Bridge) -> Bool {
        bridge.actionsByKey.allSatisfy { key, action in
            guard action.kind == .toggle, !action.stateSources.isEmpty, !action.optimistic else { return true }
            let state = bridge.states[key]
            return state?.isOn != nil || state?.isUnreachable == true
        }
    }

    static func config(_ yaml: String) throws -> BridgeConfig {
        try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config)
    }

    static func message(_ topic: String, _ payload: String) -> BridgeInputEvent {
        .mqttMessage(topic: topic, payload: Array(payload.utf8))
    }

    @Test func theCountSaysWhatTheScanSaid() throws {
        var bridge = Bridge(config: try Self.config(Self.base))
        let events: [BridgeInputEvent] = [
            .mqttConnected,
            Self.message("home/fan/state", #"{"speed":3}"#),          // no field: still unknown
            Self.message("home/fan/state", "not json"),                 // not understood
            Self.message("stat/plug/POWER", "ON"),
            Self.message("home/fan/state", #"{"power":"ON"}"#),
            Self.message("zigbee2mqtt/kitchen/availability", "offline"),  // unreachable counts as known
            Self.message("zigbee2mqtt/kitchen/availability", "online"),
            Self.message("zigbee2mqtt/kitchen", #"{"state":"OFF"}"#),
            Self.message("stat/plug/POWER", "garbage"),
            Self.message("home/guess/state", "ON"),
            .configReloaded(try Self.config(Self.changed)),             // the fan and the heater unknown again
            Self.message("home/fan/state", #"{"power":"ON"}"#),        // the old topic: no listener now
            Self.message("home/fan2/state", #"{"power":"OFF"}"#),
            Self.message("home/heater/state", "ON"),
            .configReloaded(try Self.config(Self.base)),                // the plug back, unknown
            Self.message("stat/plug/POWER", "OFF"),
            .mqttDisconnected,
        ]
        var seen: [Bool] = []
        for (index, event) in events.enumerated() {
            _ = bridge.handle(BridgeInput(event, boardClockMs: Int64(index) * 10))
            #expect(bridge.allTogglesKnown == Self.scanned(bridge), "after input \(index)")
            seen.append(bridge.allTogglesKnown)
        }
        // Both answers came up (the run tests something).
        #expect(seen.contains(true) && seen.contains(false))
    }

    @Test func statesWrittenDirectlyKeepTheCount() throws {
        var bridge = Bridge(config: try Self.config(Self.base))
        #expect(!bridge.allTogglesKnown)
        for key in bridge.actionsByKey.keys.sorted() {
            bridge.states[key]?.isOn = true
            #expect(bridge.allTogglesKnown == Self.scanned(bridge))
        }
        #expect(bridge.allTogglesKnown)
        let fan = ActionKey(slug: "home", actionId: "fan")
        bridge.states[fan] = nil
        #expect(!bridge.allTogglesKnown && !Self.scanned(bridge))
        bridge.states[fan] = ActionState()
        #expect(!bridge.allTogglesKnown)
        bridge.states[fan]?.isAvailable = false
        #expect(bridge.allTogglesKnown && Self.scanned(bridge))
    }
}

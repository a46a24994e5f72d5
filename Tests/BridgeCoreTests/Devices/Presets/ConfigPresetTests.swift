import Testing
@testable import BridgeCore

@Suite struct ConfigPresetTests {
    struct PresetCase: Sendable, CustomStringConvertible {
        var yaml: String
        var stateSources: [StateSource]
        var command: ToggleCommand
        var availability: AvailabilitySource
        var gatewayAvailability: AvailabilitySource? = nil
        var stateQuery: MQTTMessageSpec?
        var description: String { yaml }
    }

    static func z2mBridge(_ base: String = "zigbee2mqtt") -> AvailabilitySource {
        AvailabilitySource(topic: "\(base)/bridge/state", field: ["state"], availableValue: "online", unavailableValue: "offline")
    }

    static func tasmotaSources(_ topic: String, keys: [String], stat: String = "stat/T/", tele: String = "tele/T/") -> [StateSource] {
        let stat = stat.replacing("T", with: topic), tele = tele.replacing("T", with: topic)
        let blink = [StateMeaning("Blink ON", .blinking), StateMeaning("Blink OFF", .blinking)]
        func source(_ topic: String, _ key: String) -> StateSource { StateSource(topic: topic, field: [key], meanings: blink) }
        return keys.map { source(stat + $0, $0) } + keys.map { source(stat + "RESULT", $0) } + keys.map { source(tele + "STATE", $0) }
            + keys.map { source(stat + "STATE", $0) }
    }

    static let cases: [PresetCase] = [
        PresetCase(
            yaml: "zigbee2mqtt: porch",
            stateSources: [StateSource(topic: "zigbee2mqtt/porch", field: ["state"], onValue: "ON", offValue: "OFF"),
                           StateSource(topic: "zigbee2mqtt/porch/state", field: nil, onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "zigbee2mqtt/porch/set", payloadOn: #"{"state":"ON"}"#, payloadOff: #"{"state":"OFF"}"#),
            availability: AvailabilitySource(topic: "zigbee2mqtt/porch/availability", field: ["state"], availableValue: "online", unavailableValue: "offline"),
            gatewayAvailability: z2mBridge(),
            stateQuery: MQTTMessageSpec(topic: "zigbee2mqtt/porch/get", payload: #"{"state":""}"#)
        ),
        PresetCase(
            yaml: "zigbee2mqtt: wall\nchannel: l2",
            stateSources: [StateSource(topic: "zigbee2mqtt/wall", field: ["state_l2"], onValue: "ON", offValue: "OFF"),
                           StateSource(topic: "zigbee2mqtt/wall/state_l2", field: nil, onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "zigbee2mqtt/wall/set", payloadOn: #"{"state_l2":"ON"}"#, payloadOff: #"{"state_l2":"OFF"}"#),
            availability: AvailabilitySource(topic: "zigbee2mqtt/wall/availability", field: ["state"], availableValue: "online", unavailableValue: "offline"),
            gatewayAvailability: z2mBridge(),
            stateQuery: MQTTMessageSpec(topic: "zigbee2mqtt/wall/get", payload: #"{"state_l2":""}"#)
        ),
        PresetCase(
            yaml: "tasmota: fountain",
            stateSources: tasmotaSources("fountain", keys: ["POWER", "POWER1"]),
            command: ToggleCommand(topic: "cmnd/fountain/POWER", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "tele/fountain/LWT", availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: "cmnd/fountain/State", payload: "")
        ),
        PresetCase(
            yaml: "tasmota: fountain\nchannel: 1",
            stateSources: tasmotaSources("fountain", keys: ["POWER", "POWER1"]),
            command: ToggleCommand(topic: "cmnd/fountain/POWER1", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "tele/fountain/LWT", availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: "cmnd/fountain/State", payload: "")
        ),
        PresetCase(
            yaml: "tasmota: strip\nchannel: 3",
            stateSources: tasmotaSources("strip", keys: ["POWER3"]),
            command: ToggleCommand(topic: "cmnd/strip/POWER3", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "tele/strip/LWT", availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: "cmnd/strip/State", payload: "")
        ),
        PresetCase(
            yaml: "tasmota: plug\nfull_topic: \"%topic%/%prefix%/\"",
            stateSources: tasmotaSources("plug", keys: ["POWER", "POWER1"], stat: "T/stat/", tele: "T/tele/"),
            command: ToggleCommand(topic: "plug/cmnd/POWER", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "plug/tele/LWT", availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: "plug/cmnd/State", payload: "")
        ),
        PresetCase(
            yaml: "shelly: shelly1-abc",
            stateSources: [StateSource(topic: "shellies/shelly1-abc/relay/0", onValue: "on", offValue: "off", protectiveOffValues: ["overpower"])],
            command: ToggleCommand(topic: "shellies/shelly1-abc/relay/0/command", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "shellies/shelly1-abc/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "shellies/shelly1-abc/command", payload: "update")
        ),
        PresetCase(
            yaml: "shelly: shelly25\nchannel: 1",
            stateSources: [StateSource(topic: "shellies/shelly25/relay/1", onValue: "on", offValue: "off", protectiveOffValues: ["overpower"])],
            command: ToggleCommand(topic: "shellies/shelly25/relay/1/command", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "shellies/shelly25/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "shellies/shelly25/command", payload: "update")
        ),
        PresetCase(
            yaml: "shelly_light: shellydimmer2-abc",
            stateSources: [
                StateSource(topic: "shellies/shellydimmer2-abc/light/0", onValue: "on", offValue: "off", protectiveOffValues: ["overpower"]),
                StateSource(topic: "shellies/shellydimmer2-abc/light/0/status", field: ["ison"], onValue: "true", offValue: "false"),
            ],
            command: ToggleCommand(topic: "shellies/shellydimmer2-abc/light/0/set", payloadOn: #"{"turn":"on"}"#, payloadOff: #"{"turn":"off"}"#),
            availability: AvailabilitySource(topic: "shellies/shellydimmer2-abc/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "shellies/shellydimmer2-abc/command", payload: "update")
        ),
        PresetCase(
            yaml: "shelly_plus: plus2pm\nchannel: 1",
            stateSources: [StateSource(topic: "plus2pm/status/switch:1", field: ["output"], onValue: "true", offValue: "false"),
                           StateSource(topic: "plus2pm/events/rpc", field: ["params", "switch:1", "output"], onValue: "true", offValue: "false")],
            command: ToggleCommand(topic: "plus2pm/command/switch:1", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "plus2pm/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "plus2pm/command", payload: "status_update")
        ),
        PresetCase(
            yaml: "shelly_plus_light: dimmer0",
            stateSources: [StateSource(topic: "dimmer0/status/light:0", field: ["output"], onValue: "true", offValue: "false"),
                           StateSource(topic: "dimmer0/events/rpc", field: ["params", "light:0", "output"], onValue: "true", offValue: "false")],
            command: ToggleCommand(
                topic: "dimmer0/rpc",
                payloadOn: #"{"id":1,"src":"switchboard-bridge","method":"Light.Set","params":{"id":0,"on":true}}"#,
                payloadOff: #"{"id":1,"src":"switchboard-bridge","method":"Light.Set","params":{"id":0,"on":false}}"#),
            availability: AvailabilitySource(topic: "dimmer0/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "dimmer0/command", payload: "status_update")
        ),
        PresetCase(
            yaml: "shelly_plus_cct: pro\nchannel: 1",
            stateSources: [StateSource(topic: "pro/status/cct:1", field: ["output"], onValue: "true", offValue: "false"),
                           StateSource(topic: "pro/events/rpc", field: ["params", "cct:1", "output"], onValue: "true", offValue: "false")],
            command: ToggleCommand(
                topic: "pro/rpc",
                payloadOn: #"{"id":1,"src":"switchboard-bridge","method":"CCT.Set","params":{"id":1,"on":true}}"#,
                payloadOff: #"{"id":1,"src":"switchboard-bridge","method":"CCT.Set","params":{"id":1,"on":false}}"#),
            availability: AvailabilitySource(topic: "pro/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "pro/command", payload: "status_update")
        ),
        PresetCase(
            yaml: "shelly_white: rgbw2\nchannel: 3",
            stateSources: [StateSource(topic: "shellies/rgbw2/white/3", onValue: "on", offValue: "off", protectiveOffValues: ["overpower"]),
                           StateSource(topic: "shellies/rgbw2/white/3/status", field: ["ison"], onValue: "true", offValue: "false")],
            command: ToggleCommand(topic: "shellies/rgbw2/white/3/set", payloadOn: #"{"turn":"on"}"#, payloadOff: #"{"turn":"off"}"#),
            availability: AvailabilitySource(topic: "shellies/rgbw2/online", availableValue: "true", unavailableValue: "false"),
            stateQuery: MQTTMessageSpec(topic: "shellies/rgbw2/command", payload: "update")
        ),
        PresetCase(
            yaml: "esphome: garden/sprinkler",
            stateSources: [StateSource(topic: "garden/switch/sprinkler/state", onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "garden/switch/sprinkler/command", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "garden/status", availableValue: "online", unavailableValue: "offline"),
            stateQuery: nil
        ),
        PresetCase(
            yaml: "esphome_fan: attic/ceiling_fan",
            stateSources: [StateSource(topic: "attic/fan/ceiling_fan/state", onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "attic/fan/ceiling_fan/command", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "attic/status", availableValue: "online", unavailableValue: "offline"),
            stateQuery: nil
        ),
        PresetCase(
            yaml: "esphome_light: hall/ceiling",
            stateSources: [StateSource(topic: "hall/light/ceiling/state", field: ["state"], onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "hall/light/ceiling/command", payloadOn: #"{"state":"ON"}"#, payloadOff: #"{"state":"OFF"}"#),
            availability: AvailabilitySource(topic: "hall/status", availableValue: "online", unavailableValue: "offline"),
            stateQuery: nil
        ),
    ]

    @Test(arguments: cases)
    func presetExpands(_ preset: PresetCase) throws {
        let (loaded, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + preset.yaml)
        let action = try #require(loaded, "\(result.rendered())")
        #expect(action.kind == .toggle)
        #expect(action.stateSources == preset.stateSources)
        #expect(action.command == preset.command)
        #expect(action.availability == preset.availability)
        #expect(action.gatewayAvailability == preset.gatewayAvailability)
        #expect(action.stateQuery == preset.stateQuery)
        #expect(action.preset == String(preset.yaml.prefix(while: { $0 != ":" })))
    }

    @Test func zigbee2mqttUsesTheConfiguredBaseTopic() throws {
        let text = "mqtt:\n  zigbee2mqtt_base_topic: z2m\n" + ConfigFixture.withAction("id: p\nlabel: P\nzigbee2mqtt: porch")
        let result = ConfigLoader.load(text: text, fileName: "bridge.yaml")
        let action = try #require(result.config?.widgets.first?.actions.first, "\(result.rendered())")
        #expect(action.stateSources.map(\.topic) == ["z2m/porch", "z2m/porch/state"])
        #expect(action.gatewayAvailability?.topic == "z2m/bridge/state")
        #expect(action.command?.topic == "z2m/porch/set")
    }

    struct OverrideCase: Sendable, CustomStringConvertible {
        var yaml: String
        var check: @Sendable (ActionConfig) -> Bool
        var description: String { yaml }
    }

    static let overrides: [OverrideCase] = [
        OverrideCase(yaml: "tasmota: t\non_value: \"1\"\noff_value: \"0\"") { action in
            action.stateSources.allSatisfy { $0.onValue == "1" && $0.offValue == "0" } && action.stateSources.count == 8
        },
        OverrideCase(yaml: "tasmota: t\nstate_topic: custom/state") { action in
            action.stateSources == [StateSource(topic: "custom/state", field: nil, onValue: "ON", offValue: "OFF",
                                                meanings: [StateMeaning("Blink ON", .blinking), StateMeaning("Blink OFF", .blinking)])]
        },
        OverrideCase(yaml: "zigbee2mqtt: z\nstate_field: light.state") { action in
            action.stateSources == [StateSource(topic: "zigbee2mqtt/z", field: ["light", "state"]),
                                    StateSource(topic: "zigbee2mqtt/z/state", field: ["light", "state"])]
        },
        OverrideCase(yaml: "tasmota: t\ncommand_topic: cmnd/other/POWER2\npayload_on: \"1\"") { action in
            action.command == ToggleCommand(topic: "cmnd/other/POWER2", payloadOn: "1", payloadOff: "OFF")
        },
        OverrideCase(yaml: "shelly: s\navailable_value: true\nunavailable_value: false") { action in
            action.availability == AvailabilitySource(topic: "shellies/s/online", availableValue: "true", unavailableValue: "false")
        },
        OverrideCase(yaml: "zigbee2mqtt: z\navailability_topic: z/avail") { action in
            action.availability == AvailabilitySource(topic: "z/avail", field: nil, availableValue: "online", unavailableValue: "offline")
                && action.gatewayAvailability == nil
        },
        OverrideCase(yaml: "zigbee2mqtt: z\nstate_query: false") { $0.stateQuery == nil },
        OverrideCase(yaml: "shelly: s\nstate_query: {topic: shellies/s/command, payload: update}") { action in
            action.stateQuery == MQTTMessageSpec(topic: "shellies/s/command", payload: "update")
        },
        OverrideCase(yaml: "kind: toggle\nstate_topic: a/state\ncommand_topic: a/set\navailable_value: 1") { action in
            action.availability == nil && action.command == ToggleCommand(topic: "a/set")
        },
        OverrideCase(yaml: "kind: toggle\ncommand_topic: a/set\noptimistic: true") { action in
            action.optimistic && action.stateSources.isEmpty
        },
        OverrideCase(yaml: "tasmota: t\nconfirm_timeout_ms: 8000\nrepeat_safe: false") { action in
            action.confirmTimeoutMs == 8000 && !action.repeatSafe
        },
    ]

    @Test(arguments: overrides)
    func explicitKeysOverrideThePreset(_ override: OverrideCase) throws {
        let (loaded, result) = ConfigFixture.loadAction("id: dev\nlabel: Device\n" + override.yaml)
        if override.yaml.contains("available_value: 1") {
            // available_value without a topic or preset is an error.
            #expect(result.errors.map(\.message) == ["'available_value' in action 'dev' needs 'availability_topic' or a device preset"])
            return
        }
        let action = try #require(loaded, "\(result.rendered())")
        #expect(override.check(action), "\(action)")
    }

    @Test func passthroughKeepsFileOrderIncludingExtra() throws {
        let (loaded, result) = ConfigFixture.loadAction("""
        picture_alt: A fountain
        id: scene
        extra:
          future_field: {a: [1, 2.5, true, null]}
          state_words: {on: Open}
        label: Scene
        subtitle: Evening
        publish:
          - {topic: a/b, payload: go}
          - topic: c/d
            payload: {state: "ON"}
            qos: 0
        """)
        let action = try #require(loaded, "\(result.rendered())")
        #expect(action.passthrough.map(\.key) == ["picture_alt", "future_field", "state_words", "subtitle"])
        #expect(action.passthrough[1].value.serialized() == #"{"a":[1,2.5,true,null]}"#)
        #expect(action.publishes == [
            MQTTMessageSpec(topic: "a/b", payload: "go"),
            MQTTMessageSpec(topic: "c/d", payload: #"{"state":"ON"}"#, qos: 0),
        ])
    }
}

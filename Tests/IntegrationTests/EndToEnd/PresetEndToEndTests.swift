import AiviSim
import BridgeCore
import Foundation
import Testing
import TestSupport

/// Issue 10 against the real binary: every preset's command exactly as its
/// firmware accepts it (topic, payload, QoS 1, never retained), and one real
/// message shape per firmware read into the tile. Payload sources: see
/// `Tests/BridgeCoreTests/Devices/Presets/RealPayloads.swift`.
@Suite("Presets end to end: the real binary on real payloads", .serialized)
struct PresetEndToEndTests {
    /// Action id, preset lines, the expected ON command (topic, payload).
    static let presets: [(id: String, yaml: String, topic: String, payloadOn: String)] = [
        ("z2m", "zigbee2mqtt: wall_switch_double\n    channel: right", "zigbee2mqtt/wall_switch_double/set", #"{"state_right":"ON"}"#),
        ("tasmota", "tasmota: plug", "cmnd/plug/POWER", "ON"),
        ("shelly", "shelly: shelly1pm-abc", "shellies/shelly1pm-abc/relay/0/command", "on"),
        ("shelly_light", "shelly_light: shellydimmer2-abc", "shellies/shellydimmer2-abc/light/0/set", #"{"turn":"on"}"#),
        ("shelly_plus", "shelly_plus: shellyplus1pm-a8032ab12345", "shellyplus1pm-a8032ab12345/command/switch:0", "on"),
        ("shelly_plus_light", "shelly_plus_light: shellyplusdimmer-b0b21c123456", "shellyplusdimmer-b0b21c123456/rpc",
         #"{"id":1,"src":"switchboard-bridge","method":"Light.Set","params":{"id":0,"on":true}}"#),
        ("esphome", "esphome: garden/sprinkler", "garden/switch/sprinkler/command", "ON"),
        ("esphome_light", "esphome_light: hall/ceiling", "hall/light/ceiling/command", #"{"state":"ON"}"#),
        ("esphome_fan", "esphome_fan: attic/ceiling_fan", "attic/fan/ceiling_fan/command", "ON"),
    ]

    /// Retained "off" states (real shapes) so the bridge settles at once.
    static let offStates: [(String, String)] = [
        ("zigbee2mqtt/wall_switch_double", #"{"state_left":"ON","state_right":"OFF"}"#),
        ("stat/plug/RESULT", #"{"POWER1":"OFF"}"#),
        ("shellies/shelly1pm-abc/relay/0", "off"),
        ("shellies/shellydimmer2-abc/light/0", "off"),
        ("shellyplus1pm-a8032ab12345/status/switch:0", #"{"id":0,"source":"init","output":false}"#),
        ("shellyplusdimmer-b0b21c123456/status/light:0", #"{"id":0,"output":false,"brightness":75}"#),
        ("garden/switch/sprinkler/state", "OFF"),
        ("hall/light/ceiling/state", #"{"color_mode":"brightness","state":"OFF","brightness":255,"color":{}}"#),
        ("attic/fan/ceiling_fan/state", "OFF"),
    ]

    func startWorld() throws -> EndToEndHarness {
        try EndToEndHarness.with(actions: WidgetActionsConfig.presetActions(Self.presets.map { ($0.id, $0.yaml) }), states: Self.offStates)
    }

    @Test("every preset's command: exact topic and payload, QoS 1, not retained")
    func commandsAreExactlyWhatTheFirmwareAccepts() throws {
        let world = try startWorld()
        let recorder = try MosquittoQoSRecorder(port: world.broker.port, topics: Self.presets.map(\.topic), directory: world.directory)
        #expect(waitUntil(timeoutSeconds: 10) { Self.presets.allSatisfy { world.publishedOn($0.id) == false } }, "\(world.log)")
        for (index, preset) in Self.presets.enumerated() {
            // Two phones take turns: one phone's burst of presses is smaller than the preset count.
            _ = try world.press(preset.id, phone: index.isMultiple(of: 2) ? "phone-a" : "phone-b")
            let sent = waitUntil(timeoutSeconds: 10) { recorder.records.contains { $0.topic == preset.topic } }
            #expect(sent, "no command for \(preset.id)")
            let commands = recorder.records.filter { $0.topic == preset.topic }
            #expect(commands == [MosquittoQoSRecorder.Record(qos: 1, topic: preset.topic, payload: preset.payloadOn)], "\(preset.id)")
        }
        for preset in Self.presets {
            let retained = try MosquittoCLI.retainedPayload(port: world.broker.port, topic: preset.topic, timeoutSeconds: 1, directory: world.directory)
            #expect(retained == nil, "\(preset.topic) was retained")
        }
        world.stopAll()
    }

    @Test("one real message shape per firmware reaches the tile")
    func realMessagesReachTheTile() throws {
        let world = try startWorld()
        let live: [(id: String, topic: String, payload: String, on: Bool)] = [
            // zigbee2mqtt test/extensions/groups.test.ts:309
            ("z2m", "zigbee2mqtt/wall_switch_double", #"{"state_left":"OFF","state_right":"ON"}"#, true),
            // Tasmota xdrv_02_9_mqtt.ino MqttPublishPowerState with SetOption26
            ("tasmota", "stat/plug/RESULT", #"{"POWER1":"ON"}"#, true),
            // Shelly gen1 relay report, then overpower (bieniu/ha-shellies-discovery TPL_OVERPOWER_RELAY)
            ("shelly", "shellies/shelly1pm-abc/relay/0", "on", true),
            // Shelly gen1 light status JSON (ison)
            ("shelly_light", "shellies/shellydimmer2-abc/light/0/status", #"{"ison":true,"mode":"white","brightness":100,"temp":4750,"effect":0}"#, true),
            // Shelly gen2 NotifyStatus on events/rpc (shelly-api-docs gen2/General/Notifications)
            ("shelly_plus", "shellyplus1pm-a8032ab12345/events/rpc",
             #"{"src":"shellyplus1pm-a8032ab12345","dst":"shellyplus1pm-a8032ab12345/events","method":"NotifyStatus","params":{"ts":1700000000.01,"switch:0":{"id":0,"output":true,"source":"button"}}}"#, true),
            ("shelly_plus_light", "shellyplusdimmer-b0b21c123456/status/light:0", #"{"id":0,"output":true,"brightness":75}"#, true),
            ("esphome", "garden/switch/sprinkler/state", "ON", true),
            // esphome light_json_schema.cpp dump_json
            ("esphome_light", "hall/light/ceiling/state", #"{"color_mode":"brightness","state":"ON","brightness":255,"color":{}}"#, true),
            // esphome mqtt_fan.cpp publish_state
            ("esphome_fan", "attic/fan/ceiling_fan/state", "ON", true),
        ]
        for message in live {
            world.devices.publish(message.topic, message.payload)
            #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn(message.id) == message.on }, "\(message.id): \(world.log)")
        }
        world.devices.publish("shellies/shelly1pm-abc/relay/0", "overpower")
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("shelly") == false })
        #expect(world.waitForLog("reports 'overpower'"))
        // zigbee2mqtt itself stops: its will on bridge/state (lib/mqtt.ts), device availability still online.
        world.devices.publish("zigbee2mqtt/bridge/state", #"{"state":"offline"}"#, retain: true)
        #expect(waitUntil(timeoutSeconds: 10) { world.publishedOn("z2m") == false })
        world.stopAll()
    }
}

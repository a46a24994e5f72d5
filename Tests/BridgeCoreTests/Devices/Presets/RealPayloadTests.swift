import Testing
@testable import BridgeCore

/// Section 1 of issue 10: what real firmware sends, through the presets.
@Suite("Presets read what real firmware sends")
struct RealPayloadTests {
    /// One situation: an action (its preset lines), messages in order, and what
    /// the bridge must know afterwards.
    struct Situation: Sendable, CustomStringConvertible {
        var name: String
        var action: String
        var messages: [(topic: String, payload: String)]
        var isOn: Bool?
        var isAvailable: Bool? = nil
        var isGatewayAvailable: Bool? = nil
        var publishedOn: Bool? = nil
        /// Substrings of the warnings logged, in order; [] means no warning.
        var warnings: [String] = []
        var description: String { name }
    }

    static let situations: [Situation] = [
        // 1. zigbee2mqtt going down.
        Situation(name: "z2m 2.x bridge offline", action: "zigbee2mqtt: porch",
                  messages: [("zigbee2mqtt/porch", RealPayloads.z2mBulbColor), ("zigbee2mqtt/porch/availability", RealPayloads.z2mDeviceOnline),
                             ("zigbee2mqtt/bridge/state", RealPayloads.z2mBridgeOffline)],
                  isOn: true, isAvailable: true, isGatewayAvailable: false, publishedOn: false),
        Situation(name: "z2m 1.x bridge offline (plain)", action: "zigbee2mqtt: porch",
                  messages: [("zigbee2mqtt/porch", RealPayloads.z2mBulbColor), ("zigbee2mqtt/bridge/state", RealPayloads.z2mBridgeOfflineLegacy)],
                  isOn: true, isGatewayAvailable: false, publishedOn: false),
        Situation(name: "z2m bridge back online", action: "zigbee2mqtt: porch",
                  messages: [("zigbee2mqtt/porch", RealPayloads.z2mBulbColor), ("zigbee2mqtt/bridge/state", RealPayloads.z2mBridgeOffline),
                             ("zigbee2mqtt/bridge/state", RealPayloads.z2mBridgeOnline)],
                  isOn: true, isGatewayAvailable: true, publishedOn: true),
        // 2. Tasmota relay 1 as POWER1.
        Situation(name: "Tasmota RESULT POWER1", action: "tasmota: plug",
                  messages: [("stat/plug/RESULT", RealPayloads.tasmotaResultPower1)], isOn: true),
        Situation(name: "Tasmota raw POWER1", action: "tasmota: plug",
                  messages: [("stat/plug/POWER1", RealPayloads.tasmotaRawPower1)], isOn: true),
        Situation(name: "Tasmota channel 1 reads POWER", action: "tasmota: plug\nchannel: 1",
                  messages: [("stat/plug/POWER", "OFF"), ("stat/plug/RESULT", RealPayloads.tasmotaResultPower1)], isOn: true),
        // 3. SetOption4, tele STATE, FullTopic.
        Situation(name: "Tasmota SetOption4 JSON on stat/T/POWER", action: "tasmota: plug",
                  messages: [("stat/plug/POWER", RealPayloads.tasmotaSetOption4), ("stat/plug/POWER", "ON")], isOn: true),
        Situation(name: "Tasmota tele STATE", action: "tasmota: tasmota_9CF9D1",
                  messages: [("tele/tasmota_9CF9D1/STATE", RealPayloads.tasmotaTeleState)], isOn: false),
        Situation(name: "Tasmota RESULT without POWER is not about the relay", action: "tasmota: plug",
                  messages: [("stat/plug/POWER", "ON"), ("stat/plug/RESULT", RealPayloads.tasmotaResultWithoutPower)], isOn: true),
        Situation(name: "Tasmota custom FullTopic", action: "tasmota: plug\nfull_topic: \"%topic%/%prefix%/\"",
                  messages: [("plug/tele/LWT", RealPayloads.tasmotaLWTOnline), ("plug/stat/RESULT", RealPayloads.tasmotaSetOption4)],
                  isOn: true, isAvailable: true),
        Situation(name: "Tasmota StateText override", action: "tasmota: plug\non_value: AN\noff_value: AUS",
                  messages: [("stat/plug/POWER", "AN")], isOn: true),
        // 4. Shelly gen2 default settings: only events/rpc.
        Situation(name: "Shelly gen2 NotifyStatus", action: "shelly_plus: shellyplus1pm-a8032ab12345",
                  messages: [("shellyplus1pm-a8032ab12345/events/rpc", RealPayloads.shellyPlusNotifySwitchOn),
                             ("shellyplus1pm-a8032ab12345/events/rpc", RealPayloads.shellyPlusNotifyPowerOnly),
                             ("shellyplus1pm-a8032ab12345/events/rpc", RealPayloads.shellyPlusNotifyEvent)],
                  isOn: true),
        Situation(name: "Shelly gen2 NotifyStatus of another switch", action: "shelly_plus: shellyplus1pm-a8032ab12345\nchannel: 1",
                  messages: [("shellyplus1pm-a8032ab12345/events/rpc", RealPayloads.shellyPlusNotifySwitchOn)], isOn: nil),
        // 5. Shelly gen1 overpower.
        Situation(name: "Shelly gen1 overpower", action: "shelly: shelly1pm-abc",
                  messages: [("shellies/shelly1pm-abc/relay/0", RealPayloads.shellyRelayOn),
                             ("shellies/shelly1pm-abc/relay/0", RealPayloads.shellyRelayOverpower),
                             ("shellies/shelly1pm-abc/relay/0", RealPayloads.shellyRelayOverpower)],
                  isOn: false, warnings: ["reports 'overpower': the device switched itself off"]),
        // 6. Lights.
        Situation(name: "Shelly gen1 light status", action: "shelly_light: shellydimmer2-abc",
                  messages: [("shellies/shellydimmer2-abc/light/0/status", RealPayloads.shellyLightStatusOn)], isOn: true),
        Situation(name: "Shelly gen1 light raw", action: "shelly_light: shellydimmer2-abc",
                  messages: [("shellies/shellydimmer2-abc/light/0", "off")], isOn: false),
        Situation(name: "Shelly gen2 light status", action: "shelly_plus_light: shellyplusdimmer-b0b21c123456",
                  messages: [("shellyplusdimmer-b0b21c123456/status/light:0", RealPayloads.shellyPlusLightStatusOn)], isOn: true),
        Situation(name: "Shelly gen2 light NotifyStatus", action: "shelly_plus_light: shellyplusdimmer-b0b21c123456",
                  messages: [("shellyplusdimmer-b0b21c123456/status/light:0", RealPayloads.shellyPlusLightStatusOn),
                             ("shellyplusdimmer-b0b21c123456/events/rpc", RealPayloads.shellyPlusNotifyLightOff)], isOn: false),
        // Issue 22 item 9: the lights that are not `light:N`.
        Situation(name: "Shelly RGBW2 color status", action: "shelly_color: shellyrgbw2-ab12cd",
                  messages: [("shellies/shellyrgbw2-ab12cd/color/0/status", RealPayloads.shellyRGBW2ColorStatusOn)], isOn: true),
        Situation(name: "Shelly RGBW2 color raw", action: "shelly_color: shellyrgbw2-ab12cd",
                  messages: [("shellies/shellyrgbw2-ab12cd/color/0", "off")], isOn: false),
        Situation(name: "Shelly RGBW2 white channel 2", action: "shelly_white: shellyrgbw2-ab12cd\nchannel: 2",
                  messages: [("shellies/shellyrgbw2-ab12cd/white/2", "on"),
                             ("shellies/shellyrgbw2-ab12cd/white/2/status", RealPayloads.shellyRGBW2WhiteStatusOff)], isOn: false),
        Situation(name: "Shelly CCT status", action: "shelly_plus_cct: shellyprorgbwwpm-abcdef123456",
                  messages: [("shellyprorgbwwpm-abcdef123456/status/cct:0", RealPayloads.shellyCCTStatusOn)], isOn: true),
        Situation(name: "Shelly RGBW status", action: "shelly_plus_rgbw: shellyplusrgbwpm-abcdef123456",
                  messages: [("shellyplusrgbwpm-abcdef123456/status/rgbw:0", RealPayloads.shellyRGBWStatusOff)], isOn: false),
        Situation(name: "Shelly RGBCCT NotifyStatus", action: "shelly_plus_rgbcct: shellyrgbcctbulbg3-abcdef123456",
                  messages: [("shellyrgbcctbulbg3-abcdef123456/events/rpc", RealPayloads.shellyNotifyRGBCCTOn)], isOn: true),
        Situation(name: "ESPHome light JSON", action: "esphome_light: hall/ceiling",
                  messages: [("hall/light/ceiling/state", RealPayloads.esphomeLightOn)], isOn: true),
        Situation(name: "ESPHome switch", action: "esphome: garden/sprinkler",
                  messages: [("garden/switch/sprinkler/state", RealPayloads.esphomeSwitchOff)], isOn: false),
        Situation(name: "ESPHome fan on", action: "esphome_fan: attic/ceiling_fan",
                  messages: [("attic/fan/ceiling_fan/state", RealPayloads.esphomeFanOn),
                             ("attic/fan/ceiling_fan/speed_level/state", "2"), ("attic/fan/ceiling_fan/oscillation/state", "oscillate_on")],
                  isOn: true),
        Situation(name: "ESPHome fan off", action: "esphome_fan: attic/ceiling_fan",
                  messages: [("attic/fan/ceiling_fan/state", RealPayloads.esphomeFanOn), ("attic/fan/ceiling_fan/state", RealPayloads.esphomeFanOff)],
                  isOn: false),
        // 7. zigbee2mqtt multi-endpoint.
        Situation(name: "z2m endpoints without channel", action: "zigbee2mqtt: wall_switch_double",
                  messages: [("zigbee2mqtt/wall_switch_double", RealPayloads.z2mWallSwitchDouble),
                             ("zigbee2mqtt/wall_switch_double", RealPayloads.z2mWallSwitchDouble)],
                  isOn: nil, warnings: ["endpoint fields state_left, state_right: set 'channel' to one of left, right"]),
        Situation(name: "z2m endpoint right", action: "zigbee2mqtt: wall_switch_double\nchannel: right",
                  messages: [("zigbee2mqtt/wall_switch_double", RealPayloads.z2mWallSwitchDouble)], isOn: true),
        Situation(name: "z2m endpoint left", action: "zigbee2mqtt: wall_switch_double\nchannel: left",
                  messages: [("zigbee2mqtt/wall_switch_double", RealPayloads.z2mWallSwitchDouble)], isOn: false),
        // 8. advanced.output: attribute.
        Situation(name: "z2m attribute output", action: "zigbee2mqtt: my_bulb",
                  messages: [("zigbee2mqtt/my_bulb/state", RealPayloads.z2mAttributeState)], isOn: true),
        // 9. Cleared retained availability after offline: not available (issue 38 item 10), so
        // no state from before the outage comes back.
        Situation(name: "z2m availability cleared", action: "zigbee2mqtt: porch",
                  messages: [("zigbee2mqtt/porch/availability", #"{"state":"offline"}"#),
                             ("zigbee2mqtt/porch/availability", RealPayloads.z2mAvailabilityCleared)],
                  isOn: nil, isAvailable: false),
    ]

    @Test(arguments: situations)
    func situation(_ situation: Situation) throws {
        let result = ConfigLoader.load(text: ConfigFixture.withAction("id: dev\nlabel: Device\n" + situation.action), fileName: "bridge.yaml")
        let config = try #require(result.config, "\(result.rendered())")
        var bridge = Bridge(config: config)
        var effects = bridge.handle(BridgeInput(.mqttConnected, boardClockMs: 1_000))
        for (topic, payload) in situation.messages {
            effects += bridge.handle(BridgeInput(.mqttMessage(topic: topic, payload: Array(payload.utf8)), boardClockMs: 2_000))
        }
        let state = try #require(bridge.states[ActionKey(slug: "home", actionId: "dev")])
        #expect(state.isOn == situation.isOn)
        #expect(state.isAvailable == situation.isAvailable)
        #expect(state.isGatewayAvailable == situation.isGatewayAvailable)
        if let publishedOn = situation.publishedOn { #expect(state.publishedOn == publishedOn) }
        let warnings = effects.compactMap { effect -> String? in if case .log(.warning, let message) = effect { message.text } else { nil } }
        #expect(warnings.count == situation.warnings.count, "\(warnings)")
        for (warning, expected) in zip(warnings, situation.warnings) { #expect(warning.contains(expected), "\(warning)") }
    }

    @Test func zigbee2mqttChannelNumberIsRefusedWithTheFix() {
        let result = ConfigLoader.load(text: ConfigFixture.withAction("id: dev\nlabel: Device\nzigbee2mqtt: wall\nchannel: 1"), fileName: "bridge.yaml")
        #expect(result.config == nil)
        let message = result.errors.first?.message ?? ""
        #expect(message.contains("zigbee2mqtt endpoints are names"))
        #expect(message.contains("'channel: l1'"))
        #expect(result.errors.first.map { "\($0.location)" } == "9:18")
    }

    @Test func fullTopicMustHaveBothTokens() {
        let result = ConfigLoader.load(text: ConfigFixture.withAction("id: dev\nlabel: Device\ntasmota: t\nfull_topic: \"%topic%/\""), fileName: "bridge.yaml")
        #expect(result.errors.map(\.message) == [
            "'full_topic' in action 'dev' must contain both %prefix% and %topic%, as Tasmota's FullTopic does (default '%prefix%/%topic%/')",
        ])
    }

    @Test func presetsAskForStateAtConnect() throws {
        let yaml = ConfigFixture.withAction("id: a\nlabel: A\nshelly: s1") + "        \n      - id: b\n        label: B\n        shelly_plus: p1\n"
        let config = try #require(ConfigLoader.load(text: yaml, fileName: "bridge.yaml").config)
        var bridge = Bridge(config: config)
        let published = bridge.handle(BridgeInput(.mqttConnected, boardClockMs: 1)).compactMap { effect -> String? in
            if case .publishMQTT(let message) = effect { "\(message.topic) \(String(decoding: message.payload, as: UTF8.self))" } else { nil }
        }
        #expect(published == ["shellies/s1/command update", "p1/command status_update"])
    }
}

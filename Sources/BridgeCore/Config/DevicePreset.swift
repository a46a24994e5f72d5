/// A firmware's MQTT conventions, so a homeowner writes `tasmota: fountain`
/// instead of six topics. Explicit keys of the action override what a preset
/// sets (see `ActionDecoding`).
///
/// | preset | state | command | availability | state query |
/// | --- | --- | --- | --- | --- |
/// | `zigbee2mqtt: NAME` | `B/NAME` JSON `state` ON/OFF | `B/NAME/set` `{"state":"ON"}` | `B/NAME/availability` JSON `state` or plain, online/offline | `B/NAME/get` `{"state":""}` |
/// | `tasmota: T` | `stat/T/POWER` raw and `stat/T/RESULT` JSON `POWER`, ON/OFF | `cmnd/T/POWER` ON/OFF | `tele/T/LWT` Online/Offline | empty `cmnd/T/POWER` |
/// | `shelly: ID` | `shellies/ID/relay/0` on/off | `shellies/ID/relay/0/command` on/off | `shellies/ID/online` true/false | none (retained) |
/// | `shelly_plus: ID` | `ID/status/switch:0` JSON `output` true/false | `ID/command/switch:0` on/off | `ID/online` true/false | none (retained) |
/// | `esphome: NODE/NAME` | `NODE/switch/NAME/state` ON/OFF | `NODE/switch/NAME/command` ON/OFF | `NODE/status` online/offline | none (retained) |
///
/// `B` is `mqtt.zigbee2mqtt_base_topic`. `channel:` picks a relay: zigbee2mqtt
/// endpoint name (`l2` -> field `state_l2`), Tasmota relay number 1-32
/// (`POWER2`), Shelly relay/switch index (default 0). ESPHome names each
/// switch, so it takes no channel.
public enum DevicePreset: String, Sendable, Equatable, CaseIterable {
    case zigbee2mqtt
    case tasmota
    case shelly
    case shellyPlus = "shelly_plus"
    case esphome

    /// What a preset sets for an action.
    public struct Expansion: Sendable, Equatable {
        public var stateSources: [StateSource]
        public var command: ToggleCommand
        public var availability: AvailabilitySource
        public var stateQuery: MQTTMessageSpec?
    }

    /// The channel a preset needs, as the YAML gives it.
    enum Channel: Equatable {
        case none
        case index(Int64)
        case name(String)
    }

    /// The expansion for the device `name`; `channel` has been checked by
    /// `channelProblem` already.
    func expand(name: String, channel: Channel, zigbee2mqttBaseTopic: String) -> Expansion {
        switch self {
        case .zigbee2mqtt: return Self.zigbee2mqtt(name: name, channel: channel, base: zigbee2mqttBaseTopic)
        case .tasmota: return Self.tasmota(topic: name, channel: channel)
        case .shelly: return Self.shelly(id: name, channel: channel)
        case .shellyPlus: return Self.shellyPlus(id: name, channel: channel)
        case .esphome: return Self.esphome(nodeAndName: name)
        }
    }

    /// Why `channel` does not fit this preset, or nil.
    func channelProblem(_ channel: Channel) -> String? {
        switch (self, channel) {
        case (_, .none): return nil
        case (.zigbee2mqtt, .name(let name)) where !name.isEmpty: return nil
        case (.zigbee2mqtt, _): return "must be the endpoint name, e.g. 'l2'"
        case (.tasmota, .index(let index)) where (1...32).contains(index): return nil
        case (.tasmota, _): return "must be the relay number, 1 to 32"
        case (.shelly, .index(let index)), (.shellyPlus, .index(let index)):
            return (0...15).contains(index) ? nil : "must be the relay index, 0 to 15"
        case (.shelly, _), (.shellyPlus, _): return "must be the relay index, 0 to 15"
        case (.esphome, _): return "does not apply to esphome: name the switch in 'esphome: NODE/NAME'"
        }
    }

    /// Why the device name does not fit this preset, or nil.
    func nameProblem(_ name: String) -> String? {
        guard self == .esphome else { return nil }
        guard let slash = name.lastIndex(of: "/"), slash != name.startIndex, name.index(after: slash) != name.endIndex else {
            return "must be 'NODE/NAME', the node and the switch's name"
        }
        return nil
    }

    private static func zigbee2mqtt(name: String, channel: Channel, base: String) -> Expansion {
        let field = if case .name(let endpoint) = channel { "state_\(endpoint)" } else { "state" }
        let device = "\(base)/\(name)"
        return Expansion(
            stateSources: [StateSource(topic: device, field: [field], onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "\(device)/set", payloadOn: "{\"\(field)\":\"ON\"}", payloadOff: "{\"\(field)\":\"OFF\"}"),
            availability: AvailabilitySource(topic: "\(device)/availability", field: ["state"],
                                             availableValue: "online", unavailableValue: "offline"),
            stateQuery: MQTTMessageSpec(topic: "\(device)/get", payload: "{\"\(field)\":\"\"}", qos: 1, retain: false)
        )
    }

    private static func tasmota(topic: String, channel: Channel) -> Expansion {
        let power = if case .index(let relay) = channel { "POWER\(relay)" } else { "POWER" }
        return Expansion(
            stateSources: [
                StateSource(topic: "stat/\(topic)/\(power)", field: nil, onValue: "ON", offValue: "OFF"),
                StateSource(topic: "stat/\(topic)/RESULT", field: [power], onValue: "ON", offValue: "OFF"),
            ],
            command: ToggleCommand(topic: "cmnd/\(topic)/\(power)", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "tele/\(topic)/LWT", field: nil, availableValue: "Online", unavailableValue: "Offline"),
            stateQuery: MQTTMessageSpec(topic: "cmnd/\(topic)/\(power)", payload: "", qos: 1, retain: false)
        )
    }

    private static func shelly(id: String, channel: Channel) -> Expansion {
        let relay = if case .index(let index) = channel { index } else { Int64(0) }
        return Expansion(
            stateSources: [StateSource(topic: "shellies/\(id)/relay/\(relay)", field: nil, onValue: "on", offValue: "off")],
            command: ToggleCommand(topic: "shellies/\(id)/relay/\(relay)/command", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "shellies/\(id)/online", field: nil, availableValue: "true", unavailableValue: "false"),
            stateQuery: nil
        )
    }

    private static func shellyPlus(id: String, channel: Channel) -> Expansion {
        let relay = if case .index(let index) = channel { index } else { Int64(0) }
        return Expansion(
            stateSources: [StateSource(topic: "\(id)/status/switch:\(relay)", field: ["output"], onValue: "true", offValue: "false")],
            command: ToggleCommand(topic: "\(id)/command/switch:\(relay)", payloadOn: "on", payloadOff: "off"),
            availability: AvailabilitySource(topic: "\(id)/online", field: nil, availableValue: "true", unavailableValue: "false"),
            stateQuery: nil
        )
    }

    private static func esphome(nodeAndName: String) -> Expansion {
        let slash = nodeAndName.lastIndex(of: "/") ?? nodeAndName.endIndex
        let node = String(nodeAndName[..<slash])
        let name = slash == nodeAndName.endIndex ? "" : String(nodeAndName[nodeAndName.index(after: slash)...])
        return Expansion(
            stateSources: [StateSource(topic: "\(node)/switch/\(name)/state", field: nil, onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "\(node)/switch/\(name)/command", payloadOn: "ON", payloadOff: "OFF"),
            availability: AvailabilitySource(topic: "\(node)/status", field: nil, availableValue: "online", unavailableValue: "offline"),
            stateQuery: nil
        )
    }
}

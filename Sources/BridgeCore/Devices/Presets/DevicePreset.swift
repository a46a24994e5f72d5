/// A firmware's MQTT conventions, so a homeowner writes `tasmota: fountain`
/// instead of six topics. Explicit keys of the action override what a preset
/// sets (the override rules open `ConfigDecoder+Actions.swift`). Separate from
/// `TileDevice`, what the device is (switch, cover, lock), which a preset sets.
/// switchboard-bridge.yaml(5), "Device presets", lists, per preset, every topic
/// read and every message sent; `RealPayloads` (Tests/BridgeCoreTests/Devices/Presets)
/// holds the real payloads each one is checked against.
///
/// `channel:` picks a relay or endpoint: zigbee2mqtt endpoint name (`l2` ->
/// field `state_l2`), Tasmota relay number 1-32 (`POWER2`), Shelly relay,
/// switch or light index (default 0). ESPHome names each switch, light, fan,
/// cover or lock, so it takes no channel.
public enum DevicePreset: String, Sendable, Equatable, CaseIterable {
    case zigbee2mqtt
    case tasmota
    case shelly
    case shellyLight = "shelly_light"
    case shellyPlus = "shelly_plus"
    case shellyPlusLight = "shelly_plus_light"
    case shellyColor = "shelly_color"
    case shellyWhite = "shelly_white"
    case shellyPlusRGB = "shelly_plus_rgb"
    case shellyPlusRGBW = "shelly_plus_rgbw"
    case shellyPlusCCT = "shelly_plus_cct"
    case shellyPlusRGBCCT = "shelly_plus_rgbcct"
    case esphome
    case esphomeLight = "esphome_light"
    case esphomeFan = "esphome_fan"
    case zigbee2mqttCover = "zigbee2mqtt_cover"
    case zigbee2mqttLock = "zigbee2mqtt_lock"
    case esphomeCover = "esphome_cover"
    case esphomeLock = "esphome_lock"
    case shellyPlusCover = "shelly_plus_cover"
    case shellyRoller = "shelly_roller"
    case tasmotaShutter = "tasmota_shutter"

    /// What a preset sets for an action.
    public struct Expansion: Sendable, Equatable {
        public var stateSources: [StateSource]
        public var command: ToggleCommand
        public var availability: AvailabilitySource
        public var gatewayAvailability: AvailabilitySource? = nil
        public var stateQuery: MQTTMessageSpec?
        /// What the preset drives.
        public var device: TileDevice = .plainSwitch
    }

    /// Settings beyond the device name that shape a preset's topics.
    struct Options: Equatable {
        /// `mqtt.zigbee2mqtt_base_topic`.
        var zigbee2mqttBaseTopic = "zigbee2mqtt"
        /// Tasmota's `FullTopic` (`%prefix%/%topic%/` unless changed on the device).
        var tasmotaFullTopic = DevicePreset.defaultTasmotaFullTopic
    }

    /// The channel a preset needs, as the YAML gives it.
    enum Channel: Equatable {
        case none
        case index(Int64)
        case name(String)
    }

    /// The expansion for the device `name`; `channel` has been checked by
    /// `channelProblem` already.
    func expand(name: String, channel: Channel, options: Options) -> Expansion {
        let index = if case .index(let index) = channel { index } else { Int64(0) }
        switch self {
        case .zigbee2mqtt: return Self.zigbee2mqtt(name: name, channel: channel, base: options.zigbee2mqttBaseTopic)
        case .tasmota: return Self.tasmota(topic: name, channel: channel, fullTopic: options.tasmotaFullTopic)
        case .shelly: return Self.shelly(id: name, relay: index)
        case .shellyLight, .shellyColor, .shellyWhite:
            return Self.shellyLight(id: name, light: index, component: shellyLightComponent ?? "light")
        case .shellyPlus: return Self.shellyPlus(id: name, switchId: index)
        case .shellyPlusLight, .shellyPlusRGB, .shellyPlusRGBW, .shellyPlusCCT, .shellyPlusRGBCCT:
            return Self.shellyPlusLight(id: name, lightId: index, component: shellyLightComponent ?? "light")
        case .esphome: return Self.esphome(nodeAndName: name)
        case .esphomeLight: return Self.esphomeLight(nodeAndName: name)
        // Fans are switched on and off only: their speed, oscillation and direction have topics of their own.
        case .esphomeFan: return Self.esphome(nodeAndName: name, component: "fan")
        case .zigbee2mqttCover: return Self.zigbee2mqttCover(name: name, channel: channel, base: options.zigbee2mqttBaseTopic)
        case .zigbee2mqttLock: return Self.zigbee2mqttLock(name: name, channel: channel, base: options.zigbee2mqttBaseTopic)
        case .esphomeCover: return Self.esphomeCover(nodeAndName: name)
        case .esphomeLock: return Self.esphomeLock(nodeAndName: name)
        case .shellyPlusCover: return Self.shellyPlusCover(id: name, coverId: index)
        case .shellyRoller: return Self.shellyRoller(id: name, roller: index)
        case .tasmotaShutter: return Self.tasmotaShutter(topic: name, channel: channel, fullTopic: options.tasmotaFullTopic)
        }
    }

    /// Why `channel` does not fit this preset, or nil.
    func channelProblem(_ channel: Channel) -> String? {
        switch (self, channel) {
        case (_, .none): return nil
        case (.zigbee2mqtt, .name(let name)) where !name.isEmpty, (.zigbee2mqttCover, .name(let name)) where !name.isEmpty,
             (.zigbee2mqttLock, .name(let name)) where !name.isEmpty:
            return nil
        case (.zigbee2mqtt, .index(let index)), (.zigbee2mqttCover, .index(let index)), (.zigbee2mqttLock, .index(let index)):
            return "is a number, but zigbee2mqtt endpoints are names: the payload's field 'state_l1' is 'channel: l1' "
                + "('left', 'right', ... likewise); if the device really reports 'state_\(index)', write channel: \"\(index)\""
        case (.zigbee2mqtt, _), (.zigbee2mqttCover, _), (.zigbee2mqttLock, _): return "must be the endpoint name, e.g. 'l2'"
        case (.tasmotaShutter, .index(let index)) where (1...16).contains(index): return nil
        case (.tasmotaShutter, _): return "must be the shutter number, 1 to 16"
        case (.shellyRoller, .index(let index)), (.shellyPlusCover, .index(let index)):
            return (0...3).contains(index) ? nil : "must be the roller or cover index, 0 to 3"
        case (.shellyRoller, _), (.shellyPlusCover, _): return "must be the roller or cover index, 0 to 3"
        case (.tasmota, .index(let index)) where (1...32).contains(index): return nil
        case (.tasmota, _): return "must be the relay number, 1 to 32"
        case (.shelly, .index(let index)), (.shellyPlus, .index(let index)):
            return (0...15).contains(index) ? nil : "must be the relay index, 0 to 15"
        case (.shelly, _), (.shellyPlus, _): return "must be the relay index, 0 to 15"
        case (.shellyLight, .index(let index)), (.shellyColor, .index(let index)), (.shellyWhite, .index(let index)),
             (.shellyPlusLight, .index(let index)), (.shellyPlusRGB, .index(let index)), (.shellyPlusRGBW, .index(let index)),
             (.shellyPlusCCT, .index(let index)), (.shellyPlusRGBCCT, .index(let index)):
            return (0...15).contains(index) ? nil : "must be the light index, 0 to 15"
        case (.shellyLight, _), (.shellyColor, _), (.shellyWhite, _), (.shellyPlusLight, _), (.shellyPlusRGB, _), (.shellyPlusRGBW, _),
             (.shellyPlusCCT, _), (.shellyPlusRGBCCT, _):
            return "must be the light index, 0 to 15"
        case (.esphome, _), (.esphomeLight, _), (.esphomeFan, _), (.esphomeCover, _), (.esphomeLock, _):
            return "does not apply to \(rawValue): name the entity in '\(rawValue): NODE/NAME'"
        }
    }

    /// Why the device name does not fit this preset, or nil.
    func nameProblem(_ name: String) -> String? {
        if self == .tasmota || self == .tasmotaShutter { return Self.tasmotaTopicProblem(name) }
        guard [.esphome, .esphomeLight, .esphomeFan, .esphomeCover, .esphomeLock].contains(self) else { return nil }
        guard let slash = name.lastIndex(of: "/"), slash != name.startIndex, name.index(after: slash) != name.endIndex else {
            return "must be 'NODE/NAME', the node and the entity's name"
        }
        return nil
    }

    /// The zigbee2mqtt presets, whose channel is an endpoint name.
    var isZigbee2MQTT: Bool { [.zigbee2mqtt, .zigbee2mqttCover, .zigbee2mqttLock].contains(self) }

    /// ESPHome's `NODE/NAME`, split at the last slash.
    static func nodeAndName(_ text: String) -> (node: String, name: String) {
        guard let slash = text.lastIndex(of: "/") else { return (text, "") }
        return (String(text[..<slash]), String(text[text.index(after: slash)...]))
    }
}

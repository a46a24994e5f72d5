/// The firmwares the soak's devices speak, as the bridge's presets expect them.
enum SoakPreset: String, CaseIterable {
    case zigbee2mqtt, tasmota, shelly, shellyPlus = "shelly_plus", esphome
}

/// One action of the soak's config and the device behind it: its topics and
/// payloads, spelled as each firmware does (see `DevicePreset`).
struct SoakAction: Sendable {
    enum Kind: Equatable, Sendable {
        case toggle(SoakPreset)
        case button(repeatSafe: Bool)
    }

    let index: Int
    let slug: String
    let id: String
    let kind: Kind
    /// The device's name in its preset (zigbee2mqtt friendly name, Tasmota topic, ...).
    let device: String

    var isToggle: Bool { if case .toggle = kind { true } else { false } }
    var isUnsafeButton: Bool { kind == .button(repeatSafe: false) }

    /// The topic commands arrive on.
    var commandTopic: String {
        switch kind {
        case .toggle(.zigbee2mqtt): "zigbee2mqtt/\(device)/set"
        case .toggle(.tasmota): "cmnd/\(device)/POWER"
        case .toggle(.shelly): "shellies/\(device)/relay/0/command"
        case .toggle(.shellyPlus): "\(device)/command/switch:0"
        case .toggle(.esphome): "\(device)/switch/relay/command"
        case .button(let safe): safe ? "soak/scene/\(device)/set" : "soak/feeder/\(device)/cmd"
        }
    }

    /// A state query the bridge may send (zigbee2mqtt `/get`), besides commands.
    var queryTopic: String? {
        if case .toggle(.zigbee2mqtt) = kind { return "zigbee2mqtt/\(device)/get" }
        return nil
    }

    var stateTopic: String {
        switch kind {
        case .toggle(.zigbee2mqtt): "zigbee2mqtt/\(device)"
        case .toggle(.tasmota): "stat/\(device)/POWER"
        case .toggle(.shelly): "shellies/\(device)/relay/0"
        case .toggle(.shellyPlus): "\(device)/status/switch:0"
        case .toggle(.esphome): "\(device)/switch/relay/state"
        case .button: ""
        }
    }

    func statePayload(isOn: Bool) -> String {
        switch kind {
        case .toggle(.zigbee2mqtt): "{\"state\":\"\(isOn ? "ON" : "OFF")\",\"brightness\":254,\"linkquality\":87}"
        case .toggle(.tasmota), .toggle(.esphome): isOn ? "ON" : "OFF"
        case .toggle(.shelly): isOn ? "on" : "off"
        case .toggle(.shellyPlus): "{\"id\":0,\"source\":\"MQTT\",\"output\":\(isOn),\"temperature\":{\"tC\":41.2}}"
        case .button: ""
        }
    }

    var availabilityTopic: String {
        switch kind {
        case .toggle(.zigbee2mqtt): "zigbee2mqtt/\(device)/availability"
        case .toggle(.tasmota): "tele/\(device)/LWT"
        case .toggle(.shelly): "shellies/\(device)/online"
        case .toggle(.shellyPlus): "\(device)/online"
        case .toggle(.esphome): "\(device)/status"
        case .button: ""
        }
    }

    func availabilityPayload(isOnline: Bool) -> String {
        switch kind {
        case .toggle(.zigbee2mqtt): "{\"state\":\"\(isOnline ? "online" : "offline")\"}"
        case .toggle(.tasmota): isOnline ? "Online" : "Offline"
        case .toggle(.shelly), .toggle(.shellyPlus): isOnline ? "true" : "false"
        case .toggle(.esphome): isOnline ? "online" : "offline"
        case .button: ""
        }
    }

    /// The state a command asks for; nil for a state query (an empty Tasmota
    /// command) or anything unreadable.
    func requestedState(commandPayload payload: String) -> Bool? {
        let upper = payload.uppercased()
        if upper.contains("\"ON\"") || upper == "ON" { return true }
        if upper.contains("\"OFF\"") || upper == "OFF" { return false }
        return nil
    }

    /// The YAML lines of this action (`labelSuffix` changes on some reloads).
    func yaml(labelSuffix: String) -> [String] {
        var lines = ["      - id: \(id)", "        label: Device \(index)\(labelSuffix)"]
        switch kind {
        case .toggle(let preset):
            lines.append("        kind: toggle")
            lines.append("        \(preset.rawValue): \(preset == .esphome ? device + "/relay" : device)")
        case .button(let safe):
            if !safe { lines.append("        repeat_safe: false") }
            lines.append("        publish: { topic: \(commandTopic), payload: go }")
        }
        return lines
    }
}

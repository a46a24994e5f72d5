/// ESPHome: `NODE/switch/NAME/state` and `NODE/fan/NAME/state` raw, `NODE/light/NAME/state` JSON schema.
extension DevicePreset {
    /// A raw `ON`/`OFF` entity: a switch, or a fan (`component: "fan"`).
    static func esphome(nodeAndName: String, component: String = "switch") -> Expansion {
        let (node, name) = Self.nodeAndName(nodeAndName)
        return Expansion(
            stateSources: [StateSource(topic: "\(node)/\(component)/\(name)/state", field: nil, onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "\(node)/\(component)/\(name)/command", payloadOn: "ON", payloadOff: "OFF"),
            availability: esphomeStatus(node),
            stateQuery: nil
        )
    }

    /// ESPHome lights speak the JSON schema only: a plain `ON` command is dropped.
    static func esphomeLight(nodeAndName: String) -> Expansion {
        let (node, name) = Self.nodeAndName(nodeAndName)
        return Expansion(
            stateSources: [StateSource(topic: "\(node)/light/\(name)/state", field: ["state"], onValue: "ON", offValue: "OFF")],
            command: ToggleCommand(topic: "\(node)/light/\(name)/command", payloadOn: "{\"state\":\"ON\"}", payloadOff: "{\"state\":\"OFF\"}"),
            availability: esphomeStatus(node),
            stateQuery: nil
        )
    }

    private static func esphomeStatus(_ node: String) -> AvailabilitySource {
        AvailabilitySource(topic: "\(node)/status", field: nil, availableValue: "online", unavailableValue: "offline")
    }
}

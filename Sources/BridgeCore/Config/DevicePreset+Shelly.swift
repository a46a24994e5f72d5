/// Shelly gen1 (`shellies/ID/...`) and gen2/gen3 (`ID/status/...`,
/// `ID/events/rpc`) relays and lights.
extension DevicePreset {
    /// What Shelly gen1 reports when a relay switched itself off on overload.
    static let shellyOverpower = "overpower"

    static func shelly(id: String, relay: Int64) -> Expansion {
        let base = "shellies/\(id)"
        return Expansion(
            stateSources: [StateSource(topic: "\(base)/relay/\(relay)", field: nil, onValue: "on", offValue: "off",
                                       protectiveOffValues: [shellyOverpower])],
            command: ToggleCommand(topic: "\(base)/relay/\(relay)/command", payloadOn: "on", payloadOff: "off"),
            availability: shellyOnline(base),
            stateQuery: MQTTMessageSpec(topic: "\(base)/command", payload: "update", qos: 1, retain: false)
        )
    }

    static func shellyLight(id: String, light: Int64) -> Expansion {
        let base = "shellies/\(id)"
        return Expansion(
            stateSources: [
                StateSource(topic: "\(base)/light/\(light)", field: nil, onValue: "on", offValue: "off",
                            protectiveOffValues: [shellyOverpower]),
                StateSource(topic: "\(base)/light/\(light)/status", field: ["ison"], onValue: "true", offValue: "false"),
            ],
            command: ToggleCommand(topic: "\(base)/light/\(light)/set", payloadOn: "{\"turn\":\"on\"}", payloadOff: "{\"turn\":\"off\"}"),
            availability: shellyOnline(base),
            stateQuery: MQTTMessageSpec(topic: "\(base)/command", payload: "update", qos: 1, retain: false)
        )
    }

    static func shellyPlus(id: String, switchId: Int64) -> Expansion {
        Expansion(
            stateSources: shellyPlusSources(id: id, component: "switch:\(switchId)"),
            command: ToggleCommand(topic: "\(id)/command/switch:\(switchId)", payloadOn: "on", payloadOff: "off"),
            availability: shellyOnline(id),
            stateQuery: MQTTMessageSpec(topic: "\(id)/command", payload: "status_update", qos: 1, retain: false)
        )
    }

    static func shellyPlusLight(id: String, lightId: Int64) -> Expansion {
        func lightSet(_ on: Bool) -> String {
            "{\"id\":1,\"src\":\"switchboard-bridge\",\"method\":\"Light.Set\",\"params\":{\"id\":\(lightId),\"on\":\(on)}}"
        }
        return Expansion(
            stateSources: shellyPlusSources(id: id, component: "light:\(lightId)"),
            command: ToggleCommand(topic: "\(id)/rpc", payloadOn: lightSet(true), payloadOff: lightSet(false)),
            availability: shellyOnline(id),
            stateQuery: MQTTMessageSpec(topic: "\(id)/command", payload: "status_update", qos: 1, retain: false)
        )
    }

    /// The full status (needs "generic status update", off by default) and the
    /// NotifyStatus deltas on `events/rpc` (on by default).
    private static func shellyPlusSources(id: String, component: String) -> [StateSource] {
        [
            StateSource(topic: "\(id)/status/\(component)", field: ["output"], onValue: "true", offValue: "false"),
            StateSource(topic: "\(id)/events/rpc", field: ["params", component, "output"], onValue: "true", offValue: "false"),
        ]
    }

    private static func shellyOnline(_ base: String) -> AvailabilitySource {
        AvailabilitySource(topic: "\(base)/online", field: nil, availableValue: "true", unavailableValue: "false")
    }
}

/// zigbee2mqtt: `B/NAME` JSON, `B/NAME/set`, `B/NAME/availability`, and the
/// bridge's own `B/bridge/state` as a second availability source.
extension DevicePreset {
    static func zigbee2mqtt(name: String, channel: Channel, base: String) -> Expansion {
        let field = if case .name(let endpoint) = channel { "state_\(endpoint)" } else { "state" }
        let device = "\(base)/\(name)"
        return Expansion(
            stateSources: [
                StateSource(topic: device, field: [field], onValue: "ON", offValue: "OFF"),
                // `advanced.output: attribute` (or `attribute_and_json`): one topic per property.
                StateSource(topic: "\(device)/\(field)", field: nil, onValue: "ON", offValue: "OFF"),
            ],
            command: ToggleCommand(topic: "\(device)/set", payloadOn: "{\"\(field)\":\"ON\"}", payloadOff: "{\"\(field)\":\"OFF\"}"),
            availability: AvailabilitySource(topic: "\(device)/availability", field: ["state"],
                                             availableValue: "online", unavailableValue: "offline"),
            gatewayAvailability: AvailabilitySource(topic: "\(base)/bridge/state", field: ["state"],
                                                    availableValue: "online", unavailableValue: "offline"),
            stateQuery: MQTTMessageSpec(topic: "\(device)/get", payload: "{\"\(field)\":\"\"}", qos: 1, retain: false)
        )
    }
}

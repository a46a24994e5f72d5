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

    /// The light component a Shelly light preset drives: gen1 `light` (dimmers, bulbs, Duo),
    /// `color` and `white` (RGBW2 and the color bulb in each mode); gen2+ `light`, `rgb`,
    /// `rgbw`, `cct`, `rgbcct` (Plus RGBW PM, Pro RGBWW PM, the gen3 bulbs and CCT dimmers).
    /// Nil for the presets that drive no light.
    ///
    /// Sources: Shelly gen1 API docs, "Shelly RGBW2: MQTT" (`shellies/<id>/color/0`,
    /// `white/<i>`, their `/status` JSON `ison` and `/set` `{"turn":"on"}`) and
    /// iobroker-community-adapters/ioBroker.shelly `lib/devices/gen1/shellyrgbw2.js`;
    /// gen2 docs, ComponentsAndServices `Light`, `RGB`, `RGBW`, `CCT`, `RGBCCT`
    /// (`<Type>.Set` `{"id":N,"on":true}`, status `output`).
    var shellyLightComponent: String? {
        switch self {
        case .shellyLight, .shellyPlusLight: return "light"
        case .shellyColor: return "color"
        case .shellyWhite: return "white"
        case .shellyPlusRGB: return "rgb"
        case .shellyPlusRGBW: return "rgbw"
        case .shellyPlusCCT: return "cct"
        case .shellyPlusRGBCCT: return "rgbcct"
        default: return nil
        }
    }

    /// The gen2+ light preset of a component (`rgbw` → `shelly_plus_rgbw`), and the gen1 one.
    static func shellyLightPreset(component: String, generation: Int) -> DevicePreset? {
        allCases.first { $0.shellyLightComponent == component && $0.rawValue.hasPrefix("shelly_plus") == (generation >= 2) }
    }

    static func shellyLight(id: String, light: Int64, component: String) -> Expansion {
        let base = "shellies/\(id)"
        return Expansion(
            stateSources: [
                StateSource(topic: "\(base)/\(component)/\(light)", field: nil, onValue: "on", offValue: "off",
                            protectiveOffValues: [shellyOverpower]),
                StateSource(topic: "\(base)/\(component)/\(light)/status", field: ["ison"], onValue: "true", offValue: "false"),
            ],
            command: ToggleCommand(topic: "\(base)/\(component)/\(light)/set", payloadOn: "{\"turn\":\"on\"}", payloadOff: "{\"turn\":\"off\"}"),
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

    static func shellyPlusLight(id: String, lightId: Int64, component: String) -> Expansion {
        let method = (component == "light" ? "Light" : component.uppercased()) + ".Set"
        func lightSet(_ on: Bool) -> String {
            "{\"id\":1,\"src\":\"switchboard-bridge\",\"method\":\"\(method)\",\"params\":{\"id\":\(lightId),\"on\":\(on)}}"
        }
        return Expansion(
            stateSources: shellyPlusSources(id: id, component: "\(component):\(lightId)"),
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

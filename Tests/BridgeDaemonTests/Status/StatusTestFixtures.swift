import BridgeCore

@testable import BridgeDaemon

/// Configs and snapshots for the status endpoint tests.
enum StatusFixtures {
    static let slug = "house"

    static func toggle(_ id: String, _ label: String, availability: Bool = false) -> ActionConfig {
        ActionConfig(
            id: id, label: label, kind: .toggle,
            stateSources: [StateSource(topic: "home/\(id)/state")],
            command: ToggleCommand(topic: "home/\(id)/set"),
            availability: availability ? AvailabilitySource(topic: "home/\(id)/availability") : nil
        )
    }

    static func plainButton(_ id: String, _ label: String) -> ActionConfig {
        ActionConfig(id: id, label: label, kind: .button, publishes: [MQTTMessageSpec(topic: "home/\(id)", payload: "go")])
    }

    static func activeButton(_ id: String, _ label: String) -> ActionConfig {
        ActionConfig(
            id: id, label: label, kind: .button,
            publishes: [MQTTMessageSpec(topic: "home/\(id)/run", payload: "go")],
            activeSource: ActiveSource(topic: "home/\(id)/running", value: "yes")
        )
    }

    /// Porch light, fountain, fan (toggles), doorbell (plain), sprinkler (active button).
    static func config(status: StatusSettings? = StatusSettings(), actions: [ActionConfig]? = nil) -> BridgeConfig {
        let defaultActions = [
            toggle("porch", "Porch light"),
            toggle("fountain", "Fountain"),
            toggle("fan", "Fan", availability: true),
            plainButton("doorbell", "Doorbell"),
            activeButton("sprinkler", "Sprinkler"),
        ]
        return BridgeConfig(status: status, widgets: [WidgetConfig(slug: slug, actions: actions ?? defaultActions)])
    }

    static func state(on: Bool? = nil, available: Bool? = nil, active: Bool = false) -> ActionState {
        var state = ActionState()
        state.isOn = on
        state.isAvailable = available
        state.isActive = active
        return state
    }

    static func snapshot(
        config: BridgeConfig = config(),
        states: [String: ActionState] = [:],
        mqtt: Bool = true,
        stream: Bool = true,
        offsetMs: Int64 = 0
    ) -> BridgeSnapshot {
        var keyed: [ActionKey: ActionState] = [:]
        for (id, state) in states { keyed[ActionKey(slug: slug, actionId: id)] = state }
        return BridgeSnapshot(
            config: config, states: keyed, isMQTTConnected: mqtt, isEventStreamConnected: stream, isSettled: true,
            serverClockOffsetMs: offsetMs
        )
    }

    /// The house as in the issue: porch on, fountain off, fan offline.
    static let typicalStates: [String: ActionState] = [
        "porch": state(on: true),
        "fountain": state(on: false),
        "fan": state(on: true, available: false),
        "sprinkler": state(active: true),
    ]
}

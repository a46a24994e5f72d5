@testable import BridgeCore

/// The widget `home` of the scene tests: a light, a fountain, a garage door
/// with open/close commands, a pulsed door, a lock-only lock, a lock that may
/// unlock, and scenes made of them (one topic-based for contrast).
enum SceneFixture {
    static let actions = """
          - id: porch
            label: Porch
            kind: toggle
            state_topic: porch/state
            command_topic: porch/set
            availability_topic: porch/availability
          - id: fountain
            label: Fountain
            kind: toggle
            state_topic: fountain/state
            command_topic: fountain/set
            availability_topic: fountain/availability
          - id: garage
            label: Garage
            device: cover
            state_topic: garage/state
            command_topic: garage/set
            availability_topic: garage/availability
          - id: door
            label: Old door
            pulse: {topic: door/relay, payload: "ON"}
            state_topic: door/contact
            state_field: contact
            on_value: "false"
            off_value: "true"
            availability_topic: door/availability
            travel_time_ms: 20000
          - id: front
            label: Front door
            device: lock
            state_topic: front/state
            command_topic: front/set
            availability_topic: front/availability
          - id: side
            label: Side door
            device: lock
            state_topic: side/state
            command_topic: side/set
            allow_unlock: true
          - id: all_off
            label: All off
            sets: {porch: off, fountain: off, garage: off}
          - id: evening
            label: Evening
            sets: {porch: on, fountain: off}
          - id: leaving
            label: Leaving
            sets: {porch: off, garage: off, door: off, front: on}
          - id: welcome
            label: Welcome
            sets: {side: off, porch: on}
            publish: {topic: speaker/say, payload: welcome}
          - id: movie
            label: Movie
            publish: {topic: home/scene/set, payload: movie}
            active_topic: home/scene/current
            active_value: movie
          - id: party
            label: Party
            publish: {topic: home/scene/set, payload: party}
            active_topic: home/scene/current
            active_value: party

    """

    static let text = "aivi:\n  token_env: AIVI_TOKEN\nwidgets:\n  - slug: home\n    actions:\n" + actions

    static func config(_ extraTiming: String = "") throws -> BridgeConfig {
        let result = ConfigLoader.load(text: extraTiming.isEmpty ? text : text.replacing("widgets:", with: "timing:\n" + extraTiming + "\nwidgets:"),
                                       fileName: "bridge.yaml")
        guard let config = result.config else { throw CoverTestError.config(result.rendered()) }
        return config
    }

    /// Each tile's reports meaning on (open, locked) and off, and its availability topic.
    static let tiles: [String: (state: String, on: String, off: String, availability: String?)] = [
        "porch": ("porch/state", "ON", "OFF", "porch/availability"),
        "fountain": ("fountain/state", "ON", "OFF", "fountain/availability"),
        "garage": ("garage/state", "open", "closed", "garage/availability"),
        "door": ("door/contact", #"{"contact":false}"#, #"{"contact":true}"#, "door/availability"),
        "front": ("front/state", "LOCKED", "UNLOCKED", "front/availability"),
        "side": ("side/state", "LOCKED", "UNLOCKED", nil),
    ]

    /// The reports putting each listed tile in its state (true: on).
    static func reports(_ states: [String: Bool]) -> [(String, String)] {
        states.sorted { $0.key < $1.key }.compactMap { id, on in
            tiles[id].map { ($0.state, on ? $0.on : $0.off) }
        }
    }
}

extension BridgeHarness {
    /// The scene widget, connected and settled with `states` (tile id → on).
    init(scenes states: [String: Bool], timing: String = "") throws {
        self.init(config: try SceneFixture.config(timing))
        connectAndSettle(states: SceneFixture.reports(states))
    }

    mutating func report(_ id: String, on: Bool) -> [BridgeEffect] {
        guard let tile = SceneFixture.tiles[id] else { return [] }
        return message(tile.state, on ? tile.on : tile.off)
    }

    mutating func pressScene(_ id: String, eventId: String) -> [BridgeEffect] {
        press(id, widget: "home", kind: "button", value: nil, id: eventId)
    }

    /// Each button's `active` in a PATCH body.
    static func highlights(_ body: String) -> [String: Bool] { members(body, "active") }

    /// Each toggle's `on` in a PATCH body.
    static func tiles(_ body: String) -> [String: Bool] { members(body, "on") }

    private static func members(_ body: String, _ name: String) -> [String: Bool] {
        guard let tree = try? JSONValue.parse(bytes: Array(body.utf8)), case .array(let actions)? = tree["content"]?["actions"] else { return [:] }
        var result: [String: Bool] = [:]
        for action in actions {
            if let id = action["id"]?.stringValue, let value = action[name]?.boolValue { result[id] = value }
        }
        return result
    }
}

/// The words the app shows on a tile's second line (the guide's table).
public enum TileFaceState: String, Sendable, Equatable, CaseIterable {
    case off = "Off"
    case idle = "Idle"
    case on = "On"
    case active = "Active"
    case turningOn = "Turning on"
    case turningOff = "Turning off"
    case noResponse = "No response"
    case sent = "Sent"

    /// What a tile shows with no press waiting: On/Off for a toggle, Active/Idle
    /// for a button, from the `on` or `active` the phone last received.
    public static func resting(isToggle: Bool, isShownOn: Bool) -> TileFaceState {
        isToggle ? (isShownOn ? .on : .off) : (isShownOn ? .active : .idle)
    }
}

/// Everything a tile is drawn from: the action's fields as the phone received
/// them and the state it shows. The demo's phones and the status page both
/// draw `TileFace`s with `SwitchboardTileHTML`.
public struct TileFace: Sendable, Equatable {
    public var id: String
    public var label: String
    public var isToggle: Bool
    public var state: TileFaceState
    /// What the phone last received: toggles' `on`, buttons' `active`
    /// (under No response, the state last published).
    public var isShownOn: Bool
    public var icon: String?
    public var color: String?
    public var subtitle: String?
    /// The tile's own words for the states (its `state_words`), as the phone shows them.
    public var stateWords: TileStateWords
    /// What the device says beyond the app's states (`Jammed`, `Unlatched`):
    /// the pages show it on the second line instead of the resting word.
    public var reading: String?
    /// Why the last press did nothing, or why a press would not (offline, never
    /// answers): the pages show it next to the tile. Nil when there is nothing to say.
    public var note: String?

    public init(id: String, label: String, isToggle: Bool, state: TileFaceState, isShownOn: Bool,
                icon: String? = nil, color: String? = nil, subtitle: String? = nil,
                stateWords: TileStateWords = TileStateWords(), reading: String? = nil, note: String? = nil) {
        self.id = id
        self.label = label
        self.isToggle = isToggle
        self.state = state
        self.isShownOn = isShownOn
        self.icon = icon
        self.color = color
        self.subtitle = subtitle
        self.stateWords = stateWords
        self.reading = reading
        self.note = note
    }

    /// The second line's word: the device's reading at rest (Jammed), else the
    /// tile's own word for its state (Open, Closing), else the app's (On, Turning off).
    public var stateWord: String {
        if let reading, state == .on || state == .off { return reading }
        return stateWords.word(for: state) ?? state.rawValue
    }

    /// The tiles of Switchboard content (`{"actions": [...]}`) as a phone with
    /// no press waiting shows them: On/Off for toggles, Active/Idle for buttons.
    public static func resting(content: JSONValue) -> [TileFace] {
        guard case .array(let actions)? = content["actions"] else { return [] }
        return actions.compactMap { action in
            guard let id = action["id"]?.stringValue else { return nil }
            let isToggle = action["kind"]?.stringValue == "toggle"
            let isOn = (isToggle ? action["on"] : action["active"])?.boolValue ?? false
            return TileFace(
                id: id, label: action["label"]?.stringValue ?? "", isToggle: isToggle,
                state: .resting(isToggle: isToggle, isShownOn: isOn), isShownOn: isOn,
                icon: action["icon"]?.stringValue, color: action["color"]?.stringValue,
                subtitle: action["subtitle"]?.stringValue, stateWords: TileStateWords(action["state_words"]))
        }
    }

    /// The tiles of a PATCH body (`{"content": {...}}`); empty when it is not one.
    public static func resting(body: String) -> [TileFace] {
        guard let value = try? JSONValue.parse(body), let content = value["content"] else { return [] }
        return resting(content: content)
    }
}

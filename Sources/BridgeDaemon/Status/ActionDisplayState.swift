import BridgeCore

/// How one action reads on the status widget: the word a person would say and
/// the color of its row. Derived from the config and the bridge's state only.
public enum ActionDisplayState: String, Sendable, Equatable, CaseIterable {
    case on
    case off
    case unavailable
    case unknown
    /// A button whose active topic says it is running.
    case active
    /// A button with an active topic that says it is not running.
    case idle
    /// A plain button (no active topic): it can always be pressed.
    case ready

    /// The state of `action` given what the bridge knows (`nil`: nothing yet).
    public static func of(_ action: ActionConfig, state: ActionState?) -> ActionDisplayState {
        let state = state ?? ActionState()
        if state.isUnreachable { return .unavailable }
        switch action.kind {
        case .toggle:
            guard let isOn = state.isOn else { return .unknown }
            return isOn ? .on : .off
        case .button where action.hasHighlight:
            return state.isActive ? .active : .idle
        case .button:
            return .ready
        }
    }

    /// The lower-case word used in sentences ("on", "unavailable").
    public var word: String { rawValue }

    /// Whether the spoken summary mentions this state (plain buttons are left out).
    public var isSpoken: Bool { self != .ready }

    /// The row's text color: bright for on/active, muted for off/idle, orange
    /// when the device is unreachable.
    public var rowColor: String {
        switch self {
        case .on, .active: return "#4CD964"
        case .off, .idle, .ready: return "#C9D1DB"
        case .unavailable: return "#FF9500"
        case .unknown: return "#6D7786"
        }
    }
}

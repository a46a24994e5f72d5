/// What `watch` says a press of a tile would do that a homeowner might not
/// expect (issue 39 §5): `watch` sends no command, so it says it from the
/// tile's rules and the state it read, with the words the bridge logs.
public struct WatchPressRule: Sendable, Equatable {
    /// A lock without `allow_unlock`: an unlock press is refused.
    public var isLockOnly = false
    /// A pulsed door's travel time; nil when the tile is not pulsed.
    public var pulseTravelMs: Int64?

    public init() {}

    public init(_ action: ActionConfig) {
        guard action.kind == .toggle else { return }
        isLockOnly = action.device == .lock && !action.allowUnlock
        pulseTravelMs = action.pulse == nil ? nil : action.effectiveTravelTimeMs
    }
}

extension WatchSession.ActionRecord {
    /// Why a press would do nothing now, or when it would: an offline device,
    /// a lock-only lock, a pulsed door whose sensor has not said or that is held
    /// for its travel time after a pulse (a scene skips it then too). Nil when a
    /// press would simply be carried out.
    public var pressNote: String? {
        guard !isScene else { return nil }
        if state.isUnreachable { return "a press sends nothing now: the device is offline (answered with its last state)" }
        var notes: [String] = []
        if pressRule.isLockOnly { notes.append("an unlock press is refused: this tile only locks (allow_unlock: true lets it)") }
        if let travelMs = pressRule.pulseTravelMs {
            if state.isOn == nil {
                notes.append("not pulsed until the door's sensor reports")
            } else {
                notes.append("pulsed at most once per travel time (\(AgeText.duration(ms: travelMs))): a press or a scene "
                             + "inside it does nothing, and the bridge starts with one")
            }
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}

/// What the pages say about a tile beyond the phone's states, from what the
/// bridge knows: the device's own word at rest (Offline, Jammed, Unlatched),
/// and why a press did nothing, or would not. The demo page and the status page
/// draw it next to the tile; an offline device never reads like Off.
public enum TileNote {
    /// How long after a press its note stays (about as long as the phone shows No response).
    public static let pressNoteMs: Int64 = 90_000

    /// The tile's face with the bridge's words: a door's or lock's own state
    /// words where its content names none, the device's reading, and the note.
    public static func annotated(_ face: TileFace, _ action: ActionConfig, _ state: ActionState, _ facts: ActionFacts,
                                 isNeverHeard: Bool, nowMs: Int64) -> TileFace {
        var face = face
        face.stateWords = face.stateWords.filled(from: .defaults(for: action.device))
        face.reading = reading(action, state)
        face.note = note(action, state, facts, isNeverHeard: isNeverHeard, nowMs: nowMs)
        return face
    }

    /// The faces of widget `slug`, each annotated from `snapshot` (a face of no
    /// configured action is left as it is).
    public static func annotated(_ faces: [TileFace], slug: String, _ snapshot: BridgeSnapshot, nowMs: Int64) -> [TileFace] {
        guard let widget = snapshot.config.widgets.first(where: { $0.slug == slug }) else { return faces }
        return faces.map { face in
            guard let action = widget.actions.first(where: { $0.id == face.id }) else { return face }
            let key = ActionKey(slug: slug, actionId: action.id)
            return annotated(face, action, snapshot.states[key] ?? ActionState(), snapshot.facts.action(key),
                             isNeverHeard: snapshot.isNeverHeard(action), nowMs: nowMs)
        }
    }

    /// The device's own word where the app's On/Off would mislead: Offline for
    /// an unreachable device, the cover's or lock's further reading (Opening,
    /// Closing, Locking, Jammed, Unlatched, Not fully locked); nil otherwise.
    public static func reading(_ action: ActionConfig, _ state: ActionState) -> String? {
        guard action.kind == .toggle else { return nil }
        if state.isUnreachable { return "Offline" }
        guard action.device != .plainSwitch, case .reading(let reading)? = state.lastReading else { return nil }
        switch reading {
        case .opening, .movingTowardOpen: return "Opening"
        case .closing, .movingTowardClosed: return "Closing"
        case .motionStopped, .blinking: return nil
        default: return DisplayText.sentenceStart(reading.rawValue)
        }
    }

    /// Why the last press did nothing (inside `pressNoteMs`), or why a press
    /// would not work now; nil when there is nothing to say.
    public static func note(_ action: ActionConfig, _ state: ActionState, _ facts: ActionFacts,
                            isNeverHeard: Bool, nowMs: Int64) -> String? {
        if state.isAvailable == false { return "offline: the device says it cannot be reached; a press sends nothing" }
        if state.isGatewayAvailable == false { return "offline: its gateway is down; a press sends nothing" }
        if let press = facts.lastPress, nowMs.subtractingSaturating(press.atMs) <= pressNoteMs, let why = pressNote(press.outcome) {
            return why
        }
        if case .reading(.jammed)? = state.lastReading { return "the lock reports it is jammed" }
        if isNeverHeard, action.kind == .toggle {
            return "never heard from since the bridge started: a press could not be confirmed"
        }
        return nil
    }

    /// A press's outcome, when it did nothing the homeowner asked for.
    static func pressNote(_ outcome: PressFactOutcome) -> String? {
        switch outcome {
        case .refused(let reason): return "last press did nothing: " + reason
        case .deviceUnavailable: return "last press did nothing: the device is offline"
        case .answeredWithTruth(let afterMs):
            return "last press: the device did not answer within \(AgeText.duration(ms: afterMs)); showing what it last reported"
        case .expired: return "last press arrived after it expired: not carried out"
        case .commanded, .confirmed, .alreadyInState, .published, .sceneCommanded, .duplicate: return nil
        }
    }
}

/// What the core saw and decided, kept for the status page: connections, each
/// widget's publishing, each action's last message, press and warning. Bounded
/// by the config: only configured widgets and actions get an entry. Not a
/// read-model of its own: the part of the core's state kept only to be shown,
/// read through `BridgeSnapshot.facts` (the page, `TileNote`, the demo).
public struct BridgeFacts: Sendable, Equatable {
    public internal(set) var connections = ConnectionFacts()
    public internal(set) var publishing: [String: PublishFacts] = [:]
    public internal(set) var actions: [ActionKey: ActionFacts] = [:]

    public init() {}

    /// The facts of a configured action (empty when nothing happened yet).
    public func action(_ key: ActionKey) -> ActionFacts { actions[key] ?? ActionFacts() }

    /// Drops the entries of widgets and actions no longer configured (after a reload).
    mutating func keep(only config: BridgeConfig) {
        let slugs = Set(config.widgets.map(\.slug))
        let keys = Set(config.allActions.map { ActionKey(slug: $0.slug, actionId: $0.action.id) })
        publishing = publishing.filter { slugs.contains($0.key) }
        actions = actions.filter { keys.contains($0.key) }
    }
}

extension Bridge {
    /// Records a press of a configured action of this `kind`.
    mutating func notePress(_ key: ActionKey, _ kind: ActionKind, _ press: PressEnvelope, _ input: BridgeInput,
                            _ outcome: PressFactOutcome) {
        let requestedOn = kind == .toggle ? press.value ?? false : nil
        notePress(key, eventId: press.id, requestedOn: requestedOn, input, outcome)
    }

    /// The same for a tile driven by another action's press (a scene's).
    mutating func notePress(_ key: ActionKey, eventId: String, requestedOn: Bool?, _ input: BridgeInput, _ outcome: PressFactOutcome) {
        guard actionsByKey.keys.contains(key) else { return }   // (a look-up without copying the action)
        facts.actions[key, default: ActionFacts()].lastPress = PressFact(
            eventId: LogExcerpt.id(eventId), atMs: input.boardClockMs, requestedOn: requestedOn, outcome: outcome)
    }

    /// Ends the last press's wait with `outcome`, when it is the press `eventId`.
    mutating func notePressEnded(_ key: ActionKey, eventId: String, _ outcome: PressFactOutcome) {
        // One look-up, the facts changed in place (no copy of the action's facts).
        facts.actions[key]?.endLastPress(eventIdExcerpt: LogExcerpt.id(eventId), outcome)
    }

    /// Logs a warning about a configured action and keeps it for the status page.
    mutating func warn(about key: ActionKey, _ message: LogMessage, _ effects: inout [BridgeEffect]) {
        effects.append(.log(.warning, message))
        guard actionsByKey.keys.contains(key) else { return }
        facts.actions[key, default: ActionFacts()].lastWarning = LogExcerpt.text(message.text)
    }

    /// Records the connection changes and stream events of an input.
    mutating func noteConnections(_ input: BridgeInput) {
        switch input.event {
        case .mqttConnected:
            facts.connections.mqttChangedAtMs = input.boardClockMs
            facts.connections.mqttConnects += 1
        case .mqttDisconnected:
            facts.connections.mqttChangedAtMs = input.boardClockMs
        case .eventStreamConnected:
            facts.connections.eventStreamChangedAtMs = input.boardClockMs
            facts.connections.eventStreamConnects += 1
            facts.connections.tokenRefusedStatus = nil
        case .eventStreamDisconnected:
            facts.connections.eventStreamChangedAtMs = input.boardClockMs
        case .eventStreamTokenRefused(let status):
            facts.connections.eventStreamChangedAtMs = input.boardClockMs
            facts.connections.tokenRefusedStatus = status
        case .streamEvent:
            facts.connections.lastStreamEventAtMs = input.boardClockMs
        default:
            break
        }
    }

    /// Records how a current PATCH ended.
    mutating func notePatchFinished(_ slug: String, _ requestId: UInt64, _ outcome: PatchOutcome, _ input: BridgeInput) {
        guard publishers[slug]?.inFlight?.requestId == requestId else { return }
        facts.publishing[slug, default: PublishFacts()].record(outcome, atMs: input.boardClockMs)
    }
}

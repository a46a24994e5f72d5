/// A press a phone sent and is still waiting on.
struct PendingPress: Sendable {
    let actionId: String
    let kind: TileKind
    /// Toggles: the state asked for.
    let requestedOn: Bool
    let pressedAtMs: Int64
    /// The last publish sequence the service had when the press was made: only a
    /// later publish can answer it.
    let publishSequenceAtPress: Int

    /// Whether `record`, delivered to the pressing phone, ends the wait.
    func isAnswered(by record: PublishRecord, rules: ServiceRules) -> Bool {
        guard record.sequence > publishSequenceAtPress else { return false }
        guard let tile = record.tiles.first(where: { $0.id == actionId }) else { return true }
        switch kind {
        case .button: return true
        case .toggle: return rules.toggleWaitEndsOnAnyUpdate || tile.isOn == requestedOn
        }
    }

    /// Whether the tile has gone back to what was last published by `nowMs`.
    func isOver(atMs nowMs: Int64, rules: ServiceRules) -> Bool {
        let elapsedMs = nowMs - pressedAtMs
        switch kind {
        case .button: return elapsedMs >= rules.buttonSentMs + rules.buttonSentExtraMs
        case .toggle: return elapsedMs >= rules.toggleWaitMs + rules.noResponseShownMs
        }
    }

    /// The marker shown while waiting at `nowMs`.
    func waitingState(atMs nowMs: Int64, rules: ServiceRules) -> TileState {
        switch kind {
        case .button: return .sent
        case .toggle:
            if nowMs - pressedAtMs >= rules.toggleWaitMs { return .noResponse }
            return requestedOn ? .turningOn : .turningOff
        }
    }
}

/// "My tile never updates": once settled (plus a grace), one warning per
/// toggle whose state is still unknown, naming its topics and any near miss.
extension Bridge {
    mutating func scheduleSilenceCheck(_ effects: inout [BridgeEffect]) {
        guard !silence.isCheckScheduled else { return }
        silence.isCheckScheduled = true
        effects.append(.startTimer(.silenceCheck, afterMs: SilenceTracker.graceMs))
    }

    /// Toggles that report state, are not known unreachable, and are still unknown
    /// (none, without a look at each action, when `states` counts none unknown).
    var actionsWithUnknownState: [(key: ActionKey, action: ActionConfig)] {
        guard !allTogglesKnown else { return [] }
        return actionsByKey.sorted { $0.key < $1.key }.compactMap { key, action in
            guard Self.awaitsState(action), let state = states[key], state.isOn == nil, !state.isUnreachable else { return nil }
            return (key, action)
        }
    }

    mutating func checkSilentActions(_ effects: inout [BridgeEffect]) {
        let silentTopics = actionsWithUnknownState.flatMap { entry in
            isNeverHeard(entry.action) ? uniqueStateTopics(entry.action) : []
        }
        guard !silentTopics.isEmpty, isMQTTConnected else {
            reportUnknownStates(&effects)
            return
        }
        silence.startProbe(for: silentTopics, configured: Set(topicIndex.topics.map(UTF8Key.init)),
                           zigbee2mqttBase: config.mqtt.zigbee2mqttBaseTopic)
        effects.append(.subscribe([SilenceTracker.probeFilter]))
        effects.append(.startTimer(.nearMissProbe, afterMs: SilenceTracker.probeWindowMs))
    }

    mutating func finishNearMissProbe(_ effects: inout [BridgeEffect]) {
        guard silence.isProbing else { return }
        silence.endProbe()
        effects.append(.unsubscribe([SilenceTracker.probeFilter]))
        reportUnknownStates(&effects)
    }

    private mutating func reportUnknownStates(_ effects: inout [BridgeEffect]) {
        for (key, action) in actionsWithUnknownState {
            guard let message = unknownStateMessage(key, action) else { continue }
            warn(about: key, message, &effects)
        }
    }

    /// One kind per action: each silent action is reported, however many there are.
    private func unknownStateMessage(_ key: ActionKey, _ action: ActionConfig) -> LogMessage? {
        let who: LogMessage = "action '\(configured: key.actionId)' (widget \(configured: key.slug))"
        let topics = uniqueStateTopics(action)
        if isNeverHeard(action) {
            let misses = topics.flatMap { silence.nearMisses[UTF8Key($0)] ?? [] }
            return "\(who) never heard from: nothing on \(listed(topics)) since start\(NearMiss.clause(misses))"
        }
        for topic in topics {
            guard let payload = silence.fieldless[UTF8Key(topic)] else { continue }
            let present = payload.fieldsPresent.isEmpty ? "" : " (fields present: \(payload.fieldsPresent.joined(separator: ", ")))"
            return "\(who) has no state yet: \(topic) spoke without field '\(payload.field)'\(present)"
        }
        return nil
    }

    private func isNeverHeard(_ action: ActionConfig) -> Bool {
        !action.stateSources.contains { silence.heardTopics.contains(UTF8Key($0.topic)) }
    }

    private func uniqueStateTopics(_ action: ActionConfig) -> [String] {
        var seen: Set<UTF8Key> = []
        return action.stateSources.map(\.topic).filter { seen.insert(UTF8Key($0)).inserted }
    }

    private func listed(_ topics: [String], limit: Int = 6) -> String {
        topics.prefix(limit).joined(separator: ", ") + (topics.count > limit ? ", …" : "")
    }
}

extension Bridge {
    /// Adopts a new config: keeps what is known of actions whose topics did not
    /// change, reports the topics to (un)subscribe, and republishes what changed.
    mutating func reload(_ newConfig: BridgeConfig, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        let oldActions = actionsByKey
        let oldTopics = Set(topicIndex.topics.map(UTF8Key.init))
        config = newConfig
        topicIndex = TopicIndex(config: newConfig)
        adoptWidgets(of: newConfig)
        let changedKeys = forgetChangedActions(oldActions: oldActions, &effects)
        forgetRemovedWidgets(&effects)
        let newTopics = Set(topicIndex.topics.map(UTF8Key.init))
        let added = newTopics.subtracting(oldTopics).sorted().map(\.text)
        let removed = oldTopics.subtracting(newTopics).sorted().map(\.text)
        if !removed.isEmpty { effects.append(.unsubscribe(removed)) }
        if !added.isEmpty, isMQTTConnected { effects.append(.subscribe(added)) }
        stateQueries.keepOnly(stateQueryTable)
        if isMQTTConnected { askDevicesForState(changedKeys, input, &effects) }
        effects.append(.log(.info, "config reloaded: \(newConfig.widgets.count) widgets, \(actionsByKey.count) actions, +\(added.count)/-\(removed.count) topics"))
        for slug in widgetsBySlug.keys.sorted() {
            // A permanent refusal may be what the new config fixes: try again now.
            // A 429 or a transient failure keeps its wait.
            if publishers[slug]?.isRetryScheduled == true, publishers[slug]?.loggedPermanentStatus != nil {
                publishers[slug]?.isRetryScheduled = false
                publishers[slug]?.consecutiveFailures = 0
                effects.append(.cancelTimer(.publishRetry(slug: slug)))
            }
            publishIfNeeded(slug, &effects)
        }
    }

    /// Resets the state of actions that are new or listen to other topics now,
    /// drops removed ones; returns the new or changed keys.
    mutating func forgetChangedActions(oldActions: [ActionKey: ActionConfig], _ effects: inout [BridgeEffect]) -> [ActionKey] {
        var changed: [ActionKey] = []
        for (key, action) in actionsByKey.sorted(by: { $0.key < $1.key }) {
            guard let old = oldActions[key], Self.sameSources(old, action) else {
                if states[key]?.pendingPress != nil { effects.append(.cancelTimer(.confirm(key))) }
                states[key] = states[key].map(Self.keepingPulseHold) ?? ActionState()
                changed.append(key)
                continue
            }
        }
        for key in states.keys.sorted() where actionsByKey[key] == nil {
            if states[key]?.pendingPress != nil { effects.append(.cancelTimer(.confirm(key))) }
            states[key] = nil
        }
        return changed
    }

    mutating func forgetRemovedWidgets(_ effects: inout [BridgeEffect]) {
        for slug in publishers.keys.sorted() where widgetsBySlug[slug] == nil {
            // A permanent refusal may be what the new config fixes: try again now.
            // A 429 or a transient failure keeps its wait.
            if publishers[slug]?.isRetryScheduled == true, publishers[slug]?.loggedPermanentStatus != nil { effects.append(.cancelTimer(.publishRetry(slug: slug))) }
            if publishers[slug]?.isInPublishInterval == true { effects.append(.cancelTimer(.publishInterval(slug: slug))) }
            publishers[slug] = nil
        }
    }

    /// A fresh state that keeps a pulsed door's hold: a new sensor topic does
    /// not stop the door a pulse set moving.
    static func keepingPulseHold(_ state: ActionState) -> ActionState {
        var fresh = ActionState()
        fresh.isPulseHeld = state.isPulseHeld
        fresh.isPulseHeldSinceStart = state.isPulseHeldSinceStart
        fresh.lastPulseAtMs = state.lastPulseAtMs
        return fresh
    }

    static func sameSources(_ lhs: ActionConfig, _ rhs: ActionConfig) -> Bool {
        lhs.kind == rhs.kind && lhs.stateSources == rhs.stateSources
            && lhs.availability == rhs.availability && lhs.gatewayAvailability == rhs.gatewayAvailability && lhs.activeSource == rhs.activeSource
    }
}

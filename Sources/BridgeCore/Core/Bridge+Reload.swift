extension Bridge {
    /// Adopts a new config: keeps what is known of actions whose topics did not
    /// change, reports the topics to (un)subscribe, and republishes what changed.
    mutating func reload(_ newConfig: BridgeConfig, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        let oldActions = actionsByKey
        let oldTopics = Set(topicIndex.topics.map(UTF8Key.init))
        let restartOnly = Self.restartOnlyChanges(from: config, to: newConfig)
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
        if !restartOnly.isEmpty {
            // Issue 41: a reload that added `status:` said only "config reloaded", and the page never came.
            effects.append(.log(.warning, "the changes to \(restartOnly.joined(separator: ", ")) take effect only at a restart: the "
                                + "running bridge keeps the old ones until `sudo systemctl restart switchboard-bridge`"))
        }
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

    /// The settings a reload cannot apply, as named in the file: the broker connection,
    /// the service and its token, the status page, the state directory (each made once at
    /// start). `zigbee2mqtt_base_topic` only changes topics, which a reload applies.
    static func restartOnlyChanges(from old: BridgeConfig, to new: BridgeConfig) -> [String] {
        var oldMQTT = old.mqtt, newMQTT = new.mqtt
        oldMQTT.zigbee2mqttBaseTopic = ""
        newMQTT.zigbee2mqttBaseTopic = ""
        var changed: [String] = []
        if old.aivi != new.aivi { changed.append("'aivi'") }
        if oldMQTT != newMQTT { changed.append("'mqtt'") }
        if old.stateDirectory != new.stateDirectory { changed.append("'state_dir'") }
        if old.status != new.status {
            changed.append(new.status == nil ? "'status' (removed)" : old.status == nil ? "'status' (added: the page is not served yet)" : "'status'")
        }
        return changed
    }

    /// Resets the state of actions that are new or listen to other topics now,
    /// drops removed ones; returns the new or changed keys.
    mutating func forgetChangedActions(oldActions: [ActionKey: ActionConfig], _ effects: inout [BridgeEffect]) -> [ActionKey] {
        var changed: [ActionKey] = []
        for (key, action) in actionsByKey.sorted(by: { $0.key < $1.key }) {
            guard let old = oldActions[key], Self.sameSources(old, action) else {
                if states[key]?.pendingPress != nil { effects.append(.cancelTimer(.confirm(key))) }
                states[key] = ActionState()   // a pulsed door's hold is the door's (`pulseHolds`): it stays
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

    static func sameSources(_ lhs: ActionConfig, _ rhs: ActionConfig) -> Bool {
        lhs.kind == rhs.kind && lhs.stateSources == rhs.stateSources
            && lhs.availability == rhs.availability && lhs.gatewayAvailability == rhs.gatewayAvailability && lhs.activeSource == rhs.activeSource
    }
}

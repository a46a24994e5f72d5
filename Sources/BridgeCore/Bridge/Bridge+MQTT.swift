extension Bridge {
    mutating func mqttConnected(_ effects: inout [BridgeEffect]) {
        isMQTTConnected = true
        effects.append(.log(.info, "mqtt connected; subscribing to \(topicIndex.topics.count) topics"))
        if !topicIndex.topics.isEmpty { effects.append(.subscribe(topicIndex.topics)) }
        askDevicesForState(actionsByKey.keys.sorted(), &effects)
        guard !isSettled else { return }
        if allTogglesKnown {
            settle(&effects)
        } else {
            effects.append(.startTimer(.settle, afterMs: config.timing.settleWindowMs))
        }
    }

    mutating func mqttDisconnected(_ effects: inout [BridgeEffect]) {
        isMQTTConnected = false
        effects.append(.log(.warning, "mqtt disconnected; presses that need a command are refused until it is back"))
    }

    /// Sends the state queries of devices that do not retain their state.
    mutating func askDevicesForState(_ keys: [ActionKey], _ effects: inout [BridgeEffect]) {
        for key in keys {
            guard let query = actionsByKey[key]?.stateQuery else { continue }
            effects.append(.publishMQTT(OutgoingMQTTMessage(topic: query.topic, payload: query.payload, qos: query.qos)))
        }
    }

    /// True when every toggle that reports its state has done so (or is known
    /// unreachable), so a first publish will not flash tiles off.
    var allTogglesKnown: Bool {
        actionsByKey.allSatisfy { key, action in
            guard action.kind == .toggle, !action.stateSources.isEmpty, !action.optimistic else { return true }
            let state = states[key]
            return state?.isOn != nil || state?.isAvailable == false
        }
    }

    mutating func settle(_ effects: inout [BridgeEffect]) {
        isSettled = true
        effects.append(.cancelTimer(.settle))
        effects.append(.log(.info, "states settled; publishing \(widgetsBySlug.count) widgets"))
        for slug in widgetsBySlug.keys.sorted() { publishIfNeeded(slug, &effects) }
    }

    mutating func mqttMessage(_ topic: String, _ payload: [UInt8], _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        guard let listeners = topicIndex.listeners[topic] else { return }
        effects.append(.log(.debug, "mqtt \(topic) \(String(decoding: payload.prefix(256), as: UTF8.self))"))
        var changedSlugs: Set<String> = []
        var understood = false
        for listener in listeners {
            guard let reading = apply(payload, to: listener, input, &effects) else { continue }
            understood = true
            if reading { changedSlugs.insert(listener.action.slug) }
        }
        noteReadability(topic: topic, payload: payload, understood: understood, &effects)
        if !isSettled, isMQTTConnected, allTogglesKnown { settle(&effects) }
        for slug in changedSlugs.sorted() { publishIfNeeded(slug, &effects) }
    }

    /// Logs an unreadable payload once per topic, until the topic speaks sense again.
    mutating func noteReadability(topic: String, payload: [UInt8], understood: Bool, _ effects: inout [BridgeEffect]) {
        if understood {
            topicsWithUnreadablePayload.remove(topic)
        } else if topicsWithUnreadablePayload.insert(topic).inserted {
            let text = String(decoding: payload.prefix(128), as: UTF8.self)
            effects.append(.log(.warning, "ignoring payload '\(text)' on \(topic): not a state the config knows"))
        }
    }

    /// Applies a payload to one listener. Nil when the payload was not understood;
    /// otherwise whether the rendered state may have changed.
    mutating func apply(_ payload: [UInt8], to listener: TopicIndex.Listener, _ input: BridgeInput, _ effects: inout [BridgeEffect]) -> Bool? {
        let key = listener.action
        guard var state = states[key] else { return nil }
        let before = state
        switch listener.role {
        case .state(let source):
            guard let isOn = readOnOff(payload, source) else { return nil }
            if isOn != .absent { state.isOn = isOn == .on }
        case .availability(let source):
            switch PayloadReader.read(payload, field: source.field) {
            case .absent: break
            case .value(let value) where PayloadReader.matches(value, source.availableValue):
                state.isAvailable = true
            case .value(let value):
                // Without a configured unavailable value, anything else means
                // unreachable: a dead device must never look alive.
                guard let unavailable = source.unavailableValue else { state.isAvailable = false; break }
                guard PayloadReader.matches(value, unavailable) else { return nil }
                state.isAvailable = false
            }
        case .active(let source):
            if case .value(let value) = PayloadReader.read(payload, field: source.field) {
                state.isActive = PayloadReader.matches(value, source.value)
            }
        }
        states[key] = state
        resolvePendingPress(key, input, &effects)
        return states[key] != before
    }

    enum OnOffReading { case on, off, absent }

    func readOnOff(_ payload: [UInt8], _ source: StateSource) -> OnOffReading? {
        switch PayloadReader.read(payload, field: source.field) {
        case .absent: return .absent
        case .value(let value) where PayloadReader.matches(value, source.onValue): return .on
        case .value(let value) where PayloadReader.matches(value, source.offValue): return .off
        case .value: return nil
        }
    }
}

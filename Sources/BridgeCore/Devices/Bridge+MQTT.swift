extension Bridge {
    mutating func mqttConnected(_ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        isMQTTConnected = true
        holdDoorsPulsedOnTheLostLink(&effects)
        if holdsDoorsAtFirstConnect { holdPulsesAtFirstConnect(&effects) }
        effects.append(.log(.info, "mqtt connected; subscribing to \(topicIndex.topics.count) topics"))
        if !topicIndex.topics.isEmpty { effects.append(.subscribe(topicIndex.topics)) }
        askDevicesForState(actionsByKey.keys.sorted(), input, &effects)
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

    /// Sends the state queries of devices that do not retain their state, once per
    /// device: the actions whose queries go to one topic share its sending
    /// (`StateQueryTable`: one `State` for a Tasmota's relays, one zigbee2mqtt get).
    mutating func askDevicesForState(_ keys: [ActionKey], _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        var asked: Set<UTF8Key> = []
        for key in keys {
            guard let topic = actionsByKey[key]?.stateQuery?.topic, asked.insert(UTF8Key(topic)).inserted else { continue }
            stateQueries.noteSent(to: topic, atMs: input.boardClockMs)
            sendStateQuery(to: topic, &effects)
        }
    }

    /// The messages of the device's query, all its actions' reads in them.
    private func sendStateQuery(to topic: String, _ effects: inout [BridgeEffect]) {
        for message in stateQueryTable.messages(to: topic) { effects.append(.publishMQTT(message)) }
    }

    /// A device (or its gateway) said again that it is online: it may have restarted
    /// with another state (a Shelly's relay off after a power cut), so it is asked,
    /// at most once every `StateQueryPacer.minSpacingMs`. The first word heard is
    /// not a return: the connect's queries cover it.
    mutating func askReturningDevice(_ key: ActionKey, before: ActionState, after: ActionState, role: TopicIndex.Role,
                                     _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        let (was, now): (Bool?, Bool?) = switch role {
        case .availability: (before.isAvailable, after.isAvailable)
        case .gatewayAvailability: (before.isGatewayAvailable, after.isGatewayAvailable)
        default: (nil, nil)
        }
        guard isMQTTConnected, was != nil, now == true, let topic = actionsByKey[key]?.stateQuery?.topic,
              stateQueries.takeIfDue(to: topic, atMs: input.boardClockMs) else { return }
        appendDebugLog("action '\(key.actionId)' (widget \(key.slug)): its device is online again; asking its state", &effects)
        sendStateQuery(to: topic, &effects)
    }

    /// True when every toggle that reports its state has done so (or is known
    /// unreachable), so a first publish will not flash tiles off: the count
    /// `states` keeps of the `awaitsState` actions still unknown.
    var allTogglesKnown: Bool { states.unknownAwaitedCount == 0 }

    /// Whether a first publish waits for this action's state: a toggle with
    /// state sources that is not optimistic.
    static func awaitsState(_ action: ActionConfig) -> Bool {
        action.kind == .toggle && !action.stateSources.isEmpty && !action.optimistic
    }

    mutating func settle(_ effects: inout [BridgeEffect]) {
        isSettled = true
        effects.append(.cancelTimer(.settle))
        effects.append(.log(.info, "states settled; publishing \(widgetsBySlug.count) widgets"))
        scheduleSilenceCheck(&effects)
        for slug in widgetsBySlug.keys.sorted() { publishIfNeeded(slug, &effects) }
    }

    mutating func mqttMessage(_ topic: String, _ payload: [UInt8], _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        let topicKey = UTF8Key(topic)   // one key a message, for every look-up: its bytes copied once
        guard let listeners = topicIndex.listeners(on: topicKey) else {
            silence.noteProbed(topic: topic, payload: payload.count <= config.mqtt.maxPayloadBytes ? payload : nil)
            return
        }
        guard payload.count <= config.mqtt.maxPayloadBytes else { return payloadTooLarge(topic, payload.count, &effects) }
        appendDebugLog("mqtt \(topic) \(PayloadExcerpt.make(payload, limit: 256))", &effects)
        silence.noteHeard(topic: topicKey)
        var problems: [(ActionKey, String)] = []
        var fieldless: [(TopicIndex.Listener, MessageVerdict)] = []
        let parsed = ParsedPayload(payload, fields: topicIndex.fields(on: topicKey))
        payloadJSONParseCount += parsed.jsonParseCount
        payloadFieldLookupCount += parsed.fieldLookupCount
        let heard = HeardMessage(topic: topic, payload: payload, atMs: input.boardClockMs)
        let readings = MessageInterpreter.readings(parsed, listeners: listeners)
        for (listener, reading) in zip(listeners, readings) {
            facts.actions[listener.action, default: ActionFacts()].lastMessage = heard
            if case .notUnderstood(let reason)? = reading.said { problems.append((listener.action, reason)) }
            if case .state = listener.role, let said = reading.said, case .fieldAbsent = said { fieldless.append((listener, said)) }
            // Marked at once: a mark only names the widget for the publish at the input's end.
            guard let taken = reading.taken else { continue }
            if apply(taken, to: listener, topic: topic, input, &effects) { publishIfNeeded(listener.action.slug, &effects) }
        }
        // Understood when nothing was a problem, or some listener read something (a missing field reads nothing).
        let understood = problems.isEmpty || readings.contains { reading in
            guard let said = reading.said, said.isUnderstood else { return false }
            if case .fieldAbsent = said { return false }
            return true
        }
        noteReadability(topic: topic, topicKey, payload: payload, understood: understood, problems: problems, &effects)
        noteFieldless(topic: topic, fieldless, &effects)
        if !isSettled, isMQTTConnected, allTogglesKnown { settle(&effects) }
    }

    /// Most topics remembered as sending oversized payloads: beyond that, no more
    /// logging (a flood of distinct topics must not grow memory or the journal).
    static let maxOversizedTopicsRemembered = 256

    /// Logs a dropped oversized payload once per topic.
    mutating func payloadTooLarge(_ topic: String, _ byteCount: Int, _ effects: inout [BridgeEffect]) {
        // Topics outside the config come from the near-miss look (`#`, and stragglers after it): not ours to log.
        if topicIndex.listeners(on: topic) == nil, silence.hasProbed { return silence.noteProbed(topic: topic, payload: nil) }
        guard topicsWithOversizedPayload.count < Self.maxOversizedTopicsRemembered,
              topicsWithOversizedPayload.insert(UTF8Key(topic)).inserted else { return }
        effects.append(.log(.warning, "dropping MQTT payloads over \(config.mqtt.maxPayloadBytes) bytes on \(topic) "
            + "(this one: \(byteCount) bytes); raise mqtt.max_payload_bytes if a device really sends that much"))
    }

    /// Logs an unreadable payload once per topic, until the topic speaks sense
    /// again: the action, the topic, a bounded excerpt and what was expected.
    mutating func noteReadability(
        topic: String, _ topicKey: UTF8Key, payload: [UInt8], understood: Bool, problems: [(ActionKey, String)],
        _ effects: inout [BridgeEffect]
    ) {
        if understood {
            if !topicsWithUnreadablePayload.isEmpty { topicsWithUnreadablePayload.remove(topicKey) }
        } else if topicsWithUnreadablePayload.insert(topicKey).inserted, let (key, reason) = problems.first {
            let others = problems.count > 1 ? " (and \(problems.count - 1) other listener(s))" : ""
            // One kind per action: a flapping topic is limited, another action's warning still shows.
            warn(about: key, "action '\(configured: key.actionId)' (widget \(configured: key.slug)): ignoring payload "
                + "'\(PayloadExcerpt.make(payload))' on \(topic): \(reason)\(others)", &effects)
        }
    }

    /// Remembers state payloads without the listened field (for the silent-device
    /// warning) and says once per topic when they carry endpoint fields instead
    /// (`state_left`, `state_l1`: a multi-endpoint device without `channel`).
    mutating func noteFieldless(topic: String, _ fieldless: [(TopicIndex.Listener, MessageVerdict)], _ effects: inout [BridgeEffect]) {
        for (listener, verdict) in fieldless {
            guard case .fieldAbsent(let field, let present) = verdict, states[listener.action]?.isOn == nil else { continue }
            silence.noteFieldless(topic: topic, field: field, fieldsPresent: present)
            let endpoints = present.filter { $0.hasPrefix(field + "_") && $0.count > field.count + 1 }
            guard !endpoints.isEmpty, topicsWithEndpointHint.insert(UTF8Key(topic)).inserted else { continue }
            let names = endpoints.map { String($0.dropFirst(field.count + 1)) }
            warn(about: listener.action, "action '\(listener.action.actionId)' (widget \(listener.action.slug)): \(topic) has no field "
                + "'\(field)' but endpoint fields \(endpoints.joined(separator: ", ")): set 'channel' to one of \(names.joined(separator: ", "))", &effects)
        }
    }

    /// Applies what a message says to one listener's action; returns whether the
    /// rendered state may have changed.
    mutating func apply(_ verdict: MessageVerdict, to listener: TopicIndex.Listener, topic: String, _ input: BridgeInput,
                        _ effects: inout [BridgeEffect]) -> Bool {
        let key = listener.action
        guard var state = states[key] else { return false }
        let before = state
        state.take(verdict, as: listener.role)
        if case .protectiveOff(let value) = verdict, topicsReportingProtectiveOff.insert(UTF8Key(topic)).inserted {
            warn(about: key, "action '\(key.actionId)' (widget \(key.slug)): \(topic) reports '\(LogExcerpt.text(value))': "
                + "the device switched itself off to protect itself; showing off", &effects)
        }
        if case .state = listener.role {
            noteProtectiveOffEnded(topic, verdict)
            noteJammed(key, verdict, &effects)
        }
        states[key] = state
        askReturningDevice(key, before: before, after: state, role: listener.role, input, &effects)
        resolvePendingPress(key, input, &effects)
        return states[key] != before
    }

    private mutating func noteProtectiveOffEnded(_ topic: String, _ verdict: MessageVerdict) {
        guard !topicsReportingProtectiveOff.isEmpty, verdict == .on || verdict == .off else { return }
        topicsReportingProtectiveOff.remove(UTF8Key(topic))
    }
}

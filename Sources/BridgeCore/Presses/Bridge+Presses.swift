extension Bridge {
    mutating func streamEvent(_ event: StreamEvent, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        if !dedupe.hasBoundedExpiries, input.serverClockUncertaintyMs != Int64.max {
            // Ids loaded from a file written before the bound: none is kept past it.
            dedupe.boundExpiries(notAfterMs: input.serverClockMs.addingSaturating(AiviServiceLimits.maxClaimedLifetimeMs))
        }
        let forgotten = dedupe.forgetExpired(serverClockMs: input.serverClockMs, uncertaintyMs: input.serverClockUncertaintyMs)
        handlePress(event, input, &effects)
        // Told after the press: forgetting never stands between a press and its command.
        if !forgotten.isEmpty { effects.append(.forgetUnsafeEventIds(forgotten)) }
    }

    mutating func handlePress(_ event: StreamEvent, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        let press: PressEnvelope
        switch Result(catching: { () throws(PressEnvelope.ReadError) in try PressEnvelope.read(event) }) {
        case .success(let envelope):
            press = envelope
        case .failure(.unknownType(let type)):
            appendDebugLog("ignoring event \(LogExcerpt.id(event.id)) of unknown type '\(LogExcerpt.name(type))'", &effects)
            effects.append(.observe(.pressDropped(eventId: event.id, reason: .unknownType)))
            return
        case .failure(.malformed(let reason)):
            effects.append(.log(.warning, "skipping malformed event \(LogExcerpt.id(event.id)): \(LogExcerpt.text(reason))"))
            effects.append(.observe(.pressDropped(eventId: event.id.map(LogExcerpt.id), reason: .malformed)))
            return
        case .failure(.absurdId(let byteCount)):
            let level: BridgeLogLevel = hasWarnedAboutAbsurdEventId ? .debug : .warning
            hasWarnedAboutAbsurdEventId = true
            effects.append(.log(level, "skipping an event whose id is \(byteCount) bytes or holds control characters "
                                + "(at most \(PressEnvelope.maxIdBytes) bytes of text); further ones are logged at debug level"))
            effects.append(.observe(.pressDropped(eventId: nil, reason: .malformed)))
            return
        }
        effects.append(.observe(.pressReceived(eventId: press.id)))
        guard let action = checkedAction(press, input, &effects) else { return }
        carryOut(press, action, input, &effects)
    }

    /// The action a press is for, or nil (logged and observed) when the press
    /// must be dropped.
    mutating func checkedAction(_ press: PressEnvelope, _ input: BridgeInput, _ effects: inout [BridgeEffect]) -> ActionConfig? {
        let key = ActionKey(slug: press.widget, actionId: press.action)
        // The names come from the event, not yet checked against the config: cut.
        func drop(_ reason: PressDropReason, _ level: BridgeLogLevel, _ message: LogMessage) -> ActionConfig? {
            effects.append(.log(level, "press \(press.id) \(LogExcerpt.key(key)): \(message)"))
            effects.append(.observe(.pressDropped(eventId: press.id, reason: reason)))
            return nil
        }
        guard widgetsBySlug[press.widget] != nil else {
            return drop(.otherWidget, .debug, "widget not in this config (another bridge's?)")
        }
        guard let action = actionsByKey[key] else { return drop(.unknownAction, .warning, "unknown action") }
        guard action.kind == press.kind else {
            notePress(key, action.kind, press, input, .refused("a \(press.kind.rawValue) press for a \(action.kind.rawValue)"))
            return drop(.wrongKind, .warning, "is a \(press.kind.rawValue) press but the action is a \(action.kind.rawValue)")
        }
        let lateMs = input.serverClockMs.subtractingSaturating(press.expiresAtMs)
        guard lateMs <= 0 else {
            notePress(key, action.kind, press, input, .expired(lateMs: lateMs))
            return drop(.expired, .warning, "expired \(lateMs) ms ago on the server's clock; not carried out")
        }
        // What a press may claim is bounded: its id is remembered until it expires,
        // so a claim of year 9999 would hold the unsafe id memory for good.
        let claimedMs = press.expiresAtMs.subtractingSaturating(input.serverClockMs)
        guard claimedMs <= AiviServiceLimits.maxClaimedLifetimeMs else {
            notePress(key, action.kind, press, input, .refused("claims to expire \(claimedMs / 1000) s from now"))
            oweAnswer(key.slug, &effects)
            return drop(.implausibleExpiry, .warning, "claims to expire \(claimedMs / 1000) s from now on the server's clock, beyond "
                        + "the \(AiviServiceLimits.maxClaimedLifetimeMs / 1000) s any press may claim (the service's expire "
                        + "\(AiviServiceLimits.pressLifetimeMs / 1000) s after they are made); not carried out, answering with the true state")
        }
        guard !dedupe.contains(press.id) else {
            notePress(key, action.kind, press, input, .duplicate)
            return drop(.duplicate, .info, "duplicate delivery; already handled")
        }
        return action
    }

    /// Carries out a checked press. One not safe to repeat that needs a command
    /// is only recorded here (`isRecorded` false): nothing of it is committed
    /// (state, door hold, command token, facts) until its record is durable
    /// and it comes back here with `isRecorded`; a press refused or answered
    /// at once is never recorded (it costs no sync).
    mutating func carryOut(_ press: PressEnvelope, _ action: ActionConfig, _ input: BridgeInput, isRecorded: Bool = false,
                           _ effects: inout [BridgeEffect]) {
        let key = ActionKey(slug: press.widget, actionId: press.action)
        // A toggle's step toward the asked state, worked out once: it says whether the
        // press needs a command and is what `pressToggle` takes (nothing in between
        // changes a state or a door's hold; `stepToward` is pure).
        let step = action.kind == .toggle ? stepToward(key, action, on: press.value ?? false, nowMs: input.boardClockMs) : nil
        let needsCommand = needsCommand(action, key, step, nowMs: input.boardClockMs)
        guard isMQTTConnected || !needsCommand else {
            // Not remembered: a replay once the broker is back may still run it.
            effects.append(.log(.warning, "press \(press.id) \(key): MQTT is disconnected; not carried out, answering with the true state"))
            effects.append(.observe(.pressDropped(eventId: press.id, reason: .mqttDisconnected)))
            notePress(key, action.kind, press, input, .refused("MQTT is disconnected; answered with the true state"))
            oweAnswer(key.slug, &effects)
            return
        }
        let mustRecord = needsCommand && !action.repeatSafe && !isRecorded
        let topics = needsCommand ? commandTopics(action, key, step, nowMs: input.boardClockMs) : []
        guard !needsCommand || (mustRecord ? canTakeCommandTokens(topics, input) : takeCommandTokens(topics, input)) else {
            // Not remembered: a replay once the rate is back under the limit may still run it.
            effects.append(.log(.warning, "press \(press.id) \(key): over the limit of "
                                + "\(AiviServiceLimits.actionCommandBurst) commands in a burst, then "
                                + "\(1000 / AiviServiceLimits.actionCommandRefillMs) a second, to one device command topic "
                                + "(far beyond the service's own); not carried out, answering with the true state"))
            effects.append(.observe(.pressDropped(eventId: press.id, reason: .rateLimited)))
            oweAnswer(key.slug, &effects)
            return
        }
        guard !mustRecord || dedupe.hasRoomForUnsafe else {
            // Only a service far beyond its rate limits gets here: the id could not be
            // kept, so carrying it out could run it twice; no id is dropped to make room.
            effects.append(.log(.warning, "press \(press.id) \(key): \(DedupeMemory.maxUnsafeIds) presses not safe to repeat "
                                + "are remembered already (far beyond the service's rate limits); not carried out, "
                                + "answering with the true state"))
            effects.append(.observe(.pressDropped(eventId: press.id, reason: .memoryFull)))
            oweAnswer(key.slug, &effects)
            return
        }
        // Never remembered past the bound, whatever the press claims (checked above too).
        let rememberedUntilMs = min(press.expiresAtMs, input.serverClockMs.addingSaturating(AiviServiceLimits.maxClaimedLifetimeMs))
        if mustRecord {
            // Remembered now, so a duplicate delivery meanwhile is refused; forgotten if the record fails.
            _ = dedupe.remember(press.id, expiresAtMs: rememberedUntilMs, isUnsafe: true)
            unsafePressesBeingRecorded[UTF8Key(press.id)] = press
            effects.append(.recordThenPublish(UnsafeRelease(event: RememberedEvent(id: press.id, expiresAtMs: rememberedUntilMs))))
            return
        }
        // A press answered at once sent nothing: remembered against duplicates, not recorded.
        if !isRecorded { _ = dedupe.remember(press.id, expiresAtMs: rememberedUntilMs, isUnsafe: false) }
        let ageMs = press.createdAtMs.map { input.serverClockMs.subtractingSaturating($0) } ?? -1
        switch action.kind {
        case .button: pressButton(press, action, key, input, &effects)
        case .toggle: pressToggle(press, action, key, step, input, &effects)
        }
        effects.append(.observe(.pressCarriedOut(eventId: press.id, action: key, ageMs: ageMs)))
    }

    /// Whether one command token of each topic could be taken now (taking none).
    func canTakeCommandTokens(_ topics: [UTF8Key], _ input: BridgeInput) -> Bool {
        topics.allSatisfy { topic in
            guard var bucket = commandBuckets[topic] else { return true }
            return bucket.canTake(nowMs: input.boardClockMs)
        }
    }

    /// The record of an unsafe press is durable: the press is carried out now,
    /// on the state as it is now (a door pulsed meanwhile is held, a lamp
    /// already in the asked state is answered without a command).
    mutating func unsafeEventIdRecorded(_ record: DurableRecord, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        guard let press = unsafePressesBeingRecorded.removeValue(forKey: UTF8Key(record.event.id)) else { return }
        let key = ActionKey(slug: press.widget, actionId: press.action)
        guard let action = actionsByKey[key], action.kind == press.kind else {
            // A reload removed the action while its press was being recorded.
            effects.append(.log(.warning, "press \(press.id) \(LogExcerpt.key(key)): the action is no longer configured; not carried out"))
            effects.append(.observe(.pressDropped(eventId: press.id, reason: .unknownAction)))
            if widgetsBySlug[press.widget] != nil { oweAnswer(press.widget, &effects) }
            return
        }
        carryOut(press, action, input, isRecorded: true, &effects)
    }

    /// Takes one command token of each topic, all or none; false when one has
    /// none left. The limit is the device's (its command topic), so scenes,
    /// buttons and the tile of one lamp share it instead of multiplying it.
    mutating func takeCommandTokens(_ topics: [UTF8Key], _ input: BridgeInput) -> Bool {
        var buckets = topics.map { topic in
            commandBuckets[topic] ?? TokenBucket(
                capacity: AiviServiceLimits.actionCommandBurst, refillMs: AiviServiceLimits.actionCommandRefillMs,
                nowMs: input.boardClockMs)
        }
        let canTake = buckets.indices.allSatisfy { buckets[$0].canTake(nowMs: input.boardClockMs) }
        for (index, topic) in topics.enumerated() {
            if canTake { buckets[index].take(nowMs: input.boardClockMs) }
            commandBuckets[topic] = buckets[index]
        }
        return canTake
    }

    /// Every topic an action may send a command to (what the limit is kept for).
    static func configuredCommandTopics(_ action: ActionConfig) -> [String] {
        var topics = action.publishes.map(\.topic)
        if let command = action.command { topics += [command.topic] + (command.offTopic.map { [$0] } ?? []) }
        if let pulse = action.pulse { topics.append(pulse.topic) }
        return topics
    }

    /// The command topics a press would publish to, each once: a toggle's
    /// step, a button's messages, a scene's targets that are sent a command.
    func commandTopics(_ action: ActionConfig, _ key: ActionKey, _ step: TowardStep?, nowMs: Int64) -> [UTF8Key] {
        var topics: [UTF8Key] = []
        func add(_ topic: String) {
            let topicKey = UTF8Key(topic)
            if !topics.contains(topicKey) { topics.append(topicKey) }
        }
        switch action.kind {
        case .toggle:
            if case .send(let message?) = step { add(message.topic) }
        case .button:
            for target in action.sets {
                let tileKey = targetKey(target, of: key)
                guard !isOnItsWay(tileKey, on: target.on), let tile = actionsByKey[tileKey],
                      case .send(let message?) = stepToward(tileKey, tile, on: target.on, nowMs: nowMs) else { continue }
                add(message.topic)
            }
            for message in action.publishes { add(message.topic) }
        }
        return topics
    }

    /// Whether carrying the press out means publishing on MQTT (not when a toggle
    /// is answered at once: device unavailable, or already in the asked state);
    /// `step` is a toggle's `stepToward` the asked state.
    func needsCommand(_ action: ActionConfig, _ key: ActionKey, _ step: TowardStep?, nowMs: Int64) -> Bool {
        switch action.kind {
        case .button:
            return !action.publishes.isEmpty || sceneNeedsCommand(action, key, nowMs: nowMs)
        case .toggle:
            guard action.command != nil || action.pulse != nil else { return false }
            if case .send = step { return true }
            return false
        }
    }

    /// A button publishes its messages. One with an active topic answers when it
    /// turns active, or after `buttonAnswerWindowMs`, whichever comes first, so
    /// the phone goes Sent → Active (an answer with the old `active: false`
    /// would end its wait showing idle); others answer at once.
    mutating func pressButton(_ press: PressEnvelope, _ action: ActionConfig, _ key: ActionKey, _ input: BridgeInput,
                              _ effects: inout [BridgeEffect]) {
        if action.isScene { return pressScene(press, action, key, input, &effects) }
        for message in action.publishes {
            effects.append(.publishMQTT(OutgoingMQTTMessage(
                topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain)))
        }
        effects.append(.log(.info, "press \(press.id) \(key): button, \(action.publishes.count) message(s) published"))
        notePress(key, action.kind, press, input, .published(messageCount: action.publishes.count))
        answerWhenActive(press, key, input, mayWait: action.activeSource != nil, &effects)
    }

    /// A highlighted button's answer: at once unless it `mayWait` for turning
    /// active and is not active yet; then when it turns active (or its wait
    /// ends otherwise), at most `buttonAnswerWindowMs` after the press.
    mutating func answerWhenActive(_ press: PressEnvelope, _ key: ActionKey, _ input: BridgeInput, mayWait: Bool,
                                   _ effects: inout [BridgeEffect]) {
        let windowMs = config.timing.buttonAnswerWindowMs
        guard mayWait, windowMs > 0, var state = states[key], !state.isActive else {
            oweAnswer(key.slug, &effects)
            return
        }
        guard state.pendingPress == nil else { return }   // the answer already awaited covers this press too
        state.pendingPress = PendingPress(eventId: press.id, requestedOn: true, commandSentAtMs: input.boardClockMs)
        states[key] = state
        effects.append(.startTimer(.confirm(key), afterMs: windowMs))
    }

    /// `step` is `stepToward(key, action, on: press.value ?? false, nowMs: input.boardClockMs)`.
    mutating func pressToggle(_ press: PressEnvelope, _ action: ActionConfig, _ key: ActionKey, _ step: TowardStep?,
                              _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        let requestedOn = press.value ?? false
        guard states[key] != nil, let step else { return }
        let word = action.device.word(on: requestedOn)
        switch step {
        case .answerNow(let level, let why, let outcome):
            let message: LogMessage = "press \(press.id) \(key): \(why)"
            if level == .warning { warn(about: key, message, &effects) } else { effects.append(.log(level, message)) }
            notePress(key, action.kind, press, input, outcome)
            oweAnswer(key.slug, &effects)
            return
        case .send(let message):
            sendToward(key, action, on: requestedOn, message, eventId: press.id, input, &effects)
        }
        effects.append(.log(.info, "press \(press.id) \(key): \(action.pulse == nil ? "command" : "pulse for") \(word) sent"))
        notePress(key, action.kind, press, input, action.optimistic ? .confirmed(afterMs: 0) : .commanded)
    }

    /// Sends a toggle's step toward `requestedOn` for the press `eventId`, then
    /// waits for its device to confirm (an optimistic one is taken at its word).
    /// A press of the tile and a scene's press of it both come here.
    mutating func sendToward(_ key: ActionKey, _ action: ActionConfig, on requestedOn: Bool, _ message: OutgoingMQTTMessage?,
                             eventId: String, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        guard var state = states[key] else { return }
        if let message { effects.append(.publishMQTT(message)) }
        if let pulse = action.pulse { holdPulses(PulsedDoor(pulse), action, input, &effects) }
        if action.optimistic {
            state.isOn = requestedOn
            state.pendingPress = nil
            states[key] = state
            oweAnswer(key.slug, &effects)
            return
        }
        state.pendingPress = PendingPress(eventId: eventId, requestedOn: requestedOn, commandSentAtMs: input.boardClockMs)
        states[key] = state
        let timeoutMs = action.confirmTimeoutMs ?? config.timing.confirmTimeoutMs
        effects.append(.startTimer(.confirm(key), afterMs: timeoutMs))
    }

    /// Ends a toggle's wait when the device confirmed it or became unreachable.
    mutating func resolvePendingPress(_ key: ActionKey, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        guard var state = states[key], let pending = state.pendingPress else { return }
        let isButton = actionsByKey[key]?.kind == .button
        let confirmed = isButton ? state.isActive : state.isOn == pending.requestedOn
        guard confirmed || (!isButton && state.isUnreachable) else { return }
        state.pendingPress = nil
        states[key] = state
        effects.append(.cancelTimer(.confirm(key)))
        let elapsedMs = input.boardClockMs.subtractingSaturating(pending.commandSentAtMs)
        let outcome = isButton ? "active" : confirmed ? "confirmed by the device" : "device became unavailable"
        effects.append(.log(.info, "press \(pending.eventId) \(key): \(outcome) after \(elapsedMs) ms"))
        notePressEnded(key, eventId: pending.eventId, confirmed ? .confirmed(afterMs: elapsedMs) : .deviceUnavailable)
        oweAnswer(key.slug, &effects)
    }

    mutating func confirmTimedOut(_ key: ActionKey, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        guard var state = states[key], let pending = state.pendingPress else { return }
        let elapsedMs = input.boardClockMs.subtractingSaturating(pending.commandSentAtMs)
        notePressEnded(key, eventId: pending.eventId, .answeredWithTruth(afterMs: elapsedMs))
        state.pendingPress = nil
        states[key] = state
        if actionsByKey[key]?.kind == .button {
            effects.append(.log(.info, "press \(pending.eventId) \(key): not active within \(config.timing.buttonAnswerWindowMs) ms; answering"))
            oweAnswer(key.slug, &effects)
            return
        }
        if keepsTravelling(key, pending, &effects) { return }
        if !pending.isTravelling {   // the end of a travel was logged by keepsTravelling
            warn(about: key, "press \(pending.eventId) \(key): no confirmation from the device; publishing its true state", &effects)
        }
        oweAnswer(key.slug, &effects)
    }

    /// The record of these unsafe presses failed, so nothing of them was
    /// committed and nothing was sent: forget their ids (a replay may still
    /// run them) and answer with the true state, saying why.
    mutating func unsafeEventIdsNotRecorded(_ eventIds: [String], _ effects: inout [BridgeEffect]) {
        dedupe.forget(eventIds)
        for eventId in eventIds {
            guard let press = unsafePressesBeingRecorded.removeValue(forKey: UTF8Key(eventId)) else { continue }
            effects.append(.log(.error, "press \(LogExcerpt.id(eventId)) not carried out: its event id could not be recorded "
                                + "in the state directory (a replay may still run it); answering with the true state"))
            effects.append(.observe(.pressDropped(eventId: eventId, reason: .notRecorded)))
            if widgetsBySlug[press.widget] != nil { oweAnswer(press.widget, &effects) }
        }
    }
}

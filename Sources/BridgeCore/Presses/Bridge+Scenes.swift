/// Scenes made of the widget's own tiles (`sets:`). A press drives each target
/// that is not already in its scene state through the target's own rules
/// (`stepToward`: its preset's command, the pulsed door's once per travel time,
/// the lock's unlock rule), and the scene is active exactly while every target
/// is known, reachable and in its scene state.
extension Bridge {
    /// The key of one of a scene's targets.
    func targetKey(_ target: SceneTarget, of sceneKey: ActionKey) -> ActionKey {
        ActionKey(slug: sceneKey.slug, actionId: target.actionId)
    }

    /// Whether every target of the scene holds its state (the derived `active`).
    func isHolding(_ scene: ActionConfig, _ sceneKey: ActionKey) -> Bool {
        scene.sets.allSatisfy { states[targetKey($0, of: sceneKey)]?.holds(on: $0.on) == true }
    }

    /// Whether a target's command toward its scene state is still awaited.
    func isUnderway(_ scene: ActionConfig, _ sceneKey: ActionKey) -> Bool {
        scene.sets.contains { isOnItsWay(targetKey($0, of: sceneKey), on: $0.on) }
    }

    /// A press toward `on` already waits for this tile's device: nothing more is sent.
    func isOnItsWay(_ key: ActionKey, on: Bool) -> Bool {
        states[key]?.pendingPress?.requestedOn == on
    }

    /// Whether pressing the scene now sends anything to a tile.
    func sceneNeedsCommand(_ scene: ActionConfig, _ sceneKey: ActionKey, nowMs: Int64) -> Bool {
        scene.sets.contains { target in
            let key = targetKey(target, of: sceneKey)
            guard !isOnItsWay(key, on: target.on), let action = actionsByKey[key] else { return false }
            if case .send = stepToward(key, action, on: target.on, nowMs: nowMs) { return true }
            return false
        }
    }

    /// A scene press: each target's own command where needed, then the scene's
    /// own messages. Answered at once when no target is on its way (nothing
    /// sent, or the scene holds already); otherwise when the scene turns active,
    /// the awaited targets have all ended their wait, or `buttonAnswerWindowMs`
    /// passed, whichever is first, so the phone goes Sent → Active.
    mutating func pressScene(_ press: PressEnvelope, _ scene: ActionConfig, _ key: ActionKey, _ input: BridgeInput,
                             _ effects: inout [BridgeEffect]) {
        var commanded = 0
        for target in scene.sets where drive(target, of: key, for: press, input, &effects) { commanded += 1 }
        for message in scene.publishes {
            effects.append(.publishMQTT(OutgoingMQTTMessage(
                topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain)))
        }
        let published = scene.publishes.isEmpty ? "" : ", \(scene.publishes.count) message(s) published"
        effects.append(.log(.info, "press \(press.id) \(key): scene, \(commanded) of \(scene.sets.count) tile(s) commanded\(published)"))
        notePress(key, scene.kind, press, input, .sceneCommanded(tiles: commanded, of: scene.sets.count))
        answerWhenActive(press, key, input, mayWait: isUnderway(scene, key), &effects)
    }

    /// Drives one target toward its scene state; true when a command went out.
    /// A target already there, on its way there, unreachable or held back by
    /// its own rules gets nothing (logged); the others still run.
    private mutating func drive(_ target: SceneTarget, of sceneKey: ActionKey, for press: PressEnvelope, _ input: BridgeInput,
                                _ effects: inout [BridgeEffect]) -> Bool {
        let key = targetKey(target, of: sceneKey)
        guard let action = actionsByKey[key], action.kind == .toggle else { return false }
        let word = action.device.word(on: target.on)
        let who = "press \(press.id) \(sceneKey): tile '\(key.actionId)'"
        if isOnItsWay(key, on: target.on) {
            appendDebugLog("\(who) is already on its way to \(word)", &effects)
            return false
        }
        switch stepToward(key, action, on: target.on, nowMs: input.boardClockMs) {
        case .answerNow(_, _, .alreadyInState):
            appendDebugLog("\(who) is already \(word)", &effects)
            return false
        case .answerNow(_, _, let outcome):
            let why = switch outcome {
            case .refused(let reason): reason
            default: "device unavailable"
            }
            warn(about: sceneKey, "\(who) skipped (\(why)); the other tiles still run", &effects)
            // The tile's own facts say it too: the pages show why it did not move.
            notePress(key, eventId: press.id, requestedOn: target.on, input, .refused("skipped by the scene '\(sceneKey.actionId)': \(why)"))
            return false
        case .send(let message):
            sendToward(key, action, on: target.on, message, eventId: press.id, input, &effects)
            effects.append(.log(.info, "\(who): \(action.pulse == nil ? "command" : "pulse for") \(word) sent"))
            notePress(key, eventId: press.id, requestedOn: target.on, input, action.optimistic ? .confirmed(afterMs: 0) : .commanded)
            return true
        }
    }

    /// At the end of an input, for each widget about to publish: its scenes'
    /// `active` follows their tiles, and a scene press whose wait is over
    /// (active, or no target on its way any more) is answered. Only marked
    /// widgets are looked at: every change of a tile marks its widget.
    /// Nothing to derive (no slug sorted, no widget looked up) in a config without scenes.
    mutating func deriveSceneHighlights(_ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        guard hasScenes else { return }
        for slug in widgetsToPublish.sorted() {
            for key in highlightedBySlug[slug] ?? [] {
                guard let scene = actionsByKey[key], scene.isScene, var state = states[key] else { continue }
                state.isActive = isHolding(scene, key)
                states[key] = state
                endSceneWaitIfOver(key, scene, input, &effects)
            }
        }
    }

    private mutating func endSceneWaitIfOver(_ key: ActionKey, _ scene: ActionConfig, _ input: BridgeInput,
                                             _ effects: inout [BridgeEffect]) {
        guard var state = states[key], let pending = state.pendingPress, state.isActive || !isUnderway(scene, key) else { return }
        state.pendingPress = nil
        states[key] = state
        effects.append(.cancelTimer(.confirm(key)))
        let elapsedMs = input.boardClockMs.subtractingSaturating(pending.commandSentAtMs)
        let outcome = state.isActive ? "active" : "its tiles ended their wait, not all in the scene's state"
        effects.append(.log(.info, "press \(pending.eventId) \(key): \(outcome) after \(elapsedMs) ms"))
        notePressEnded(key, eventId: pending.eventId, state.isActive ? .confirmed(afterMs: elapsedMs) : .answeredWithTruth(afterMs: elapsedMs))
        oweAnswer(key.slug, &effects)
    }
}

extension Bridge {
    /// Whether a press of one of the widget's highlighted buttons waits for its
    /// answer: the service ends a button's Sent with the first update after the
    /// press, so nothing of the widget is published meanwhile (a tile confirming
    /// first would end it showing idle). The wait is bounded by
    /// `buttonAnswerWindowMs`; what was held back goes with the answer.
    func isAwaitingHighlight(_ slug: String) -> Bool {
        guard !highlightedBySlug.isEmpty else { return false }
        return (highlightedBySlug[slug] ?? []).contains { states[$0]?.pendingPress != nil }
    }
}

/// The one rule of what a toggle does to reach an asked state: the press path
/// uses it, and so can anything else that drives a tile toward a state (a
/// scene, per target).
extension Bridge {
    /// What driving a toggle toward a state comes to, right now.
    enum TowardStep: Equatable {
        /// Nothing is sent; the press is answered with the true state at once,
        /// after logging why.
        case answerNow(BridgeLogLevel, String, PressFactOutcome)
        /// This message goes out (nil: the toggle has no command, as in a
        /// test config), then the device's confirmation is awaited.
        case send(OutgoingMQTTMessage?)
    }

    /// The step that drives the toggle `key` (configured as `action`) toward
    /// `requestedOn` at `nowMs` (board clock). Pure: it changes no state.
    func stepToward(_ key: ActionKey, _ action: ActionConfig, on requestedOn: Bool, nowMs: Int64) -> TowardStep {
        guard let state = states[key] else { return .answerNow(.debug, "no such toggle", .refused("no such toggle")) }
        let word = action.device.word(on: requestedOn)
        if state.isUnreachable { return .answerNow(.warning, "device unavailable; answering with its true state", .deviceUnavailable) }
        let isThere = state.isOn == requestedOn
        if isThere, state.pendingPress == nil || action.pulse != nil, state.motion != Motion.toward(on: !requestedOn) {
            return .answerNow(.info, "already \(word); answering at once", .alreadyInState)
        }
        if action.device == .lock, !requestedOn, !action.allowUnlock {
            return .answerNow(.warning, "unlock refused: this lock tile only locks (add 'allow_unlock: true' to the action "
                              + "to let it unlock); nothing sent, answering with its true state", .refused("this lock tile only locks"))
        }
        if let pulse = action.pulse { return pulseStep(pulse, action, state, nowMs: nowMs) }
        return .send(action.command?.message(on: requestedOn))
    }

    /// A pulse moves the door whichever way it goes: only when the sensed state
    /// is known (and differs, checked before), at most once per travel time.
    private func pulseStep(_ pulse: MQTTMessageSpec, _ action: ActionConfig, _ state: ActionState, nowMs: Int64) -> TowardStep {
        guard state.isOn != nil else {
            return .answerNow(.warning, "the door's sensor has not reported; not pulsed (a pulse moves the door whichever way it goes)",
                              .refused("the door's sensor has not reported"))
        }
        let travelMs = travelTimeMs(of: PulsedDoor(pulse))
        switch pulseHolds[PulsedDoor(pulse)] {
        case .none:
            break
        case .some(let hold) where hold.isSinceReconnect:
            return .answerNow(.info, "MQTT reconnected less than its travel time (\(travelMs) ms) ago, and a pulse sent before "
                              + "the outage may reach the relay only now; not pulsed, answering with its true state",
                              .refused("reconnected inside its travel time"))
        case .some(let hold) where hold.isSinceStart:
            return .answerNow(.info, "the bridge started or first reached the broker less than its travel time (\(travelMs) ms) ago, "
                              + "and a pulse sent before the restart may still be moving the door; not pulsed, answering with its true state",
                              .refused("started inside its travel time"))
        case .some(let hold):
            let agoMs = hold.pulsedAtMs.map { max(0, nowMs.subtractingSaturating($0)) } ?? 0
            return .answerNow(.info, "pulsed \(agoMs) ms ago, inside its travel time (\(travelMs) ms) and the "
                              + "\(MQTTSettings.silentBrokerMs) ms a stalled broker may hold a pulse; not pulsed again, answering with its true state",
                              .refused("pulsed inside its travel time"))
        }
        return .send(OutgoingMQTTMessage(topic: pulse.topic, payload: pulse.payload, qos: pulse.qos, retain: false))
    }

    /// At the start, every pulsed door is held for its travel time as if it had
    /// just been pulsed: the bridge cannot know whether a pulse of the run
    /// before still moves the door (a crash, a restart, a reboot), and no clock
    /// survives a restart that a wall-clock jump could not fool. Since the hold
    /// runs on the shell's monotonic timer from the start, two pulses are at
    /// least a travel time apart across any number of restarts.
    mutating func holdPulsesAtStart(_ effects: inout [BridgeEffect]) {
        var travelMsByDoor: [PulsedDoor: Int64] = [:]
        for action in actionsByKey.values {
            guard let pulse = action.pulse else { continue }
            // Tiles of one door: the longest travel time holds it.
            travelMsByDoor[PulsedDoor(pulse)] = max(travelMsByDoor[PulsedDoor(pulse)] ?? 0, action.effectiveTravelTimeMs)
        }
        guard !travelMsByDoor.isEmpty else { return }
        for (door, travelMs) in travelMsByDoor.sorted(by: { $0.key < $1.key }) {
            pulseHolds[door] = PulseHold(pulsedAtMs: nil)
            effects.append(.startTimer(.pulseHold(door), afterMs: travelMs))
        }
        effects.append(.log(.info, "\(travelMsByDoor.count) pulsed door(s) not pulsed for their travel time after the start: "
                            + "a pulse sent before a restart may still be moving the door"))
        holdsDoorsAtFirstConnect = true
    }

    /// The first MQTT connect after the start holds every pulsed door again for
    /// its travel time: the run before may have sent a pulse into a stalled
    /// broker and died; the broker passes it on when it resumes, which is before
    /// this run can connect (a stalled broker answers no CONNECT), and maybe
    /// after the start's hold ended.
    mutating func holdPulsesAtFirstConnect(_ effects: inout [BridgeEffect]) {
        holdsDoorsAtFirstConnect = false
        let doors = Set(actionsByKey.values.compactMap { $0.pulse.map(PulsedDoor.init) })
        for door in doors.sorted() where pulseHolds[door].map({ $0.isSinceStart }) ?? true {
            pulseHolds[door] = PulseHold(pulsedAtMs: nil)
            effects.append(.startTimer(.pulseHold(door), afterMs: travelTimeMs(of: door)))
        }
    }

    /// After a pulse: no other one to that door for the longest travel time of
    /// the tiles pulsing its topic, and the time a broker that stalls without
    /// being found silent may hold the pulse before the relay gets it.
    mutating func holdPulses(_ door: PulsedDoor, _ action: ActionConfig, _ input: BridgeInput, _ effects: inout [BridgeEffect]) {
        pulseHolds[door] = PulseHold(pulsedAtMs: input.boardClockMs)
        doorsPulsedOnThisLink.insert(door)
        let travelMs = max(action.effectiveTravelTimeMs, travelTimeMs(of: door))
        effects.append(.startTimer(.pulseHold(door), afterMs: travelMs.addingSaturating(MQTTSettings.silentBrokerMs)))
    }

    /// On an MQTT (re)connect: each door pulsed on the link that was lost is held
    /// for its travel time from now. A broker that stalled (stopped, TCP alive)
    /// passes on what it had read when it resumes, so a pulse sent into the stall
    /// reaches the relay about when the bridge reconnects; a second pulse then
    /// would stop or reverse the door.
    mutating func holdDoorsPulsedOnTheLostLink(_ effects: inout [BridgeEffect]) {
        guard !doorsPulsedOnThisLink.isEmpty else { return }
        for door in doorsPulsedOnThisLink.sorted() {
            let travelMs = travelTimeMs(of: door)
            guard travelMs > 0 else { continue }
            pulseHolds[door] = PulseHold(pulsedAtMs: nil, isSinceReconnect: true)
            effects.append(.startTimer(.pulseHold(door), afterMs: travelMs))
        }
        effects.append(.log(.info, "\(doorsPulsedOnThisLink.count) pulsed door(s) not pulsed for their travel time after the "
                            + "reconnect: a pulse sent before the MQTT outage may reach the relay only now"))
        doorsPulsedOnThisLink = []
    }

    /// The longest travel time of the tiles that pulse `door`'s topic (0 when none).
    func travelTimeMs(of door: PulsedDoor) -> Int64 {
        var longestMs: Int64 = 0
        for action in actionsByKey.values {
            guard let pulse = action.pulse, PulsedDoor(pulse) == door else { continue }
            longestMs = max(longestMs, action.effectiveTravelTimeMs)
        }
        return longestMs
    }

    /// The travel time of a door's pulse (or of the start) has passed: it may be
    /// pulsed again. One line per hold: at most one per door per travel time
    /// (plus `silentBrokerMs` after a pulse), and rate-limited by its kind.
    mutating func endPulseHold(_ door: PulsedDoor, _ effects: inout [BridgeEffect]) {
        guard let hold = pulseHolds.removeValue(forKey: door) else { return }
        let tiles = actionsByKey.filter { $0.value.pulse.map(PulsedDoor.init) == door }.keys.sorted()
        let named = tiles.isEmpty ? "the door pulsed by '\(door)'" : tiles.map { "action '\($0.actionId)' (widget \($0.slug))" }.joined(separator: ", ")
        guard hold.isSinceStart else {
            effects.append(.log(.info, "\(named): its travel time and the \(MQTTSettings.silentBrokerMs) ms a stalled broker may hold "
                                + "a pulse have passed since its pulse; it may be pulsed again"))
            return
        }
        let since = hold.isSinceReconnect ? "the MQTT reconnect" : "the start"
        effects.append(.log(.info, "\(named): its travel time since \(since) has passed; it may be pulsed again"))
    }

    /// A jammed lock is logged once, until it reports something else.
    mutating func noteJammed(_ key: ActionKey, _ verdict: MessageVerdict, _ effects: inout [BridgeEffect]) {
        switch verdict {
        case .reading(.jammed):
            guard actionsReportingJammed.insert(key).inserted else { return }
            warn(about: key, "action '\(key.actionId)' (widget \(key.slug)): the lock reports it is jammed; showing it unlocked", &effects)
        case .on, .off, .protectiveOff, .reading, .position:
            if !actionsReportingJammed.isEmpty { actionsReportingJammed.remove(key) }
        default:
            break
        }
    }
}

/// Travel: a cover or lock that reports moving toward the asked state at the
/// confirm timeout has not failed; its press waits for the end state up to the
/// action's travel time (counted from the command). A pulsed door waits so
/// whatever its sensor says meanwhile (a contact sensor never says closing):
/// closing, it is never published open between the pulse and the sensor's
/// closed, or the end of its travel time.
extension Bridge {
    /// At the confirm timeout: whether the press keeps waiting (its timer
    /// restarted for the rest of the travel time). At the end of the travel
    /// time, false, with the reason logged.
    mutating func keepsTravelling(_ key: ActionKey, _ pending: PendingPress, _ effects: inout [BridgeEffect]) -> Bool {
        guard let action = actionsByKey[key], action.device != .plainSwitch, var state = states[key] else { return false }
        let word = action.device.word(on: pending.requestedOn)
        let travelMs = action.effectiveTravelTimeMs
        if pending.isTravelling {
            warn(about: key, "press \(pending.eventId) \(key): not \(word) at the end of its travel time "
                 + "(\(travelMs) ms); publishing its true state", &effects)
            return false
        }
        let confirmMs = action.confirmTimeoutMs ?? config.timing.confirmTimeoutMs
        // A pulsed door's sensor (a contact) never says it is moving: inside its
        // travel time after the pulse, the bridge waits for it all the same.
        let isPulsed = action.pulse != nil
        guard isPulsed || state.motion == Motion.toward(on: pending.requestedOn), travelMs > confirmMs else { return false }
        var travelling = pending
        travelling.isTravelling = true
        state.pendingPress = travelling
        states[key] = state
        effects.append(.startTimer(.confirm(key), afterMs: travelMs - confirmMs))
        notePressEnded(key, eventId: pending.eventId, .commanded)
        let waiting = isPulsed && state.motion != Motion.toward(on: pending.requestedOn)
            ? "pulsed; waiting up to its travel time (\(travelMs) ms) for its sensor to say \(word)"
            : "still moving toward \(word); waiting up to its travel time (\(travelMs) ms) for the end state"
        effects.append(.log(.info, "press \(pending.eventId) \(key): \(waiting)"))
        return true
    }
}

/// What one message means to one listener once the other listeners of the
/// same action on that topic have been heard: the one reading the bridge,
/// `watch` and `check --mqtt` share (issue 39 §5).
struct ListenerReading: Sendable, Equatable {
    /// What the message says to this listener, for the log and `watch`; nil
    /// when it says nothing of its own: a second word list of the action on
    /// the same field did not know a word another one read (zigbee2mqtt's
    /// `LOCK` and Yale's `LOCKED`), or a safe reading another listener of the
    /// same message contradicts.
    var said: MessageVerdict?
    /// What the action's state takes from the message through this listener.
    var taken: MessageVerdict?
}

extension MessageInterpreter {
    /// Each listener's reading of one message (in the order of `listeners`).
    ///
    /// A cover is closed and a lock locked only when the message says so
    /// without contradiction: a closed word or position beside an open one, a
    /// motion, or an unknown position is not closed (`{"state":"OPEN",
    /// "position":0}` reads open); a locked word beside another lock word is
    /// not locked. A message none of a cover's or lock's sources understands
    /// leaves it unknown (never closed, never locked): every word, known or
    /// not, but the safe one ends the safe state.
    static func readings(_ payload: ParsedPayload, listeners: [TopicIndex.Listener]) -> [ListenerReading] {
        var readings = listeners.map { listener -> ListenerReading in
            let verdict = verdict(payload, role: listener.role)
            return ListenerReading(said: verdict, taken: verdict.isUnderstood ? verdict : nil)
        }
        guard listeners.count > 1 || listeners.first?.device != .plainSwitch else { return readings }
        var start = 0
        while start < listeners.count {
            var end = start + 1
            while end < listeners.count, listeners[end].action == listeners[start].action { end += 1 }
            combine(&readings[start..<end], listeners[start..<end])
            start = end
        }
        return readings
    }

    /// The readings of one action's listeners on one message.
    private static func combine(_ readings: inout ArraySlice<ListenerReading>, _ listeners: ArraySlice<TopicIndex.Listener>) {
        let device = listeners[listeners.startIndex].device
        // A switch whose listeners all understood: nothing to weigh (the common case, no allocation).
        if device == .plainSwitch, !readings.contains(where: { !($0.said?.isUnderstood ?? true) }) { return }
        let states = readings.indices.filter { if case .state = listeners[$0].role { true } else { false } }
        let understood = states.filter { index in readings[index].taken.map { !isFieldAbsent($0) } ?? false }
        if understood.isEmpty {
            // Nothing of this action read it: a cover or lock is then not known (its first problem is said).
            guard device != .plainSwitch, let first = states.first(where: { !(readings[$0].said?.isUnderstood ?? true) }) else { return }
            readings[first].taken = .reading(.unknown)
            return
        }
        // A word another word list of the same field read is no problem (zigbee2mqtt's LOCK beside Yale's LOCKED),
        // nor a whole payload another listener read a field of; a field's word no listener of that field knows
        // is an unknown word: a cover or lock is then not known.
        var unknownWord: Int?
        for index in states where !(readings[index].said?.isUnderstood ?? true) {
            let field = listeners[index].role.field
            if field == nil || understood.contains(where: { listeners[$0].role.field == field }) {
                readings[index].said = nil
            } else if unknownWord == nil {
                unknownWord = index
            }
        }
        guard device != .plainSwitch else { return }
        if let unknownWord { readings[unknownWord].taken = .reading(.unknown) }
        let contradicted = unknownWord != nil
            || understood.contains { index in readings[index].taken.map { !isSafe($0, device) && !isNeutral($0, device) } ?? false }
        guard contradicted else { return }
        for index in understood where readings[index].taken.map({ isSafe($0, device) }) ?? false {
            readings[index] = ListenerReading(said: nil, taken: nil)
        }
    }

    /// A cover closed, a lock locked: what a tile may show only when the device says it.
    static func isSafe(_ verdict: MessageVerdict, _ device: TileDevice) -> Bool {
        switch (device, verdict) {
        case (.cover, .off), (.cover, .protectiveOff), (.cover, .position(0?)), (.lock, .on): return true
        default: return false
        }
    }

    /// A reading that says nothing about open or closed (a motion word without
    /// openness, Tasmota's `Direction 0`).
    private static func isNeutral(_ verdict: MessageVerdict, _ device: TileDevice) -> Bool {
        if case .reading(let reading) = verdict { return reading.openness == nil }
        return isFieldAbsent(verdict)
    }

    private static func isFieldAbsent(_ verdict: MessageVerdict) -> Bool {
        if case .fieldAbsent = verdict { return true }
        return false
    }
}

/// The keys of covers, locks and pulsed doors (`device`, `travel_time_ms`,
/// `allow_unlock`, `pulse`, the further state words, the position).
///
/// A custom cover or lock on explicit keys reads `state_topic` (and
/// `state_field`) with Home Assistant's words by default: a cover `open` /
/// `closed` (`on_value` / `off_value`) and `opening_value: opening`,
/// `closing_value: closing`, `stopped_value: stopped`; a lock `LOCKED` /
/// `UNLOCKED` and `locking_value: LOCKING`, `unlocking_value: UNLOCKING`,
/// `jammed_value: JAMMED`, `unlatched_value: OPEN`, `unlatching_value: OPENING`
/// (the latch pulled: Home Assistant's `state_open` / `state_opening`, Nuki
/// Hub's `open` / `opening`). Every other word leaves a lock not locked. Its commands default to `OPEN` / `CLOSE` and
/// `LOCK` / `UNLOCK` (`payload_on` / `payload_off`). A cover's position, when
/// it reports one, is read from `position_field` (0 = closed) of
/// `position_topic` or of the state topic; `invert_position: true` reads
/// every position of the tile the other way round (100 = closed: Tasmota's
/// `ShutterInvert 1`, zigbee2mqtt's `invert_cover`). With a preset, a word key replaces
/// that word in each of the preset's sources.
extension ConfigDecoder {
    /// The further state words and what each means, per device.
    static let wordKeys: [(key: String, reading: DeviceReading, device: TileDevice, word: String)] = [
        ("opening_value", .opening, .cover, "opening"),
        ("closing_value", .closing, .cover, "closing"),
        ("stopped_value", .stopped, .cover, "stopped"),
        ("locking_value", .locking, .lock, "LOCKING"),
        ("unlocking_value", .unlocking, .lock, "UNLOCKING"),
        ("jammed_value", .jammed, .lock, "JAMMED"),
        ("unlatched_value", .unlatched, .lock, "OPEN"),
        ("unlatching_value", .unlatching, .lock, "OPENING"),
    ]

    /// Keys that only one device kind uses, and which.
    static let deviceOnlyKeys: [(key: String, devices: [TileDevice])] =
        wordKeys.map { ($0.key, [$0.device]) } + [
            ("position_topic", [.cover]), ("position_field", [.cover]), ("invert_position", [.cover]), ("pulse", [.cover]),
            ("allow_unlock", [.lock]), ("travel_time_ms", [.cover, .lock]),
        ]

    /// `device:` (or what `pulse:` and the preset imply).
    mutating func decodeDevice(_ section: ConfigSection, preset: ChosenPreset?) -> TileDevice {
        let implied: TileDevice = preset?.expansion.device ?? (section.has("pulse") ? .cover : .plainSwitch)
        guard let text = string(section, "device") else { return implied }
        let location = section.value("device")?.location ?? section.location
        guard let device = TileDevice(rawValue: text) else {
            error("'device' \(section.place) must be 'switch', 'cover' or 'lock' (it is '\(text)')", at: location)
            return implied
        }
        if let preset, device != preset.expansion.device {
            error("'device' \(section.place) is '\(text)', but '\(preset.preset.rawValue)' drives a \(preset.expansion.device.rawValue); "
                  + "remove 'device'", at: location)
            return implied
        }
        return device
    }

    /// The defaults of a custom cover's or lock's state source, before the word keys.
    static func defaultMeanings(_ device: TileDevice) -> [StateMeaning] {
        wordKeys.filter { $0.device == device }.map { StateMeaning($0.word, $0.reading) }
    }

    /// Travel time, unlock, pulse, the word keys and the position of a toggle.
    mutating func decodeDeviceKeys(_ section: ConfigSection, into action: inout ActionConfig) {
        for (key, devices) in Self.deviceOnlyKeys where !devices.contains(action.device) {
            guard let entry = section.entry(key), !entry.value.isNull else { continue }
            let which = devices.map { "'device: \($0.rawValue)'" }.joined(separator: " or ")
            error("'\(key)' \(section.place) only applies to \(which), and this action is a \(action.device.rawValue)",
                  at: entry.key.location)
        }
        action.travelTimeMs = integer(section, "travel_time_ms", range: 1...600_000)
        action.allowUnlock = bool(section, "allow_unlock") ?? false
        applyWordKeys(section, to: &action.stateSources)
        if action.device == .lock { reportUnlockWordsForLocked(section) }
        if let position = decodePosition(section, stateSources: action.stateSources) { action.stateSources.append(position) }
        if action.device == .cover, bool(section, "invert_position") == true {
            for index in action.stateSources.indices where action.stateSources[index].isPosition { action.stateSources[index].isInverted = true }
        }
        decodePulse(section, into: &action)
    }

    /// A lock's on is locked: an unlock word as `payload_on` would unlock on a
    /// press for locked, and as `on_value` would show Locked while it is unlocked.
    private mutating func reportUnlockWordsForLocked(_ section: ConfigSection) {
        if let entry = section.entry("payload_on"), let word = entry.value.scalar?.textValue, Self.isUnlockWord(word) {
            error("'payload_on' \(section.place) is '\(word)', an unlock, but a lock tile's on is locked: 'payload_on' is "
                  + "the command that locks (for example LOCK); swap it with 'payload_off'", at: entry.key.location)
        }
        if let entry = section.entry("on_value"), let word = entry.value.scalar?.textValue, Self.isUnlockWord(word) {
            error("'on_value' \(section.place) is '\(word)', but a lock tile's on is locked: 'on_value' is what the lock "
                  + "reports when locked (for example LOCKED); swap it with 'off_value'", at: entry.key.location)
        }
    }

    /// Whether a command or a state word speaks of unlocking (UNLOCK, unlocked,
    /// `{"state":"UNLOCK"}`), in any case.
    static func isUnlockWord(_ text: String) -> Bool { text.lowercased().contains("unlock") }

    private mutating func applyWordKeys(_ section: ConfigSection, to sources: inout [StateSource]) {
        for (key, reading, _, _) in Self.wordKeys {
            guard let word = string(section, key) else { continue }
            // A word the preset does not know (a lock's unlatch words): the first word source reads it too.
            if !sources.contains(where: { $0.meanings.contains { $0.reading == reading } }),
               let first = sources.firstIndex(where: { !$0.isPosition && !$0.onValue.isEmpty }) {
                sources[first].meanings.append(StateMeaning(word, reading))
                continue
            }
            for index in sources.indices {
                for meaning in sources[index].meanings.indices where sources[index].meanings[meaning].reading == reading {
                    sources[index].meanings[meaning].value = word
                }
            }
        }
    }

    private mutating func decodePosition(_ section: ConfigSection, stateSources: [StateSource]) -> StateSource? {
        guard section.has("position_topic") || section.has("position_field") else { return nil }
        let field = fieldPath(section, "position_field")
        if section.has("position_topic") {
            guard let topic = topic(section, "position_topic") else { return nil }
            return .position(topic: topic, field: field)
        }
        guard let topic = stateSources.first?.topic else {
            error("'position_field' \(section.place) needs 'position_topic' or 'state_topic'",
                  at: section.entry("position_field")?.key.location ?? section.location)
            return nil
        }
        return .position(topic: topic, field: field)
    }

    /// `pulse: {topic, payload}`: replaces the command; sent once at QoS 0
    /// (QoS 1 may deliver twice, and a second pulse stops or reverses the door),
    /// never retained, and only with a sensor to say where the door is.
    private mutating func decodePulse(_ section: ConfigSection, into action: inout ActionConfig) {
        guard let node = section.value("pulse"), action.device == .cover else { return }
        let location = section.entry("pulse")?.key.location ?? section.location
        if section.has("command_topic") {
            error("'pulse' \(section.place) replaces 'command_topic': a pulsed door has no open and close commands; remove one",
                  at: location)
        }
        for key in ["qos", "retain"] {
            guard let entry = node.mappingEntries?.first(where: { $0.keyText == key }) else { continue }
            error("'\(key)' in 'pulse' of \(section.name): a pulse is sent once, at QoS 0 and never retained "
                  + "(a repeated pulse stops or reverses the door); remove '\(key)'", at: entry.key.location)
        }
        guard var message = decodeMessage(node, name: "'pulse' of \(section.name)") else { return }
        message.qos = 0
        message.retain = false
        action.pulse = message
        action.command = nil
        if action.stateSources.isEmpty || action.optimistic {
            error("'pulse' \(section.place) needs the door's sensor as its state source ('state_topic' with 'state_field', "
                  + "'on_value' (open) and 'off_value' (closed)): a pulse moves the door whichever way it goes. "
                  + "An opener without a sensor is a button: 'kind: button' with 'publish: {topic: ..., payload: ...}'",
                  at: location)
        }
    }
}

/// One action: common keys, then the toggle or button keys, then the
/// pass-through template fields.
///
/// Override rules for presets: an explicit `state_topic` replaces the
/// preset's state sources with one source (its field only from `state_field`,
/// raw payload otherwise); without it, `state_field`, `on_value` and
/// `off_value` apply to every source of the preset. The same holds for the
/// command (`command_topic`, `payload_on`, `payload_off`) and availability
/// (`availability_topic`, `availability_field`, `available_value`,
/// `unavailable_value`). `state_query` replaces the preset's query, `false`
/// removes it. `kind` defaults to `toggle` with a preset, `device` or `pulse`,
/// `button` without.
extension ConfigDecoder {
    mutating func decodeAction(_ node: YAMLNode, name: String, zigbee2mqttBaseTopic: String) -> ActionConfig? {
        guard let section = section(node, name: name, allowedKeys: ConfigKeys.action) else { return nil }
        let id = requiredString(section, "id")
        let label = requiredString(section, "label")
        if Self.hasMisspeltPreset(section) {
            // The unknown key is reported with its suggestion; what would follow
            // from the action lacking a preset (its kind, its topics) is not.
            return ActionConfig(id: id ?? "", label: label ?? "", kind: .toggle, location: node.location)
        }
        let preset = decodePreset(section, zigbee2mqttBaseTopic: zigbee2mqttBaseTopic)
        // A preset, a device or a pulse makes a toggle unless `kind` says otherwise.
        let impliesToggle = preset != nil || section.has("device") || section.has("pulse")
            || section.entries.contains { DevicePreset(rawValue: $0.keyText) != nil }
        let kind = decodeKind(section, hasPreset: impliesToggle)
        reportKeysOfOtherKind(section, kind: kind)
        var action = ActionConfig(id: id ?? "", label: label ?? "", icon: string(section, "icon"), color: color(section),
                                  kind: kind, location: node.location)
        warnAboutUnknownIcon(section)
        action.preset = preset?.preset.rawValue
        action.device = kind == .toggle ? decodeDevice(section, preset: preset) : .plainSwitch
        // A second pulse stops or reverses a door: pulsed actions never run twice unless the config says so.
        action.repeatSafe = bool(section, "repeat_safe") ?? !section.has("pulse")
        if let entry = section.entry("repeat_safe"), entry.value.isNull {
            action.repeatSafe = false
            error("'repeat_safe' \(section.place) has no value: write true or false (false keeps its presses "
                  + "deduplicated across a restart)", at: entry.key.location)
        }
        switch kind {
        case .toggle:
            // A preset that was given but refused has its own error; no "needs a command" on top.
            let refusedPreset = preset == nil && section.entries.contains { DevicePreset(rawValue: $0.keyText) != nil }
            decodeToggle(section, expansion: preset?.expansion, presetRefused: refusedPreset, into: &action)
        case .button: decodeButton(section, into: &action)
        }
        settleUnsafeByNature(section, into: &action)
        action.passthrough = decodePassthrough(section)
        return action
    }

    /// A pulse and an unlock never run twice for one press (issue 38): a pulsed
    /// door and a lock tile with `allow_unlock: true` are not safe to repeat,
    /// and `repeat_safe: true` on them is refused on its line with the fix.
    private mutating func settleUnsafeByNature(_ section: ConfigSection, into action: inout ActionConfig) {
        let why: String
        if action.pulse != nil {
            why = "a pulsed door must never run twice for one press (a second pulse stops or reverses it); remove 'repeat_safe: true'"
        } else if action.device == .lock, action.allowUnlock {
            why = "an unlocking lock tile ('allow_unlock: true') must never run twice for one press; remove 'repeat_safe: true' "
                + "(or 'allow_unlock: true', to make the tile only lock)"
        } else {
            return
        }
        if let entry = section.entry("repeat_safe"), case .bool(true)? = entry.value.scalar?.value {
            error("'repeat_safe: true' \(section.place): \(why)", at: entry.key.location)
        }
        action.repeatSafe = false
    }

    /// An unknown key that is close to a preset's name (`tasmotta`, `zigbee`).
    static func hasMisspeltPreset(_ section: ConfigSection) -> Bool {
        section.entries.contains { entry in
            !ConfigKeys.action.contains(entry.keyText) && EditDistance.suggestion(for: entry.keyText, among: ConfigKeys.presets) != nil
        }
    }

    /// `color`: a named color or `#RRGGBB`, as the service accepts.
    private mutating func color(_ section: ConfigSection) -> String? {
        guard let color = string(section, "color") else { return nil }
        if let problem = SwitchboardContentRules.colorProblem(color) {
            error("'color' \(section.place) \(problem)", at: section.value("color")?.location ?? section.location)
            return nil
        }
        if !color.hasPrefix("#"), SwitchboardTileHTML.namedColors[color.lowercased()] == nil {
            // Issue 41: `color: yelow` was accepted silently.
            let known = SwitchboardTileHTML.namedColors.keys.sorted()
            let hint = EditDistance.suggestion(for: color, among: known).map { "did you mean '\($0)'? " } ?? ""
            warning("'color' \(section.place) is '\(color)', not a color the bridge knows (\(hint)the named colors: "
                    + "\(known.joined(separator: ", ")), or '#RRGGBB'); the tile may show the default color",
                    at: section.value("color")?.location ?? section.location)
        }
        return color
    }

    /// `icon`: a symbol name; one the status page cannot draw is most often a typo
    /// (issue 41: `icon: lightbul.fill` was accepted silently).
    mutating func warnAboutUnknownIcon(_ section: ConfigSection) {
        guard let icon = section.value("icon")?.scalar?.textValue, !icon.isEmpty, !TileIcon.isKnown(icon) else { return }
        let hint = EditDistance.suggestion(for: icon, among: TileIcon.suggestedNames).map { " (did you mean '\($0)'?)" } ?? ""
        warning("'icon' \(section.place) is '\(icon)', a symbol the bridge's pages cannot draw\(hint): check its spelling; "
                + "the phone shows it only if SF Symbols has it", at: section.value("icon")?.location ?? section.location)
    }

    private mutating func decodeKind(_ section: ConfigSection, hasPreset: Bool) -> ActionKind {
        let fallback: ActionKind = hasPreset ? .toggle : .button
        guard let text = string(section, "kind") else { return fallback }
        guard let kind = ActionKind(rawValue: text) else {
            error("'kind' \(section.place) must be 'toggle' or 'button' (it is '\(text)')", at: section.value("kind")?.location ?? section.location)
            return fallback
        }
        return kind
    }

    private mutating func reportKeysOfOtherKind(_ section: ConfigSection, kind: ActionKind) {
        let foreign = kind == .toggle ? ConfigKeys.buttonOnly : ConfigKeys.toggleOnly
        for entry in section.entries where foreign.contains(entry.keyText) && !entry.value.isNull {
            let message = kind == .toggle
                ? "'\(entry.keyText)' \(section.place) only applies to buttons, and this action is a toggle"
                : "'\(entry.keyText)' \(section.place) only applies to toggles; add 'kind: toggle'"
            error(message, at: entry.key.location)
        }
    }

    // MARK: Toggles

    private mutating func decodeToggle(
        _ section: ConfigSection, expansion: DevicePreset.Expansion?, presetRefused: Bool, into action: inout ActionConfig
    ) {
        action.stateSources = decodeStateSources(section, preset: expansion?.stateSources ?? [], device: action.device)
        action.command = decodeCommand(section, preset: expansion?.command, device: action.device)
        let topics = availabilityTopics(section)
        action.availability = decodeAvailability(section, topic: topics.first, preset: expansion?.availability)
        // An explicit availability topic replaces the preset's whole availability story; a second one
        // listed must say online too (Nuki Hub's `avty_mode: all`), as a gateway's does.
        action.gatewayAvailability = section.has("availability_topic")
            ? topics.dropFirst().first.flatMap { second in action.availability.map { AvailabilitySource(
                topic: second, field: $0.field, availableValue: $0.availableValue, unavailableValue: $0.unavailableValue) } }
            : expansion?.gatewayAvailability
        action.optimistic = bool(section, "optimistic") ?? false
        action.confirmTimeoutMs = integer(section, "confirm_timeout_ms", range: 1...14_999)
        action.stateQuery = decodeStateQuery(section, preset: expansion?.stateQuery)
        decodeDeviceKeys(section, into: &action)
        let presets = ConfigKeys.presets.joined(separator: ", ")
        if action.command == nil, !section.has("command_topic"), !section.has("pulse"), !presetRefused {
            error("\(section.name) is a toggle and needs a command: set 'command_topic' or a device preset (\(presets))",
                  at: section.location)
        }
        // A pulse without a sensor has its own error, on the pulse's line.
        if action.stateSources.isEmpty, !action.optimistic, !section.has("state_topic"), !presetRefused, action.pulse == nil {
            error("\(section.name) is a toggle and needs a state source: set 'state_topic' or a device preset, "
                  + "or 'optimistic: true' for a device that reports nothing", at: section.location)
        }
    }

    private mutating func decodeStateSources(_ section: ConfigSection, preset: [StateSource], device: TileDevice) -> [StateSource] {
        let field = fieldPath(section, "state_field")
        let onValue = string(section, "on_value")
        let offValue = string(section, "off_value")
        if section.has("state_topic") {
            guard let topic = topic(section, "state_topic") else { return [] }
            let words = preset.first(where: { !$0.isPosition }) ?? StateSource(
                topic: topic, onValue: device.defaultWords.on, offValue: device.defaultWords.off, meanings: Self.defaultMeanings(device))
            return [StateSource(topic: topic, field: field, onValue: onValue ?? words.onValue, offValue: offValue ?? words.offValue,
                                meanings: words.meanings)]
        }
        guard !preset.isEmpty else {
            reportNeedsTopic(section, keys: ["state_field", "on_value", "off_value"], topicKey: "state_topic")
            return []
        }
        return preset.map { source in
            var source = source
            if source.isPosition { return source }
            if let field { source.field = field }
            if let onValue { source.onValue = onValue }
            if let offValue { source.offValue = offValue }
            return source
        }
    }

    private mutating func decodeCommand(_ section: ConfigSection, preset: ToggleCommand?, device: TileDevice) -> ToggleCommand? {
        let payloadOn = string(section, "payload_on", allowEmpty: true)
        let payloadOff = string(section, "payload_off", allowEmpty: true)
        var command = preset
        if section.has("command_topic") {
            guard let topic = topic(section, "command_topic") else { return nil }
            // One explicit topic takes both commands (a preset's separate off topic goes).
            command = ToggleCommand(topic: topic, payloadOn: preset?.payloadOn ?? device.defaultWords.payloadOn,
                                    payloadOff: preset?.payloadOff ?? device.defaultWords.payloadOff)
        }
        guard var command else {
            reportNeedsTopic(section, keys: ["payload_on", "payload_off"], topicKey: "command_topic")
            return nil
        }
        if let payloadOn { command.payloadOn = payloadOn }
        if let payloadOff { command.payloadOff = payloadOff }
        return command
    }

    /// `availability_topic`: one topic, or a list of two that must both say
    /// available (the device's and the bridge or hub it talks through).
    private mutating func availabilityTopics(_ section: ConfigSection) -> [String] {
        guard let node = section.value("availability_topic") else { return [] }
        guard let items = node.sequenceItems else { return topic(section, "availability_topic").map { [$0] } ?? [] }
        guard (1...2).contains(items.count) else {
            error("'availability_topic' \(section.place) lists \(items.count) topics: give one, or two that must both say "
                  + "available (the device's and its hub's)", at: node.location)
            return []
        }
        return items.compactMap { item in
            guard let text = item.scalar?.textValue else {
                error("'availability_topic' \(section.place) must list topics, not \(item.typeDescription)", at: item.location)
                return nil
            }
            return checkTopic(text, what: "'availability_topic' \(section.place)", at: item.location) ? text : nil
        }
    }

    private mutating func decodeAvailability(_ section: ConfigSection, topic: String?, preset: AvailabilitySource?) -> AvailabilitySource? {
        let field = fieldPath(section, "availability_field")
        let available = string(section, "available_value")
        let unavailable = string(section, "unavailable_value")
        var availability = preset
        if section.has("availability_topic") {
            guard let topic else { return nil }
            availability = AvailabilitySource(topic: topic, field: field, availableValue: preset?.availableValue ?? "online",
                                              unavailableValue: preset?.unavailableValue)
        } else if field != nil {
            availability?.field = field
        }
        guard var availability else {
            reportNeedsTopic(section, keys: ["availability_field", "available_value", "unavailable_value"], topicKey: "availability_topic")
            return nil
        }
        if let available { availability.availableValue = available }
        if let unavailable { availability.unavailableValue = unavailable }
        return availability
    }

    private mutating func decodeStateQuery(_ section: ConfigSection, preset: MQTTMessageSpec?) -> MQTTMessageSpec? {
        guard let node = section.value("state_query") else { return preset }
        if case .bool(let enabled)? = node.scalar?.value {
            if enabled, preset == nil {
                error("'state_query: true' \(section.place) needs a device preset; otherwise give {topic: ..., payload: ...}",
                      at: node.location)
            }
            return enabled ? preset : nil
        }
        return decodeMessage(node, name: "'state_query' of \(section.name)")
    }

    private mutating func reportNeedsTopic(_ section: ConfigSection, keys: [String], topicKey: String) {
        for key in keys {
            guard let entry = section.entry(key), !entry.value.isNull else { continue }
            error("'\(key)' \(section.place) needs '\(topicKey)' or a device preset", at: entry.key.location)
        }
    }

    // MARK: Buttons

    private mutating func decodeButton(_ section: ConfigSection, into action: inout ActionConfig) {
        action.sets = decodeSets(section)
        if let node = section.value("publish") {
            let items = node.sequenceItems ?? [node]
            action.publishes = items.enumerated().compactMap { index, item in
                let what = items.count == 1 && node.sequenceItems == nil
                    ? "'publish' of \(section.name)" : "message #\(index + 1) of 'publish' of \(section.name)"
                return decodeMessage(item, name: what)
            }
            if items.isEmpty { error("'publish' \(section.place) must list at least one message", at: node.location) }
        } else if !section.entries.contains(where: { $0.keyText == "sets" }) {
            error("\(section.name) is a button and needs something to publish: add 'publish: {topic: ..., payload: ...}', "
                  + "or 'sets: {porch: off, ...}' to make it a scene of this widget's tiles", at: section.location)
        }
        if action.isScene {
            reportActiveTopicOfScene(section)
            return
        }
        let field = fieldPath(section, "active_field")
        let value = string(section, "active_value", allowEmpty: true)
        if section.has("active_topic") {
            guard let topic = topic(section, "active_topic") else { return }
            guard let value else {
                error("'active_topic' \(section.place) needs 'active_value' (the value meaning active)",
                      at: section.entry("active_topic")?.key.location ?? section.location)
                return
            }
            action.activeSource = ActiveSource(topic: topic, field: field, value: value)
        } else {
            for key in ["active_field", "active_value"] where section.has(key) {
                error("'\(key)' \(section.place) needs 'active_topic'", at: section.entry(key)?.key.location ?? section.location)
            }
        }
    }

    /// `{topic, payload, qos?, retain?}`; a mapping or list payload is sent as
    /// compact JSON.
    mutating func decodeMessage(_ node: YAMLNode, name: String) -> MQTTMessageSpec? {
        guard let message = section(node, name: name, allowedKeys: ConfigKeys.message) else { return nil }
        guard message.has("topic") else {
            error("missing required key 'topic' in \(name)", at: message.location)
            return nil
        }
        let topic = topic(message, "topic")
        var payload = ""
        if let payloadNode = message.value("payload") {
            payload = payloadNode.scalar?.textValue ?? payloadNode.jsonValue.serialized()
        }
        let qos = integer(message, "qos", range: 0...2) ?? 1
        let retain = bool(message, "retain") ?? false
        if retain {
            warning("'retain: true' in \(name): a retained command is replayed whenever the device reconnects",
                    at: message.value("retain")?.location ?? message.location)
        }
        guard let topic else { return nil }
        return MQTTMessageSpec(topic: topic, payload: payload, qos: Int(qos), retain: retain)
    }

    // MARK: Pass-through

    /// The documented pass-through keys and everything under `extra:`, in
    /// file order.
    private mutating func decodePassthrough(_ section: ConfigSection) -> [JSONMember] {
        var members: [JSONMember] = []
        var names: Set<String> = []
        for entry in section.entries {
            if ConfigKeys.passthrough.contains(entry.keyText) {
                if let value = contentValue(entry, section: section) { members.append(JSONMember(entry.keyText, value)) }
                names.insert(entry.keyText)
            } else if entry.keyText == "extra", !entry.value.isNull {
                guard let extras = entry.value.mappingEntries else {
                    error("'extra' \(section.place) must be a mapping of template fields, not \(entry.value.typeDescription)",
                          at: entry.value.location)
                    continue
                }
                for extra in extras { appendExtra(extra, to: &members, names: &names, section: section) }
            }
        }
        return members
    }

    /// `names` holds the keys of `members`, so a long `extra:` is checked in linear time.
    private mutating func appendExtra(_ extra: YAMLMapEntry, to members: inout [JSONMember], names: inout Set<String>,
                                      section: ConfigSection) {
        let key = extra.keyText
        if ConfigKeys.bridgeOwnedContentFields.contains(key) {
            error("'\(key)' under 'extra' \(section.place) is a field the bridge sets itself", at: extra.key.location)
        } else if !names.insert(key).inserted {
            error("'\(key)' under 'extra' \(section.place) is already set", at: extra.key.location)
        } else if let value = contentValue(extra, section: section) {
            members.append(JSONMember(key, value))
        }
    }

    /// A template field's JSON; the fields the service wants as strings
    /// (`subtitle`) are given as text, a null one is left out, and a list or
    /// mapping there is an error (the service would refuse the whole widget).
    private mutating func contentValue(_ entry: YAMLMapEntry, section: ConfigSection) -> JSONValue? {
        guard SwitchboardContentRules.stringFields.contains(entry.keyText) else { return entry.value.jsonValue }
        if entry.value.isNull { return nil }
        guard let text = entry.value.scalar?.textValue else {
            error("'\(entry.keyText)' \(section.place) must be text, not \(entry.value.typeDescription); "
                  + "the service refuses the whole widget otherwise", at: entry.value.location)
            return nil
        }
        return .string(text)
    }
}

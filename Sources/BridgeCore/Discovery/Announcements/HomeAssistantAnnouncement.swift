/// Home Assistant MQTT discovery: `<prefix>/<component>/[<node>/]<object>/config`
/// (one entity) and `<prefix>/device/<id>/config` (a device with `cmps`). Switches,
/// lights, fans (on and off only), covers and locks become toggles; everything else
/// is listed as skipped.
///
/// Source of the format: home-assistant.io `source/_integrations/mqtt.markdown`
/// ("Discovery topic", "Device discovery payload", `~` base topic, abbreviations,
/// "Using Availability topics"), `switch.mqtt`, `light.mqtt` (default and `json` schema) and
/// `fan.mqtt` (`command_topic` with `payload_on`/`payload_off`, `state_value_template`).
public enum HomeAssistantAnnouncement {
    /// The component and the object id of a discovery topic under `prefix`.
    public static func parseTopic(_ topic: String, prefix: String) -> (component: String, objectId: String)? {
        guard topic.hasPrefix(prefix + "/"), topic.hasSuffix("/config") else { return nil }
        let levels = topic.dropFirst(prefix.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3 || levels.count == 4, levels.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (String(levels[0]), levels.dropLast().dropFirst().joined(separator: "/"))
    }

    public static func toggles(_ payload: JSONValue, topic: String, prefix: String) -> AnnouncementYield {
        guard let (component, objectId) = parseTopic(topic, prefix: prefix) else { return AnnouncementYield() }
        let config = HomeAssistantAbbreviations.expanded(payload)
        guard case .object = config else {
            return AnnouncementYield(skipped: [SkippedThing(what: topic, reason: "not a JSON object")])
        }
        guard component == "device" else { return entity(config, component: component, objectId: objectId, topic: topic) }
        guard case .object(let entries)? = config["components"] else {
            return AnnouncementYield(skipped: [SkippedThing(what: topic, reason: "a device discovery without components")])
        }
        var yield = AnnouncementYield()
        let shared = sharedOptions(of: config)
        for entry in entries.prefix(maxComponents) {
            let merged = shared.merging(entry.value)
            let platform = merged["platform"]?.stringValue ?? "unknown"
            yield.append(entity(merged, component: platform, objectId: entry.key, topic: topic))
        }
        if entries.count > maxComponents {
            yield.skipped.append(SkippedThing(what: topic, reason: "\(entries.count - maxComponents) components beyond the first "
                + "\(maxComponents) (a device has a few dozen)"))
        }
        return yield
    }

    /// Most `availability` items read (Home Assistant's own devices list one to three).
    static let maxAvailabilityItems = 16

    /// Most components of one device discovery that are read (the rest are skipped and said).
    static let maxComponents = 256

    /// The root options a device discovery shares with its components.
    private static func sharedOptions(of config: JSONValue) -> JSONValue {
        let shared: Set<String> = [
            "availability", "availability_topic", "availability_mode", "availability_template", "payload_available",
            "payload_not_available", "command_topic", "state_topic", "qos", "encoding", "device", "origin", "~",
        ]
        return .object((config.objectMembers ?? []).filter { shared.contains($0.key) })
    }

    private static func entity(_ raw: JSONValue, component: String, objectId: String, topic: String) -> AnnouncementYield {
        let config = withBaseTopic(raw)
        if config["migrate_discovery"] != nil, config["command_topic"] == nil, config["state_topic"] == nil { return AnnouncementYield() }
        let name = label(config, fallback: objectId)
        let what = "Home Assistant \(component) '\(name)' (\(topic))"
        var keys = DeviceKeys.ofHomeAssistantDevice(config["device"])
        if let uniqueId = config["unique_id"]?.scalarText { keys.insert("uid:" + uniqueId) }
        func skipped(_ reason: String) -> AnnouncementYield {
            var yield = AnnouncementYield(skipped: [SkippedThing(what: what, reason: reason)])
            yield.skippedDeviceKeys[what] = keys
            return yield
        }
        guard ["switch", "light", "fan", "cover", "lock"].contains(component) else {
            return skipped("a \(component): only switches, lights, fans, covers and locks become toggles")
        }
        let translation = component == "cover" || component == "lock" ? closureWiring(config, component: component)
            : wiring(config, component: component)
        switch translation {
        case .failure(let refusal):
            return skipped(refusal.description)
        case .success(let (wiring, note)):
            let deviceClass = config["device_class"]?.stringValue
            let kind: AnnouncedKind = component == "light" ? .light
                : component == "fan" ? .fan
                : component == "lock" ? .lock
                : component == "cover" ? AnnouncedKind.cover(from: [deviceClass ?? "", name])
                : deviceClass == "outlet" ? .plug
                : AnnouncedKind.guess(from: [name], fallback: .switchRelay)
            let toggle = DiscoveredToggle(
                source: .homeAssistant, deviceKeys: keys, label: name, idHint: name, kind: kind,
                origin: origin(config, topic: topic) + (note.map { "; \($0)" } ?? ""), wiring: wiring
            )
            // A zigbee2mqtt group is announced once per member type (a light and a switch
            // for one group): an optional extra, as its `bridge/groups` entry is.
            return isZigbee2MQTTGroup(config) ? AnnouncementYield(extras: [toggle]) : AnnouncementYield(toggles: [toggle])
        }
    }

    /// zigbee2mqtt's Home Assistant copy of one of its groups: the device block says model
    /// `Group` by `Zigbee2MQTT`, identifier `zigbee2mqtt_<base>_<group id>`
    /// (Koenkk/zigbee2mqtt `lib/extension/homeassistant.ts`, `getDevicePayload`).
    static func isZigbee2MQTTGroup(_ config: JSONValue) -> Bool {
        guard let device = config["device"], device["model"]?.stringValue == "Group" else { return false }
        return device["manufacturer"]?.stringValue == "Zigbee2MQTT"
            || DeviceKeys.ofHomeAssistantDevice(device).contains { $0.hasPrefix("id:zigbee2mqtt_") }
    }

    private static func label(_ config: JSONValue, fallback: String) -> String {
        if let name = config["name"]?.stringValue, !name.isEmpty { return name }
        if let name = config["device"]?["name"]?.stringValue, !name.isEmpty { return name }
        return fallback
    }

    private static func origin(_ config: JSONValue, topic: String) -> String {
        let device = config["device"]
        let parts = [device?["manufacturer"]?.stringValue, device?["model"]?.stringValue].compactMap { $0 }
        let software = config["origin"]?["name"]?.stringValue ?? device?["sw_version"]?.stringValue
        return (parts.isEmpty ? "unknown device" : parts.joined(separator: " "))
            + (software.map { " (\($0))" } ?? "") + ", \(topic)"
    }

    /// `~` at the start or end of a `…_topic` value (and of availability `topic`s) is the base topic.
    static func withBaseTopic(_ config: JSONValue) -> JSONValue {
        guard let base = config["~"]?.stringValue, case .object(let members) = config else { return config }
        func expand(_ value: JSONValue) -> JSONValue {
            guard let text = value.stringValue else { return value }
            if text.hasPrefix("~") { return .string(base + text.dropFirst()) }
            if text.hasSuffix("~") { return .string(text.dropLast() + base) }
            return value
        }
        return .object(members.map { member in
            if member.key.hasSuffix("_topic") { return JSONMember(member.key, expand(member.value)) }
            if member.key == "availability", case .array(let items) = member.value {
                return JSONMember(member.key, .array(items.map { item in
                    guard case .object(let fields) = item else { return item }
                    return .object(fields.map { $0.key == "topic" ? JSONMember("topic", expand($0.value)) : $0 })
                }))
            }
            return member
        })
    }

    typealias Translation = Result<(ToggleWiring, String?), TemplateRefusal>

    static func wiring(_ config: JSONValue, component: String) -> Translation {
        guard let commandTopic = config["command_topic"]?.stringValue, !commandTopic.isEmpty else {
            return .failure(TemplateRefusal("no command_topic: it cannot be switched"))
        }
        if component == "light", let schema = config["schema"]?.stringValue, schema != "basic", schema != "default" {
            guard schema == "json" else { return .failure(TemplateRefusal("a light with schema '\(schema)': its command templates are not translated")) }
            return jsonLight(config, commandTopic: commandTopic)
        }
        for key in ["command_template", "command_on_template", "command_off_template"] where config[key] != nil {
            return .failure(TemplateRefusal("uses \(key), which is not translated"))
        }
        let payloadOn = config["payload_on"]?.scalarText ?? "ON"
        let payloadOff = config["payload_off"]?.scalarText ?? "OFF"
        let command = ToggleCommand(topic: commandTopic, payloadOn: payloadOn, payloadOff: payloadOff)
        let availability = self.availability(config)
        guard let stateTopic = config["state_topic"]?.stringValue, !stateTopic.isEmpty else {
            return .success((ToggleWiring(stateSources: [], command: command, availability: availability.source, optimistic: true), availability.note))
        }
        if let refusal = wildcardRefusal(stateTopic: stateTopic, commandTopic: commandTopic) { return .failure(refusal) }
        // A fan's on/off state is read as a light's is (`fan.mqtt`: `state_value_template`).
        let templateKey = component == "light" || component == "fan" ? "state_value_template" : "value_template"
        let field: [String]?
        switch templateField(config[templateKey]?.stringValue) {
        case .success(let path): field = path
        case .failure(let refusal): return .failure(refusal)
        }
        let state = StateSource(topic: stateTopic, field: field,
                                onValue: config["state_on"]?.scalarText ?? payloadOn,
                                offValue: config["state_off"]?.scalarText ?? payloadOff)
        return .success((ToggleWiring(stateSources: [state], command: command, availability: availability.source), availability.note))
    }

    /// A state topic with a wildcard, said before anything else about the announcement:
    /// OpenMQTTGateway announces a device any of its gateways hears with the state topic
    /// `+/+/BTtoMQTT/<MAC>` (any base, any gateway: 1technophile/OpenMQTTGateway
    /// `main/ZmqttDiscovery.ino`, `createDiscovery` for a non-gateway entity) and commands it
    /// through one gateway (`home/<gateway>/commands/...`): that gateway's topic is suggested.
    static func wildcardRefusal(stateTopic: String, commandTopic: String) -> TemplateRefusal? {
        guard stateTopic.unicodeScalars.contains(where: { $0 == "+" || $0 == "#" }) else { return nil }
        let shown = YAMLScalarWriter.comment(stateTopic, maxLength: 120)
        let levels = commandTopic.split(separator: "/", omittingEmptySubsequences: false)
        guard stateTopic.hasPrefix("+/+/"), levels.count >= 3, !levels[0].contains("+"), !levels[1].contains("+") else {
            return TemplateRefusal("its state topic '\(shown)' is a wildcard: the bridge reads one exact topic; "
                + "write the action by hand with the topic the device publishes its state on")
        }
        let suggested = "\(levels[0])/\(levels[1])/" + stateTopic.dropFirst(4)
        return TemplateRefusal("its state topic '\(shown)' matches every gateway (OpenMQTTGateway announces a device any of its "
            + "gateways hears so): the bridge reads one exact topic; write the action by hand with "
            + "state_topic: \(YAMLScalarWriter.comment(suggested, maxLength: 120)) (the gateway it is commanded through)")
    }

    /// A cover (`cover.mqtt`: `payload_open`/`payload_close`, `state_open`,
    /// `state_closed`, `state_opening`, `state_closing`, `state_stopped`,
    /// `position_topic` with `position_template`) or a lock (`lock.mqtt`:
    /// `payload_lock`/`payload_unlock`, `state_locked`, `state_unlocked`,
    /// `state_locking`, `state_unlocking`, `state_jammed`, and the unlatch words
    /// `state_open` / `state_opening` that Nuki Hub announces), Home Assistant's
    /// defaults where the announcement says nothing. A cover or lock that reports
    /// nothing is refused: its tile would show a state the device never said.
    static func closureWiring(_ config: JSONValue, component: String) -> Translation {
        guard let commandTopic = config["command_topic"]?.stringValue, !commandTopic.isEmpty else {
            return .failure(TemplateRefusal("no command_topic: it cannot be moved"))
        }
        if config["command_template"] != nil { return .failure(TemplateRefusal("uses command_template, which is not translated")) }
        let isLock = component == "lock"
        func word(_ key: String, _ fallback: String) -> String { config[key]?.scalarText ?? fallback }
        let command = isLock
            ? ToggleCommand(topic: commandTopic, payloadOn: word("payload_lock", "LOCK"), payloadOff: word("payload_unlock", "UNLOCK"))
            : ToggleCommand(topic: commandTopic, payloadOn: word("payload_open", "OPEN"), payloadOff: word("payload_close", "CLOSE"))
        var sources: [StateSource] = []
        if let stateTopic = config["state_topic"]?.stringValue, !stateTopic.isEmpty {
            if let refusal = wildcardRefusal(stateTopic: stateTopic, commandTopic: commandTopic) { return .failure(refusal) }
            switch templateField(config["value_template"]?.stringValue) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let field):
                sources.append(isLock
                    ? StateSource(topic: stateTopic, field: field, onValue: word("state_locked", "LOCKED"), offValue: word("state_unlocked", "UNLOCKED"),
                                  meanings: [StateMeaning(word("state_locking", "LOCKING"), .locking),
                                             StateMeaning(word("state_unlocking", "UNLOCKING"), .unlocking),
                                             StateMeaning(word("state_jammed", "JAMMED"), .jammed),
                                             StateMeaning(word("state_open", "OPEN"), .unlatched),
                                             StateMeaning(word("state_opening", "OPENING"), .unlatching)])
                    : StateSource(topic: stateTopic, field: field, onValue: word("state_open", "open"), offValue: word("state_closed", "closed"),
                                  meanings: [StateMeaning(word("state_opening", "opening"), .opening),
                                             StateMeaning(word("state_closing", "closing"), .closing),
                                             StateMeaning(word("state_stopped", "stopped"), .stopped)]))
            }
        }
        var notes: [String] = []
        if !isLock, let positionTopic = config["position_topic"]?.stringValue, !positionTopic.isEmpty {
            // position_closed 100, position_open 0: the inverted percent the bridge reads with invert_position.
            let inverted = config["position_closed"]?.scalarText == "100" && config["position_open"]?.scalarText == "0"
            if !inverted, let range = otherPositionRange(config) {
                // The bridge reads a position as percent, 0 closed: another range would show a closed
                // door open or an open one closed. Its state words still say closed, so the tile stands on them.
                guard !sources.isEmpty else {
                    return .failure(TemplateRefusal("its position runs from \(range) (position_closed to position_open), not 0 to 100, "
                        + "and a position is all it reports: the bridge reads positions as percent (0 closed)"))
                }
                notes.append("its position (\(range), not 0 to 100) left out: the tile reads its state words")
            } else {
                switch templateField(config["position_template"]?.stringValue) {
                case .failure(let refusal): return .failure(refusal)
                case .success(let field): sources.append(.position(topic: positionTopic, field: field, inverted: inverted))
                }
            }
        }
        guard !sources.isEmpty else {
            return .failure(TemplateRefusal("no state_topic\(isLock ? "" : " or position_topic"): a \(component) tile must show what the device reports"))
        }
        let availability = self.availability(config)
        var wiring = ToggleWiring(stateSources: sources, command: command, availability: availability.source, device: isLock ? .lock : .cover)
        // `availability_mode: all` (Nuki Hub): a second topic that must say online too, when read alike.
        if let second = allModeSecondAvailability(config, beside: availability.source) {
            wiring.alsoAvailability = second
        } else {
            notes += [availability.note].compactMap { $0 }
        }
        return .success((wiring, notes.isEmpty ? nil : notes.joined(separator: "; ")))
    }

    /// A cover's announced position range as "CLOSED to OPEN" when it is not
    /// Home Assistant's default 0 (closed) to 100 (open); nil when it is.
    static func otherPositionRange(_ config: JSONValue) -> String? {
        let closed = config["position_closed"]?.scalarText ?? "0"
        let open = config["position_open"]?.scalarText ?? "100"
        guard closed != "0" || open != "100" else { return nil }
        return "\(YAMLScalarWriter.comment(closed, maxLength: 20)) to \(YAMLScalarWriter.comment(open, maxLength: 20))"
    }

    /// The JSON field a value template reads (nil: the raw payload).
    private static func templateField(_ template: String?) -> Result<[String]?, TemplateRefusal> {
        guard let template else { return .success(nil) }
        switch HomeAssistantValueTemplate.parse(template) {
        case .success(.rawPayload): return .success(nil)
        case .success(.field(let path)): return .success(path)
        case .failure(let refusal): return .failure(refusal)
        }
    }

    private static func jsonLight(_ config: JSONValue, commandTopic: String) -> Translation {
        let command = ToggleCommand(topic: commandTopic, payloadOn: "{\"state\":\"ON\"}", payloadOff: "{\"state\":\"OFF\"}")
        let availability = self.availability(config)
        let states = config["state_topic"]?.stringValue.map { [StateSource(topic: $0, field: ["state"], onValue: "ON", offValue: "OFF")] } ?? []
        return .success((ToggleWiring(stateSources: states, command: command, availability: availability.source, optimistic: states.isEmpty),
                         availability.note))
    }

    /// With `availability_mode: all` and exactly two availability topics read alike
    /// (the same field and words), the one beside `chosen`; nil otherwise.
    static func allModeSecondAvailability(_ config: JSONValue, beside chosen: AvailabilitySource?) -> AvailabilitySource? {
        guard let chosen, config["availability_mode"]?.stringValue == "all", case .array(let items)? = config["availability"],
              items.count == 2 else { return nil }
        let others = items.compactMap { item -> AvailabilitySource? in
            guard let topic = item["topic"]?.stringValue, !topic.isEmpty, topic != chosen.topic else { return nil }
            return AvailabilitySource(topic: topic, field: chosen.field, availableValue: item["payload_available"]?.scalarText ?? "online",
                                      unavailableValue: item["payload_not_available"]?.scalarText ?? "offline")
        }
        guard let other = others.first, others.count == 1, other.availableValue == chosen.availableValue,
              other.unavailableValue == chosen.unavailableValue,
              items.allSatisfy({ $0["value_template"]?.stringValue == items[0]["value_template"]?.stringValue }) else { return nil }
        return other
    }

    /// One availability source (the bridge follows one): the only one, or of several the
    /// last (zigbee2mqtt lists the bridge's first and the device's last); a note says what was left out.
    static func availability(_ config: JSONValue) -> (source: AvailabilitySource?, note: String?) {
        let defaultOn = config["payload_available"]?.scalarText ?? "online"
        let defaultOff = config["payload_not_available"]?.scalarText ?? "offline"
        var candidates: [(topic: String, on: String, off: String, template: String?)] = []
        if case .array(let items)? = config["availability"] {
            // A few in practice; a hostile list is read only so far (each component reads it again).
            for item in items.prefix(maxAvailabilityItems) {
                guard let topic = item["topic"]?.stringValue, !topic.isEmpty else { continue }
                candidates.append((topic, item["payload_available"]?.scalarText ?? "online",
                                   item["payload_not_available"]?.scalarText ?? "offline", item["value_template"]?.stringValue))
            }
        } else if let topic = config["availability_topic"]?.stringValue, !topic.isEmpty {
            candidates.append((topic, defaultOn, defaultOff, config["availability_template"]?.stringValue))
        }
        guard let chosen = candidates.last else { return (nil, nil) }
        var notes: [String] = []
        if candidates.count > 1 {
            let mode = config["availability_mode"]?.stringValue ?? "latest"
            notes.append("availability: only \(chosen.topic) of \(candidates.count) topics (mode \(mode))")
        }
        var field: [String]? = nil
        if let template = chosen.template {
            switch HomeAssistantValueTemplate.parse(template) {
            case .success(.rawPayload): field = nil
            case .success(.field(let path)): field = path
            case .failure(let refusal):
                notes.append("availability left out: \(refusal)")
                return (nil, notes.joined(separator: "; "))
            }
        }
        let source = AvailabilitySource(topic: chosen.topic, field: field, availableValue: chosen.on, unavailableValue: chosen.off)
        return (source, notes.isEmpty ? nil : notes.joined(separator: "; "))
    }
}

extension JSONValue {
    /// This object with `other`'s members added, `other` winning on equal keys.
    func merging(_ other: JSONValue) -> JSONValue {
        guard case .object(var members) = self, case .object(let extra) = other else { return other }
        var indexByKey: [String: Int] = [:]
        for (index, member) in members.enumerated() where indexByKey[member.key] == nil { indexByKey[member.key] = index }
        for member in extra {
            if let index = indexByKey[member.key] {
                members[index] = member
            } else {
                indexByKey[member.key] = members.count
                members.append(member)
            }
        }
        return .object(members)
    }
}

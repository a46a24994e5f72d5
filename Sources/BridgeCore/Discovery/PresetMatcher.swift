/// A device preset whose topics cover a discovered toggle's, so the config says
/// `tasmota: kitchen` instead of six topics.
public struct PresetChoice: Sendable, Equatable {
    public var preset: DevicePreset
    public var name: String
    /// `channel:` as written (`l2`, `2`), or nil.
    public var channel: String?
    /// Tasmota's `full_topic:` when not the factory one.
    public var fullTopic: String?
    /// `on_value:` and `off_value:` when the device reports other words than the
    /// preset's (Tasmota's custom StateText1/StateText2), or nil.
    public var stateValues: StateValues?

    /// The words a device reports for on and off.
    public struct StateValues: Sendable, Equatable {
        public var on: String
        public var off: String
    }

    public init(preset: DevicePreset, name: String, channel: String? = nil, fullTopic: String? = nil,
                stateValues: StateValues? = nil) {
        self.preset = preset
        self.name = name
        self.channel = channel
        self.fullTopic = fullTopic
        self.stateValues = stateValues
    }
}

enum PresetMatcher {
    /// The preset whose expansion reads every state topic the toggle was announced
    /// with, on the same availability topic and values, and sends the same command
    /// (a firmware's own announcement may point to a preset whose command differs:
    /// the preset speaks the firmware's convention). Nil when none fits.
    static func preset(for toggle: DiscoveredToggle, zigbee2mqttBase: String) -> PresetChoice? {
        let wiring = toggle.wiring
        guard !wiring.optimistic, let availability = wiring.availability else { return nil }
        let hinted = toggle.presetHint.map { [($0, true)] } ?? []
        let shaped = candidates(commandTopic: wiring.command.topic, payloadOn: wiring.command.payloadOn, base: zigbee2mqttBase).map { ($0, false) }
        for (choice, trustsPresetCommand) in hinted + shaped {
            guard let expansion = expand(choice, base: zigbee2mqttBase), expansion.device == wiring.device else { continue }
            let commandFits = expansion.command == wiring.command || trustsPresetCommand
            if commandFits, same(expansion.availability, availability), reads(expansion.stateSources, everyOf: wiring.stateSources) {
                return choice
            }
        }
        return nil
    }

    static func expand(_ choice: PresetChoice, base: String) -> DevicePreset.Expansion? {
        let channel: DevicePreset.Channel
        if let text = choice.channel {
            channel = !choice.preset.isZigbee2MQTT ? Int64(text).map { .index($0) } ?? .name(text) : .name(text)
        } else {
            channel = .none
        }
        guard choice.preset.nameProblem(choice.name) == nil, choice.preset.channelProblem(channel) == nil else { return nil }
        var options = DevicePreset.Options()
        options.zigbee2mqttBaseTopic = base
        if let fullTopic = choice.fullTopic {
            guard [.tasmota, .tasmotaShutter].contains(choice.preset), DevicePreset.tasmotaFullTopicProblem(fullTopic) == nil else { return nil }
            options.tasmotaFullTopic = fullTopic
        }
        var expansion = choice.preset.expand(name: choice.name, channel: channel, options: options)
        if let values = choice.stateValues {
            // As the config's on_value/off_value do: every source of the preset reads them.
            for index in expansion.stateSources.indices {
                expansion.stateSources[index].onValue = values.on
                expansion.stateSources[index].offValue = values.off
            }
        }
        // An announced name or channel can make a topic the bridge cannot use (a wildcard):
        // then the explicit topics are written, which the toggle's own check covers.
        let topics = expansion.stateSources.map(\.topic) + [expansion.command.topic, expansion.availability.topic]
            + [expansion.gatewayAvailability?.topic, expansion.stateQuery?.topic].compactMap { $0 }
        return topics.allSatisfy { MQTTTopicRules.problem(with: $0) == nil } ? expansion : nil
    }

    private static func same(_ lhs: AvailabilitySource, _ rhs: AvailabilitySource) -> Bool {
        lhs.topic == rhs.topic && lhs.availableValue.lowercased() == rhs.availableValue.lowercased()
            && (lhs.unavailableValue ?? "").lowercased() == (rhs.unavailableValue ?? "").lowercased()
    }

    /// Every announced state source is read by the preset: same topic and values, and
    /// the same field (or the raw payload, which a preset field still reads when not JSON).
    private static func reads(_ preset: [StateSource], everyOf announced: [StateSource]) -> Bool {
        announced.allSatisfy { source in
            preset.contains { candidate in
                candidate.topic == source.topic && (source.field == nil || candidate.field == source.field)
                    && candidate.onValue.lowercased() == source.onValue.lowercased()
                    && candidate.offValue.lowercased() == source.offValue.lowercased()
            }
        }
    }

    /// The presets and names a command topic could come from.
    private static func candidates(commandTopic topic: String, payloadOn: String, base: String) -> [PresetChoice] {
        var found: [PresetChoice] = []
        if topic.hasPrefix(base + "/"), topic.hasSuffix("/set"), let field = singleField(payloadOn) {
            let name = String(topic.dropFirst(base.count + 1).dropLast(4))
            let channel = field.hasPrefix("state_") ? String(field.dropFirst(6)) : nil
            found.append(PresetChoice(preset: .zigbee2mqtt, name: name, channel: channel))
        }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if levels.count == 3, levels[0] == "cmnd", levels[2].hasPrefix("POWER") {
            let relay = String(levels[2].dropFirst(5))
            found.append(PresetChoice(preset: .tasmota, name: levels[1], channel: relay.isEmpty ? nil : relay))
        }
        if levels.count == 5, levels[0] == "shellies", levels[2] == "relay", levels[4] == "command" {
            found.append(PresetChoice(preset: .shelly, name: levels[1], channel: levels[3] == "0" ? nil : levels[3]))
        }
        if levels.count >= 3, levels[levels.count - 2] == "command", let last = levels.last, last.hasPrefix("switch:") {
            let index = String(last.dropFirst(7))
            found.append(PresetChoice(preset: .shellyPlus, name: levels.dropLast(2).joined(separator: "/"), channel: index == "0" ? nil : index))
        }
        let esphome: [String: DevicePreset] = [
            "switch": .esphome, "light": .esphomeLight, "fan": .esphomeFan, "cover": .esphomeCover, "lock": .esphomeLock,
        ]
        if levels.count >= 4, levels.last == "command", let preset = esphome[levels[levels.count - 3]] {
            let node = levels.dropLast(3).joined(separator: "/")
            found.append(PresetChoice(preset: preset, name: "\(node)/\(levels[levels.count - 2])"))
        }
        return found
    }

    /// The key of a one-member JSON object payload.
    private static func singleField(_ payload: String) -> String? {
        guard let members = (try? JSONValue.parse(payload))?.objectMembers, members.count == 1 else { return nil }
        return members[0].key
    }
}

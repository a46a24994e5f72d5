/// The device preset of an action (`zigbee2mqtt:`, `tasmota:`, ...) and its
/// `channel:`.
extension ConfigDecoder {
    struct ChosenPreset {
        var preset: DevicePreset
        var expansion: DevicePreset.Expansion
    }

    mutating func decodePreset(_ section: ConfigSection, zigbee2mqttBaseTopic: String) -> ChosenPreset? {
        let given = section.entries.compactMap { entry in DevicePreset(rawValue: entry.keyText).map { (entry, $0) } }
        for (entry, _) in given.dropFirst() {
            error("an action can use only one device preset, and \(section.name) also has '\(given[0].0.keyText)'",
                  at: entry.key.location)
        }
        guard let (entry, preset) = given.first else {
            for key in ["channel", "full_topic"] {
                guard let entry = section.entry(key) else { continue }
                error("'\(key)' \(section.place) needs a device preset (\(ConfigKeys.presets.joined(separator: ", ")))",
                      at: entry.key.location)
            }
            return nil
        }
        guard let name = entry.value.scalar?.textValue, !name.isEmpty else {
            error("'\(entry.keyText)' \(section.place) must name the device, not \(entry.value.typeDescription)", at: entry.value.location)
            return nil
        }
        if let problem = preset.nameProblem(name) {
            error("'\(entry.keyText)' \(section.place) \(problem)", at: entry.value.location)
            return nil
        }
        guard let channel = decodeChannel(section, preset: preset) else { return nil }
        var options = DevicePreset.Options(zigbee2mqttBaseTopic: zigbee2mqttBaseTopic)
        guard decodeFullTopic(section, preset: preset, into: &options) else { return nil }
        let expansion = preset.expand(name: name, channel: channel, options: options)
        for topic in Self.topics(of: expansion) {
            guard checkTopic(topic, what: "the topic '\(topic)' made by '\(entry.keyText): \(name)' \(section.place)",
                             at: entry.value.location) else { return nil }
        }
        return ChosenPreset(preset: preset, expansion: expansion)
    }

    private mutating func decodeChannel(_ section: ConfigSection, preset: DevicePreset) -> DevicePreset.Channel? {
        guard let node = section.value("channel") else { return DevicePreset.Channel.none }
        let channel: DevicePreset.Channel
        switch node.scalar?.value {
        case .int(let index)?: channel = .index(index)
        case .string(let text)?: channel = .name(text)
        default: channel = .name("")
        }
        if let problem = preset.channelProblem(channel) {
            error("'channel' \(section.place) \(problem)", at: node.location)
            return nil
        }
        return channel
    }

    /// `full_topic:` (Tasmota's FullTopic, when changed on the device); false on error.
    private mutating func decodeFullTopic(_ section: ConfigSection, preset: DevicePreset, into options: inout DevicePreset.Options) -> Bool {
        guard let node = section.value("full_topic") else { return true }
        guard preset == .tasmota || preset == .tasmotaShutter else {
            error("'full_topic' \(section.place) only applies to the tasmota and tasmota_shutter presets", at: node.location)
            return false
        }
        guard let text = node.scalar?.textValue, !text.isEmpty else {
            error("'full_topic' \(section.place) must be Tasmota's FullTopic, e.g. '%topic%/%prefix%/'", at: node.location)
            return false
        }
        if let problem = DevicePreset.tasmotaFullTopicProblem(text) {
            error("'full_topic' \(section.place) \(problem)", at: node.location)
            return false
        }
        options.tasmotaFullTopic = text
        return true
    }

    private static func topics(of expansion: DevicePreset.Expansion) -> [String] {
        expansion.stateSources.map(\.topic) + [expansion.command.topic, expansion.availability.topic]
            + (expansion.command.offTopic.map { [$0] } ?? [])
            + (expansion.gatewayAvailability.map { [$0.topic] } ?? []) + (expansion.stateQuery.map { [$0.topic] } ?? [])
    }
}

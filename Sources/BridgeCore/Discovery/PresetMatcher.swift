/// A device preset whose topics equal a discovered toggle's, so the config says
/// `tasmota: kitchen` instead of six topics.
public struct PresetChoice: Sendable, Equatable {
    public var preset: DevicePreset
    public var name: String
    /// `channel:` as written (`l2`, `2`), or nil.
    public var channel: String?
}

enum PresetMatcher {
    /// The preset that expands to exactly `wiring`'s state, command and availability, or nil.
    static func preset(for wiring: ToggleWiring, zigbee2mqttBase: String) -> PresetChoice? {
        guard !wiring.optimistic, let availability = wiring.availability else { return nil }
        for candidate in candidates(commandTopic: wiring.command.topic, payloadOn: wiring.command.payloadOn, base: zigbee2mqttBase) {
            guard candidate.preset.nameProblem(candidate.name) == nil,
                  candidate.preset.channelProblem(candidate.parsedChannel) == nil else { continue }
            let expansion = candidate.preset.expand(name: candidate.name, channel: candidate.parsedChannel, zigbee2mqttBaseTopic: zigbee2mqttBase)
            if expansion.command == wiring.command, expansion.availability == availability,
               expansion.stateSources == wiring.stateSources {
                return PresetChoice(preset: candidate.preset, name: candidate.name, channel: candidate.channel)
            }
        }
        return nil
    }

    private struct Candidate {
        var preset: DevicePreset
        var name: String
        var channel: String?
        var parsedChannel: DevicePreset.Channel {
            guard let channel else { return .none }
            if preset != .zigbee2mqtt, let index = Int64(channel) { return .index(index) }
            return .name(channel)
        }
    }

    /// The presets and names a command topic could come from.
    private static func candidates(commandTopic topic: String, payloadOn: String, base: String) -> [Candidate] {
        var found: [Candidate] = []
        if topic.hasPrefix(base + "/"), topic.hasSuffix("/set"), let field = singleField(payloadOn) {
            let name = String(topic.dropFirst(base.count + 1).dropLast(4))
            let channel = field.hasPrefix("state_") ? String(field.dropFirst(6)) : nil
            found.append(Candidate(preset: .zigbee2mqtt, name: name, channel: channel))
        }
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if levels.count == 3, levels[0] == "cmnd", levels[2].hasPrefix("POWER") {
            let relay = String(levels[2].dropFirst(5))
            found.append(Candidate(preset: .tasmota, name: levels[1], channel: relay.isEmpty ? nil : relay))
        }
        if levels.count == 5, levels[0] == "shellies", levels[2] == "relay", levels[4] == "command" {
            found.append(Candidate(preset: .shelly, name: levels[1], channel: levels[3] == "0" ? nil : levels[3]))
        }
        if levels.count >= 3, levels[levels.count - 2] == "command", levels.last!.hasPrefix("switch:") {
            let index = String(levels.last!.dropFirst(7))
            found.append(Candidate(preset: .shellyPlus, name: levels.dropLast(2).joined(separator: "/"), channel: index == "0" ? nil : index))
        }
        if levels.count >= 4, levels[levels.count - 3] == "switch", levels.last == "command" {
            let node = levels.dropLast(3).joined(separator: "/")
            found.append(Candidate(preset: .esphome, name: "\(node)/\(levels[levels.count - 2])", channel: nil))
        }
        return found
    }

    /// The key of a one-member JSON object payload.
    private static func singleField(_ payload: String) -> String? {
        guard let members = (try? JSONValue.parse(payload))?.objectMembers, members.count == 1 else { return nil }
        return members[0].key
    }
}

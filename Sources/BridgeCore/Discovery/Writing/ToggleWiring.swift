/// The topics and payloads of a toggle, spelled out as config keys.
public struct ToggleWiring: Sendable, Equatable {
    public var stateSources: [StateSource]
    public var command: ToggleCommand
    public var availability: AvailabilitySource?
    /// A second availability topic that must say online too (`availability_mode: all`):
    /// written as the second of `availability_topic`'s list.
    public var alsoAvailability: AvailabilitySource? = nil
    /// The device reports nothing: the state is assumed from the command.
    public var optimistic: Bool
    /// A switch, a cover (on = open) or a lock (on = locked).
    public var device: TileDevice

    public init(stateSources: [StateSource], command: ToggleCommand, availability: AvailabilitySource?, optimistic: Bool = false,
                device: TileDevice = .plainSwitch) {
        self.stateSources = stateSources
        self.command = command
        self.availability = availability
        self.optimistic = optimistic
        self.device = device
    }

    /// The source of the on and off words (a cover's or lock's may have none: a position only).
    var wordSource: StateSource? {
        stateSources.first { !$0.isPosition && !($0.onValue.isEmpty && $0.offValue.isEmpty) }
    }

    /// Why the config `discover` would write for it is one `check` refuses or reads
    /// otherwise than announced (a topic the bridge cannot use, an empty value, a
    /// field name holding a dot), or nil when it is written faithfully.
    public var configProblem: String? {
        topicProblem ?? valueProblem ?? fieldProblem
    }

    /// An empty value: `check` refuses an empty `on_value`, `off_value`,
    /// `available_value` or `unavailable_value`, and an empty command payload
    /// (`"pl_on":""`) switches nothing (to a broker, an empty retained message deletes).
    var valueProblem: String? {
        // Two topics (Tasmota's ShutterOpen1 / ShutterClose1) take empty commands: written only as their preset.
        var values = command.offTopic == nil ? [("payload_on", command.payloadOn), ("payload_off", command.payloadOff)] : []
        for source in stateSources where !source.isPosition && !(source.onValue.isEmpty && source.offValue.isEmpty) {
            values += [("on_value", source.onValue), ("off_value", source.offValue)]
        }
        if let availability {
            values.append(("available_value", availability.availableValue))
            if let unavailable = availability.unavailableValue { values.append(("unavailable_value", unavailable)) }
        }
        guard let empty = values.first(where: { $0.1.isEmpty }) else { return nil }
        return "its \(empty.0) would be empty (the announcement gives an empty value)"
    }

    /// A field the config cannot spell: `state_field: a.b` reads `a` then `b`, so a
    /// JSON key holding a dot (`value_json['a.b']`) or an empty key cannot be written.
    var fieldProblem: String? {
        let fields = [("state_field", stateSources.compactMap(\.field)), ("availability_field", availability?.field.map { [$0] } ?? [])]
        for (key, paths) in fields {
            for path in paths {
                if let name = path.first(where: { $0.isEmpty || $0.contains(".") }) {
                    return "its \(key) names the JSON key '\(name)', which a dotted config path cannot spell"
                }
            }
        }
        return nil
    }

    /// Why one of its topics cannot be used by the bridge (a wildcard, NUL, empty,
    /// too long: an announcement can say anything), or nil when all can.
    public var topicProblem: String? {
        let topics = [("state topic", stateSources.map(\.topic)), ("command topic", [command.topic]),
                      ("availability topic", [availability, alsoAvailability].compactMap { $0?.topic })]
        for (role, list) in topics {
            for topic in list {
                if let problem = MQTTTopicRules.problem(with: topic) { return "its \(role) \(problem)" }
            }
        }
        return nil
    }
}

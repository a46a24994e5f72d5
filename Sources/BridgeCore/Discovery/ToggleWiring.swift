/// The topics and payloads of a toggle, spelled out as config keys.
public struct ToggleWiring: Sendable, Equatable {
    public var stateSources: [StateSource]
    public var command: ToggleCommand
    public var availability: AvailabilitySource?
    /// The device reports nothing: the state is assumed from the command.
    public var optimistic: Bool

    public init(stateSources: [StateSource], command: ToggleCommand, availability: AvailabilitySource?, optimistic: Bool = false) {
        self.stateSources = stateSources
        self.command = command
        self.availability = availability
        self.optimistic = optimistic
    }

    /// Why one of its topics cannot be used by the bridge (a wildcard, NUL, empty,
    /// too long: an announcement can say anything), or nil when all can.
    public var topicProblem: String? {
        let topics = [("state topic", stateSources.map(\.topic)), ("command topic", [command.topic]),
                      ("availability topic", availability.map { [$0.topic] } ?? [])]
        for (role, list) in topics {
            for topic in list {
                if let problem = MQTTTopicRules.problem(with: topic) { return "its \(role) \(problem)" }
            }
        }
        return nil
    }
}

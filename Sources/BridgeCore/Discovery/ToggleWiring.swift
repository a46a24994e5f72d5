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
}

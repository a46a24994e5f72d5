/// What the bridge knows about one action's device right now.
public struct ActionState: Sendable, Equatable {
    /// The device's on/off state (toggles); nil until it has said.
    public var isOn: Bool?
    /// Whether the device is reachable; nil until it has said (treated as reachable).
    public var isAvailable: Bool?
    /// A button's highlight from its active topic.
    public var isActive: Bool = false
    /// A toggle press waiting for the device to confirm it.
    public var pendingPress: PendingPress?

    public init() {}

    /// What the tile shows: on only when known on and not known unavailable.
    public var publishedOn: Bool { isOn == true && isAvailable != false }
}

/// A toggle press that went out as a command and waits for the device.
public struct PendingPress: Sendable, Equatable {
    public var eventId: String
    public var requestedOn: Bool
    /// The board clock when the command went out.
    public var commandSentAtMs: Int64
}

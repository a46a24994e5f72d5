/// What the bridge knows about one action's device right now.
public struct ActionState: Sendable, Equatable {
    /// The device's on/off state (toggles); nil until it has said.
    public var isOn: Bool?
    /// Whether the device is reachable; nil until it has said (treated as reachable).
    public var isAvailable: Bool?
    /// Whether the gateway the device talks through runs (zigbee2mqtt's
    /// `bridge/state`); nil until it has said.
    public var isGatewayAvailable: Bool?
    /// A button's highlight from its active topic.
    public var isActive: Bool = false
    /// A toggle press waiting for the device to confirm it.
    public var pendingPress: PendingPress?

    public init() {}

    /// True when the device or its gateway says it cannot be reached.
    public var isUnreachable: Bool { isAvailable == false || isGatewayAvailable == false }

    /// What the tile shows: on only when known on and not known unavailable.
    public var publishedOn: Bool { isOn == true && !isUnreachable }
}

/// A toggle press that went out as a command and waits for the device.
public struct PendingPress: Sendable, Equatable {
    public var eventId: String
    public var requestedOn: Bool
    /// The board clock when the command went out.
    public var commandSentAtMs: Int64
}

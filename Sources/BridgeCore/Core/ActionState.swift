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
    /// Covers and locks: where the device last said it is heading.
    public var motion: Motion = .none
    /// Covers: the last position reported, in percent (0 closed).
    public var positionPercent: Int?
    /// Covers: the device says its motion in words (opening, stop, Direction):
    /// then a changed position is not read as a motion (Shelly gen1 sends its
    /// last position after `stop`).
    public var saysMotionInWords = false
    /// Covers and locks: the last reading beyond on/off (what `watch` and the
    /// status page show as "opening", "jammed", ...); nil after plain on/off.
    public var lastReading: MessageVerdict?

    public init() {}

    /// True when the device or its gateway says it cannot be reached.
    public var isUnreachable: Bool { isAvailable == false || isGatewayAvailable == false }

    /// What a switch's or lock's tile shows: on only when known on and not
    /// known unavailable.
    public var publishedOn: Bool { isOn == true && !isUnreachable }

    /// Whether the device is known to be in `on` (a cover open, a lock
    /// locked), reachable, not reporting that it is leaving it, and not jammed: what a
    /// scene's target must be for the scene to be active.
    public func holds(on: Bool) -> Bool {
        guard isOn == on, !isUnreachable, motion != Motion.toward(on: !on) else { return false }
        // A jammed or half-thrown bolt is neither locked nor unlocked.
        if case .reading(let reading)? = lastReading, reading == .jammed || reading == .notFullyLocked { return false }
        return true
    }

    /// What the tile of `device` shows. A cover shows closed (off) only when it
    /// reported closed and is reachable: unknown, unreachable, moving are open.
    public func shownOn(_ device: TileDevice) -> Bool {
        switch device {
        case .cover: return isOn != false || isUnreachable
        case .plainSwitch, .lock: return publishedOn
        }
    }
}

/// A toggle press that went out as a command and waits for the device.
public struct PendingPress: Sendable, Equatable {
    public var eventId: String
    public var requestedOn: Bool
    /// The board clock when the command went out.
    public var commandSentAtMs: Int64
    /// The confirm timeout passed while the device moved toward the asked
    /// state: the press now waits for the end of its travel time.
    public var isTravelling = false
}

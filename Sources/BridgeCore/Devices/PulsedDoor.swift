/// A door on a pulsed relay, told apart by the relay's command topic (its
/// bytes), whatever payload pulses it: a second pulse to the relay moves the
/// door whichever tile, spelling (`ON`, `on`) or widget sends it. Its hold is
/// keyed by this, not by the tile, so the hold belongs to the relay: a reload
/// that respells the payload, removes the tile or adds it back (renamed, or in
/// another widget) inside a travel time keeps it, and every tile pulsing one
/// topic is one door, held for the longest travel time among them.
public struct PulsedDoor: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The pulse's topic.
    public let topic: UTF8Key

    public init(_ pulse: MQTTMessageSpec) {
        topic = UTF8Key(pulse.topic)
    }

    public static func < (lhs: PulsedDoor, rhs: PulsedDoor) -> Bool {
        lhs.topic < rhs.topic
    }

    public var description: String { topic.text }
}

/// A pulsed door inside a travel time: of its last pulse, or of the bridge's
/// start (a pulse sent before a restart may still be moving it).
/// `BridgeTimer.pulseHold` ends it.
public struct PulseHold: Sendable, Equatable {
    /// The board clock of the pulse (for the log); nil for the start's or a reconnect's hold.
    public var pulsedAtMs: Int64?
    /// The hold of a reconnect: the door was pulsed on the MQTT link that was lost.
    public var isSinceReconnect = false

    /// Whether the hold is the start's (or a reconnect's), not a pulse's.
    public var isSinceStart: Bool { pulsedAtMs == nil }
}

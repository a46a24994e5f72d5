/// A door on a pulsed relay, told apart by its pulse: the topic and payload it
/// is pulsed with, as bytes. Its hold is keyed by this, not by the tile, so the
/// hold belongs to the door: a reload that removes the tile and one that adds it
/// back (renamed, or in another widget) inside a travel time keep it, and two
/// tiles pulsing the same relay the same way are one door.
public struct PulsedDoor: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The pulse's topic.
    public let topic: UTF8Key
    /// The pulse's payload.
    public let payload: UTF8Key

    public init(_ pulse: MQTTMessageSpec) {
        topic = UTF8Key(pulse.topic)
        payload = UTF8Key(pulse.payload)
    }

    public static func < (lhs: PulsedDoor, rhs: PulsedDoor) -> Bool {
        (lhs.topic, lhs.payload) < (rhs.topic, rhs.payload)
    }

    public var description: String { "\(topic.text) \(payload.text)" }
}

/// A pulsed door inside a travel time: of its last pulse, or of the bridge's
/// start (a pulse sent before a restart may still be moving it).
/// `BridgeTimer.pulseHold` ends it.
public struct PulseHold: Sendable, Equatable {
    /// The board clock of the pulse (for the log); nil for the start's hold.
    public var pulsedAtMs: Int64?

    /// Whether the hold is the start's, not a pulse's.
    public var isSinceStart: Bool { pulsedAtMs == nil }
}

/// What a cover's or lock's state message says beyond plain on/off (open/
/// closed and locked/unlocked are `.on`/`.off` verdicts): motion, a position,
/// a fault. The one table of what each reading changes.
public enum DeviceReading: String, Sendable, Equatable, CaseIterable {
    /// Moving toward open: already not closed.
    case opening
    /// Moving toward closed: still not closed.
    case closing
    /// Stopped part-way: not closed.
    case stopped
    /// Motion ended, openness not said (Shelly gen1 `stop`, Tasmota Direction 0, zigbee2mqtt `moving: STOP`).
    case motionStopped = "motion stopped"
    /// Moving up / toward open (Tasmota Direction 1): not closed while it
    /// moves, even from a position 0 said beside it.
    case movingTowardOpen = "moving up"
    /// Moving down / toward closed (Tasmota Direction -1): not closed yet.
    case movingTowardClosed = "moving down"
    /// Moving, which way not said (zigbee2mqtt Sonoff `moving: forward`/`reverse`,
    /// Livolo `moving: true`): not closed while it moves.
    case moving
    /// Shelly gen2 calibrating: moving, not closed.
    case calibrating
    /// Bolt moving toward locked: not locked yet.
    case locking
    /// Bolt moving toward unlocked: not locked.
    case unlocking
    /// The bolt is stuck: not locked, logged once as a warning.
    case jammed
    /// zigbee2mqtt `not_fully_locked`: not locked.
    case notFullyLocked = "not fully locked"
    /// The latch is pulled back, the door free (Home Assistant's lock `open`,
    /// Nuki Hub's `open` / `unlatched`): not locked.
    case unlatched
    /// The latch is being pulled (Home Assistant's `opening`, Nuki Hub's `unlatching`): not locked.
    case unlatching
    /// The device says it does not know (ESPHome `unknown`): not known.
    case unknown
    /// Tasmota `Blink ON`/`Blink OFF`: a blink started or ended; the relay's state is not said.
    case blinking

    /// What the reading makes of `ActionState.isOn`.
    enum Openness: Equatable {
        case on, off, unknown
    }

    /// The new `isOn`: nil leaves it as it was.
    var openness: Openness? {
        switch self {
        case .opening, .closing, .stopped, .moving, .calibrating, .movingTowardOpen, .movingTowardClosed: return .on
        case .locking, .unlocking, .jammed, .notFullyLocked, .unlatched, .unlatching: return .off
        case .unknown: return .unknown
        case .motionStopped, .blinking: return nil
        }
    }

    /// A cover that says it does not move (stopped, motion stopped).
    var isAtRest: Bool { self == .stopped || self == .motionStopped }

    /// The new motion: nil leaves it as it was.
    var motion: Motion? {
        switch self {
        case .opening, .movingTowardOpen, .locking: return .towardOn
        case .closing, .movingTowardClosed, .unlocking, .unlatching: return .towardOff
        case .stopped, .motionStopped, .jammed, .notFullyLocked, .unknown, .calibrating, .unlatched: return Motion.none
        case .moving, .blinking: return nil
        }
    }
}

/// Where a cover or lock is heading, as it last said.
public enum Motion: Sendable, Equatable {
    case none
    /// Toward on: opening, locking.
    case towardOn
    /// Toward off: closing, unlocking.
    case towardOff

    /// The motion toward `on`.
    static func toward(on: Bool) -> Motion { on ? .towardOn : .towardOff }
}

/// One extra word of a cover's or lock's state source and what it means.
public struct StateMeaning: Sendable, Equatable {
    public var value: String
    public var reading: DeviceReading

    public init(_ value: String, _ reading: DeviceReading) {
        self.value = value
        self.reading = reading
    }
}

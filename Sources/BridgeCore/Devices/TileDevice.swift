/// What a toggle drives, which decides what its `on` means: the config's
/// `device:` key, and the one "device" the safety rules read. Separate from
/// `DevicePreset` (which firmware's topics and payloads) and `AnnouncedKind`
/// (what discovery guesses a thing is, for its icon only).
///
/// - `switch`: on is on (lights, plugs, relays).
/// - `cover` (garage doors, gates, blinds, shutters, awnings): on = open = not
///   fully closed. Opening, closing and stopped part-way are all on; off only
///   when the device reports closed (or position 0), so the tile never says
///   closed while the door is not.
/// - `lock`: on = locked, and only when the lock reports fully locked; locking,
///   unlocking, jammed, not fully locked and unknown are all not locked.
public enum TileDevice: String, Sendable, Equatable, CaseIterable {
    case plainSwitch = "switch"
    case cover
    case lock

    /// How long a command may take to reach its end state when the action sets
    /// no `travel_time_ms`: a garage door travels 10-25 s, a lock bolt a few.
    public var defaultTravelTimeMs: Int64 {
        switch self {
        case .plainSwitch: return 0
        case .cover: return 30_000
        case .lock: return 10_000
        }
    }

    /// The words a custom action of this device reads and sends when its keys
    /// do not say otherwise (Home Assistant's MQTT cover and lock defaults).
    var defaultWords: (on: String, off: String, payloadOn: String, payloadOff: String) {
        switch self {
        case .plainSwitch: return ("ON", "OFF", "ON", "OFF")
        case .cover: return ("open", "closed", "OPEN", "CLOSE")
        case .lock: return ("LOCKED", "UNLOCKED", "LOCK", "UNLOCK")
        }
    }

    /// The words for the two states in logs and `watch` (open/closed, locked/unlocked).
    public func word(on: Bool) -> String {
        switch self {
        case .plainSwitch: return on ? "on" : "off"
        case .cover: return on ? "open" : "closed"
        case .lock: return on ? "locked" : "unlocked"
        }
    }
}

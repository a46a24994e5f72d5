/// What one MQTT message says to one listener of a topic: the reading the
/// bridge acts on, and the words `watch` and the log use to explain it.
public enum MessageVerdict: Sendable, Equatable {
    case on
    case off
    /// Off, because the device protected itself (Shelly `overpower`).
    case protectiveOff(String)
    /// A cover's or lock's reading beyond on/off (opening, jammed, ...).
    case reading(DeviceReading)
    /// A cover's position in percent (0 closed); nil: not known (Shelly
    /// gen1 `-1`, not calibrated).
    case position(Int?)
    case available
    case unavailable
    /// An empty (cleared) availability message: reachability unknown again.
    case availabilityCleared
    case active(Bool)
    /// A JSON payload without the listened field: not about this listener.
    case fieldAbsent(field: String, fieldsPresent: [String])
    /// A payload the config does not know how to read, and why.
    case notUnderstood(String)

    /// Whether the message made sense to this listener.
    public var isUnderstood: Bool {
        if case .notUnderstood = self { return false }
        return true
    }

    /// A short word for people and scripts.
    public var word: String {
        switch self {
        case .on: return "on"
        case .off, .protectiveOff: return "off"
        case .available: return "available"
        case .unavailable: return "unavailable"
        case .availabilityCleared: return "availability unknown"
        case .active(let isActive): return isActive ? "active" : "inactive"
        case .reading(let reading): return reading.rawValue
        case .position(let percent?): return percent == 0 ? "closed (position 0 %)" : "at \(percent) %"
        case .position(nil): return "position unknown"
        case .fieldAbsent: return "no state in it"
        case .notUnderstood: return "not understood"
        }
    }

    /// Why, when there is more to say than the word.
    public var detail: String? {
        switch self {
        case .protectiveOff(let value): return "the device reports '\(value)': it switched itself off"
        case .availabilityCleared: return "empty message: the retained availability was cleared"
        case .fieldAbsent(let field, let present):
            return "no field '\(field)'" + (present.isEmpty ? "" : "; fields present: \(present.joined(separator: ", "))")
        case .notUnderstood(let reason): return reason
        case .reading(.jammed): return "the lock is jammed: not locked"
        case .position(nil): return "the device does not know its position (not calibrated)"
        case .on, .off, .available, .unavailable, .active, .reading, .position: return nil
        }
    }
}

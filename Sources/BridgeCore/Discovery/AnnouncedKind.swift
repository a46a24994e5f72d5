/// What a switchable thing is, as far as its announcement tells (a light, a plug,
/// a garage door...): it picks the icon of the tile `discover` writes, nothing else.
/// Separate from `TileDevice` (the config's `device:`: what `on` means, switch,
/// cover or lock, which the safety rules read) and from `DevicePreset` (a
/// firmware's topics and payloads): a fan and a plug are one `TileDevice`.
public enum AnnouncedKind: String, Sendable, Equatable, CaseIterable {
    case light, plug, fan, outlet, switchRelay = "switch"
    /// Covers: a garage door or gate, or blinds, shutters and the rest; locks.
    case garageDoor = "garage door", blinds, lock

    /// The SF Symbol the tile shows.
    public var icon: String {
        switch self {
        case .light: return "lightbulb.fill"
        case .plug, .outlet: return "powerplug.fill"
        case .fan: return "fan.fill"
        case .switchRelay: return "power"
        case .garageDoor: return "door.garage.closed"
        case .blinds: return "blinds.horizontal.closed"
        case .lock: return "lock.fill"
        }
    }

    /// A cover's kind from its name, description or Home Assistant device class:
    /// a garage door or gate, else blinds.
    public static func cover(from texts: [String]) -> AnnouncedKind {
        let words = texts.joined(separator: " ").lowercased()
        return ["garage", "gate", "door"].contains(where: words.contains) ? .garageDoor : .blinds
    }

    /// The kind a name or description suggests (`fan`, `plug`, `lamp`, ...), else `fallback`.
    public static func guess(from texts: [String], fallback: AnnouncedKind) -> AnnouncedKind {
        let words = texts.joined(separator: " ").lowercased()
        if words.contains("fan") || words.contains("ventilat") { return .fan }
        if ["plug", "socket", "outlet"].contains(where: words.contains) { return .plug }
        if ["light", "lamp", "bulb", "led", "dimmer"].contains(where: words.contains) { return .light }
        return fallback
    }
}

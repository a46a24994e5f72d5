/// What a switchable thing is, as far as its announcement tells; picks the icon.
public enum DeviceKind: String, Sendable, Equatable {
    case light, plug, fan, outlet, switchRelay = "switch"

    /// The SF Symbol the tile shows.
    public var icon: String {
        switch self {
        case .light: return "lightbulb.fill"
        case .plug, .outlet: return "powerplug.fill"
        case .fan: return "fan.fill"
        case .switchRelay: return "power"
        }
    }

    /// The kind a name or description suggests (`fan`, `plug`, `lamp`, ...), else `fallback`.
    public static func guess(from texts: [String], fallback: DeviceKind) -> DeviceKind {
        let words = texts.joined(separator: " ").lowercased()
        if words.contains("fan") || words.contains("ventilat") { return .fan }
        if ["plug", "socket", "outlet"].contains(where: words.contains) { return .plug }
        if ["light", "lamp", "bulb", "led", "dimmer"].contains(where: words.contains) { return .light }
        return fallback
    }
}

/// Which announcement a discovered thing came from.
public enum DiscoverySource: String, Sendable, Equatable, Comparable, CaseIterable {
    case zigbee2mqtt
    case tasmota
    case shelly
    case homeAssistant = "home-assistant"

    /// The firmware's own announcement wins over a Home Assistant copy of it.
    public var isFirmwareOwn: Bool { self != .homeAssistant }

    /// The order of the written file: the firmwares' own sources, then Home Assistant.
    var rank: Int {
        switch self {
        case .zigbee2mqtt: return 0
        case .tasmota: return 1
        case .shelly: return 2
        case .homeAssistant: return 3
        }
    }

    public static func < (lhs: DiscoverySource, rhs: DiscoverySource) -> Bool {
        lhs.rank < rhs.rank
    }
}

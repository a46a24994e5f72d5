/// Which announcement a discovered thing came from.
public enum DiscoverySource: String, Sendable, Equatable, Comparable, CaseIterable {
    case zigbee2mqtt
    case tasmota
    case shelly
    case homeAssistant = "home-assistant"

    /// The firmware's own announcement wins over a Home Assistant copy of it.
    public var isFirmwareOwn: Bool { self != .homeAssistant }

    public static func < (lhs: DiscoverySource, rhs: DiscoverySource) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

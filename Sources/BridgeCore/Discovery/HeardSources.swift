/// Which sources answered, for the header comment and the "nothing found" message.
public struct HeardSources: Sendable, Equatable {
    public var zigbee2mqttBases: Set<String> = []
    public var tasmota = 0
    public var homeAssistant = 0
    public var shelly: Set<String> = []

    public init() {}

    public var isEmpty: Bool { zigbee2mqttBases.isEmpty && tasmota == 0 && homeAssistant == 0 && shelly.isEmpty }
}

/// A harmless message discovery publishes so that firmwares announce themselves.
public struct DiscoveryRequest: Sendable, Equatable, Hashable {
    public var topic: String
    public var payload: String

    public init(topic: String, payload: String) {
        self.topic = topic
        self.payload = payload
    }
}

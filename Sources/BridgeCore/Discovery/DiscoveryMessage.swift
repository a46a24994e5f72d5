/// One message heard while discovering: a topic and its payload as the broker
/// delivered it. An empty payload on an announcement topic means the device was
/// removed (retained announcements are cleared that way).
public struct DiscoveryMessage: Sendable, Equatable {
    public var topic: String
    public var payload: [UInt8]

    public init(topic: String, payload: [UInt8]) {
        self.topic = topic
        self.payload = payload
    }

    public init(topic: String, text: String) {
        self.init(topic: topic, payload: Array(text.utf8))
    }
}

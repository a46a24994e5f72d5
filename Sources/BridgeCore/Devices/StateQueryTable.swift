/// The state queries of a config, as the messages that go to each device: one
/// sending per query topic, whatever the number of actions on the device.
///
/// - Actions whose queries are the same (two relays of one Tasmota ask `State`,
///   a light on two widgets) send it once.
/// - Reads of attributes to one topic (zigbee2mqtt's `{"state_l1":""}` and
///   `{"state_l2":""}`: a JSON object whose every value is empty) are one read of
///   all of them, `{"state_l1":"","state_l2":""}`: zigbee2mqtt reads every key of a
///   `get`, each on its endpoint (`lib/extension/publish.ts`: only a `set` uses a
///   converter once per endpoint).
/// - Other payloads to one topic go out each once, in the config's order.
///
/// Topics are compared as bytes. Linear in the queries' count and size.
public struct StateQueryTable: Sendable, Equatable {
    /// Each query topic's messages.
    private var messagesByTopic: [UTF8Key: [OutgoingMQTTMessage]] = [:]
    /// The query topics in the config's order.
    public private(set) var topics: [UTF8Key] = []

    /// The table of `queries`, in their order.
    public init(_ queries: some Sequence<MQTTMessageSpec>) {
        var grouped: [UTF8Key: [MQTTMessageSpec]] = [:]
        for query in queries {
            let topic = UTF8Key(query.topic)
            if grouped[topic] == nil { topics.append(topic) }
            grouped[topic, default: []].append(query)
        }
        for topic in topics { messagesByTopic[topic] = Self.messages(grouped[topic] ?? []) }
    }

    /// The table of every action's query in a config.
    public init(config: BridgeConfig) {
        self.init(config.allActions.compactMap(\.action.stateQuery))
    }

    /// What asks the device behind a query topic for its state (empty for a topic no query has).
    public func messages(to topic: String) -> [OutgoingMQTTMessage] {
        messagesByTopic[UTF8Key(topic)] ?? []
    }

    /// Every message, topic by topic in the config's order.
    public var allMessages: [OutgoingMQTTMessage] {
        topics.flatMap { messagesByTopic[$0] ?? [] }
    }

    /// One topic's queries: the attribute reads merged into the first one's place,
    /// other payloads once each (by bytes).
    static func messages(_ queries: [MQTTMessageSpec]) -> [OutgoingMQTTMessage] {
        var messages: [OutgoingMQTTMessage] = []
        var seenPayloads: Set<[UInt8]> = []
        var readIndex: Int?
        var readKeys: [String] = []
        var seenReadKeys: Set<UTF8Key> = []
        for query in queries {
            if let keys = attributeReadKeys(query.payload) {
                if readIndex == nil {
                    readIndex = messages.count
                    messages.append(OutgoingMQTTMessage(topic: query.topic, payload: "", qos: query.qos))
                }
                for key in keys where seenReadKeys.insert(UTF8Key(key)).inserted { readKeys.append(key) }
            } else if seenPayloads.insert(Array(query.payload.utf8)).inserted {
                messages.append(OutgoingMQTTMessage(topic: query.topic, payload: query.payload, qos: query.qos))
            }
        }
        if let readIndex {
            let members = readKeys.map { JSONMember($0, .string("")) }
            messages[readIndex].payload = Array(JSONValue.object(members).serialized().utf8)
        }
        return messages
    }

    /// The keys of a read of attributes (a non-empty JSON object whose every value
    /// is the empty string), or nil for any other payload.
    static func attributeReadKeys(_ payload: String) -> [String]? {
        guard payload.utf8.first == UInt8(ascii: "{"), let value = try? JSONValue.parse(payload),
              let members = value.objectMembers, !members.isEmpty,
              members.allSatisfy({ $0.value == .string("") }) else { return nil }
        return members.map(\.key)
    }
}

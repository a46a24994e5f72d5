/// Which actions listen to which topic, and in what role. Topics are keyed by
/// their UTF-8 bytes (`UTF8Key`), as the broker matches them: `café/state`
/// written NFC and NFD are two topics, each with its own listeners.
struct TopicIndex: Sendable {
    enum Role: Sendable, Equatable {
        case state(StateSource)
        case availability(AvailabilitySource)
        /// The gateway's own availability (zigbee2mqtt's `bridge/state`).
        case gatewayAvailability(AvailabilitySource)
        case active(ActiveSource)

        /// The field (dotted path) this role reads, nil for the raw payload.
        var field: [String]? {
            switch self {
            case .state(let source): return source.field
            case .availability(let source), .gatewayAvailability(let source): return source.field
            case .active(let source): return source.field
            }
        }
    }

    /// One action's ear on a topic. The listeners of one action on one topic
    /// are consecutive in `listeners(on:)` (each action's are added together):
    /// `MessageInterpreter.readings` reads them as one group.
    struct Listener: Sendable {
        var action: ActionKey
        var role: Role
        /// What the action drives: which of its readings is the safe one.
        var device: TileDevice = .plainSwitch
    }

    private var listenersByTopic: [UTF8Key: [Listener]] = [:]
    /// The distinct fields the listeners of each topic read: each is looked up
    /// once per message (`ParsedPayload`), not once per listener.
    private var fieldsByTopic: [UTF8Key: Set<[String]>] = [:]

    init(config: BridgeConfig) {
        for (slug, action) in config.allActions {
            let key = ActionKey(slug: slug, actionId: action.id)
            for source in action.stateSources { add(source.topic, Listener(action: key, role: .state(source), device: action.device)) }
            if let source = action.availability { add(source.topic, Listener(action: key, role: .availability(source))) }
            if let source = action.gatewayAvailability {
                add(source.topic, Listener(action: key, role: .gatewayAvailability(source)))
            }
            if let source = action.activeSource { add(source.topic, Listener(action: key, role: .active(source))) }
        }
    }

    /// Every subscribed topic, sorted by bytes.
    var topics: [String] { listenersByTopic.keys.sorted().map(\.text) }

    /// The listeners of exactly `topic` (byte for byte), nil when none.
    func listeners(on topic: String) -> [Listener]? { listeners(on: UTF8Key(topic)) }

    /// The same for a topic's key already made (a message makes one, `Bridge.mqttMessage`).
    func listeners(on topic: UTF8Key) -> [Listener]? { listenersByTopic[topic] }

    /// The distinct fields read on exactly `topic`.
    func fields(on topic: String) -> Set<[String]> { fields(on: UTF8Key(topic)) }

    /// The same for a topic's key already made.
    func fields(on topic: UTF8Key) -> Set<[String]> { fieldsByTopic[topic] ?? [] }

    private mutating func add(_ topic: String, _ listener: Listener) {
        let key = UTF8Key(topic)
        listenersByTopic[key, default: []].append(listener)
        if let field = listener.role.field { fieldsByTopic[key, default: []].insert(field) }
    }
}

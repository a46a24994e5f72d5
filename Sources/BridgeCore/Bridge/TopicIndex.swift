/// Which actions listen to which topic, and in what role.
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

    struct Listener: Sendable {
        var action: ActionKey
        var role: Role
    }

    private(set) var listeners: [String: [Listener]] = [:]
    /// The distinct fields the listeners of each topic read: each is looked up
    /// once per message (`ParsedPayload`), not once per listener.
    private(set) var fields: [String: Set<[String]>] = [:]

    init(config: BridgeConfig) {
        for (slug, action) in config.allActions {
            let key = ActionKey(slug: slug, actionId: action.id)
            for source in action.stateSources { add(source.topic, Listener(action: key, role: .state(source))) }
            if let source = action.availability { add(source.topic, Listener(action: key, role: .availability(source))) }
            if let source = action.gatewayAvailability {
                add(source.topic, Listener(action: key, role: .gatewayAvailability(source)))
            }
            if let source = action.activeSource { add(source.topic, Listener(action: key, role: .active(source))) }
        }
    }

    /// Every subscribed topic, sorted.
    var topics: [String] { listeners.keys.sorted() }

    private mutating func add(_ topic: String, _ listener: Listener) {
        listeners[topic, default: []].append(listener)
        if let field = listener.role.field { fields[topic, default: []].insert(field) }
    }
}

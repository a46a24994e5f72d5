/// Which actions listen to which topic, and in what role.
struct TopicIndex: Sendable {
    enum Role: Sendable, Equatable {
        case state(StateSource)
        case availability(AvailabilitySource)
        /// The gateway's own availability (zigbee2mqtt's `bridge/state`).
        case gatewayAvailability(AvailabilitySource)
        case active(ActiveSource)
    }

    struct Listener: Sendable {
        var action: ActionKey
        var role: Role
    }

    private(set) var listeners: [String: [Listener]] = [:]

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
    }
}

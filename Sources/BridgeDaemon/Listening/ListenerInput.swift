import MQTTShell

/// What `watch`'s and `discover`'s MQTT client hands their loop besides
/// messages (those go through the inbox's MQTT share, bounded in bytes).
enum ListenerInput: InboxInput {
    /// A connection event of the MQTT shell (never `.message`).
    case mqtt(MQTTEvent)
    /// SIGINT or SIGTERM.
    case stopRequested

    /// Connects, disconnects, refusals and a stop are never dropped: the loop
    /// would wait for a connection it had, or never stop.
    var isEssential: Bool {
        switch self {
        case .stopRequested, .mqtt(.connected), .mqtt(.disconnected), .mqtt(.fatal), .mqtt(.refused): return true
        case .mqtt(.dropped), .mqtt(.message), .mqtt(.payloadTooLarge): return false
        }
    }

    /// What a queued report costs: the texts it carries, at least 1.
    var inboxByteCount: Int {
        switch self {
        case .mqtt(.payloadTooLarge(let topic, _)): return max(1, topic.utf8.count)
        case .mqtt(.message(let message)): return max(1, message.topic.utf8.count + message.payload.count)
        default: return 1
        }
    }

    var isIdempotent: Bool {
        if case .stopRequested = self { return true }
        return false
    }

    func isSameRequest(as other: ListenerInput) -> Bool {
        switch (self, other) {
        case (.stopRequested, .stopRequested): return true
        default: return false
        }
    }
}

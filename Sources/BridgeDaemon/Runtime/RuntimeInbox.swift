import BridgeCore

/// The daemon's inbox: `BoundedInbox` of the runtime's inputs.
typealias RuntimeInbox = BoundedInbox<RuntimeInput>

extension RuntimeInput: InboxInput {
    /// What one queued data input costs: the text it carries (a stream event's id,
    /// type and data), at least 1.
    var inboxByteCount: Int {
        switch self {
        case .streamEvent(let event, _), .core(.streamEvent(let event)):
            return max(1, (event.id?.utf8.count ?? 0) + event.type.utf8.count + event.data.utf8.count)
        default:
            return 1
        }
    }

    /// A reload or stop already queued covers another one: stays bounded.
    var isIdempotent: Bool {
        switch self {
        case .stopRequested, .reloadRequested: return true
        default: return false
        }
    }

    func isSameRequest(as other: RuntimeInput) -> Bool {
        switch (self, other) {
        case (.stopRequested, .stopRequested), (.reloadRequested, .reloadRequested): return true
        default: return false
        }
    }

    /// Losing a stop or a PATCH answer would hang the daemon or its widget,
    /// losing a connect or disconnect would leave the core believing the wrong thing.
    var isEssential: Bool {
        switch self {
        // A record's outcome: its press's commands, or its answer, wait for it.
        case .stopRequested, .reloadRequested, .eventStreamConnected, .unsafeRecordFinished: return true
        case .core(.patchCompleted), .core(.mqttConnected), .core(.mqttDisconnected),
             .core(.eventStreamConnected), .core(.eventStreamDisconnected), .core(.eventStreamTokenRefused),
             .core(.configReloaded), .core(.timerFired):
            return true
        default: return false
        }
    }
}

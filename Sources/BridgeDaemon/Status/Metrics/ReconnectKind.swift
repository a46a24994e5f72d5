/// Which connection of the daemon came back after it was lost.
public enum ReconnectKind: String, Sendable, Equatable, CaseIterable {
    case mqtt
    case eventStream = "event_stream"
}

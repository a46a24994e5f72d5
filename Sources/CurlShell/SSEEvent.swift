/// One dispatched server-sent event.
public struct SSEEvent: Sendable, Equatable {
    /// The last event ID in effect when the event was dispatched (may be empty).
    public let id: String
    /// The `event:` field, or `message` when none was given.
    public let type: String
    /// The `data:` lines joined with LF.
    public let data: String

    public init(id: String, type: String, data: String) {
        self.id = id
        self.type = type
        self.data = data
    }
}

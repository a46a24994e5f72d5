/// One message as `watch` explains it to one action.
public struct WatchEvent: Sendable, Equatable {
    public var elapsedMs: Int64
    public var action: ActionKey
    /// `state`, `availability`, `gateway` or `active`.
    public var role: String
    public var topic: String
    public var payloadExcerpt: String
    public var verdict: MessageVerdict
}

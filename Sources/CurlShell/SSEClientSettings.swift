/// How `SSEClient` connects and reconnects.
public struct SSEClientSettings: Sendable {
    public var url: String
    /// Extra request headers (the token goes here; never logged or in error text).
    public var headers: [HTTPHeader]
    public var connectTimeoutMs: Int
    /// A connection that delivers no byte for this long is treated as dead.
    public var deadConnectionTimeoutMs: Int
    /// The reconnection delay until the server sends `retry:`.
    public var initialRetryDelayMs: Int
    /// Cap of the backoff after consecutive failures.
    public var maxRetryDelayMs: Int
    /// Larger events are skipped and reported as `.invalidEvent`.
    public var maxEventBytes: Int
    public var caFile: String?
    /// Sent as `Last-Event-ID` on the first connection (e.g. restored after a restart).
    public var initialLastEventId: String

    public init(
        url: String,
        headers: [HTTPHeader] = [],
        connectTimeoutMs: Int = 10_000,
        deadConnectionTimeoutMs: Int = 45_000,
        initialRetryDelayMs: Int = 1_000,
        maxRetryDelayMs: Int = 30_000,
        maxEventBytes: Int = 65_536,
        caFile: String? = nil,
        initialLastEventId: String = ""
    ) {
        self.url = url
        self.headers = headers
        self.connectTimeoutMs = connectTimeoutMs
        self.deadConnectionTimeoutMs = deadConnectionTimeoutMs
        self.initialRetryDelayMs = initialRetryDelayMs
        self.maxRetryDelayMs = maxRetryDelayMs
        self.maxEventBytes = maxEventBytes
        self.caFile = caFile
        self.initialLastEventId = initialLastEventId
    }
}

/// What `SSEClient` reports to its owner.
public enum SSEClientEvent: Sendable, Equatable {
    /// The stream is open (status 200, `text/event-stream`); `dateHeader` is the
    /// response's `Date` (the server's clock), if any.
    case connected(dateHeader: String?)
    case event(SSEEvent)
    /// The stream ended or could not be opened; the next attempt is in `retryDelayMs`.
    case disconnected(reason: String, retryDelayMs: Int)
    /// Something on the stream was skipped (e.g. an event over the size cap).
    case invalidEvent(reason: String)
}

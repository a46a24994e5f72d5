import BridgeCore
import ShellSupport
/// How `SSEClient` connects and reconnects.
public struct SSEClientSettings: Sendable {
    public var url: String
    /// Extra request headers (e.g. the `Authorization` token).
    public var headers: [(name: String, value: String)]
    public var caFile: String?
    /// The proxies, read from the environment when the settings are made (once, not per connection).
    public var proxy = ProxySettings.fromProcessEnvironment()
    /// Looks the stream's host up off the loop (libcurl never resolves a name itself).
    public var resolver = NameResolver.shared
    public var connectTimeoutMs: Int = 10_000
    /// A stream that sends no byte for this long is dead (the server sends a
    /// comment at least every 15 s).
    public var deadConnectionTimeoutMs: Int = 45_000
    /// The reconnect delay until the server sends `retry:`.
    public var initialReconnectDelayMs: Int = 1_000
    /// Consecutive failures double the delay up to this.
    public var maxReconnectDelayMs: Int = 30_000
    public var maxEventBytes: Int = 64 * 1024
    /// The monotonic clock a connection's age and silence and the reconnect waits are
    /// read on: the loop's (`system`), or a test's simulated one.
    public var clock = BoardClock.system
    /// Seeds the reconnect delays' jitter (a simulation passes its own, to replay it).
    public var jitterSeed = UInt64.random(in: 0...UInt64.max)

    public init(url: String, headers: [(name: String, value: String)] = [], caFile: String? = nil) {
        self.url = url
        self.headers = headers
        self.caFile = caFile
    }
}

/// What the event stream reports to its owner (on the loop's thread).
public enum SSEClientEvent: Sendable, Equatable {
    /// The stream is open; the response's `Date` header, if any.
    case connected(dateHeader: String?)
    case event(StreamEvent)
    /// The stream ended or could not open; it will reconnect after a delay.
    /// `refusedStatus`: the HTTP status of a refused stream (401: the token), or nil.
    case disconnected(reason: String, refusedStatus: Int?)
    /// An event was skipped (too large).
    case invalidEvent(reason: String)
}

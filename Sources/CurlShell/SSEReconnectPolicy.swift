import BridgeCore
import CCurl

/// When the event stream reconnects: the server's `retry:` clamped to
/// `minRetryMs...maxRetryMs` (so `retry: 0` cannot hot-loop and a huge one
/// cannot stop the stream for ever), doubled per consecutive failure up to the
/// cap, the upper half jittered: the bridge's one `Backoff`. Overflow-safe for any input.
public enum SSEReconnectPolicy {
    public static let minRetryMs = 500
    public static let maxRetryMs = 300_000
    /// A stream that closed sooner than this was not healthy, whatever it sent
    /// (`retry: 1`, one event and a hang-up must not reconnect for ever at the
    /// server's pace): the next reconnect backs off instead of starting over.
    public static let minHealthyStreamMs: Int64 = 10_000

    /// A refused token (HTTP 401 or 403) will not fix itself in a second: the next
    /// reconnect waits as after this many failures (1 s doubled five times: the cap).
    public static let tokenRefusalFailures = 5

    /// Whether an HTTP status refuses the token.
    public static func refusesToken(_ status: Int) -> Bool { status == 401 || status == 403 }

    /// The server's `retry:` value as the bridge honours it.
    public static func clampedRetryMs(_ serverRetryMs: Int) -> Int {
        min(max(serverRetryMs, minRetryMs), maxRetryMs)
    }

    /// The backoff from the server's `retry:` (clamped) up to `capMs` (at most `maxRetryMs`).
    public static func backoff(retryMs: Int, capMs: Int) -> Backoff {
        Backoff(initialMs: Int64(clampedRetryMs(retryMs)), capMs: Int64(min(capMs, maxRetryMs)))
    }

    /// The delay before the next connect after `failures` consecutive failures
    /// (0 after a healthy stream); `random` draws the jitter.
    public static func delayMs<Random: RandomNumberGenerator>(retryMs: Int, failures: Int, capMs: Int,
                                                              using random: inout Random) -> Int {
        Int(backoff(retryMs: retryMs, capMs: capMs).delayMs(retry: failures, using: &random))
    }

    /// Whether a finished connection counts as healthy (resets the backoff): open
    /// for at least `minHealthyStreamMs`, and not found dead without an event.
    public static func wasHealthy(opened: Bool, eventCount: Int, openMs: Int64, died: Bool) -> Bool {
        opened && openMs >= minHealthyStreamMs && (eventCount > 0 || !died)
    }
}

/// How one connection of the event stream ended, or why none opened: what
/// `SSEReconnectSchedule` decides the next connect from.
struct SSEConnectionOutcome {
    var reason: String
    /// The connection's last `retry:`, if it sent one.
    var retryMs: Int?
    var wasHealthy: Bool
    /// The HTTP status of a refused stream.
    var refusedStatus: Int? = nil

    /// No connection opened (a lookup, a libcurl setup failure).
    init(notOpened reason: String) {
        self.reason = reason
        wasHealthy = false
    }

    /// `connection` ended with `code` at monotonic `nowMs` (closed, refused, failed or found dead).
    init(ended connection: SSEConnection, code: CURLcode, nowMs: Int64) {
        let openMs = connection.openedAtMs.map { nowMs - $0 } ?? 0
        wasHealthy = SSEReconnectPolicy.wasHealthy(
            opened: connection.isOpen, eventCount: connection.eventCount, openMs: openMs, died: connection.isDead)
        refusedStatus = connection.refusal != nil && connection.status != 200 ? connection.status : nil
        retryMs = connection.retryMs
        reason = Self.reason(code, connection)
    }

    private static func reason(_ code: CURLcode, _ connection: SSEConnection) -> String {
        if let refusal = connection.refusal { return "stream refused: \(refusal)" }
        if connection.isDead { return "no byte for \(connection.deadConnectionTimeoutMs / 1000) s: connection dead" }
        if code == CURLE_OK { return "stream closed by the server" }
        return CurlError("event stream", code).description
    }
}

/// The event stream's reconnects, connection after connection: the server's
/// latest `retry:` (clamped), the consecutive failures (a healthy stream resets
/// them, a refused token raises them to the longest backoff) and the jitter.
/// `SSEClient` asks it each time a connection ends or cannot open; on no clock
/// of its own, so a test plays a hostile server's connections through it on a
/// simulated one.
struct SSEReconnectSchedule {
    private var retryMs: Int
    private var failures = 0
    private var jitter: SplitMix64
    private let capMs: Int

    init(settings: SSEClientSettings) {
        retryMs = settings.initialReconnectDelayMs
        jitter = SplitMix64(seed: settings.jitterSeed)
        capMs = settings.maxReconnectDelayMs
    }

    /// The delay before the next connect after `outcome`.
    mutating func delayMs(after outcome: SSEConnectionOutcome) -> Int {
        if let serverRetryMs = outcome.retryMs { retryMs = SSEReconnectPolicy.clampedRetryMs(serverRetryMs) }
        failures = outcome.wasHealthy ? 0 : min(failures + 1, 64)
        if let status = outcome.refusedStatus, SSEReconnectPolicy.refusesToken(status) {
            failures = max(failures, SSEReconnectPolicy.tokenRefusalFailures)
        }
        return SSEReconnectPolicy.delayMs(retryMs: retryMs, failures: failures, capMs: capMs, using: &jitter)
    }
}

import BridgeCore

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

import BridgeCore

/// The MQTT client's waits before it connects again, connection after connection.
/// After a failed attempt or a lost connection, the reconnect backoff
/// (`reconnectDelayMinMs` doubled per consecutive failure, up to
/// `reconnectDelayMaxMs`): a connection the broker ends within
/// `stableConnectionMs` counts as a failed attempt, a longer one starts the count
/// over. After a fatal error or a refused CONNECT, the fatal backoff
/// (`fatalRetryDelayMs` doubled per fatal error, up to
/// `MQTTSettings.maxFatalRetryDelayMs`; a connection that stayed up a minute starts it over). Both are the bridge's one `Backoff`,
/// jittered from `MQTTSettings.jitterSeed`. On no clock of its own: the client
/// hands it the loop's time, so a test plays a hostile broker's connections
/// through the client on a simulated clock.
struct MQTTReconnectSchedule {
    /// A connection that lasts this long resets the backoff; one the broker ends sooner
    /// counts as a failed attempt (a broker accepting then dropping every connection
    /// was otherwise reconnected to every `reconnectDelayMinMs`, forever). The same
    /// second as the daemon's quick drop (`ClientIdConflictDetector.quickDropMs`): two
    /// bridges with one client id kick each other, and the one backing off is dropped
    /// within it each time (the other reconnects at once), so it still says so.
    static let stableConnectionMs: Int64 = 1_000

    /// Between failed attempts and lost connections.
    let reconnectBackoff: Backoff
    /// Before a client is recreated after a fatal error or a refusal.
    let fatalBackoff: Backoff
    /// Consecutive failed attempts (short connections among them).
    private var failedAttempts = 0
    /// Consecutive connections the broker ended within `stableConnectionMs`.
    private var shortConnections = 0
    /// When the current connection was accepted (monotonic ms), nil when none is.
    private var connectedAtMs: Int64?
    /// Fatal errors since the last connection that stayed up `fatalResetConnectionMs`.
    private var fatalFailures = 0
    private var jitter: SplitMix64

    init(settings: MQTTSettings) {
        reconnectBackoff = Backoff(initialMs: Int64(settings.reconnectDelayMinMs), capMs: Int64(settings.reconnectDelayMaxMs))
        fatalBackoff = Backoff(initialMs: Int64(settings.fatalRetryDelayMs),
                               capMs: Int64(max(settings.fatalRetryDelayMs, MQTTSettings.maxFatalRetryDelayMs)))
        jitter = SplitMix64(seed: settings.jitterSeed)
    }

    /// The broker accepted a connection (its CONNACK) at monotonic `nowMs`.
    mutating func connected(atMs nowMs: Int64) {
        failedAttempts = 0
        connectedAtMs = nowMs
    }

    /// A connection that stayed up this long ends the run of fatal errors (a failed
    /// name lookup, a TLS error, a refused CONNECT, a protocol error): without it, a
    /// few DNS blips over months left the next one waiting minutes. Longer than
    /// `stableConnectionMs`, so that a broker that accepts and then breaks the
    /// protocol every time is still retried at the fatal backoff's pace.
    static let fatalResetConnectionMs: Int64 = 60_000

    /// The connection, if any, ended at monotonic `nowMs` (lost, or by a fatal
    /// error): one that lasted `fatalResetConnectionMs` starts the fatal count over.
    /// Call before `forgetConnection` when a fatal error ends it.
    mutating func connectionEnded(atMs nowMs: Int64) {
        if let connectedAtMs, nowMs - connectedAtMs >= Self.fatalResetConnectionMs { fatalFailures = 0 }
    }

    /// The handle's life ended otherwise (a stop, a fatal error, a fallback): its
    /// connection, if any, is forgotten uncounted.
    mutating func forgetConnection() {
        connectedAtMs = nil
    }

    /// The wait before the next attempt after an attempt failed or the connection was
    /// lost at monotonic `nowMs`.
    mutating func reconnectDelayMs(afterEndAtMs nowMs: Int64) -> Int64 {
        connectionEnded(atMs: nowMs)
        if let connectedAtMs {
            self.connectedAtMs = nil
            let isShort = nowMs - connectedAtMs < Self.stableConnectionMs
            shortConnections = isShort ? min(shortConnections + 1, 64) : 0
            failedAttempts = max(failedAttempts, shortConnections)
        }
        let retry = failedAttempts
        failedAttempts = min(retry + 1, 64)
        return reconnectBackoff.delayMs(retry: retry, using: &jitter)
    }

    /// The wait before recreating the client after a fatal error or a refusal.
    mutating func fatalDelayMs() -> Int64 {
        let retry = fatalFailures
        fatalFailures = min(retry + 1, 64)
        return fatalBackoff.delayMs(retry: retry, using: &jitter)
    }
}

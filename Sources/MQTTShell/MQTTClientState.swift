/// What the caller's threads and the loop thread share about one `MQTTClient`.
struct MQTTClientState {
    var isStarted = false
    var isStopping = false
    var isConnected = false
    /// Topics to be subscribed on every connect.
    var subscriptions: Set<String> = []
    /// Consecutive failed connection attempts, for the backoff.
    var failedAttempts = 0
    /// Set by the connect callback when the broker refused the connection.
    var connectRefusal: String?
    /// The reason last reported as `disconnected`, to report each change once.
    var lastReportedReason: String?
    /// Message id of the offline status published by `stop()`, and whether it was acked.
    var offlineMessageId: Int32?
    var isOfflineAcknowledged = false
}

/// What the loop's watchers need after every batch of work: a few facts, cheap
/// to take. Its one reader: `DaemonSupervisor.afterBatch` (systemd's STATUS=,
/// the watchdog). The whole `BridgeSnapshot` (every
/// action's state, facts and publishers) is built only when a status client asks
/// (`BridgeRuntime.statusSnapshot()`), never after every batch: a snapshot kept
/// between batches would make the core copy its dictionaries on its next change.
public struct BatchSummary: Sendable, Equatable {
    public var isMQTTConnected: Bool
    public var isEventStreamConnected: Bool
    /// "token refused by the service (HTTP 401)" while it is (only looked up
    /// while the stream is down), else nil.
    public var tokenRefusedPhrase: String?
    /// The actions of every widget of the running config.
    public var actionCount: Int
    /// Server clock minus the board's wall clock, now (0 before any `Date`).
    public var serverClockOffsetMs: Int64

    public init(isMQTTConnected: Bool, isEventStreamConnected: Bool, tokenRefusedPhrase: String?,
                actionCount: Int, serverClockOffsetMs: Int64) {
        self.isMQTTConnected = isMQTTConnected
        self.isEventStreamConnected = isEventStreamConnected
        self.tokenRefusedPhrase = tokenRefusedPhrase
        self.actionCount = actionCount
        self.serverClockOffsetMs = serverClockOffsetMs
    }
}

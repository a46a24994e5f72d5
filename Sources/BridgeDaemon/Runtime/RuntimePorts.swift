import BridgeCore

/// What the runtime drives: the shells, as closures, so the one composition
/// root (`Daemon`) wires real ones and nothing else needs to know them.
public struct RuntimePorts: Sendable {
    public var publishMQTT: @Sendable (OutgoingMQTTMessage) throws -> Void
    /// The whole set of topics to subscribe to, distinct by bytes.
    public var setSubscriptions: @Sendable ([String]) throws -> Void
    /// Sends a PATCH; calls back (on any thread) exactly once when it is done.
    public var sendPatch: @Sendable (PatchRequest, @escaping @Sendable (PatchOutcome) -> Void) -> Void
    /// Where the ids of presses not safe to repeat are recorded before their commands go out.
    public var unsafeEventRecorder: any UnsafeEventRecorder
    /// Reads and validates the config file again (SIGHUP); nil when it is bad
    /// (the errors are reported by the closure).
    public var reloadConfig: @Sendable () -> BridgeConfig?
    /// Logs a message; the sink rate-limits by its kind.
    public var log: @Sendable (BridgeLogLevel, LogMessage) -> Void
    /// One fact of the core, as it is performed, on the runtime's thread.
    public var observe: @Sendable (BridgeObservation) -> Void
    /// A press's command went out this many microseconds after the stream
    /// delivered it (event id, latency), on the runtime's thread.
    public var pressReachedMQTT: @Sendable (String, Int64) -> Void
    /// Called when a batch of work begins, on the loop thread, after the wait
    /// (the log holds its lines until `afterBatch`).
    public var beforeBatch: @Sendable () -> Void
    /// Called after each batch of work, on the loop thread, before the loop
    /// waits again (watchdog, STATUS=, the log's held lines).
    public var afterBatch: @Sendable (BatchSummary) -> Void
    /// Opens Aivi's event stream (when the core says: once MQTT is up, or after a wait).
    public var openEventStream: @Sendable () -> Void

    public init(
        publishMQTT: @escaping @Sendable (OutgoingMQTTMessage) throws -> Void,
        setSubscriptions: @escaping @Sendable ([String]) throws -> Void,
        sendPatch: @escaping @Sendable (PatchRequest, @escaping @Sendable (PatchOutcome) -> Void) -> Void,
        unsafeEventRecorder: any UnsafeEventRecorder,
        reloadConfig: @escaping @Sendable () -> BridgeConfig?,
        log: @escaping @Sendable (BridgeLogLevel, LogMessage) -> Void,
        observe: @escaping @Sendable (BridgeObservation) -> Void = { _ in },
        pressReachedMQTT: @escaping @Sendable (String, Int64) -> Void = { _, _ in },
        beforeBatch: @escaping @Sendable () -> Void = {},
        afterBatch: @escaping @Sendable (BatchSummary) -> Void = { _ in },
        openEventStream: @escaping @Sendable () -> Void = {}
    ) {
        self.publishMQTT = publishMQTT
        self.setSubscriptions = setSubscriptions
        self.sendPatch = sendPatch
        self.unsafeEventRecorder = unsafeEventRecorder
        self.reloadConfig = reloadConfig
        self.log = log
        self.observe = observe
        self.pressReachedMQTT = pressReachedMQTT
        self.beforeBatch = beforeBatch
        self.afterBatch = afterBatch
        self.openEventStream = openEventStream
    }
}

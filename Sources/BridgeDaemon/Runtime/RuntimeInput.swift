import BridgeCore

/// What the shells hand to the runtime's loop.
public enum RuntimeInput: Sendable {
    /// An input for the core (the runtime adds the clocks).
    case core(BridgeInputEvent)
    /// A press event from the stream, with when the shell received it
    /// (monotonic microseconds), so its way to MQTT can be timed.
    case streamEvent(StreamEvent, receivedAtUs: Int64)
    /// The event stream connected; its response's `Date` header, if any, and
    /// when it was received (monotonic milliseconds, taken on the loop's thread as the stream delivered it).
    case eventStreamConnected(dateHeader: String?, receivedAtMonotonicMs: Int64)
    /// The recorder finished, later, the record of an unsafe press (`EffectExecutor`).
    case unsafeRecordFinished(ticket: UInt64, RecordOutcome)
    /// SIGHUP: read the config file again.
    case reloadRequested
    /// SIGTERM/SIGINT: stop taking presses, finish up, return from `run()`.
    case stopRequested
}
